// Hand-worked values for qr and householder_product: every expected number below was computed by
// hand (the reflector of a column (α, x) is v = (1, x/(α − β)), τ = (β − α)/β, β = −sign(α)·|(α, x)|).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"

namespace funcspec {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Pointwise;
using testing_support::expect_derivatives_consistent;
using testing_support::expect_op_error;
using testing_support::values;
using transforms::PyFunction;
using transforms::PyTree;

Attrs mode(const std::string& name) { return {{"mode", name}}; }

std::vector<double> near(std::initializer_list<double> v) { return v; }

// ---------------------------------------------------------------------------------------------
// qr

// [[3, 1], [4, 2]]: column 0 is (3, 4), β = −5, τ = 8/5, v = (1, 1/2), so H = Q = [[−0.6, −0.8],
// [−0.8, 0.6]] and R = H·A = [[−5, −2.2], [0, 0.4]]; the last column's reflector is the identity.
// R's diagonal is not made positive (LAPACK's choice, OPS-10.1).
TEST(LinalgQr, HouseholderReflectionsWithLapacksSigns) {
  const TensorList r = call("qr", {from_values({3, 1, 4, 2}, {2, 2})});
  EXPECT_THAT(values(r[0]), Pointwise(DoubleNear(1e-15), near({-0.6, -0.8, -0.8, 0.6})));
  EXPECT_THAT(values(r[1]), Pointwise(DoubleNear(1e-15), near({-5, -2.2, 0, 0.4})));
}

// [[0], [3], [4]]: α = 0 counts as positive, β = −5, τ = 1, v = (1, 0.6, 0.8), H = I − v·vᵀ.
TEST(LinalgQr, ModesShapeTheResults) {
  const Tensor a = from_values({0, 3, 4}, {3, 1});
  const TensorList reduced = call("qr", {a});
  EXPECT_EQ(reduced[0].shape(), (Shape{3, 1}));
  EXPECT_THAT(values(reduced[0]), Pointwise(DoubleNear(1e-15), near({0, -0.6, -0.8})));
  EXPECT_THAT(values(reduced[1]), Pointwise(DoubleNear(1e-15), near({-5})));
  const TensorList complete = call("qr", {a}, mode("complete"));
  EXPECT_THAT(values(complete[0]),
              Pointwise(DoubleNear(1e-15), near({0, -0.6, -0.8, -0.6, 0.64, -0.48, -0.8, -0.48, 0.36})));
  EXPECT_THAT(values(complete[1]), Pointwise(DoubleNear(1e-15), near({-5, 0, 0})));
  // Mode 'r': Q is the empty [0] tensor whatever A's batch dims, as PyTorch's.
  const TensorList r_only = call("qr", {from_values({0, 3, 4, 0, 3, 4}, {2, 3, 1})}, mode("r"));
  EXPECT_EQ(r_only[0].shape(), (Shape{0}));
  EXPECT_EQ(r_only[1].shape(), (Shape{2, 1, 1}));
  EXPECT_THAT(values(r_only[1]), Pointwise(DoubleNear(1e-15), near({-5, -5})));
}

// No reflector of an m×0 matrix: Q of mode 'complete' is the identity, and empty batches stay empty.
TEST(LinalgQr, EmptyInputs) {
  const TensorList tall = call("qr", {Tensor::empty({2, 0}, DType::Float64)}, mode("complete"));
  EXPECT_THAT(values(tall[0]), ElementsAre(1, 0, 0, 1));
  EXPECT_EQ(tall[1].shape(), (Shape{2, 0}));
  const TensorList batch = call("qr", {Tensor::empty({0, 3, 2}, DType::Float64)});
  EXPECT_EQ(batch[0].shape(), (Shape{0, 3, 2}));
  EXPECT_EQ(batch[1].shape(), (Shape{0, 2, 2}));
  // A zero column below the diagonal needs no reflection (τ = 0), whatever the sign of its top.
  const TensorList kept = call("qr", {from_values({-2, 1, 0, 3}, {2, 2})});
  EXPECT_THAT(values(kept[0]), ElementsAre(1, 0, 0, 1));
  EXPECT_THAT(values(kept[1]), ElementsAre(-2, 1, 0, 3));
}

TEST(LinalgQr, VmapOfModeRKeepsTheEmptyQ) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const TensorList r = call("qr", {args[0].tensor()}, mode("r"));
    return PyTree::tuple({PyTree(r[0]), PyTree(r[1])});
  };
  const PyTree out = transforms::vmap(f)({PyTree(from_values({0, 3, 4, 3, 4, 0}, {2, 3, 1}))});
  EXPECT_EQ(out.children()[0].tensor().shape(), (Shape{2, 0}));
  EXPECT_THAT(values(out.children()[1].tensor()), Pointwise(DoubleNear(1e-15), near({-5, -5})));
}

