// Hand-worked values for the triangular and Cholesky ops of the linalg family: every expected number
// below was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::kInf;
using testing_support::values;

using ::testing::ElementsAre;
using transforms::Argnums;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

Attrs triangular(bool upper, bool left = true, bool unitriangular = false) {
  return {{"upper", upper}, {"left", left}, {"unitriangular", unitriangular}};
}

// The gradients of sum(solve_triangular(A, B)) with respect to A and B.
std::pair<Tensor, Tensor> gradients_of_sum(const Tensor& a, const Tensor& b, const Attrs& attrs) {
  const PyFunction f = [attrs](const std::vector<PyTree>& args) {
    return PyTree(call_one("sum", {call_one("solve_triangular", {args[0].tensor(), args[1].tensor()}, attrs)}));
  };
  const PyTree g = grad(f, {Argnums::many({0, 1})})({PyTree(a), PyTree(b)});
  return {g.children()[0].tensor(), g.children()[1].tensor()};
}

// ---------------------------------------------------------------------------------------------
// solve_triangular

TEST(LinalgSolveTriangular, LowerReadsOnlyTheLowerTriangle) {
  // [[2, 0], [1, 4]] x = [2, 5]: x0 = 1, x1 = (5 - 1) / 4 = 1; the 9 above the diagonal is not read.
  const Tensor a = from_values({2, 9, 1, 4}, {2, 2});
  EXPECT_THAT(values(call_one("solve_triangular", {a, from_values({2, 5}, {2, 1})}, triangular(false))),
              ElementsAre(1, 1));
}

TEST(LinalgSolveTriangular, UpperSubstitutesBackwards) {
  // [[2, 1], [0, 4]] x = [4, 8]: x1 = 2, x0 = (4 - 2) / 2 = 1.
  const Tensor a = from_values({2, 1, 9, 4}, {2, 2});
  EXPECT_THAT(values(call_one("solve_triangular", {a, from_values({4, 8}, {2, 1})}, triangular(true))),
              ElementsAre(1, 2));
}

TEST(LinalgSolveTriangular, UnitriangularIgnoresTheDiagonal) {
  // [[1, 0], [3, 1]] x = [1, 5]: x0 = 1, x1 = 5 - 3 = 2; the 5 and 7 on the diagonal are not read.
  const Tensor a = from_values({5, 9, 3, 7}, {2, 2});
  EXPECT_THAT(values(call_one("solve_triangular", {a, from_values({1, 5}, {2, 1})}, triangular(false, true, true))),
              ElementsAre(1, 2));
}

TEST(LinalgSolveTriangular, RightSolvesXTimesTheTriangleEqualsB) {
  // [x0, x1]·[[2, 0], [1, 4]] = [2 x0 + x1, 4 x1] = [4, 8]: x1 = 2, x0 = 1.
  const Tensor a = from_values({2, 9, 1, 4}, {2, 2});
  EXPECT_THAT(values(call_one("solve_triangular", {a, from_values({4, 8}, {1, 2})}, triangular(false, false))),
              ElementsAre(1, 2));
}

TEST(LinalgSolveTriangular, BroadcastsTheBatchDims) {
  const Tensor a = from_values({2, 0, 1, 4, 1, 0, 0, 1}, {2, 1, 2, 2});
  const Tensor b = from_values({2, 5, 4, 8, 6, 12}, {3, 2, 1});
  const Tensor x = call_one("solve_triangular", {a, b}, triangular(false));
  EXPECT_EQ(x.shape(), (Shape{2, 3, 2, 1}));
  // The first A: [1, 1], [2, 1.5], [3, 2.25]; the identity: B itself.
  EXPECT_THAT(values(x), ElementsAre(1, 1, 2, 1.5, 3, 2.25, 2, 5, 4, 8, 6, 12));
}

TEST(LinalgSolveTriangular, AZeroOnTheDiagonalGivesInfRatherThanAnError) {
  // x0 = 1 / 2, x1 = (1 - 0.5) / 0 = inf, x2 = (1 - 0.5 - inf) / 3 = -inf.
  const Tensor a = from_values({2, 0, 0, 1, 0, 0, 1, 1, 3}, {3, 3});
  EXPECT_THAT(values(call_one("solve_triangular", {a, from_values({1, 1, 1}, {3, 1})}, triangular(false))),
              ElementsAre(0.5, kInf, -kInf));
}

TEST(LinalgSolveTriangular, GradientsReachOnlyTheTriangleRead) {
  // T = [[2, 0], [1, 4]], x = [1, 1]; d sum(x) / dB = g with Tᵀ g = [1, 1]: g = [3/8, 1/4]; dA = -g xᵀ
  // on the lower triangle, zero above it.
  const auto [da, db] =
      gradients_of_sum(from_values({2, 9, 1, 4}, {2, 2}), from_values({2, 5}, {2, 1}), triangular(false));
  EXPECT_THAT(values(da), ElementsAre(-0.375, 0, -0.25, -0.25));
  EXPECT_THAT(values(db), ElementsAre(0.375, 0.25));
}

