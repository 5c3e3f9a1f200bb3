#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/creation.h"
#include "reference/api/view.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

using Values = std::vector<double>;

TEST(Full, FillsWithTheValue) {
  const Tensor t = ops::full({2, 2}, Scalar(1.5), DType::Float64);
  EXPECT_EQ(t.dtype(), DType::Float64);
  EXPECT_EQ(t.to_vector<double>(), (Values{1.5, 1.5, 1.5, 1.5}));
}

TEST(Full, DtypeInferredFromTheLiteral) {
  EXPECT_EQ(ops::full({1}, Scalar(true)).dtype(), DType::Bool);
  EXPECT_EQ(ops::full({1}, Scalar(std::int64_t{3})).dtype(), DType::Int64);
  EXPECT_EQ(ops::full({1}, Scalar(0.5)).dtype(), DType::Float32);
}

TEST(Full, RankZeroAndEmpty) {
  EXPECT_EQ(ops::full({}, Scalar(2.0)).to_vector<double>(), (Values{2.0}));
  EXPECT_EQ(ops::full({3, 0}, Scalar(2.0)).numel(), 0);
}

TEST(Full, NanFillInFloat) {
  const Tensor t = ops::full({1}, Scalar(std::numeric_limits<double>::quiet_NaN()), DType::Float64);
  EXPECT_TRUE(std::isnan(t.to_vector<double>()[0]));
}

TEST(Full, FloatIntoInt64Truncates) {
  EXPECT_EQ(ops::full({2}, Scalar(-2.75), DType::Int64).to_vector<std::int64_t>(), (std::vector<std::int64_t>{-2, -2}));
}

TEST(Full, InfinityIntoInt64IsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument,
                    [] { ops::full({2}, Scalar(std::numeric_limits<double>::infinity()), DType::Int64); });
}

TEST(Full, OverflowIntoFloat32IsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::full({2}, Scalar(1e300), DType::Float32); });
}

TEST(Full, NegativeSizeIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::full({2, -1}, Scalar(0.0)); });
}

TEST(Full, MetaDeviceAllocatesNothing) {
  const Tensor t = ops::full({1000, 1000}, Scalar(1.0), std::nullopt, "meta");
  EXPECT_EQ(t.device(), Device::Meta);
  EXPECT_FALSE(t.has_storage());
  EXPECT_EQ(t.shape(), (Shape{1000, 1000}));
}

TEST(Full, UnknownDeviceIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::full({1}, Scalar(1.0), std::nullopt, "tpu"); });
}

TEST(Arange, EndOnlyIsInt64) {
  const Tensor t = ops::arange(Scalar(std::int64_t{4}));
  EXPECT_EQ(t.dtype(), DType::Int64);
  EXPECT_EQ(t.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3}));
}

TEST(Arange, FloatArgumentsGiveFloat32AndCeilLength) {
  // ceil((2 - 1) / 0.3) = ceil(3.33) = 4 values: 1, 1.3, 1.6, 1.9.
  const Tensor t = ops::arange(Scalar(1.0), Scalar(2.0), Scalar(0.3));
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1.0f, 1.3f, 1.6f, 1.9f}));
}

TEST(Arange, NegativeStep) {
  EXPECT_EQ(
      ops::arange(Scalar(std::int64_t{10}), Scalar(std::int64_t{1}), Scalar(std::int64_t{-3})).to_vector<double>(),
      (Values{10, 7, 4}));
}

TEST(Arange, EqualBoundsAreEmpty) {
  EXPECT_EQ(ops::arange(Scalar(std::int64_t{3}), Scalar(std::int64_t{3})).shape(), (Shape{0}));
}

TEST(Arange, GivenDtype) {
  const Tensor t =
      ops::arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{3}), Scalar(std::int64_t{1}), DType::Float64);
  EXPECT_EQ(t.dtype(), DType::Float64);
  EXPECT_EQ(t.to_vector<double>(), (Values{0, 1, 2}));
}

TEST(Arange, Int64DtypeOfFloatArgumentsTruncatesEachValue) {
  // 0, 0.75, 1.5, 2.25 truncated.
  const Tensor t = ops::arange(Scalar(0.0), Scalar(3.0), Scalar(0.75), DType::Int64);
  EXPECT_EQ(t.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 1, 2}));
}

TEST(Arange, ZeroStepIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument,
                    [] { ops::arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{3}), Scalar(std::int64_t{0})); });
}

TEST(Arange, StepAgainstTheRangeIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::arange(Scalar(std::int64_t{5}), Scalar(std::int64_t{0})); });
}

TEST(Arange, InfiniteEndIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument,
                    [] { ops::arange(Scalar(0.0), Scalar(std::numeric_limits<double>::infinity())); });
}

TEST(Arange, BoolDtypeIsNotSupported) {
  expect_error_kind(ErrorKind::DtypeNotSupported,
                    [] { ops::arange(Scalar(std::int64_t{0}), Scalar(std::int64_t{2}), Scalar(1), DType::Bool); });
}

TEST(Arange, MetaDevice) {
  const Tensor t = ops::arange(Scalar(0.0), Scalar(1.0), Scalar(0.25), std::nullopt, "meta");
  EXPECT_EQ(t.device(), Device::Meta);
  EXPECT_EQ(t.shape(), (Shape{4}));
}

TEST(ZerosOnes, DefaultFloat32) {
  const Tensor z = ops::zeros({2});
  EXPECT_EQ(z.dtype(), DType::Float32);
  EXPECT_EQ(z.to_vector<double>(), (Values{0, 0}));
  EXPECT_EQ(ops::ones({2}, DType::Int64).to_vector<double>(), (Values{1, 1}));
}

TEST(ZerosOnes, MetaDevice) { EXPECT_EQ(ops::ones({3}, DType::Float32, "meta").device(), Device::Meta); }

TEST(Like, KeepsShapeDtypeAndDevice) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int64);
  const Tensor o = ops::ones_like(ops::transpose(x, 0, 1));
  EXPECT_EQ(o.shape(), (Shape{3, 2}));
  EXPECT_EQ(o.dtype(), DType::Int64);
  EXPECT_TRUE(o.is_contiguous());
  EXPECT_EQ(ops::zeros_like(x, DType::Bool).to_vector<double>(), (Values{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(ops::full_like(x, Scalar(2.9)).to_vector<double>(), (Values{2, 2, 2, 2, 2, 2}));
}

TEST(Like, MetaInputGivesMeta) {
  const Tensor m = Tensor::empty({4, 5}, DType::Float64, Device::Meta);
  const Tensor f = ops::full_like(m, Scalar(1.0));
  EXPECT_EQ(f.device(), Device::Meta);
  EXPECT_EQ(f.shape(), (Shape{4, 5}));
}

TEST(Like, DoesNotAliasItsInput) {
  const Tensor x = from_values({1, 2}, {2});
  EXPECT_FALSE(ops::zeros_like(x).shares_storage_with(x));
}

}  // namespace
}  // namespace funcspec
