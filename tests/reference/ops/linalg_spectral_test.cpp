// Hand-worked values for the spectral linalg ops (eigh, eigvalsh): every expected number below was
// computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::values;

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

Attrs uplo(const std::string& which) { return {{"UPLO", which}}; }

void expect_eigh_error(const Tensor& a, const Attrs& attrs, ErrorKind kind, const std::string& fragment) {
  for (const char* op : {"eigh", "eigvalsh"}) {
    try {
      call(op, {a}, attrs);
      ADD_FAILURE() << "expected a " << error_kind_name(kind) << " error from " << op;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      EXPECT_THAT(e.what(), HasSubstr(fragment));
    }
  }
}

TEST(LinalgEigh, ReadsOnlyTheUploTriangle) {
  const Tensor a = from_values({2, 9, 1, 2}, {2, 2});
  // L reads [[2, 1], [1, 2]]: eigenvalues 1 and 3; U reads [[2, 9], [9, 2]]: -7 and 11.
  EXPECT_THAT(values(call_one("eigvalsh", {a})), ElementsAre(DoubleNear(1, 1e-15), DoubleNear(3, 1e-15)));
  EXPECT_THAT(values(call_one("eigvalsh", {a}, uplo("U"))), ElementsAre(DoubleNear(-7, 1e-14), DoubleNear(11, 1e-14)));
}

TEST(LinalgEigh, SortsEigenvaluesAscendingAndSignsEachEigenvector) {
  // diag(2, 1): eigenvalue 1 has eigenvector e1 = (0, 1), eigenvalue 2 has e0, each with its largest
  // entry positive.
  const TensorList r = call("eigh", {from_values({2, 0, 0, 1}, {2, 2})});
  EXPECT_THAT(values(r[0]), ElementsAre(1, 2));
  EXPECT_THAT(values(r[1]), ElementsAre(0, 1, 1, 0));
  // [[2, 1], [1, 2]]: eigenvalue 1 with (1, -1)/√2, 3 with (1, 1)/√2; the first entry is positive on the tie.
  const TensorList s = call("eigh", {from_values({2, 1, 1, 2}, {2, 2})});
  const double h = 1 / std::sqrt(2.0);
  EXPECT_THAT(values(s[0]), ElementsAre(DoubleNear(1, 1e-15), DoubleNear(3, 1e-15)));
  EXPECT_THAT(values(s[1]),
              ElementsAre(DoubleNear(h, 1e-15), DoubleNear(h, 1e-15), DoubleNear(-h, 1e-15), DoubleNear(h, 1e-15)));
}

TEST(LinalgEigh, EmptyAndOneByOne) {
  const TensorList empty = call("eigh", {Tensor::empty({2, 0, 0}, DType::Float64)});
  EXPECT_EQ(empty[0].shape(), (Shape{2, 0}));
  EXPECT_EQ(empty[1].shape(), (Shape{2, 0, 0}));
  const TensorList one = call("eigh", {from_values({-3}, {1, 1})});
  EXPECT_THAT(values(one[0]), ElementsAre(-3));
  EXPECT_THAT(values(one[1]), ElementsAre(1));
}

TEST(LinalgEigh, RefusesWhatPyTorchRefuses) {
  expect_eigh_error(Tensor::empty({2, 3}, DType::Float64), {}, ErrorKind::ShapeMismatch, "square");
  expect_eigh_error(Tensor::empty({3}, DType::Float64), {}, ErrorKind::ShapeMismatch, "matrix");
  expect_eigh_error(Tensor::empty({2, 2}, DType::Int64), {}, ErrorKind::DtypeNotSupported, "int64");
  expect_eigh_error(Tensor::empty({2, 2}, DType::Float64), uplo("X"), ErrorKind::InvalidArgument, "UPLO");
}

// dw = diag(Vᵀ dS V): at diag(1, 2) (V = I) a tangent E moves the eigenvalues by E_00 and E_11, the
// eigenvectors by V (F ∘ W) with F_01 = 1/(2 − 1) = 1 and F_10 = −1: dV = [[0, E_10], [−E_10, 0]],
// E_10 standing for both off-diagonal entries of dS = T(E).
TEST(LinalgEigh, ForwardDerivativeAtDistinctEigenvalues) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const TensorList r = call("eigh", {args[0].tensor()});
    return PyTree::tuple({PyTree(r[0]), PyTree(r[1])});
  };
  const Tensor a = from_values({1, 0, 0, 2}, {2, 2});
  const Tensor e = from_values({0.5, 7, 3, -1}, {2, 2});  // the upper 7 is never read (UPLO='L')
  const transforms::JvpResult pushed = transforms::jvp(f, {PyTree(a)}, {PyTree(e)});
  EXPECT_THAT(values(pushed.tangent.children()[0].tensor()), ElementsAre(0.5, -1));
  EXPECT_THAT(values(pushed.tangent.children()[1].tensor()), ElementsAre(0, 3, -3, 0));
}

// At a repeated eigenvalue the eigenvector derivative is infinite or NaN, as PyTorch's (OPS-4.4),
// and eigvalsh's stays finite: sum(eigvalsh(A)) = trace(A) has the gradient I at A = I.
TEST(LinalgEigh, RepeatedEigenvalues) {
  const Tensor identity = from_values({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3});
  const PyFunction vectors = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call("eigh", {args[0].tensor()})[1]));
  };
  const Tensor g = grad(vectors)({PyTree(identity)}).tensor();
  bool non_finite = false;
  for (double v : values(g)) non_finite = non_finite || !std::isfinite(v);
  EXPECT_TRUE(non_finite);
  const PyFunction eigenvalues = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call_one("eigvalsh", {args[0].tensor()})));
  };
  EXPECT_THAT(values(grad(eigenvalues)({PyTree(identity)}).tensor()), ElementsAre(1, 0, 0, 0, 1, 0, 0, 0, 1));
  const PyFunction weighted = [](const std::vector<PyTree>& args) {
    const Tensor w = call_one("eigvalsh", {args[0].tensor()});
    return PyTree(ops::sum(ops::mul(w, from_values({1, 2, 3}, {3}))));
  };
  for (double v : values(grad(weighted)({PyTree(from_values({2, 0, 0, 0, 2, 0, 0, 0, 5}, {3, 3}))}).tensor()))
    EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace funcspec
