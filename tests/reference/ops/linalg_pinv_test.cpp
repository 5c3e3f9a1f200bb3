// Hand-worked values of pinv, lstsq and matrix_rank: the thresholds and their defaults, the
// constant-rank derivative at rank changes (NOTE: [pinv derivative]), the hermitian paths' triangle,
// and the errors. Every expected number below was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::expect_same;
using testing_support::values;

using ::testing::ElementsAre;
using transforms::grad;
using transforms::jvp;
using transforms::PyFunction;
using transforms::PyTree;

const Attrs kHermitian{{"hermitian", true}};

Tensor pinv(const Tensor& a, const Attrs& attrs = {}, const Tensor& atol = {}, const Tensor& rtol = {}) {
  return call_one("pinv", {a, atol, rtol}, attrs);
}

Tensor matrix_rank(const Tensor& a, const Attrs& attrs = {}, const Tensor& atol = {}, const Tensor& rtol = {}) {
  return call_one("matrix_rank", {a, atol, rtol}, attrs);
}

Tensor scalar(double value) { return from_values({value}, {}); }

// The tangent of pinv(·, attrs) at `a` along `direction`.
Tensor pinv_tangent(const Tensor& a, const Tensor& direction, const Attrs& attrs = {}) {
  const PyFunction f = [attrs](const std::vector<PyTree>& args) { return PyTree(pinv(args[0].tensor(), attrs)); };
  return jvp(f, {PyTree(a)}, {PyTree(direction)}).tangent.tensor();
}

// ---------------------------------------------------------------------------------------------
// The general path (svd)

TEST(LinalgPinv, InvertsTheSingularValuesAboveTheThreshold) {
  const Tensor wide = from_values({2, 0, 0, 0, 0.5, 0}, {2, 3});
  const Tensor p = pinv(wide);
  EXPECT_EQ(p.shape(), (Shape{3, 2}));
  EXPECT_THAT(values(p), ElementsAre(0.5, 0, 0, 2, 0, 0));
  EXPECT_THAT(values(pinv(wide, {}, scalar(1))), ElementsAre(0.5, 0, 0, 0, 0, 0));
  // Rank 1: A = a bᵀ with a = (1, 2, 3), b = (1, 2), whose pseudo-inverse is b aᵀ / (|a|² |b|²) = b aᵀ / 70.
  expect_same(values(pinv(from_values({1, 2, 2, 4, 3, 6}, {3, 2}))),
              {1.0 / 70, 2.0 / 70, 3.0 / 70, 2.0 / 70, 4.0 / 70, 6.0 / 70}, 1e-15);
  EXPECT_THAT(values(pinv(from_values({0, 0, 0, 0, 0, 0}, {3, 2}))), ElementsAre(0, 0, 0, 0, 0, 0));
  EXPECT_EQ(pinv(Tensor::empty({3, 0}, DType::Float64)).shape(), (Shape{0, 3}));
}

// At diag(1, 0): along E₀₁ only (I − P A) dAᵀ Pᵀ P survives: E₁₀; along E₁₁, which raises the rank,
// nothing does (pinv(diag(1, t)) = diag(1, 1/t) has no limit), PyTorch's pinv_jvp.
TEST(LinalgPinv, DerivativeAtARankChangeIsTheConstantRankOne) {
  const Tensor a = from_values({1, 0, 0, 0}, {2, 2});
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 1, 0, 0}, {2, 2}))), ElementsAre(0, 0, 1, 0));
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 0, 1, 0}, {2, 2}))), ElementsAre(0, 1, 0, 0));
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 0, 0, 1}, {2, 2}))), ElementsAre(0, 0, 0, 0));
  // At full rank it is the inverse's: −A⁻¹ dA A⁻¹ = −dA/4 at 2·I.
  EXPECT_THAT(values(pinv_tangent(from_values({2, 0, 0, 2}, {2, 2}), from_values({1, 2, 3, 4}, {2, 2}))),
              ElementsAre(-0.25, -0.5, -0.75, -1));
}

