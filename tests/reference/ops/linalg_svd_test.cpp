// Hand-worked values for svd: every expected number below was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::expect_same;
using testing_support::values;

using ::testing::ElementsAre;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

Attrs full(bool f) { return {{"full_matrices", f}}; }

TEST(LinalgSvd, DiagonalMatrixKeepsItsAxesAndSignsSingularVectorsJointly) {
  // diag(3, −2): σ = (3, 2); v_1 = e_1 has its largest entry positive, so u_1 = −e_1 carries the sign.
  const TensorList r = call("svd", {from_values({3, 0, 0, -2}, {2, 2})});
  EXPECT_THAT(values(r[0]), ElementsAre(1, 0, 0, -1));
  EXPECT_THAT(values(r[1]), ElementsAre(3, 2));
  EXPECT_THAT(values(r[2]), ElementsAre(1, 0, 0, 1));
}

TEST(LinalgSvd, SortsSingularValuesDescending) {
  // diag(1, 4) ([[1, 0], [0, 4]]): σ = (4, 1), the columns swapped.
  const TensorList r = call("svd", {from_values({1, 0, 0, 4}, {2, 2})});
  EXPECT_THAT(values(r[0]), ElementsAre(0, 1, 1, 0));
  EXPECT_THAT(values(r[1]), ElementsAre(4, 1));
  EXPECT_THAT(values(r[2]), ElementsAre(0, 1, 1, 0));
}

TEST(LinalgSvd, WideMatrixAndItsFullCompletion) {
  // [[3, 4]] = [1]·[5]·[0.6, 0.8]. The full Vh adds the unit vector orthogonal to (0.6, 0.8) grown
  // from e_0 (its residual 1 − 0.36 beats e_1's 1 − 0.64): e_0 − 0.6·(0.6, 0.8) = (0.64, −0.48) → (0.8, −0.6).
  const Tensor a = from_values({3, 4}, {1, 2});
  const TensorList reduced = call("svd", {a}, full(false));
  EXPECT_THAT(values(reduced[0]), ElementsAre(1));
  expect_same(values(reduced[1]), {5}, 1e-15);
  expect_same(values(reduced[2]), {0.6, 0.8}, 1e-15);
  const TensorList complete = call("svd", {a}, full(true));
  EXPECT_EQ(complete[2].shape(), (Shape{2, 2}));
  expect_same(values(complete[2]), {0.6, 0.8, 0.8, -0.6}, 1e-15);
}

TEST(LinalgSvd, ZeroSingularValuesGetACompletedVector) {
  // The 3×1 zero matrix: σ = 0 fixes no u; the completion takes e_0, and the full U is the identity.
  const Tensor zero = from_values({0, 0, 0}, {3, 1});
  const TensorList reduced = call("svd", {zero}, full(false));
  EXPECT_THAT(values(reduced[0]), ElementsAre(1, 0, 0));
  EXPECT_THAT(values(reduced[1]), ElementsAre(0));
  EXPECT_THAT(values(reduced[2]), ElementsAre(1));
  EXPECT_THAT(values(call("svd", {zero})[0]), ElementsAre(1, 0, 0, 0, 1, 0, 0, 0, 1));
}

TEST(LinalgSvd, EmptyInputs) {
  // A 0×3 matrix has no singular values; its full Vh is still a 3×3 orthonormal basis (the identity).
  const TensorList wide = call("svd", {Tensor::empty({0, 3}, DType::Float64)});
  EXPECT_EQ(wide[0].shape(), (Shape{0, 0}));
  EXPECT_EQ(wide[1].shape(), (Shape{0}));
  EXPECT_THAT(values(wide[2]), ElementsAre(1, 0, 0, 0, 1, 0, 0, 0, 1));
  const TensorList batch = call("svd", {Tensor::empty({0, 2, 3}, DType::Float64)}, full(false));
  EXPECT_EQ(batch[0].shape(), (Shape{0, 2, 2}));
  EXPECT_EQ(batch[1].shape(), (Shape{0, 2}));
  EXPECT_EQ(batch[2].shape(), (Shape{0, 2, 3}));
}

