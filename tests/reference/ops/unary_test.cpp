// Hand-worked tests of the unary elementwise ops; expected values are worked out by hand (or are
// textbook constants), not recomputed with the kernels' code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "conformance/samples/sample_checks.h"
#include "reference/api/conversion.h"
#include "reference/api/unary.h"
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

// --- neg, abs, sign, square, relu

TEST(UnaryNeg, NegatesIncludingZerosAndInfinities) {
  expect_same(values(ops::neg(f64({1.5, -2.0, 0.0, -0.0, kInf, kNaN}))), {-1.5, 2.0, -0.0, 0.0, -kInf, kNaN});
}

TEST(UnaryNeg, Int64WrapsAtTheMinimum) {
  const Tensor x = from_vector<std::int64_t>({5, std::numeric_limits<std::int64_t>::min()}, {2}, DType::Int64);
  const Tensor y = ops::neg(x);
  EXPECT_EQ(y.dtype(), DType::Int64);
  EXPECT_EQ(y.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-5, std::numeric_limits<std::int64_t>::min()}));
}

TEST(UnaryNeg, RejectsBool) {
  EXPECT_EQ(error_kind_of([] { ops::neg(bools({1, 0})); }), ErrorKind::DtypeNotSupported);
}

TEST(UnaryAbs, GivesMagnitudesAndPositiveZero) {
  expect_same(values(ops::abs(f64({-3.5, 2.0, -0.0, -kInf, kNaN}))), {3.5, 2.0, 0.0, kInf, kNaN});
}

TEST(UnaryAbs, KeepsInt64AndRejectsBool) {
  const Tensor y = ops::abs(i64({-7, 0, 4}));
  EXPECT_EQ(y.dtype(), DType::Int64);
  EXPECT_EQ(values(y), (std::vector<double>{7, 0, 4}));
  EXPECT_EQ(error_kind_of([] { ops::abs(bools({1})); }), ErrorKind::DtypeNotSupported);
}

TEST(UnarySign, NaNAndZerosGiveZeroAsInPyTorch) {
  expect_same(values(ops::sign(f64({-2.5, 0.1, 0.0, -0.0, kNaN, -kInf, kInf}))), {-1, 1, 0, 0, 0, -1, 1});
}

TEST(UnarySign, BoolIsItsOwnSignAndInt64StaysInt64) {
  const Tensor b = ops::sign(bools({1, 0}));
  EXPECT_EQ(b.dtype(), DType::Bool);
  EXPECT_EQ(values(b), (std::vector<double>{1, 0}));
  const Tensor i = ops::sign(i64({-4, 0, 9}));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_EQ(values(i), (std::vector<double>{-1, 0, 1}));
}

TEST(UnarySquare, SquaresFloats) { expect_same(values(ops::square(f64({-1.5, 3.0, -kInf}))), {2.25, 9.0, kInf}); }

TEST(UnarySquare, BoolBecomesInt64AsPyTorchPowDoes) {
  const Tensor y = ops::square(bools({1, 0}));
  EXPECT_EQ(y.dtype(), DType::Int64);
  EXPECT_EQ(values(y), (std::vector<double>{1, 0}));
}

TEST(UnaryRelu, ClampsNegativesAndPropagatesNaN) {
  expect_same(values(ops::relu(f64({-1.0, 2.5, 0.0, kNaN, -kInf}))), {0.0, 2.5, 0.0, kNaN, 0.0});
}

TEST(UnaryRelu, KeepsInt64AndRejectsBool) {
  EXPECT_EQ(ops::relu(i64({-3, 3})).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3}));
  EXPECT_EQ(error_kind_of([] { ops::relu(bools({1})); }), ErrorKind::DtypeNotSupported);
}

// --- floor, ceil, round

TEST(UnaryFloor, RoundsDownIncludingNegatives) {
  expect_same(values(ops::floor(f64({2.7, -2.2, -0.5, 3.0, kInf, kNaN}))), {2.0, -3.0, -1.0, 3.0, kInf, kNaN});
}

TEST(UnaryCeil, RoundsUpAndKeepsNegativeZero) {
  expect_same(values(ops::ceil(f64({2.2, -2.7, -0.5}))), {3.0, -2.0, -0.0});
}

TEST(UnaryRound, TiesGoToEven) {
  expect_same(values(ops::round(f64({0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, -2.6}))),
              {0.0, 2.0, 2.0, -0.0, -2.0, 2.0, -3.0});
}

TEST(UnaryRound, TiesGoToEvenInFloat32) {
  expect_same(values(ops::round(f32({0.5, 1.5, 2.5, -2.5}))), {0.0, 2.0, 2.0, -2.0});
}