TEST(LinalgPinv, ReverseModeIsPyTorchsPinvBackward) {
  // grad of sum(pinv(A) ∘ W) at diag(1, 0), W = [[1, 2], [3, 4]]: −PᵀWPᵀ = [[-1, 0], [0, 0]],
  // (I − AP)ᵀ... gives [[0, 0], [2, 0]] and ...(I − PA)ᵀ gives [[0, 3], [0, 0]].
  const Tensor w = from_values({1, 2, 3, 4}, {2, 2});
  const PyFunction f = [w](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::mul(pinv(args[0].tensor()), w)));
  };
  EXPECT_THAT(values(grad(f)({PyTree(from_values({1, 0, 0, 0}, {2, 2}))}).tensor()), ElementsAre(-1, 3, 2, 0));
}

// ---------------------------------------------------------------------------------------------
// lstsq

Tensor lstsq(const Tensor& a, const Tensor& b, const Attrs& attrs = {}) { return call_one("lstsq", {a, b}, attrs); }

TEST(LinalgLstsq, ReturnsTheLeastSquaresSolutionOfLeastNorm) {
  // Rank 1 (A = a bᵀ as above): X = b aᵀ B / 70 = b · 17/70.
  const Tensor a = from_values({1, 2, 2, 4, 3, 6}, {3, 2});
  expect_same(values(lstsq(a, from_values({1, 2, 4}, {3, 1}))), {17.0 / 70, 34.0 / 70}, 1e-15);
  // A vector B gives a vector.
  const Tensor x = lstsq(a, from_values({1, 2, 4}, {3}));
  EXPECT_EQ(x.shape(), (Shape{2}));
  // Underdetermined: of the solutions of [[1, 0, 0], [0, 2, 0]] x = [1, 4], (1, 2, 0) has least norm.
  EXPECT_THAT(values(lstsq(from_values({1, 0, 0, 0, 2, 0}, {2, 3}), from_values({1, 4}, {2, 1}))),
              ElementsAre(1, 2, 0));
  // No equations: the zero solution.
  EXPECT_THAT(values(lstsq(Tensor::empty({0, 2}, DType::Float64), Tensor::empty({0, 1}, DType::Float64))),
              ElementsAre(0, 0));
}

TEST(LinalgLstsq, RcondDropsTheSmallSingularValuesAndDriverChangesNothing) {
  const Tensor a = from_values({2, 0, 0, 0.125}, {2, 2});
  const Tensor b = from_values({2, 1}, {2, 1});
  EXPECT_THAT(values(lstsq(a, b)), ElementsAre(1, 8));
  EXPECT_THAT(values(lstsq(a, b, {{"rcond", 0.25}})), ElementsAre(1, 0));
  // rcond is "<= rcond·σ_max is dropped": 0.0625·2 = 0.125 drops 0.125.
  EXPECT_THAT(values(lstsq(a, b, {{"rcond", 0.0625}})), ElementsAre(1, 0));
  EXPECT_THAT(values(lstsq(a, b, {{"rcond", -1.0}})), ElementsAre(1, 8));
  for (const char* driver : {"gels", "gelsy", "gelsd", "gelss"}) {
    EXPECT_THAT(values(lstsq(a, b, {{"driver", std::string(driver)}})), ElementsAre(1, 8)) << driver;
  }
}

TEST(LinalgLstsq, BatchDimsBroadcast) {
  const Tensor a = ops::zeros({2, 3, 2}, DType::Float64);
  EXPECT_EQ(lstsq(a, ops::zeros({1, 3, 4}, DType::Float64)).shape(), (Shape{2, 2, 4}));
  // One dim fewer than A: a batch of vectors.
  EXPECT_EQ(lstsq(a, ops::zeros({2, 3}, DType::Float64)).shape(), (Shape{2, 2}));
}

