// Hand-worked values for inv, inv_ex and matrix_power: every expected number below was computed by
// hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::values;

using ::testing::ElementsAre;
using transforms::Argnums;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

// [[2, 1], [1, 1]]: determinant 1, inverse [[1, -1], [-1, 2]].
Tensor unimodular() { return from_values({2, 1, 1, 1}, {2, 2}); }
// [[1, 2], [2, 4]]: LU swaps the rows, then 2 - (1/2)·4 = 0 is the second pivot.
Tensor rank_one() { return from_values({1, 2, 2, 4}, {2, 2}); }

Attrs power(std::int64_t n) { return {{"n", n}}; }

// The gradient of sum(op(A)) (the first result of op).
Tensor gradient_of_sum(const std::string& op, const Tensor& a, const Attrs& attrs) {
  const PyFunction f = [op, attrs](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call(op, {args[0].tensor()}, attrs)[0]));
  };
  return grad(f, {Argnums::one(0)})({PyTree(a)}).tensor();
}

// ---------------------------------------------------------------------------------------------
// inv

TEST(LinalgInv, IsTheInverse) { EXPECT_THAT(values(call_one("inv", {unimodular()})), ElementsAre(1, -1, -1, 2)); }

TEST(LinalgInv, RaisesTheCatalogueErrorsUnderItsOwnName) {
  expect_op_error("inv", {rank_one()}, {}, ErrorKind::SingularMatrix, "singular");
  expect_op_error("inv", {from_values({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, ErrorKind::ShapeMismatch, "[inv]");
  expect_op_error("inv", {from_values({1, 0, 0, 1}, {2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "[inv]");
}

TEST(LinalgInv, DifferentiatesAsInverse) {
  // sum(A⁻¹) = (a + d - b - c) / (ad - bc); at [[2, 1], [1, 1]] its gradient is -A⁻ᵀ·1·1ᵀ·A⁻ᵀ =
  // -[0, 1]ᵀ[0, 1].
  EXPECT_THAT(values(gradient_of_sum("inv", unimodular(), {})), ElementsAre(0, 0, 0, -1));
}

// ---------------------------------------------------------------------------------------------
// inv_ex

TEST(LinalgInvEx, InfoIsTheFirstZeroPivotOneBased) {
  // A zero middle row: pivot 4, then 0.75 swapped above the zero row, whose pivot (the third) is 0.
  // A zero second column: the second pivot is 0 whatever the first step does. Then an invertible one.
  const Tensor a =
      from_values({1, 2, 3, 0, 0, 0, 4, 5, 6, 1, 0, 2, 3, 0, 4, 5, 0, 6, 2, 1, 0, 1, 1, 0, 0, 0, 4}, {3, 3, 3});
  const TensorList out = call("inv_ex", {a});
  EXPECT_EQ(out[1].dtype(), DType::Int64);
  EXPECT_THAT(out[1].to_vector<std::int64_t>(), ElementsAre(3, 2, 0));
  EXPECT_THAT(values(ops::select(out[0], 0, 2)), ElementsAre(1, -1, 0, -1, 2, 0, 0, 0, 0.25));
  EXPECT_THAT(call("inv_ex", {rank_one()})[1].to_vector<std::int64_t>(), ElementsAre(2));
  EXPECT_THAT(call("inv_ex", {from_values({0}, {1, 1})})[1].to_vector<std::int64_t>(), ElementsAre(1));
}

TEST(LinalgInvEx, TheReferenceInvertsTheIdentityInPlaceOfASingularMatrix) {
  // Unspecified by the spec (OPS-11.2), so no conformance test reads it; the reference's choice.
  EXPECT_THAT(values(call("inv_ex", {rank_one()})[0]), ElementsAre(1, 0, 0, 1));
}

TEST(LinalgInvEx, CheckErrorsRaisesSingularMatrix) {
  expect_op_error("inv_ex", {rank_one()}, {{"check_errors", true}}, ErrorKind::SingularMatrix, "singular");
  const TensorList out = call("inv_ex", {unimodular()}, {{"check_errors", true}});
  EXPECT_THAT(values(out[0]), ElementsAre(1, -1, -1, 2));
  EXPECT_THAT(out[1].to_vector<std::int64_t>(), ElementsAre(0));
}

TEST(LinalgInvEx, EmptyMatricesHaveInfoZero) {
  const TensorList one = call("inv_ex", {from_values({}, {0, 0})});
  EXPECT_EQ(one[0].shape(), (Shape{0, 0}));
  EXPECT_EQ(one[1].shape(), Shape{});
  EXPECT_THAT(one[1].to_vector<std::int64_t>(), ElementsAre(0));
  const TensorList batch = call("inv_ex", {from_values({}, {2, 0, 0})});
  EXPECT_THAT(batch[1].to_vector<std::int64_t>(), ElementsAre(0, 0));
  EXPECT_EQ(call("inv_ex", {from_values({}, {0, 3, 3})})[1].shape(), (Shape{0}));
}

TEST(LinalgInvEx, RejectsWhatInvRejectsUnderItsOwnName) {
  expect_op_error("inv_ex", {from_values({1, 2, 3}, {3})}, {}, ErrorKind::ShapeMismatch, "[inv_ex]");
  expect_op_error("inv_ex", {from_values({1, 0, 0, 1}, {2, 2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported,
                  "[inv_ex]");
}

TEST(LinalgInvEx, DifferentiatesAsInverseWhereInvertible) {
  EXPECT_THAT(values(gradient_of_sum("inv_ex", unimodular(), {})), ElementsAre(0, 0, 0, -1));
}

// ---------------------------------------------------------------------------------------------
// matrix_power

TEST(LinalgMatrixPower, IntegerPowersAreExact) {
  // The Fibonacci matrix: [[1, 1], [1, 0]]ⁿ = [[F(n+1), F(n)], [F(n), F(n-1)]].
  const Tensor fibonacci = from_values({1, 1, 1, 0}, {2, 2}, DType::Int64);
  const Tensor fifth = call_one("matrix_power", {fibonacci}, power(5));
  EXPECT_EQ(fifth.dtype(), DType::Int64);
  EXPECT_THAT(fifth.to_vector<std::int64_t>(), ElementsAre(8, 5, 5, 3));
  EXPECT_THAT(call_one("matrix_power", {fibonacci}, power(7)).to_vector<std::int64_t>(), ElementsAre(21, 13, 13, 8));
}

TEST(LinalgMatrixPower, ZeroIsTheIdentityEvenOfASingularMatrix) {
  EXPECT_THAT(values(call_one("matrix_power", {rank_one()}, power(0))), ElementsAre(1, 0, 0, 1));
  const Tensor flags = call_one("matrix_power", {from_values({0, 1, 1, 0}, {2, 2}, DType::Bool)}, power(0));
  EXPECT_EQ(flags.dtype(), DType::Bool);
  EXPECT_THAT(values(flags), ElementsAre(1, 0, 0, 1));
  EXPECT_EQ(call_one("matrix_power", {from_values({}, {2, 0, 0})}, power(0)).shape(), (Shape{2, 0, 0}));
}

TEST(LinalgMatrixPower, NegativePowersInvertFirst) {
  // [[1, -1], [-1, 2]]² = [[2, -3], [-3, 5]].
  EXPECT_THAT(values(call_one("matrix_power", {unimodular()}, power(-2))), ElementsAre(2, -3, -3, 5));
  expect_op_error("matrix_power", {rank_one()}, power(-1), ErrorKind::SingularMatrix, "singular");
  expect_op_error("matrix_power", {from_values({1, 0, 0, 1}, {2, 2}, DType::Int64)}, power(-1),
                  ErrorKind::DtypeNotSupported, "[matrix_power]");
}

TEST(LinalgMatrixPower, MultipliesInPyTorchsOrder) {
  // Non-associative roundings tell the orders apart: float32 entries with many significant bits.
  const Tensor a = from_values({0.1, 0.7, -0.3, 0.9, 0.2, 0.45, -0.6, 0.35, 0.8}, {3, 3}, DType::Float32);
  const Tensor a2 = ops::matmul(a, a);
  const Tensor a4 = ops::matmul(a2, a2);
  EXPECT_EQ(values(call_one("matrix_power", {a}, power(3))), values(ops::matmul(a2, a)));
  EXPECT_EQ(values(call_one("matrix_power", {a}, power(5))), values(ops::matmul(a, a4)));
  EXPECT_EQ(values(call_one("matrix_power", {a}, power(6))), values(ops::matmul(a2, a4)));
  EXPECT_EQ(values(call_one("matrix_power", {a}, power(7))), values(ops::matmul(ops::matmul(a, a2), a4)));
}

TEST(LinalgMatrixPower, RejectsNonSquareAndBoolProducts) {
  expect_op_error("matrix_power", {from_values({1, 2, 3, 4, 5, 6}, {2, 3})}, power(2), ErrorKind::ShapeMismatch,
                  "[matrix_power]");
  expect_op_error("matrix_power", {from_values({1, 2, 3}, {3})}, power(0), ErrorKind::ShapeMismatch, "[matrix_power]");
  expect_op_error("matrix_power", {from_values({0, 1, 1, 0}, {2, 2}, DType::Bool)}, power(2),
                  ErrorKind::DtypeNotSupported, "[matrix_power]");
}

TEST(LinalgMatrixPower, Derivatives) {
  // sum(A²) = 1ᵀ·A·A·1: its gradient is 1·(A·1)ᵀ + (1ᵀ·A)ᵀ·1ᵀ; for [[1, 2], [3, 4]], A·1 = [3, 7] and
  // 1ᵀ·A = [4, 6]: [[3 + 4, 7 + 4], [3 + 6, 7 + 6]]. The identity of n = 0 is a constant.
  const Tensor a = from_values({1, 2, 3, 4}, {2, 2});
  EXPECT_THAT(values(gradient_of_sum("matrix_power", a, power(2))), ElementsAre(7, 11, 9, 13));
  EXPECT_THAT(values(gradient_of_sum("matrix_power", a, power(0))), ElementsAre(0, 0, 0, 0));
}

}  // namespace
}  // namespace funcspec