TEST(UnaryRounding, IsTheIdentityOnInt64) {
  const Tensor x = i64({-3, 0, 8});
  for (const Tensor& y : {ops::floor(x), ops::ceil(x), ops::round(x)}) {
    EXPECT_EQ(y.dtype(), DType::Int64);
    EXPECT_EQ(values(y), (std::vector<double>{-3, 0, 8}));
  }
}

TEST(UnaryRounding, RejectsBool) {
  EXPECT_EQ(error_kind_of([] { ops::floor(bools({1})); }), ErrorKind::DtypeNotSupported);
  EXPECT_EQ(error_kind_of([] { ops::ceil(bools({1})); }), ErrorKind::DtypeNotSupported);
  EXPECT_EQ(error_kind_of([] { ops::round(bools({1})); }), ErrorKind::DtypeNotSupported);
}

// --- int-to-float ops

TEST(UnaryExp, HandWorkedValues) {
  expect_same(values(ops::exp(f64({0.0, 1.0, -kInf, kInf, kNaN}))), {1.0, M_E, 0.0, kInf, kNaN}, 1e-15);
}

TEST(UnaryExp, Int64AndBoolInputsGiveFloat32) {
  const Tensor y = ops::exp(i64({0, 1}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  expect_same(values(y), {1.0, M_E}, 1e-7);  // within a float32 rounding
  EXPECT_EQ(ops::exp(bools({1})).dtype(), DType::Float32);
}

TEST(UnaryExpm1, IsAccurateForTinyArguments) {
  // e^x - 1 = x + x^2/2 + ...: for x = 1e-10 that is 1.00000000005e-10.
  expect_same(values(ops::expm1(f64({1e-10, 0.0, -kInf, kInf}))), {1.00000000005e-10, 0.0, -1.0, kInf}, 1e-15);
}

TEST(UnaryLog, DomainEdges) {
  expect_same(values(ops::log(f64({1.0, M_E, 0.0, -0.0, -1.0, kInf}))), {0.0, 1.0, -kInf, -kInf, kNaN, kInf}, 1e-15);
}

TEST(UnaryLog1p, IsAccurateForTinyArgumentsAndHasAPoleAtMinusOne) {
  // log(1 + x) = x - x^2/2 + ...: 1e-10 - 5e-21.
  expect_same(values(ops::log1p(f64({1e-10, -1.0, -2.0, kInf, kNaN}))), {9.9999999995e-11, -kInf, kNaN, kInf, kNaN},
              1e-15);
}

TEST(UnaryLog1p, OracleDtypeGivesIeeeSpecialValues) {
  // Boost raises on these under its default policy; the reference must give the IEEE values.
  const Tensor x = ops::to_dtype(f64({-1.0, -2.0, kInf, kNaN}), DType::Oracle);
  expect_same(values(ops::log1p(x)), {-kInf, kNaN, kInf, kNaN});
}

TEST(UnaryExpm1, OracleDtypeGivesIeeeSpecialValues) {
  const Tensor x = ops::to_dtype(f64({kInf, -kInf, kNaN}), DType::Oracle);
  expect_same(values(ops::expm1(x)), {kInf, -1.0, kNaN});
}

TEST(UnarySqrt, ValuesAndDomain) {
  expect_same(values(ops::sqrt(f64({4.0, 2.25, 0.0, -0.0, -1.0, kInf}))), {2.0, 1.5, 0.0, -0.0, kNaN, kInf});
}

TEST(UnarySqrt, Int64GivesFloat32) {
  const Tensor y = ops::sqrt(i64({9, 16}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{3.0, 4.0}));
}

TEST(UnaryRsqrt, ValuesAndPoles) {
  expect_same(values(ops::rsqrt(f64({4.0, 0.25, 0.0, -0.0, -4.0, kInf}))), {0.5, 2.0, kInf, -kInf, kNaN, 0.0});
}

TEST(UnaryReciprocal, ValuesAndSignedInfinities) {
  expect_same(values(ops::reciprocal(f64({4.0, -0.5, 0.0, -0.0, kInf}))), {0.25, -2.0, kInf, -kInf, 0.0});
}

TEST(UnaryReciprocal, Int64GivesFloat32) {
  const Tensor y = ops::reciprocal(i64({2, 0}));
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(values(y), (std::vector<double>{0.5, kInf}));
}

TEST(UnaryTrig, HandWorkedValues) {
  expect_same(values(ops::sin(f64({0.0, M_PI / 2, M_PI / 6, kInf}))), {0.0, 1.0, 0.5, kNaN}, 1e-15);
  expect_same(values(ops::cos(f64({0.0, M_PI, M_PI / 3}))), {1.0, -1.0, 0.5}, 1e-15);
  expect_same(values(ops::tan(f64({0.0, M_PI / 4, -M_PI / 4}))), {0.0, 1.0, -1.0}, 1e-15);
}

TEST(UnaryTanh, SaturatesAtInfinity) {
  // tanh(ln 3) = (3 - 1/3) / (3 + 1/3) = 0.8.
  expect_same(values(ops::tanh(f64({0.0, std::log(3.0), kInf, -kInf, kNaN}))), {0.0, 0.8, 1.0, -1.0, kNaN}, 1e-15);
}

TEST(UnarySigmoid, HandWorkedValuesAndTails) {
  // sigmoid(ln 3) = 1 / (1 + 1/3) = 0.75; sigmoid(-ln 3) = 0.25.
  expect_same(values(ops::sigmoid(f64({0.0, std::log(3.0), -std::log(3.0), kInf, -kInf, kNaN}))),
              {0.5, 0.75, 0.25, 1.0, 0.0, kNaN}, 1e-15);
}

TEST(UnarySigmoid, KeepsRelativeAccuracyInTheNegativeTail) {
  // sigmoid(-700) = e^-700 / (1 + e^-700), which is e^-700 to double precision.
  const double got = values(ops::sigmoid(f64({-700.0})))[0];
  EXPECT_NEAR(got / std::exp(-700.0), 1.0, 1e-14);
}

TEST(UnaryErf, HandWorkedValues) {
  expect_same(values(ops::erf(f64({0.0, kInf, -kInf, kNaN}))), {0.0, 1.0, -1.0, kNaN});
  // erf(1) = 0.8427007929497149 (tables).
  expect_same(values(ops::erf(f64({1.0, -1.0}))), {0.8427007929497149, -0.8427007929497149}, 1e-15);
}

// --- gelu, softplus

TEST(UnaryGelu, ExactFormUsesTheNormalCdf) {
  // gelu(1) = Phi(1) = 0.8413447460685429; gelu(-1) = -Phi(-1) = -0.15865525393145707.
  expect_same(values(ops::gelu(f64({0.0, 1.0, -1.0, kInf, kNaN}))),
              {0.0, 0.8413447460685429, -0.15865525393145707, kInf, kNaN}, 1e-15);
}

TEST(UnaryGelu, MinusInfinityGivesZeroNotNaN) {
  expect_same(values(ops::gelu(f64({-kInf}))), {-0.0});
  expect_same(values(ops::gelu(f64({-kInf}), "tanh")), {-0.0});
}

TEST(UnaryGelu, TanhApproximation) {
  // u = sqrt(2/pi) (1 + 0.044715) = 0.8335594...; gelu(1) = (1 + tanh(u)) / 2 = 0.8411919906082768.
  expect_same(values(ops::gelu(f64({1.0, 0.0}), "tanh")), {0.8411919906082768, 0.0}, 1e-14);
}

TEST(UnaryGelu, RejectsUnknownApproximation) {
  EXPECT_EQ(error_kind_of([] { ops::gelu(f64({1.0}), "erf"); }), ErrorKind::InvalidArgument);
}

TEST(UnaryGelu, RejectsInt64) {
  EXPECT_EQ(error_kind_of([] { ops::gelu(i64({1})); }), ErrorKind::DtypeNotSupported);
}

TEST(UnarySoftplus, DefaultIsLogOnePlusExp) {
  // softplus(0) = ln 2; softplus(ln 3) = ln 4.
  expect_same(values(ops::softplus(f64({0.0, std::log(3.0), -kInf, kNaN}))), {M_LN2, 2 * M_LN2, 0.0, kNaN}, 1e-15);
}

TEST(UnarySoftplus, BetaScalesAndThresholdSwitchesToIdentity) {
  // beta 2: softplus(0) = ln 2 / 2. Threshold 3: beta * x = 4 > 3 returns x itself, 3 is not above.
  expect_same(values(ops::softplus(f64({0.0, 2.0, 1.5}), 2.0, 3.0)), {M_LN2 / 2, 2.0, std::log1p(std::exp(3.0)) / 2},
              1e-15);
}

TEST(UnarySoftplus, RejectsInt64) {
  EXPECT_EQ(error_kind_of([] { ops::softplus(i64({1})); }), ErrorKind::DtypeNotSupported);
}

// --- logical_not

TEST(UnaryLogicalNot, AnyDtypeGivesBool) {
  const Tensor y = ops::logical_not(f64({0.0, -0.0, 2.5, kNaN}));
  EXPECT_EQ(y.dtype(), DType::Bool);
  EXPECT_EQ(values(y), (std::vector<double>{1, 1, 0, 0}));
  EXPECT_EQ(values(ops::logical_not(i64({0, 3}))), (std::vector<double>{1, 0}));
  EXPECT_EQ(values(ops::logical_not(bools({1, 0}))), (std::vector<double>{0, 1}));
}

// --- shapes, layouts, devices

TEST(UnaryShapes, RankZeroAndEmpty) {
  const Tensor scalar = ops::exp(from_values({0.0}, {}));
  EXPECT_EQ(scalar.shape(), Shape{});
  EXPECT_EQ(values(scalar), (std::vector<double>{1.0}));
  const Tensor empty = ops::neg(Tensor::empty({0, 3}, DType::Float32));
  EXPECT_EQ(empty.shape(), (Shape{0, 3}));
  EXPECT_EQ(empty.dtype(), DType::Float32);
}

TEST(UnaryShapes, NonContiguousInputGivesLogicalOrder) {
  // The transpose of [[1, -2, 3], [-4, 5, -6]] is [[1, -4], [-2, 5], [3, -6]].
  const Tensor base = from_values({1, -2, 3, -4, 5, -6}, {2, 3});
  const Tensor transposed = Tensor::view_of(base, {3, 2}, {1, 3}, 0);
  const Tensor y = ops::abs(transposed);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(values(y), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(UnaryShapes, MetaGivesShapeAndDtypeWithoutStorage) {
  const Tensor x = Tensor::empty({2, 5}, DType::Int64, Device::Meta);
  const Tensor y = ops::sqrt(x);
  EXPECT_EQ(y.device(), Device::Meta);
  EXPECT_FALSE(y.has_storage());
  EXPECT_EQ(y.shape(), (Shape{2, 5}));
  EXPECT_EQ(y.dtype(), DType::Float32);
}

// --- derived variants

TEST(UnaryInPlace, WritesIntoSelfAndReturnsIt) {
  const Tensor x = f64({-1.0, 2.0});
  const Tensor r = ops::abs_(x);
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(values(x), (std::vector<double>{1.0, 2.0}));
}

TEST(UnaryInPlace, WritesThroughANonContiguousView) {
  const Tensor base = from_values({1, -2, 3, -4}, {4});
  const Tensor every_other = Tensor::view_of(base, {2}, {2}, 0);
  ops::neg_(every_other);
  EXPECT_EQ(values(base), (std::vector<double>{-1, -2, -3, -4}));
}

TEST(UnaryInPlace, IntToFloatOpCannotWriteIntoInt64) {
  const Tensor x = i64({1, 2});
  EXPECT_EQ(error_kind_of([&] { ops::exp_(x); }), ErrorKind::DtypeCastNotAllowed);
  EXPECT_EQ(values(x), (std::vector<double>{1, 2}));
}

TEST(UnaryInPlace, LogicalNotWritesZerosAndOnesIntoFloat) {
  const Tensor x = f64({0.0, 3.0});
  ops::logical_not_(x);
  EXPECT_EQ(values(x), (std::vector<double>{1.0, 0.0}));
}

TEST(UnaryInPlace, GeluTakesItsAttribute) {
  const Tensor x = f64({1.0});
  ops::gelu_(x, "tanh");
  expect_same(values(x), {0.8411919906082768}, 1e-14);
}

TEST(UnaryOut, WritesIntoOutConvertingToItsDtype) {
  const Tensor out = Tensor::empty({3}, DType::Float64);
  const Tensor r = ops::sqrt_out(i64({4, 9, 16}), out);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values(out), (std::vector<double>{2, 3, 4}));
}

TEST(UnaryOut, RejectsAWronglyShapedOut) {
  const Tensor out = Tensor::empty({2}, DType::Float64);
  EXPECT_EQ(error_kind_of([&] { ops::exp_out(f64({1, 2, 3}), out); }), ErrorKind::OutShapeMismatch);
}

TEST(UnaryOut, SoftplusTakesItsAttributes) {
  const Tensor out = Tensor::empty({1}, DType::Float64);
  ops::softplus_out(f64({2.0}), out, 2.0, 3.0);
  EXPECT_EQ(values(out), (std::vector<double>{2.0}));
}

// --- the catalogue-wide checks over this family's samples

}  // namespace
}  // namespace funcspec