TEST(LinalgMatrixRank, CountsTheSingularValuesAboveTheThreshold) {
  EXPECT_THAT(values(matrix_rank(from_values({1, 2, 2, 4, 3, 6}, {3, 2}))), ElementsAre(1));
  EXPECT_THAT(values(matrix_rank(from_values({2, 0, 0, 0, 0.5, 0}, {2, 3}))), ElementsAre(2));
  EXPECT_THAT(values(matrix_rank(from_values({2, 0, 0, 0, 0.5, 0}, {2, 3}), {}, {}, scalar(0.25))), ElementsAre(1));
  EXPECT_THAT(values(matrix_rank(from_values({0, 0, 0, 0, 0, 0}, {3, 2}))), ElementsAre(0));
  EXPECT_THAT(values(matrix_rank(Tensor::empty({3, 0}, DType::Float64))), ElementsAre(0));
}

// ---------------------------------------------------------------------------------------------
// The hermitian path (eigh)

TEST(LinalgPinvHermitian, InvertsTheNonzeroEigenvalues) {
  EXPECT_THAT(values(pinv(from_values({2, 0, 0, -4}, {2, 2}), kHermitian)), ElementsAre(0.5, 0, 0, -0.25));
  // Rank 1: [[1, 2], [2, 4]] = v vᵀ with v = (1, 2), whose pseudo-inverse is v vᵀ / |v|⁴ = A / 25.
  expect_same(values(pinv(from_values({1, 2, 2, 4}, {2, 2}), kHermitian)), {0.04, 0.08, 0.08, 0.16}, 1e-15);
  EXPECT_THAT(values(pinv(from_values({0, 0, 0, 0}, {2, 2}), kHermitian)), ElementsAre(0, 0, 0, 0));
}

TEST(LinalgPinvHermitian, ReadsTheLowerTriangleOnly) {
  // [[2, 9], [1, 2]] is read as [[2, 1], [1, 2]], whose inverse is [[2, -1], [-1, 2]] / 3.
  expect_same(values(pinv(from_values({2, 9, 1, 2}, {2, 2}), kHermitian)), {2.0 / 3, -1.0 / 3, -1.0 / 3, 2.0 / 3},
              1e-15);
}

TEST(LinalgPinvHermitian, DefaultToleranceIsEpsTimesTheSizeRelativeToTheLargest) {
  const double tiny = std::ldexp(1.0, -60);  // 8.7e-19, inverted exactly to 2^60
  const Tensor a = from_values({1, 0, 0, tiny}, {2, 2});
  // rtol = eps·2 = 4.4e-16 drops 2^-60; given tolerances replace the default.
  EXPECT_THAT(values(pinv(a, kHermitian)), ElementsAre(1, 0, 0, 0));
  EXPECT_THAT(values(pinv(a, kHermitian, {}, scalar(0))), ElementsAre(1, 0, 0, 1 / tiny));
  // atol alone: rtol becomes 0 where atol > 0, so 2^-60 > 2^-70 is kept...
  EXPECT_THAT(values(pinv(a, kHermitian, scalar(tiny / 1024))), ElementsAre(1, 0, 0, 1 / tiny));
  // ...and stays the default where atol is 0.
  EXPECT_THAT(values(pinv(a, kHermitian, scalar(0))), ElementsAre(1, 0, 0, 0));
  // The threshold is max(atol, rtol·max|λ|): atol 0.5 drops |λ| = 0.25, rtol 0.5 of 4 drops 2.
  const Tensor b = from_values({4, 0, 0, 0, -2, 0, 0, 0, 0.25}, {3, 3});
  EXPECT_THAT(values(pinv(b, kHermitian, scalar(0.5))), ElementsAre(0.25, 0, 0, 0, -0.5, 0, 0, 0, 0));
  EXPECT_THAT(values(pinv(b, kHermitian, scalar(0.5), scalar(0.5))), ElementsAre(0.25, 0, 0, 0, 0, 0, 0, 0, 0));
  // Strictly above: |λ| equal to the threshold is dropped.
  EXPECT_THAT(values(pinv(b, kHermitian, scalar(2))), ElementsAre(0.25, 0, 0, 0, 0, 0, 0, 0, 0));
}