TEST(LinalgSolveTriangular, UnitriangularGradientsLeaveTheDiagonalAtZero) {
  // T = [[1, 0], [3, 1]], x = [1, 2]; Tᵀ g = [1, 1]: g = [-2, 1]; dA = -g xᵀ on the strict lower
  // triangle: only (1, 0) = -1 · 1.
  const auto [da, db] =
      gradients_of_sum(from_values({5, 9, 3, 7}, {2, 2}), from_values({1, 5}, {2, 1}), triangular(false, true, true));
  EXPECT_THAT(values(da), ElementsAre(0, 0, -1, 0));
  EXPECT_THAT(values(db), ElementsAre(-2, 1));
}

TEST(LinalgSolveTriangular, RefusesBadShapesAndDtypes) {
  const Tensor a = from_values({2, 0, 1, 4}, {2, 2});
  expect_op_error("solve_triangular", {a, from_values({1, 1}, {2})}, triangular(false), ErrorKind::ShapeMismatch,
                  "at least 2 dims");
  expect_op_error("solve_triangular", {from_values({1, 2, 3, 4, 5, 6}, {2, 3}), from_values({1, 1}, {2, 1})},
                  triangular(false), ErrorKind::ShapeMismatch, "square");
  expect_op_error("solve_triangular", {a, from_values({1, 1, 1}, {3, 1})}, triangular(false), ErrorKind::ShapeMismatch,
                  "must have size 2");
  expect_op_error("solve_triangular", {a, from_values({1, 1}, {2, 1})}, triangular(false, false),
                  ErrorKind::ShapeMismatch, "must have size 2");
  expect_op_error("solve_triangular",
                  {from_values({2, 0, 1, 4, 2, 0, 1, 4}, {2, 2, 2}), from_values({1, 1, 1, 1, 1, 1}, {3, 2, 1})},
                  triangular(false), ErrorKind::ShapeMismatch, "");
  expect_op_error("solve_triangular",
                  {from_values({2, 0, 1, 4}, {2, 2}, DType::Int64), from_values({1, 1}, {2, 1}, DType::Int64)},
                  triangular(false), ErrorKind::DtypeNotSupported, "");
  expect_op_error("solve_triangular", {a, from_values({1, 1}, {2, 1}, DType::Float32)}, triangular(false),
                  ErrorKind::DtypeNotSupported, "same dtype");
}

// ---------------------------------------------------------------------------------------------
// cholesky, cholesky_ex

Attrs upper_factor(bool upper) { return {{"upper", upper}}; }

TEST(LinalgCholesky, FactorsFromTheLowerTriangleOrTheUpperOne) {
  // [[4, 2], [2, 5]]: L00 = 2, L10 = 2 / 2 = 1, L11 = sqrt(5 - 1) = 2; the 100s are never read.
  EXPECT_THAT(values(call_one("cholesky", {from_values({4, 100, 2, 5}, {2, 2})})), ElementsAre(2, 0, 1, 2));
  EXPECT_THAT(values(call_one("cholesky", {from_values({4, 2, 100, 5}, {2, 2})}, upper_factor(true))),
              ElementsAre(2, 1, 0, 2));
}

TEST(LinalgCholesky, ANonPositivePivotRaisesNamingTheOrderAndTheBatchElement) {
  // The second matrix: L00 = 1, L10 = 2, pivot 1 - 4 = -3.
  const Tensor a = from_values({4, 2, 2, 5, 1, 2, 2, 1}, {2, 2, 2});
  expect_op_error("cholesky", {a}, {}, ErrorKind::NotPositiveDefinite, "batch element 1");
  expect_op_error("cholesky", {a}, {}, ErrorKind::NotPositiveDefinite, "order 2");
  // A zero pivot and a NaN fail too.
  expect_op_error("cholesky", {from_values({0}, {1, 1})}, {}, ErrorKind::NotPositiveDefinite, "order 1");
  expect_op_error("cholesky", {from_values({testing_support::kNaN}, {1, 1})}, {}, ErrorKind::NotPositiveDefinite,
                  "order 1");
}

TEST(LinalgCholeskyEx, ReportsTheFailingOrderAndLeavesThePartialFactor) {
  // [[4, 2, 1], [2, -1, 3], [1, 3, 7]]: column 0 is [2, 1, 0.5]; the second pivot is -1 - 1 = -2.
  const Tensor a = from_values({4, 2, 1, 2, -1, 3, 1, 3, 7}, {3, 3});
  const TensorList lower = call("cholesky_ex", {a});
  EXPECT_THAT(values(lower[0]), ElementsAre(2, 0, 0, 1, -2, 0, 0.5, 3, 7));
  EXPECT_EQ(lower[1].dtype(), DType::Int64);
  EXPECT_THAT(lower[1].to_vector<std::int64_t>(), ElementsAre(2));
  const TensorList upper = call("cholesky_ex", {a}, upper_factor(true));
  EXPECT_THAT(values(upper[0]), ElementsAre(2, 1, 0.5, 0, -2, 3, 0, 0, 7));
  EXPECT_THAT(upper[1].to_vector<std::int64_t>(), ElementsAre(2));
  expect_op_error("cholesky_ex", {a}, {{"check_errors", true}}, ErrorKind::NotPositiveDefinite, "order 2");
  const TensorList fine = call("cholesky_ex", {from_values({4, 2, 2, 5}, {2, 2})}, {{"check_errors", true}});
  EXPECT_THAT(fine[1].to_vector<std::int64_t>(), ElementsAre(0));
}

