// Hand-worked values of lu_factor, matrix_exp and matrix_exp_frechet, their error kinds, and their
// derivatives (hand-derived ones and the consistency of jvp, vjp and finite differences).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_lu_permutation.h"
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

std::vector<std::int64_t> pivots_of(const Tensor& t) { return ops::contiguous(t).to_vector<std::int64_t>(); }

// ---------------------------------------------------------------------------------------------
// lu_factor

TEST(LinalgLuFactor, PivotsOnTheLargestMagnitudeAndPacksTheFactors) {
  // Column 0 pivots on 3 (row 1): L = [[1, 0], [1/3, 1]], U = [[3, 4], [0, 2 - 4/3]].
  const TensorList r = call("lu_factor", {from_values({1, 2, 3, 4}, {2, 2})});
  EXPECT_THAT(values(r[0]), Pointwise(DoubleNear(1e-15), std::vector<double>{3, 4, 1.0 / 3, 2.0 / 3}));
  EXPECT_EQ(r[1].dtype(), DType::Int64);
  EXPECT_THAT(pivots_of(r[1]), ElementsAre(2, 2));
}

TEST(LinalgLuFactor, AnExactTieTakesTheFirstRow) {
  const TensorList r = call("lu_factor", {from_values({1, 2, -1, 3}, {2, 2})});
  EXPECT_THAT(values(r[0]), ElementsAre(1, 2, -1, 5));
  EXPECT_THAT(pivots_of(r[1]), ElementsAre(1, 2));
}

TEST(LinalgLuFactor, TallAndWideMatricesTakeMinOfTheirSizesSteps) {
  // 3x2: pivot 4 (row 1), multipliers 1/4 and 1/2 leave [0.75, -1.5] in column 1; pivot -1.5
  // (row 2), multiplier 0.75 / -1.5 = -0.5.
  const TensorList tall = call("lu_factor", {from_values({1, 2, 4, 5, 2, 1}, {3, 2})});
  EXPECT_EQ(tall[0].shape(), (Shape{3, 2}));
  EXPECT_THAT(values(tall[0]), ElementsAre(4, 5, 0.5, -1.5, 0.25, -0.5));
  EXPECT_THAT(pivots_of(tall[1]), ElementsAre(2, 3));
  // 2x3: one swap, multiplier 1/2.
  const TensorList wide = call("lu_factor", {from_values({1, 2, 3, 2, 1, 0}, {2, 3})});
  EXPECT_THAT(values(wide[0]), ElementsAre(2, 1, 0, 0.5, 1.5, 3));
  EXPECT_THAT(pivots_of(wide[1]), ElementsAre(2, 2));
}

TEST(LinalgLuFactor, WithoutPivotingNoRowIsSwapped) {
  const TensorList r = call("lu_factor", {from_values({1, 2, 3, 4}, {2, 2})}, {{"pivot", false}});
  EXPECT_THAT(values(r[0]), ElementsAre(1, 2, 3, -2));
  EXPECT_THAT(pivots_of(r[1]), ElementsAre(1, 2));
}

TEST(LinalgLuFactor, ASingularMatrixCompletesWithAZeroPivot) {
  const TensorList r = call("lu_factor", {from_values({1, 2, 2, 4}, {2, 2})});
  EXPECT_THAT(values(r[0]), ElementsAre(2, 4, 0.5, 0));
  EXPECT_THAT(pivots_of(r[1]), ElementsAre(2, 2));
}

TEST(LinalgLuFactor, BatchesAndEmptyShapes) {
  const Tensor a = from_values({1, 2, 3, 4, 1, 2, -1, 3}, {2, 2, 2});
  const TensorList r = call("lu_factor", {a});
  EXPECT_THAT(pivots_of(r[1]), ElementsAre(2, 2, 1, 2));
  EXPECT_EQ(call("lu_factor", {Tensor::empty({0, 3}, DType::Float64)})[1].shape(), (Shape{0}));
  EXPECT_EQ(call("lu_factor", {Tensor::empty({2, 0, 0}, DType::Float64)})[1].shape(), (Shape{2, 0}));
}