TEST(LinalgPinvHermitian, TolerancesBroadcastWithTheBatch) {
  const Tensor a = from_values({4, 0, 0, 1}, {2, 2});
  const Tensor p = pinv(a, kHermitian, from_values({0.5, 2}, {2}));
  EXPECT_EQ(p.shape(), (Shape{2, 2, 2}));
  EXPECT_THAT(values(p), ElementsAre(0.25, 0, 0, 1, 0.25, 0, 0, 0));
  expect_op_error("pinv", {from_values({1, 0, 0, 1, 1, 0, 0, 1}, {2, 2, 2}), from_values({1, 2, 3}, {3}), {}},
                  kHermitian, ErrorKind::ShapeMismatch, "pinv");
}

TEST(LinalgPinvHermitian, EmptyMatricesGiveEmptyResults) {
  EXPECT_EQ(pinv(Tensor::empty({0, 0}, DType::Float64), kHermitian).shape(), (Shape{0, 0}));
  EXPECT_EQ(pinv(Tensor::empty({2, 0, 0}, DType::Float64), kHermitian).shape(), (Shape{2, 0, 0}));
  EXPECT_EQ(pinv(Tensor::empty({0, 3, 3}, DType::Float64), kHermitian).shape(), (Shape{0, 3, 3}));
}

// At diag(1, 0) the rank is 1; along the symmetric direction E₀₁ + E₁₀ the constant-rank formula
// gives P Pᵀ dAᵀ (I − A P) + (I − P A) dAᵀ Pᵀ P = E₀₁ + E₁₀ (−P dA P = 0), while pinv itself jumps
// (pinv([[1, t], [t, 0]]) = [[0, 1/t], [1/t, −1/t²]] has no limit as t → 0).
TEST(LinalgPinvHermitian, DerivativeAtARankChangeIsTheConstantRankOne) {
  const Tensor a = from_values({1, 0, 0, 0}, {2, 2});
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 1, 1, 0}, {2, 2}), kHermitian)), ElementsAre(0, 1, 1, 0));
  // Along E₁₁, which raises the rank, every term vanishes.
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 0, 0, 1}, {2, 2}), kHermitian)), ElementsAre(0, 0, 0, 0));
  // The tangent enters through the lower triangle, as A does: E₁₀ alone is E₀₁ + E₁₀ to the op.
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 0, 1, 0}, {2, 2}), kHermitian)), ElementsAre(0, 1, 1, 0));
  EXPECT_THAT(values(pinv_tangent(a, from_values({0, 1, 0, 0}, {2, 2}), kHermitian)), ElementsAre(0, 0, 0, 0));
}

TEST(LinalgPinvHermitian, ReverseModeIsTheTransposeOfTheConstantRankDerivative) {
  // grad of sum(pinv(A) ∘ W) at diag(1, 0), W = [[1, 2], [3, 4]]: the full-matrix gradient of the
  // formula is [[-1, 3], [2, 0]] (its −PᵀWPᵀ, (I − AP)ᵀ... terms), which the lower triangle folds
  // into [[-1, 0], [2 + 3, 0]].
  const Tensor w = from_values({1, 2, 3, 4}, {2, 2});
  const PyFunction f = [w](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::mul(pinv(args[0].tensor(), kHermitian), w)));
  };
  EXPECT_THAT(values(grad(f)({PyTree(from_values({1, 0, 0, 0}, {2, 2}))}).tensor()), ElementsAre(-1, 0, 5, 0));
}

TEST(LinalgPinvHermitian, ToleranceTangentsAreDropped) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(pinv(from_values({4, 0, 0, 1}, {2, 2}), kHermitian, args[0].tensor()));
  };
  EXPECT_THAT(values(jvp(f, {PyTree(scalar(0.5))}, {PyTree(scalar(1))}).tangent.tensor()), ElementsAre(0, 0, 0, 0));
}