TEST(LinalgSvd, RefusesWhatPyTorchRefuses) {
  expect_op_error("svd", {Tensor::empty({3}, DType::Float64)}, {}, ErrorKind::ShapeMismatch, "matrix");
  expect_op_error("svd", {Tensor::empty({2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "int64");
}

PyTree svd_tree(const Tensor& a, bool full_matrices) {
  const TensorList r = call("svd", {a}, full(full_matrices));
  return PyTree::tuple({PyTree(r[0]), PyTree(r[1]), PyTree(r[2])});
}

// At diag(3, 2) (U = V = I) a tangent E gives dP = E, dS = (E_00, E_11), and with F_01 = 1/(2² − 3²) = −1/5:
//   dU_01 = F_01·(2·E_01 + 3·E_10), dU_10 = −dU_01, dVh_01 = −F_01·(3·E_01 + 2·E_10), dVh_10 = −dVh_01.
// E = [[1, 5], [0, 2]]: dU = [[0, −2], [2, 0]], dVh = [[0, 3], [−3, 0]], and dU·S + dS + S·dVh = E.
TEST(LinalgSvd, ForwardDerivativeAtDistinctSingularValues) {
  const PyFunction f = [](const std::vector<PyTree>& args) { return svd_tree(args[0].tensor(), true); };
  const transforms::JvpResult pushed =
      transforms::jvp(f, {PyTree(from_values({3, 0, 0, 2}, {2, 2}))}, {PyTree(from_values({1, 5, 0, 2}, {2, 2}))});
  expect_same(values(pushed.tangent.children()[0].tensor()), {0, -2, 2, 0}, 1e-15);
  expect_same(values(pushed.tangent.children()[1].tensor()), {1, 2}, 1e-15);
  expect_same(values(pushed.tangent.children()[2].tensor()), {0, 3, -3, 0}, 1e-15);
}

// A tall [[2], [0]]: U = [[1], [0]], S = [2], Vh = [[1]]. dA = [[a], [b]] turns u by
// (I − UUᵀ)·dA·V·S⁻¹ = [[0], [b/2]] and moves σ by a; the full U's second column has tangent 0.
TEST(LinalgSvd, ForwardDerivativeOfATallMatrixAndOfItsCompletion) {
  const Tensor a = from_values({2, 0}, {2, 1});
  const Tensor da = from_values({3, 4}, {2, 1});
  for (bool full_matrices : {false, true}) {
    const PyFunction f = [full_matrices](const std::vector<PyTree>& args) {
      return svd_tree(args[0].tensor(), full_matrices);
    };
    const transforms::JvpResult pushed = transforms::jvp(f, {PyTree(a)}, {PyTree(da)});
    expect_same(values(pushed.tangent.children()[0].tensor()),
                full_matrices ? std::vector<double>{0, 0, 2, 0} : std::vector<double>{0, 2}, 1e-15);
    expect_same(values(pushed.tangent.children()[1].tensor()), {3}, 1e-15);
    expect_same(values(pushed.tangent.children()[2].tensor()), {0}, 1e-15);
  }
}

// σ_k = u_kᵀ A v_k, so grad(Σ_k w_k σ_k) = U diag(w) Vh: at diag(3, −2), [[1, 0], [0, −2]] for w = (1, 2).
// The completion's cotangent is ignored: summing the full U's extra column adds nothing.
TEST(LinalgSvd, ReverseDerivatives) {
  const PyFunction weighted = [](const std::vector<PyTree>& args) {
    const Tensor s = call("svd", {args[0].tensor()})[1];
    return PyTree(ops::sum(ops::mul(s, from_values({1, 2}, {2}))));
  };
  expect_same(values(grad(weighted)({PyTree(from_values({3, 0, 0, -2}, {2, 2}))}).tensor()), {1, 0, 0, -2}, 1e-15);
  const PyFunction extra_column = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::narrow(call("svd", {args[0].tensor()})[0], -1, 1, 1)));
  };
  expect_same(values(grad(extra_column)({PyTree(from_values({2, 0}, {2, 1}))}).tensor()), {0, 0}, 0);
}

// At a repeated singular value the singular vectors' derivative is infinite or NaN, as PyTorch's
// (OPS-8.2); the singular values' stays finite: grad(Σ σ) at I is I.
TEST(LinalgSvd, RepeatedSingularValues) {
  const Tensor identity = from_values({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3});
  const PyFunction vectors = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call("svd", {args[0].tensor()})[0]));
  };
  bool non_finite = false;
  for (double v : values(grad(vectors)({PyTree(identity)}).tensor())) non_finite = non_finite || !std::isfinite(v);
  EXPECT_TRUE(non_finite);
  const PyFunction singular_values = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call("svd", {args[0].tensor()})[1]));
  };
  EXPECT_THAT(values(grad(singular_values)({PyTree(identity)}).tensor()), ElementsAre(1, 0, 0, 0, 1, 0, 0, 0, 1));
}