TEST(LinalgLuFactor, ThePermutationMatrixReassemblesA) {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6, 7, 8, 10}, {3, 3});
  const TensorList r = call("lu_factor", {a});
  const Tensor p = lu_permutation_matrix(r[1], 3, DType::Float64);
  const Tensor eye = ops::to_dtype(ops::eq(ops::unsqueeze(ops::arange(3), 1), ops::arange(3)), DType::Float64);
  const Tensor l = ops::add(ops::tril(r[0], -1), eye);
  const Tensor rebuilt = ops::matmul(p, ops::matmul(l, ops::triu(r[0])));
  EXPECT_THAT(values(rebuilt), Pointwise(DoubleNear(1e-14), values(a)));
}

TEST(LinalgLuFactor, RejectsIntegersAndVectors) {
  expect_op_error("lu_factor", {from_values({1, 2, 3, 4}, {2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported,
                  "lu_factor");
  expect_op_error("lu_factor", {from_values({1, 2}, {2})}, {}, ErrorKind::ShapeMismatch, "lu_factor");
}

TEST(LinalgLuFactor, DerivativeOfTheMultiplierAndTheSchurComplement) {
  // A = [[2, 1], [1, 3]], no swap: L21 = a10 / a00 and U11 = a11 - a10 a01 / a00, so the tangent
  // along a10 is dL21 = 1/2 and dU11 = -a01 / a00 = -1/2.
  const Tensor a = from_values({2, 1, 1, 3}, {2, 2});
  const transforms::PyFunction f = [](const std::vector<transforms::PyTree>& args) {
    return transforms::PyTree(call("lu_factor", {args.at(0).tensor()})[0]);
  };
  const transforms::JvpResult r =
      transforms::jvp(f, {transforms::PyTree(a)}, {transforms::PyTree(from_values({0, 0, 1, 0}, {2, 2}))});
  EXPECT_THAT(values(r.tangent.tensor()), Pointwise(DoubleNear(1e-15), std::vector<double>{0, 0, 0.5, -0.5}));
}

TEST(LinalgLuFactor, DerivativesAreConsistent) {
  expect_derivatives_consistent("lu_factor", {from_values({1, 2, 0.5, 4, 5, 6, 7, 8, 10}, {3, 3})});
  expect_derivatives_consistent("lu_factor", {from_values({1, 2, 4, 5, 2, 1}, {3, 2})});
  expect_derivatives_consistent("lu_factor", {from_values({1, 2, 3, 2, 1, 0}, {2, 3})});
  expect_derivatives_consistent("lu_factor", {from_values({4, 2, 1, 3}, {2, 2})}, {{"pivot", false}});
}

TEST(LinalgLuFactor, TheDerivativeAtAZeroPivotIsASingularMatrixError) {
  const transforms::PyFunction f = [](const std::vector<transforms::PyTree>& args) {
    return transforms::PyTree(call("lu_factor", {args.at(0).tensor()})[0]);
  };
  try {
    transforms::jvp(f, {transforms::PyTree(from_values({1, 2, 2, 4}, {2, 2}))},
                    {transforms::PyTree(from_values({1, 0, 0, 1}, {2, 2}))});
    ADD_FAILURE() << "expected singular_matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::SingularMatrix) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// matrix_exp and matrix_exp_frechet

TEST(LinalgMatrixExp, DiagonalNilpotentAndRotation) {
  EXPECT_THAT(values(call_one("matrix_exp", {from_values({1, 0, 0, -2}, {2, 2})})),
              Pointwise(DoubleNear(1e-15), std::vector<double>{std::exp(1.0), 0, 0, std::exp(-2.0)}));
  // exp(N) = I + N + N²/2 for N = [[0, 1, 2], [0, 0, 3], [0, 0, 0]]: N² has 3 in its corner.
  EXPECT_THAT(values(call_one("matrix_exp", {from_values({0, 1, 2, 0, 0, 3, 0, 0, 0}, {3, 3})})),
              Pointwise(DoubleNear(1e-15), std::vector<double>{1, 1, 3.5, 0, 1, 3, 0, 0, 1}));
  // exp([[0, -t], [t, 0]]) is the rotation by t; t = 10 needs 6 squarings.
  const double t = 10;
  EXPECT_THAT(values(call_one("matrix_exp", {from_values({0, -t, t, 0}, {2, 2})})),
              Pointwise(DoubleNear(1e-13), std::vector<double>{std::cos(t), -std::sin(t), std::sin(t), std::cos(t)}));
}

TEST(LinalgMatrixExp, EmptyAndOneByOne) {
  EXPECT_EQ(call_one("matrix_exp", {Tensor::empty({0, 0}, DType::Float64)}).shape(), (Shape{0, 0}));
  EXPECT_THAT(values(call_one("matrix_exp", {from_values({0.5}, {1, 1})})),
              ElementsAre(DoubleNear(std::exp(0.5), 1e-15)));
}

TEST(LinalgMatrixExp, RejectsIntegersAndNonSquare) {
  expect_op_error("matrix_exp", {from_values({1, 2, 3, 4}, {2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported,
                  "matrix_exp");
  expect_op_error("matrix_exp", {from_values({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, ErrorKind::ShapeMismatch, "matrix_exp");
  expect_op_error("matrix_exp_frechet", {from_values({1, 2, 3, 4}, {2, 2}), from_values({1}, {1, 1})}, {},
                  ErrorKind::ShapeMismatch, "matrix_exp_frechet");
}

TEST(LinalgMatrixExp, FrechetDerivativeOfCommutingDirections) {
  // For E commuting with A the derivative is exp(A)·E: with A = diag(1, 2), E = diag(3, 4) it is
  // diag(3e, 4e²); for A = [[0, 1], [0, 0]] and E = I it is exp(A).
  EXPECT_THAT(
      values(call_one("matrix_exp_frechet", {from_values({1, 0, 0, 2}, {2, 2}), from_values({3, 0, 0, 4}, {2, 2})})),
      Pointwise(DoubleNear(1e-13), std::vector<double>{3 * std::exp(1.0), 0, 0, 4 * std::exp(2.0)}));
  EXPECT_THAT(
      values(call_one("matrix_exp_frechet", {from_values({0, 1, 0, 0}, {2, 2}), from_values({1, 0, 0, 1}, {2, 2})})),
      Pointwise(DoubleNear(1e-15), std::vector<double>{1, 1, 0, 1}));
  // Off the diagonal of a diagonal A: (e^a - e^b) / (a - b) times E's entry.
  EXPECT_THAT(
      values(call_one("matrix_exp_frechet", {from_values({1, 0, 0, 2}, {2, 2}), from_values({0, 1, 0, 0}, {2, 2})})),
      Pointwise(DoubleNear(1e-13), std::vector<double>{0, std::exp(2.0) - std::exp(1.0), 0, 0}));
}

TEST(LinalgMatrixExp, DerivativesAreConsistent) {
  expect_derivatives_consistent("matrix_exp", {from_values({0.3, -1.2, 0.5, 0.8, 0.1, -0.4, 1.5, 0.2, -0.7}, {3, 3})});
  expect_derivatives_consistent("matrix_exp", {from_values({0, -3, 3, 0.5}, {2, 2})});
  expect_derivatives_consistent("matrix_exp_frechet",
                                {from_values({0.3, -1.2, 0.5, 0.8}, {2, 2}), from_values({1, 0.5, -0.25, 2}, {2, 2})});
}

}  // namespace
}  // namespace funcspec
