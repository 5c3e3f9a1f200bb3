// Hand-worked tests of the binary elementwise ops; expected values are worked out by hand, not
// recomputed with the kernels' code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "conformance/samples/sample_checks.h"
#include "reference/api/binary.h"
#include "reference/api/conversion.h"
#include "reference/ops/registry.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::bools;
using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::expect_same;
using testing_support::f32;
using testing_support::f64;
using testing_support::i64;
using testing_support::kInf;
using testing_support::kNaN;
using testing_support::values;

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

using ops::lit;

// --- add, sub

TEST(BinaryAdd, AlphaScalesOther) {
  expect_same(values(ops::add(f64({1.0, 2.0}), f64({0.5, -1.0}), 2.5)), {2.25, -0.5});
}

TEST(BinaryAdd, IsCorrectlyRoundedWithAlpha) {
  // 1 + (-3) * (1/3 rounded): the product is -(1 - 2^-54) exactly, so the true sum is 2^-54;
  // rounding the product first would give -1 and a sum of 0.
  expect_same(values(ops::add(f64({1.0}), f64({1.0 / 3.0}), -3)), {std::ldexp(1.0, -54)});
}

TEST(BinaryAdd, RejectsFloatAlphaForIntegerResults) {
  EXPECT_EQ(error_kind_of([] { ops::add(i64({1}), i64({2}), 2.5); }), ErrorKind::InvalidArgument);
}

TEST(BinarySub, SubtractsWithAlphaAndBroadcasts) {
  const Tensor a = from_values({10, 20, 30, 40, 50, 60}, {2, 3});
  const Tensor y = ops::sub(a, f64({1, 2, 3}), 2);
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(y), (std::vector<double>{8, 16, 24, 38, 46, 54}));
}

TEST(BinarySub, IsCorrectlyRoundedWithAlpha) {
  // 1 - 3 * (1/3 rounded): the product is 1 - 2^-54 exactly, so the true difference is 2^-54;
  // computing the product first would round it to 1 and give 0.
  const double third = 1.0 / 3.0;
  expect_same(values(ops::sub(f64({1.0}), f64({third}), 3)), {std::ldexp(1.0, -54)});
}

TEST(BinarySub, RejectsBoolOperandsAsPyTorchDoes) {
  EXPECT_EQ(error_kind_of([] { ops::sub(bools({1}), bools({0})); }), ErrorKind::DtypeNotSupported);
  EXPECT_EQ(error_kind_of([] { ops::sub(f64({1.0}), bools({1})); }), ErrorKind::DtypeNotSupported);
  EXPECT_EQ(error_kind_of([] { ops::sub(bools({1}), lit(1)); }), ErrorKind::DtypeNotSupported);
}

TEST(BinarySub, RejectsFloatAlphaForIntegerResults) {
  EXPECT_EQ(error_kind_of([] { ops::sub(i64({1}), i64({2}), 0.5); }), ErrorKind::InvalidArgument);
}

TEST(BinarySub, Int64WrapsOnOverflow) {
  const Tensor a = from_vector<std::int64_t>({kInt64Min}, {1}, DType::Int64);
  EXPECT_EQ(ops::sub(a, i64({1})).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()}));
}

TEST(BinarySub, InfinitiesGiveNaN) { expect_same(values(ops::sub(f64({kInf, kInf}), f64({kInf, 1.0}))), {kNaN, kInf}); }

// --- mul

TEST(BinaryMul, PromotesIntWithFloatLiteralToFloat32) {
  const Tensor y = ops::mul(i64({2, -3}), lit(1.5));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{3.0, -4.5}));
}

TEST(BinaryMul, BoolTimesBoolIsLogicalAnd) {
  const Tensor y = ops::mul(bools({1, 1, 0}), bools({1, 0, 0}));
  EXPECT_EQ(y.dtype(), DType::Bool);
  EXPECT_EQ(values(y), (std::vector<double>{1, 0, 0}));
}