// svdvals is svd's S; its gradient at repeated singular values is finite: sum(svdvals) at 2·I has
// the gradient U Vh = I whatever basis U = V of the repeated pair the backend chose (OPS-8.3).
TEST(LinalgSvdvals, ValuesAndFiniteGradientAtRepeatedSingularValues) {
  expect_same(values(call_one("svdvals", {from_values({3, 4}, {1, 2})})), {5}, 1e-15);
  const PyFunction nuclear = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call_one("svdvals", {args[0].tensor()})));
  };
  expect_same(values(grad(nuclear)({PyTree(from_values({2, 0, 0, 2}, {2, 2}))}).tensor()), {1, 0, 0, 1}, 1e-15);
  expect_op_error("svdvals", {Tensor::empty({2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "svdvals");
}

Attrs norm_ord(const std::string& ord, std::vector<std::int64_t> dim = {-2, -1}, bool keepdim = false) {
  return {{"ord", ord}, {"dim", dim}, {"keepdim", keepdim}};
}

// [[1, -2], [2, 1]]: |row| sums (3, 3), |column| sums (3, 3); ||A||_F = √10; σ = (√5, √5) (A = √5·rotation).
// [[3, 0], [0, -4]]: column sums (3, 4), row sums (3, 4), σ = (4, 3).
TEST(LinalgMatrixNorm, EveryOrder) {
  const Tensor a = from_values({3, 0, 0, -4}, {2, 2});
  const std::vector<std::pair<std::string, double>> expected{{"fro", 5}, {"nuc", 7},  {"1", 4}, {"-1", 3},
                                                             {"inf", 4}, {"-inf", 3}, {"2", 4}, {"-2", 3}};
  for (const auto& [ord, value] : expected) {
    expect_same(values(call_one("matrix_norm", {a}, norm_ord(ord))), {value}, 1e-14);
  }
  // Over dims (0, 2) of [[[1, 2]], [[3, 4]]] the matrix is [[1, 2], [3, 4]]: its largest column sum is
  // 6; keepdim keeps both reduced dims as 1.
  const Tensor stacked = from_values({1, 2, 3, 4}, {2, 1, 2});
  const Tensor kept = call_one("matrix_norm", {stacked}, norm_ord("1", {0, 2}, true));
  EXPECT_EQ(kept.shape(), (Shape{1, 1, 1}));
  EXPECT_THAT(values(kept), ElementsAre(6));
  // inf over dims (2, 0): rows are dim 2, so the row sums are those of the transpose: max(4, 6).
  EXPECT_THAT(values(call_one("matrix_norm", {stacked}, norm_ord("inf", {2, 0}))), ElementsAre(6));
}

// At a tie the gradient is split evenly among the tied sums (amax's rule, as PyTorch); at zero it is 0.
TEST(LinalgMatrixNorm, DerivativesAtTiesAndAtZero) {
  const auto gradient = [](const std::string& ord, const Tensor& at) {
    const PyFunction f = [ord](const std::vector<PyTree>& args) {
      return PyTree(call_one("matrix_norm", {args[0].tensor()}, norm_ord(ord)));
    };
    return values(grad(f)({PyTree(at)}).tensor());
  };
  const Tensor tie = from_values({1, -2, 2, 1}, {2, 2});
  expect_same(gradient("inf", tie), {0.5, -0.5, 0.5, 0.5}, 0);
  expect_same(gradient("1", tie), {0.5, -0.5, 0.5, 0.5}, 0);
  const Tensor zero = from_values({0, 0, 0, 0}, {2, 2});
  for (const char* ord : {"fro", "1", "-1", "inf", "-inf"}) expect_same(gradient(ord, zero), {0, 0, 0, 0}, 0);
}

TEST(LinalgMatrixNorm, RefusesWhatPyTorchRefuses) {
  const Tensor a = Tensor::empty({2, 2}, DType::Float64);
  expect_op_error("matrix_norm", {a}, norm_ord("3"), ErrorKind::InvalidArgument, "ord");
  expect_op_error("matrix_norm", {a}, norm_ord("fro", {1, -1}), ErrorKind::InvalidArgument, "more than once");
  expect_op_error("matrix_norm", {a}, norm_ord("fro", {0}), ErrorKind::InvalidArgument, "2 dims");
  expect_op_error("matrix_norm", {Tensor::empty({3}, DType::Float64)}, norm_ord("fro"), ErrorKind::ShapeMismatch,
                  "2 dims");
  expect_op_error("matrix_norm", {Tensor::empty({2, 2}, DType::Int64)}, norm_ord("fro"), ErrorKind::DtypeNotSupported,
                  "int64");
}

// diag(2, 0.5): σ = (2, 0.5), so cond = 4 (p None, '2'), 1/4 ('-2'); inverse diag(0.5, 2), so the
// 1-norm product is 2·2 = 4 and the Frobenius one √4.25·√4.25 = 4.25.
TEST(LinalgCond, SpectralAndInverseBasedOrders) {
  const Tensor a = from_values({2, 0, 0, 0.5}, {2, 2});
  expect_same(values(call_one("cond", {a})), {4}, 1e-15);
  expect_same(values(call_one("cond", {a}, {{"p", std::string("-2")}})), {0.25}, 1e-15);
  expect_same(values(call_one("cond", {a}, {{"p", std::string("1")}})), {4}, 1e-15);
  expect_same(values(call_one("cond", {a}, {{"p", std::string("fro")}})), {4.25}, 1e-14);
  // A wide matrix has a spectral condition number: [[3, 4]] has σ = 5 alone, so 1.
  expect_same(values(call_one("cond", {from_values({3, 4}, {1, 2})})), {1}, 1e-15);
  EXPECT_EQ(call_one("cond", {Tensor::empty({3, 0, 0}, DType::Float64)}).shape(), (Shape{3}));
  expect_op_error("cond", {from_values({3, 4}, {1, 2})}, {{"p", std::string("1")}}, ErrorKind::ShapeMismatch, "square");
  expect_op_error("cond", {from_values({1, 2, 2, 4}, {2, 2})}, {{"p", std::string("inf")}}, ErrorKind::SingularMatrix,
                  "");
}

}  // namespace
}  // namespace funcspec