TEST(LinalgCholesky, EmptyMatricesAndBatches) {
  const TensorList zero_by_zero = call("cholesky_ex", {Tensor::empty({2, 0, 0}, DType::Float64)});
  EXPECT_EQ(zero_by_zero[0].shape(), (Shape{2, 0, 0}));
  EXPECT_THAT(zero_by_zero[1].to_vector<std::int64_t>(), ElementsAre(0, 0));
  EXPECT_EQ(call_one("cholesky", {Tensor::empty({0, 3, 3}, DType::Float64)}).shape(), (Shape{0, 3, 3}));
}

TEST(LinalgCholesky, GradientLiesOnTheTriangleRead) {
  // y = L11 = sqrt(a11 - a10² / a00) at [[4, 2], [2, 5]] (L11 = 2): dy/da00 = a10² / (2 L11 a00²) = 1/16,
  // dy/da10 = -a10 / (L11 a00) = -1/4, dy/da11 = 1 / (2 L11) = 1/4; the other triangle is not read.
  const Tensor pick = from_values({0, 0, 0, 1}, {2, 2});
  for (const bool upper : {false, true}) {
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      return PyTree(
          call_one("sum", {call_one("mul", {call_one("cholesky", {args[0].tensor()}, upper_factor(upper)), pick})}));
    };
    const Tensor g = grad(f)({PyTree(from_values({4, 2, 2, 5}, {2, 2}))}).tensor();
    if (upper) {
      EXPECT_THAT(values(g), ElementsAre(0.0625, -0.25, 0, 0.25));
    } else {
      EXPECT_THAT(values(g), ElementsAre(0.0625, 0, -0.25, 0.25));
    }
  }
}

TEST(LinalgCholesky, RefusesIntegersAndNonSquareMatrices) {
  expect_op_error("cholesky", {from_values({4, 2, 2, 5}, {2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "");
  expect_op_error("cholesky", {from_values({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, ErrorKind::ShapeMismatch, "square");
  expect_op_error("cholesky_ex", {from_values({1, 2}, {2})}, {}, ErrorKind::ShapeMismatch, "matrix");
}

// ---------------------------------------------------------------------------------------------
// cholesky_solve, cholesky_inverse

TEST(LinalgCholeskySolve, SolvesWithTheProductOfTheFactorAndItsTranspose) {
  // L = [[2, 0], [1, 2]] (the 9 is not read), A = L Lᵀ = [[4, 2], [2, 5]], A⁻¹ = [[5, -2], [-2, 4]] / 16.
  const Tensor b = from_values({1, 2}, {2, 1});
  EXPECT_THAT(values(call_one("cholesky_solve", {b, from_values({2, 9, 1, 2}, {2, 2})})), ElementsAre(0.0625, 0.375));
  EXPECT_THAT(values(call_one("cholesky_solve", {b, from_values({2, 1, 9, 2}, {2, 2})}, {{"upper", true}})),
              ElementsAre(0.0625, 0.375));
  expect_op_error("cholesky_solve", {from_values({1, 2}, {2}), from_values({2, 0, 1, 2}, {2, 2})}, {},
                  ErrorKind::ShapeMismatch, "at least 2 dims");
  expect_op_error("cholesky_solve", {from_values({1, 2}, {2, 1}, DType::Float32), from_values({2, 0, 1, 2}, {2, 2})},
                  {}, ErrorKind::DtypeNotSupported, "same dtype");
}

TEST(LinalgCholeskyInverse, InvertsTheProductAndGivesTheOtherTriangleNoGradient) {
  const Tensor factor = from_values({2, 9, 1, 2}, {2, 2});
  EXPECT_THAT(values(call_one("cholesky_inverse", {factor})), ElementsAre(0.3125, -0.125, -0.125, 0.25));
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(call_one("sum", {call_one("cholesky_inverse", {args[0].tensor()})}));
  };
  // sum((L Lᵀ)⁻¹) = 1ᵀ L⁻ᵀ L⁻¹ 1 = |L⁻¹ 1|², L⁻¹ 1 = v = [1/2, 1/4]; d/dL = -2 L⁻ᵀ v vᵀ on the lower
  // triangle: L⁻ᵀ v = [3/16, 1/8], so -2 [[3/32, 3/64], [1/16, 1/32]] masked: [[-3/16, 0], [-1/8, -1/16]].
  EXPECT_THAT(values(grad(f)({PyTree(factor)}).tensor()), ElementsAre(-0.1875, 0, -0.125, -0.0625));
}

}  // namespace
}  // namespace funcspec