TEST(LinalgQr, RefusesWhatPyTorchRefuses) {
  expect_op_error("qr", {Tensor::empty({3}, DType::Float64)}, {}, ErrorKind::ShapeMismatch, "matrix");
  expect_op_error("qr", {Tensor::empty({2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "int64");
  expect_op_error("qr", {Tensor::empty({2, 2}, DType::Float64)}, mode("full"), ErrorKind::InvalidArgument, "mode");
}

TensorList qr_jvp(const Tensor& a, const Tensor& tangent, const std::string& which) {
  const PyFunction f = [which](const std::vector<PyTree>& args) {
    const TensorList r = call("qr", {args[0].tensor()}, mode(which));
    return PyTree::tuple({PyTree(r[0]), PyTree(r[1])});
  };
  const transforms::JvpResult pushed = transforms::jvp(f, {PyTree(a)}, {PyTree(tangent)});
  return {pushed.tangent.children()[0].tensor(), pushed.tangent.children()[1].tensor()};
}

// At A = I (Q = R = I), X = Qᵀ·E·R⁻¹ = E: dR = Ψ(E + Eᵀ) = [[E00, E01 + E10], [0, E11]] and
// dQ = E − Ψ(E + Eᵀ) = [[0, −E10], [E10, 0]], so that dQ + dR = E.
TEST(LinalgQr, ForwardDerivativeOfASquareFactorization) {
  const TensorList t = qr_jvp(from_values({1, 0, 0, 1}, {2, 2}), from_values({1, 2, 3, 4}, {2, 2}), "reduced");
  EXPECT_THAT(values(t[0]), Pointwise(DoubleNear(1e-15), near({0, -3, 3, 0})));
  EXPECT_THAT(values(t[1]), Pointwise(DoubleNear(1e-15), near({1, 5, 0, 4})));
}

// A = [[1, 0, 5], [0, 1, 6]] (Q = I, R = A): X = E₁ (R₁ = I), L = tril(X, −1), S = L − Lᵀ =
// [[0, −4], [4, 0]] for E = [[1, 2, 3], [4, 5, 6]]; dQ = S and dR = E − S·R = [[1, 6, 27], [0, 5, −14]].
TEST(LinalgQr, ForwardDerivativeWithMoreColumnsThanRows) {
  const Tensor a = from_values({1, 0, 5, 0, 1, 6}, {2, 3});
  const Tensor e = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  for (const char* which : {"reduced", "complete"}) {
    const TensorList t = qr_jvp(a, e, which);
    EXPECT_THAT(values(t[0]), Pointwise(DoubleNear(1e-14), near({0, -4, 4, 0})));
    EXPECT_THAT(values(t[1]), Pointwise(DoubleNear(1e-14), near({1, 6, 27, 0, 5, -14})));
  }
}

TEST(LinalgQr, DerivativesAreConsistent) {
  expect_derivatives_consistent("qr", {from_values({2, 0.5, -0.3, 0.2, -3, 0.4, 0.1, 0.3, 2.5}, {3, 3})});
  expect_derivatives_consistent("qr", {from_values({2, 0.5, -0.3, -3, 0.1, 0.3, 0.2, 0.4}, {4, 2})});
  expect_derivatives_consistent("qr", {from_values({2, 0.5, -0.3, 0.2, -3, 0.4}, {2, 3})});
}

// PyTorch's two refusals (OPS-10.3): mode 'r' has no Q to differentiate with, and the last m − n
// columns of Q in mode 'complete' are not a function of A.
TEST(LinalgQr, DerivativesThatRaise) {
  const auto expect_raises = [](const Tensor& a, const std::string& which, const std::string& fragment) {
    try {
      qr_jvp(a, ops::ones_like(a), which);
      ADD_FAILURE() << "expected invalid_argument from the derivative of qr with mode=" << which;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument) << e.what();
      EXPECT_THAT(e.what(), ::testing::HasSubstr(fragment));
    }
  };
  expect_raises(from_values({1, 0, 0, 1}, {2, 2}), "r", "mode='r'");
  expect_raises(from_values({1, 0, 0, 1, 0, 0}, {3, 2}), "complete", "not differentiable");
  // Square or wide, mode 'complete' is mode 'reduced' and differentiates.
  EXPECT_EQ(qr_jvp(from_values({1, 0, 0, 1}, {2, 2}), from_values({1, 2, 3, 4}, {2, 2}), "complete")[1].shape(),
            (Shape{2, 2}));
}

// ---------------------------------------------------------------------------------------------
// householder_product

// v = (1, 3, 4), |v|² = 26: τ = 2/26 makes H = I − τ·v·vᵀ a reflection, whose first column is
// e0 − (2/26)·v = (12/13, −3/13, −4/13); τ = 0 makes it the identity.
TEST(LinalgHouseholderProduct, AReflectionAndTheIdentity) {
  const Tensor a = from_values({7, 3, 4}, {3, 1});  // the diagonal's 7 is never read
  EXPECT_THAT(values(call_one("householder_product", {a, from_values({2.0 / 26}, {1})})),
              Pointwise(DoubleNear(1e-15), near({12.0 / 13, -3.0 / 13, -4.0 / 13})));
  EXPECT_THAT(values(call_one("householder_product", {a, from_values({0}, {1})})), ElementsAre(1, 0, 0));
  EXPECT_THAT(values(call_one("householder_product", {a, Tensor::empty({0}, DType::Float64)})), ElementsAre(1, 0, 0));
}

// qr's example above, packed as geqrf packs it: R on and above the diagonal, v's tail (1/2) below,
// τ = (8/5, 0); the product of the reflectors is qr's Q.
TEST(LinalgHouseholderProduct, RebuildsQFromGeqrfsFactors) {
  const Tensor packed = from_values({-5, -2.2, 0.5, 0.4}, {2, 2});
  EXPECT_THAT(values(call_one("householder_product", {packed, from_values({1.6, 0}, {2})})),
              Pointwise(DoubleNear(1e-15), near({-0.6, -0.8, -0.8, 0.6})));
}

TEST(LinalgHouseholderProduct, DerivativesAreConsistent) {
  expect_derivatives_consistent("householder_product",
                                {from_values({1, 0.5, -0.3, 2, 0.7, -1.2}, {3, 2}), from_values({0.4, 1.3}, {2})});
}

TEST(LinalgHouseholderProduct, RefusesWhatPyTorchRefuses) {
  const auto f64 = [](const Shape& shape) { return ops::zeros(shape, DType::Float64); };
  expect_op_error("householder_product", {f64({2, 3}), f64({2})}, {}, ErrorKind::ShapeMismatch, "rows");
  expect_op_error("householder_product", {f64({3, 2}), f64({3})}, {}, ErrorKind::ShapeMismatch, "reflectors");
  expect_op_error("householder_product", {f64({2, 3, 2}), f64({3, 2})}, {}, ErrorKind::ShapeMismatch, "batch");
  expect_op_error("householder_product", {f64({3, 2}), f64({1, 2})}, {}, ErrorKind::ShapeMismatch, "one dim less");
  expect_op_error("householder_product", {f64({3}), f64({})}, {}, ErrorKind::ShapeMismatch, "matrix");
  expect_op_error("householder_product", {f64({3, 2}), ops::zeros({2}, DType::Float32)}, {},
                  ErrorKind::DtypeNotSupported, "same dtype");
  expect_op_error("householder_product", {ops::zeros({3, 2}, DType::Int64), ops::zeros({2}, DType::Int64)}, {},
                  ErrorKind::DtypeNotSupported, "int64");
}

}  // namespace
}  // namespace funcspec