TEST(BinaryMul, ZeroTimesInfinityIsNaN) {
  expect_same(values(ops::mul(f64({0.0, -2.0}), f64({kInf, 0.0}))), {kNaN, -0.0});
}

TEST(BinaryMul, ZeroDimTensorDoesNotWidenADimensionedOne) {
  // float32[2] * float64[] stays float32 (NOTE: [type promotion]).
  const Tensor y = ops::mul(f32({1.0, 2.0}), from_values({3.0}, {}, DType::Float64));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{3.0, 6.0}));
}

// --- div

TEST(BinaryDiv, TrueDivisionOfIntegersGivesFloat32) {
  const Tensor y = ops::div(i64({7, -7, 1, 0}), i64({2, 2, 0, 0}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  expect_same(values(y), {3.5, -3.5, kInf, kNaN});
}

TEST(BinaryDiv, TruncRoundsTowardZero) {
  const Tensor y = ops::div(i64({7, -7, 7, -7}), i64({2, 2, -2, -2}), "trunc");
  EXPECT_EQ(y.dtype(), DType::Int64);
  EXPECT_EQ(values(y), (std::vector<double>{3, -3, -3, 3}));
}

TEST(BinaryDiv, FloorRoundsTowardMinusInfinity) {
  EXPECT_EQ(values(ops::div(i64({7, -7, 7, -7}), i64({2, 2, -2, -2}), "floor")), (std::vector<double>{3, -4, -4, 3}));
}

TEST(BinaryDiv, FloatRoundingModes) {
  expect_same(values(ops::div(f64({7.5, -7.5, 0.5, -0.5}), f64({2.0, 2.0, 2.0, 2.0}), "trunc")),
              {3.0, -3.0, 0.0, -0.0});
  expect_same(values(ops::div(f64({7.5, -7.5, 0.5, -0.5}), f64({2.0, 2.0, 2.0, 2.0}), "floor")),
              {3.0, -4.0, 0.0, -1.0});
}

TEST(BinaryDiv, TruncUsesTheExactQuotient) {
  // (3 + 2^-51) / (1 + 2^-52) = 3 - 2^-52 + 2^-104 - ..., just below 3 but rounded to 3.0 as a
  // double: the exact quotient truncates to 2 (PyTorch truncates the rounded one and gives 3).
  const Tensor x = f64({3.0 + std::ldexp(1.0, -51)});
  const Tensor y = f64({1.0 + std::ldexp(1.0, -52)});
  ASSERT_EQ(values(ops::div(x, y)), (std::vector<double>{3.0}));
  expect_same(values(ops::div(x, y, "trunc")), {2.0});
  expect_same(values(ops::div(x, y, "floor")), {2.0});
}

TEST(BinaryDiv, FloatRoundingModesByZeroFollowIeee) {
  expect_same(values(ops::div(f64({1.0, -1.0, 0.0}), f64({0.0, 0.0, 0.0}), "floor")), {kInf, -kInf, kNaN});
  expect_same(values(ops::div(f64({1.0, -1.0, 0.0}), f64({0.0, 0.0, 0.0}), "trunc")), {kInf, -kInf, kNaN});
}

TEST(BinaryDiv, FloorByInfinityFollowsPython) {
  // Python: 5.0 // inf == 0.0 and -5.0 // inf == -1.0.
  expect_same(values(ops::div(f64({5.0, -5.0}), f64({kInf, kInf}), "floor")), {0.0, -1.0});
}

TEST(BinaryDiv, IntegerDivisionByZeroWithRoundingModeIsAnError) {
  const Tensor out = i64({9, 9});
  EXPECT_EQ(error_kind_of([&] { ops::div_out(i64({1, 2}), i64({1, 0}), out, "floor"); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(values(out), (std::vector<double>{9, 9})) << "nothing is written before the error";
  EXPECT_EQ(error_kind_of([] { ops::div(i64({1}), i64({0}), "trunc"); }), ErrorKind::InvalidArgument);
}

TEST(BinaryDiv, Int64MinByMinusOneWraps) {
  const Tensor a = from_vector<std::int64_t>({kInt64Min}, {1}, DType::Int64);
  EXPECT_EQ(ops::div(a, i64({-1}), "floor").to_vector<std::int64_t>(), (std::vector<std::int64_t>{kInt64Min}));
}

TEST(BinaryDiv, RejectsUnknownRoundingMode) {
  EXPECT_EQ(error_kind_of([] { ops::div(f64({1.0}), f64({2.0}), "round"); }), ErrorKind::InvalidArgument);
}

TEST(BinaryDiv, InPlaceTrueDivisionCannotWriteIntoInt64) {
  const Tensor x = i64({4});
  EXPECT_EQ(error_kind_of([&] { ops::div_(x, i64({2})); }), ErrorKind::DtypeCastNotAllowed);
  ops::div_(x, i64({2}), "floor");
  EXPECT_EQ(values(x), (std::vector<double>{2}));
}

// --- remainder

TEST(BinaryRemainder, TakesTheSignOfTheDivisor) {
  EXPECT_EQ(values(ops::remainder(i64({7, -7, 7, -7, 6}), i64({3, 3, -3, -3, 3}))),
            (std::vector<double>{1, 2, -2, -1, 0}));
  expect_same(values(ops::remainder(f64({5.5, -5.5, 5.5, -5.5}), f64({2.0, 2.0, -2.0, -2.0}))), {1.5, 0.5, -0.5, -1.5});
}

TEST(BinaryRemainder, FloatSpecialValues) {
  // x % 0 and inf % y are NaN; Python: -1.0 % inf == inf and 1.0 % inf == 1.0.
  expect_same(values(ops::remainder(f64({1.0, kInf, -1.0, 1.0}), f64({0.0, 2.0, kInf, kInf}))),
              {kNaN, kNaN, kInf, 1.0});
}

TEST(BinaryRemainder, IntegerRemainderByZeroIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::remainder(i64({5}), i64({0})); }), ErrorKind::InvalidArgument);
}

TEST(BinaryRemainder, RejectsBool) {
  EXPECT_EQ(error_kind_of([] { ops::remainder(bools({1}), bools({1})); }), ErrorKind::DtypeNotSupported);
}

// --- pow

TEST(BinaryPow, IntegerPowers) {
  const Tensor y = ops::pow(i64({2, -3, 0, 5}), i64({10, 3, 0, 1}));
  EXPECT_EQ(y.dtype(), DType::Int64);
  EXPECT_EQ(values(y), (std::vector<double>{1024, -27, 1, 5}));
}

TEST(BinaryPow, IntegerBaseToNegativeIntegerPowerIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::pow(i64({2}), lit(-1)); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(error_kind_of([] { ops::pow(i64({2, 3}), i64({1, -2})); }), ErrorKind::InvalidArgument);
}

TEST(BinaryPow, IntegerBaseWithFloatExponentGivesFloat32) {
  const Tensor y = ops::pow(i64({4, 2}), lit(-0.5));
  EXPECT_EQ(y.dtype(), DType::Float32);
  // 2^-0.5 = 0.7071067811865476, within a float32 rounding.
  expect_same(values(y), {0.5, 0.7071067811865476}, 1e-7);
}

TEST(BinaryPow, FloatSpecialValuesFollowIeee) {
  // pow(x, 0) = 1 and pow(1, y) = 1 even for NaN; a negative base with a fractional exponent is NaN.
  expect_same(values(ops::pow(f64({kNaN, 1.0, -8.0, 0.0, -0.0, -kInf, -1.0, -2.0}),
                              f64({0.0, kNaN, 1.0 / 3.0, -1.0, -1.0, kNaN, kInf, 3.0}))),
              {1.0, 1.0, kNaN, kInf, -kInf, kNaN, 1.0, -8.0});
}

TEST(BinaryPow, OracleAgreesOnSpecialValues) {
  const Tensor base = ops::to_dtype(f64({kNaN, 1.0, -kInf, -0.0}), DType::Oracle);
  const Tensor exponent = ops::to_dtype(f64({0.0, kNaN, kNaN, -1.0}), DType::Oracle);
  expect_same(values(ops::pow(base, exponent)), {1.0, 1.0, kNaN, -kInf});
}

// --- maximum, minimum

TEST(BinaryMaximum, PropagatesNaNFromEitherSide) {
  expect_same(values(ops::maximum(f64({1.0, kNaN, 3.0, -kInf}), f64({2.0, 0.0, kNaN, -5.0}))), {2.0, kNaN, kNaN, -5.0});
}

TEST(BinaryMinimum, PropagatesNaNFromEitherSide) {
  expect_same(values(ops::minimum(f64({1.0, kNaN, 3.0, kInf}), f64({2.0, 0.0, kNaN, 5.0}))), {1.0, kNaN, kNaN, 5.0});
}

TEST(BinaryMaximum, BoolIsLogicalOrAndMixedPromotes) {
  EXPECT_EQ(values(ops::maximum(bools({1, 0, 0}), bools({0, 1, 0}))), (std::vector<double>{1, 1, 0}));
  const Tensor y = ops::minimum(i64({3, -1}), f32({2.5, 0.0}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{2.5, -1.0}));
}

// --- atan2

TEST(BinaryAtan2, QuadrantsAndSignedZeros) {
  expect_same(
      values(ops::atan2(f64({1.0, 1.0, -1.0, 0.0, -0.0, 0.0, 1.0}), f64({1.0, -1.0, -1.0, -1.0, -1.0, 0.0, 0.0}))),
      {M_PI / 4, 3 * M_PI / 4, -3 * M_PI / 4, M_PI, -M_PI, 0.0, M_PI / 2}, 1e-15);
}

TEST(BinaryAtan2, NaNAnywhereGivesNaNAlsoInTheOracle) {
  const Tensor y = f64({kInf, 0.0, kNaN});
  const Tensor x = f64({kNaN, kNaN, 1.0});
  expect_same(values(ops::atan2(y, x)), {kNaN, kNaN, kNaN});
  expect_same(values(ops::atan2(ops::to_dtype(y, DType::Oracle), ops::to_dtype(x, DType::Oracle))), {kNaN, kNaN, kNaN});
}

TEST(BinaryAtan2, IntegersGiveFloat32) {
  const Tensor y = ops::atan2(i64({0}), i64({1}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{0.0}));
}

// --- comparisons and logical ops

TEST(BinaryCompare, AllSixOnTiesAndOrder) {
  const Tensor a = f64({1.0, 2.0, 3.0});
  const Tensor b = f64({2.0, 2.0, 2.0});
  EXPECT_EQ(values(ops::eq(a, b)), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(values(ops::ne(a, b)), (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(values(ops::lt(a, b)), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(values(ops::le(a, b)), (std::vector<double>{1, 1, 0}));
  EXPECT_EQ(values(ops::gt(a, b)), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(values(ops::ge(a, b)), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(ops::eq(a, b).dtype(), DType::Bool);
}

TEST(BinaryCompare, NaNIsUnequalToEverything) {
  const Tensor n = f64({kNaN});
  EXPECT_EQ(values(ops::eq(n, n)), (std::vector<double>{0}));
  EXPECT_EQ(values(ops::ne(n, n)), (std::vector<double>{1}));
  EXPECT_EQ(values(ops::le(n, n)), (std::vector<double>{0}));
  EXPECT_EQ(values(ops::ge(n, f64({kInf}))), (std::vector<double>{0}));
}

TEST(BinaryCompare, ComputesInThePromotedDtype) {
  // 2^24 + 1 is not a float32: as int64 it differs from the float32 16777216 when compared in
  // float32 (the promoted dtype, PyTorch's rule) it does not.
  EXPECT_EQ(values(ops::eq(i64({16777217}), f32({16777216.0}))), (std::vector<double>{1}));
  EXPECT_EQ(values(ops::eq(i64({3}), lit(3.0))), (std::vector<double>{1}));
}

TEST(BinaryLogical, AndOrOnAnyDtypes) {
  EXPECT_EQ(values(ops::logical_and(f64({0.0, 0.5, kNaN, 2.0}), i64({1, 1, 3, 0}))), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(values(ops::logical_or(f64({0.0, -0.0, 0.0}), bools({0, 0, 1}))), (std::vector<double>{0, 0, 1}));
}

TEST(BinaryLogical, TinyFloat64IsTrueEvenBesideFloat32) {
  // Promotion would make the 0-dim float64 a float32 zero; logical ops look at each operand itself.
  const Tensor y = ops::logical_and(f32({1.0}), from_values({1e-300}, {}, DType::Float64));
  EXPECT_EQ(values(y), (std::vector<double>{1}));
}

TEST(BinaryCompare, InPlaceWritesZerosAndOnesIntoSelf) {
  const Tensor x = f64({1.0, 5.0});
  ops::lt_(x, lit(2.0));
  EXPECT_EQ(values(x), (std::vector<double>{1.0, 0.0}));
}

// --- where

TEST(BinaryWhere, SelectsAndBroadcastsAllThree) {
  const Tensor cond = from_values({1, 0}, {2, 1}, DType::Bool);
  const Tensor y = ops::where(cond, f64({1, 2, 3}), lit(0.0));
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(y.dtype(), DType::Float64);
  EXPECT_EQ(values(y), (std::vector<double>{1, 2, 3, 0, 0, 0}));
}

TEST(BinaryWhere, PromotesSelfAndOtherButNotTheCondition) {
  const Tensor y = ops::where(bools({1, 0}), i64({1, 2}), f32({0.5, 0.25}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{1.0, 0.25}));
}

TEST(BinaryWhere, RequiresABoolCondition) {
  EXPECT_EQ(error_kind_of([] { ops::where(f64({1.0}), f64({1.0}), f64({2.0})); }), ErrorKind::DtypeNotSupported);
}

TEST(BinaryWhere, RejectsUnbroadcastableShapes) {
  EXPECT_EQ(error_kind_of([] { ops::where(bools({1, 0}), f64({1, 2, 3}), f64({1})); }), ErrorKind::ShapeMismatch);
}

TEST(BinaryWhere, OutVariantWritesIntoOut) {
  const Tensor out = Tensor::empty({2}, DType::Float64);
  const Tensor r = ops::where_out(bools({0, 1}), f64({1, 2}), f64({3, 4}), out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{3, 2}));
}

// --- clamp

TEST(BinaryClamp, BothBounds) {
  EXPECT_EQ(values(ops::clamp(f64({-5, 0.5, 5}), lit(-1.0), lit(1.0))), (std::vector<double>{-1, 0.5, 1}));
}

TEST(BinaryClamp, OneBoundOnly) {
  EXPECT_EQ(values(ops::clamp(f64({-5, 5}), lit(0.0), Tensor())), (std::vector<double>{0, 5}));
  EXPECT_EQ(values(ops::clamp(f64({-5, 5}), Tensor(), lit(0.0))), (std::vector<double>{-5, 0}));
}

TEST(BinaryClamp, MinAboveMaxGivesMax) {
  EXPECT_EQ(values(ops::clamp(f64({-5, 0, 5}), lit(2.0), lit(1.0))), (std::vector<double>{1, 1, 1}));
}

TEST(BinaryClamp, NaNInSelfOrABoundPropagates) {
  expect_same(values(ops::clamp(f64({kNaN, 0.5, 0.5}), f64({0.0, kNaN, 0.0}), f64({1.0, 1.0, kNaN}))),
              {kNaN, kNaN, kNaN});
}

TEST(BinaryClamp, TensorBoundsBroadcastAndPromote) {
  const Tensor y = ops::clamp(i64({-3, 0, 3}), f32({-1.5}), Tensor());
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{-1.5, 0, 3}));
}

TEST(BinaryClamp, NeedsAtLeastOneBound) {
  EXPECT_EQ(error_kind_of([] { ops::clamp(f64({1.0}), Tensor(), Tensor()); }), ErrorKind::InvalidArgument);
}

TEST(BinaryClamp, RejectsBool) {
  EXPECT_EQ(error_kind_of([] { ops::clamp(bools({1}), lit(false), lit(true)); }), ErrorKind::DtypeNotSupported);
}

TEST(BinaryClamp, InPlaceClampsSelf) {
  const Tensor x = i64({-9, 9});
  const Tensor r = ops::clamp_(x, lit(-2), lit(2));
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{-2, 2}));
}

// --- shapes, layouts, devices, variants shared by the family

TEST(BinaryShapes, RankZeroSizeZeroAndNonContiguous) {
  EXPECT_EQ(ops::mul(from_values({2.0}, {}), from_values({3.0}, {})).shape(), Shape{});
  EXPECT_EQ(ops::mul(Tensor::empty({0, 3}, DType::Float64), f64({1, 2, 3})).shape(), (Shape{0, 3}));
  // The transpose of [[1, 2, 3], [4, 5, 6]] minus [[1, 1], [1, 1], [1, 1]].
  const Tensor base = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor transposed = Tensor::view_of(base, {3, 2}, {1, 3}, 0);
  EXPECT_EQ(values(ops::sub(transposed, lit(1.0))), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(BinaryShapes, UnbroadcastableShapesAreAShapeMismatch) {
  EXPECT_EQ(error_kind_of([] { ops::mul(f64({1, 2}), f64({1, 2, 3})); }), ErrorKind::ShapeMismatch);
}

TEST(BinaryShapes, MetaInfersShapeAndDtype) {
  const Tensor a = Tensor::empty({4, 1}, DType::Int64, Device::Meta);
  const Tensor b = Tensor::empty({3}, DType::Int64, Device::Meta);
  const Tensor y = ops::div(a, b);
  EXPECT_EQ(y.device(), Device::Meta);
  EXPECT_EQ(y.shape(), (Shape{4, 3}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(ops::ge(a, b).dtype(), DType::Bool);
}

TEST(BinaryInPlace, BroadcastBeyondSelfIsAnError) {
  const Tensor x = f64({1.0});
  EXPECT_EQ(error_kind_of([&] { ops::mul_(x, f64({1, 2})); }), ErrorKind::InplaceBroadcast);
  EXPECT_EQ(values(x), (std::vector<double>{1.0}));
}

TEST(BinaryInPlace, WritesThroughAViewIntoItsBase) {
  const Tensor base = f64({1, 2, 3, 4});
  const Tensor every_other = Tensor::view_of(base, {2}, {2}, 0);
  ops::sub_(every_other, lit(1.0));
  EXPECT_EQ(values(base), (std::vector<double>{0, 2, 2, 4}));
}

TEST(BinaryOut, ComparisonWritesIntoABoolOut) {
  const Tensor out = Tensor::empty({2}, DType::Bool);
  ops::gt_out(f64({1, 3}), lit(2.0), out);
  EXPECT_EQ(values(out), (std::vector<double>{0, 1}));
}

TEST(BinaryOut, FloatResultCannotGoIntoInt64Out) {
  const Tensor out = Tensor::empty({1}, DType::Int64);
  EXPECT_EQ(error_kind_of([&] { ops::pow_out(f64({2.0}), f64({2.0}), out); }), ErrorKind::DtypeCastNotAllowed);
}

// --- the catalogue-wide checks over this family's samples

}  // namespace
}  // namespace funcspec