TEST(LinalgPinvHermitian, VmapOverTheToleranceAloneMatchesTheLoop) {
  const Tensor a = from_values({4, 0, 0, 1}, {2, 2});
  const PyFunction f = [a](const std::vector<PyTree>& args) { return PyTree(pinv(a, kHermitian, args[0].tensor())); };
  const Tensor batched = transforms::vmap(f)({PyTree(from_values({0.5, 2, 5}, {3}))}).tensor();
  EXPECT_EQ(batched.shape(), (Shape{3, 2, 2}));
  EXPECT_THAT(values(batched), ElementsAre(0.25, 0, 0, 1, 0.25, 0, 0, 0, 0, 0, 0, 0));
}

// ---------------------------------------------------------------------------------------------
// matrix_rank

TEST(LinalgMatrixRank, CountsTheValuesAboveTheThreshold) {
  const Tensor a = from_values({1, 0, 0, 1e-17}, {2, 2});
  const Tensor rank = matrix_rank(a, kHermitian);
  EXPECT_EQ(rank.dtype(), DType::Int64);
  EXPECT_EQ(rank.dim(), 0);
  EXPECT_THAT(values(rank), ElementsAre(1));
  EXPECT_THAT(values(matrix_rank(a, kHermitian, {}, scalar(0))), ElementsAre(2));
  EXPECT_THAT(values(matrix_rank(from_values({1, 2, 2, 4}, {2, 2}), kHermitian)), ElementsAre(1));
  EXPECT_THAT(values(matrix_rank(from_values({0, 0, 0, 0}, {2, 2}), kHermitian)), ElementsAre(0));
  EXPECT_THAT(values(matrix_rank(from_values({4, 0, 0, 1}, {2, 2}), kHermitian, from_values({0.5, 2, 5}, {3}))),
              ElementsAre(2, 1, 0));
}

TEST(LinalgMatrixRank, EmptyMatricesHaveRankZero) {
  const Tensor rank = matrix_rank(Tensor::empty({2, 0, 0}, DType::Float64), kHermitian);
  EXPECT_EQ(rank.shape(), (Shape{2}));
  EXPECT_THAT(values(rank), ElementsAre(0, 0));
  EXPECT_EQ(matrix_rank(Tensor::empty({0, 3, 3}, DType::Float64), kHermitian).shape(), (Shape{0}));
}

// ---------------------------------------------------------------------------------------------
// Errors

TEST(LinalgPinvErrors, RefuseWhatPyTorchRefuses) {
  const Tensor ints = Tensor::empty({2, 2}, DType::Int64);
  for (const char* op : {"pinv", "matrix_rank"}) {
    expect_op_error(op, {ints, {}, {}}, {}, ErrorKind::DtypeNotSupported, op);
    expect_op_error(op, {from_values({1, 2}, {2}), {}, {}}, {}, ErrorKind::ShapeMismatch, op);
    expect_op_error(op, {Tensor::empty({2, 3}, DType::Float64), {}, {}}, kHermitian, ErrorKind::ShapeMismatch, op);
  }
  const Tensor a = from_values({1, 0, 0, 1, 1, 0}, {3, 2});
  expect_op_error("lstsq", {ints, ints}, {}, ErrorKind::DtypeNotSupported, "lstsq");
  expect_op_error("lstsq", {a, from_values({1, 2, 3}, {3}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported, "lstsq");
  expect_op_error("lstsq", {a, from_values({1, 2}, {2, 1})}, {}, ErrorKind::ShapeMismatch, "lstsq");
  expect_op_error("lstsq", {a, Tensor::empty({2, 3, 1}, DType::Float64)}, {}, ErrorKind::ShapeMismatch, "lstsq");
  expect_op_error("lstsq", {a, from_values({1, 2, 3}, {3, 1})}, {{"driver", std::string("gelsx")}},
                  ErrorKind::InvalidArgument, "driver");
}

}  // namespace
}  // namespace funcspec
