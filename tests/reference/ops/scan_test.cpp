// Hand-worked tests of the scans and reorderings (docs/ops/scan.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/scan.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::kNaN;
using testing_support::matrix23;
using testing_support::transposed_matrix23;
using testing_support::values;

using Values = std::vector<double>;
using Indices = std::vector<std::int64_t>;

Indices indices(const Tensor& t) { return t.to_vector<std::int64_t>(); }

TEST(ScanCumsum, RunningSums) {
  EXPECT_EQ(values(ops::cumsum(from_values({1, 2, 3, 4}, {4}), 0)), (Values{1, 3, 6, 10}));
}

TEST(ScanCumsum, AlongDimZeroOfNonContiguousInput) {
  EXPECT_EQ(values(ops::cumsum(transposed_matrix23(), 0)), (Values{1, 2, 3, 5, 7, 9}));
}

TEST(ScanCumsum, NegativeDim) { EXPECT_EQ(values(ops::cumsum(matrix23(), -1)), (Values{1, 3, 6, 4, 9, 15})); }

TEST(ScanCumsum, BoolAndInt64ScanInInt64) {
  const Tensor c = ops::cumsum(from_values({1, 1, 0, 1}, {4}, DType::Bool), 0);
  EXPECT_EQ(c.dtype(), DType::Int64);
  EXPECT_EQ(indices(c), (Indices{1, 2, 2, 3}));
}

TEST(ScanCumsum, DtypeCastsTheInputFirst) {
  const Tensor c = ops::cumsum(from_values({1, 2}, {2}, DType::Int64), 0, DType::Float32);
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_EQ(values(c), (Values{1, 3}));
}

TEST(ScanCumsum, NanPropagatesForward) {
  const Values c = values(ops::cumsum(from_values({1, kNaN, 2}, {3}), 0));
  EXPECT_EQ(c[0], 1);
  EXPECT_TRUE(std::isnan(c[1]) && std::isnan(c[2]));
}

TEST(ScanCumsum, RankZeroAndEmpty) {
  EXPECT_EQ(values(ops::cumsum(from_values({7}, {}), -1)), Values{7});
  EXPECT_EQ(ops::cumsum(Tensor::empty({0, 2}, DType::Float64), 0).shape(), (Shape{0, 2}));
}

TEST(ScanCumsum, DimOutOfRangeIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::cumsum(matrix23(), 2); }), ErrorKind::DimOutOfRange);
}

TEST(ScanCumprod, RunningProducts) {
  const Tensor c = ops::cumprod(from_values({1, 2, 3, 4}, {4}, DType::Int64), 0);
  EXPECT_EQ(c.dtype(), DType::Int64);
  EXPECT_EQ(indices(c), (Indices{1, 2, 6, 24}));
}

TEST(ScanCumprod, AlongRows) { EXPECT_EQ(values(ops::cumprod(matrix23(), 1)), (Values{1, 2, 6, 4, 20, 120})); }

TEST(ScanFlip, OneDim) { EXPECT_EQ(values(ops::flip(matrix23(), {1})), (Values{3, 2, 1, 6, 5, 4})); }

TEST(ScanFlip, BothDimsOfNonContiguousInput) {
  EXPECT_EQ(values(ops::flip(transposed_matrix23(), {0, -1})), (Values{6, 5, 4, 3, 2, 1}));
}

TEST(ScanFlip, NoDimsIsACopy) { EXPECT_EQ(values(ops::flip(matrix23(), {})), (Values{1, 2, 3, 4, 5, 6})); }

TEST(ScanFlip, ResultDoesNotAliasTheInput) {
  const Tensor x = from_values({1, 2}, {2});
  const Tensor y = ops::flip(x, {0});
  EXPECT_FALSE(y.shares_storage_with(x));
}

TEST(ScanFlip, RepeatedDimIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::flip(matrix23(), {1, -1}); }), ErrorKind::InvalidArgument);
}

TEST(ScanFlip, EmptyAndRankZero) {
  EXPECT_EQ(ops::flip(Tensor::empty({0, 3}, DType::Float64), {0}).shape(), (Shape{0, 3}));
  EXPECT_EQ(values(ops::flip(from_values({4}, {}), {0})), Values{4});
}

TEST(ScanRoll, PositiveShiftMovesElementsForward) {
  EXPECT_EQ(values(ops::roll(from_values({1, 2, 3, 4, 5}, {5}), {2}, {0})), (Values{4, 5, 1, 2, 3}));
}

TEST(ScanRoll, NegativeAndLargeShiftsWrap) {
  const Tensor x = from_values({1, 2, 3, 4, 5}, {5});
  EXPECT_EQ(values(ops::roll(x, {-1}, {0})), (Values{2, 3, 4, 5, 1}));
  EXPECT_EQ(values(ops::roll(x, {7}, {0})), (Values{4, 5, 1, 2, 3}));
}

TEST(ScanRoll, WithoutDimsRollsTheFlattenedTensor) {
  const Tensor r = ops::roll(from_values({1, 2, 3, 4}, {2, 2}), {1});
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(values(r), (Values{4, 1, 2, 3}));
}

TEST(ScanRoll, WithoutDimsOnNonContiguousInput) {
  EXPECT_EQ(values(ops::roll(transposed_matrix23(), {-2})), (Values{3, 4, 5, 6, 1, 2}));
}

TEST(ScanRoll, TwoDims) { EXPECT_EQ(values(ops::roll(matrix23(), {1, 1}, {0, 1})), (Values{6, 4, 5, 3, 1, 2})); }

TEST(ScanRoll, EmptyTensor) {
  EXPECT_EQ(ops::roll(Tensor::empty({0, 2}, DType::Float64), {3}, {0}).shape(), (Shape{0, 2}));
}

TEST(ScanRoll, ShiftsAndDimsMustPair) {
  EXPECT_EQ(error_kind_of([] { ops::roll(matrix23(), {1, 2}, {0}); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(error_kind_of([] { ops::roll(matrix23(), {1, 2}); }), ErrorKind::InvalidArgument);
}

TEST(ScanSort, AscendingWithIndices) {
  const auto [v, i] = ops::sort(from_values({3, 1, 2}, {3}));
  EXPECT_EQ(values(v), (Values{1, 2, 3}));
  EXPECT_EQ(indices(i), (Indices{1, 2, 0}));
}

TEST(ScanSort, TiesKeepTheirOrderAscending) {
  const auto [v, i] = ops::sort(from_values({2, 1, 2, 1}, {4}));
  EXPECT_EQ(values(v), (Values{1, 1, 2, 2}));
  EXPECT_EQ(indices(i), (Indices{1, 3, 0, 2}));
}

TEST(ScanSort, TiesKeepTheirOrderDescending) {
  const auto [v, i] = ops::sort(from_values({1, 2, 1, 2}, {4}), -1, true);
  EXPECT_EQ(values(v), (Values{2, 2, 1, 1}));
  EXPECT_EQ(indices(i), (Indices{1, 3, 0, 2}));
}

TEST(ScanSort, NanIsTheLargestValue) {
  const Tensor x = from_values({kNaN, 1, 0}, {3});
  const auto [up, up_i] = ops::sort(x);
  EXPECT_EQ(indices(up_i), (Indices{2, 1, 0}));
  EXPECT_TRUE(std::isnan(values(up)[2]));
  const auto [down, down_i] = ops::sort(x, 0, true);
  EXPECT_EQ(indices(down_i), (Indices{0, 1, 2}));
}

TEST(ScanSort, AlongDimZeroDescending) {
  const auto [v, i] = ops::sort(from_values({4, 1, 2, 3}, {2, 2}), 0, true);
  EXPECT_EQ(values(v), (Values{4, 3, 2, 1}));
  EXPECT_EQ(indices(i), (Indices{0, 1, 1, 0}));
}

TEST(ScanSort, NonContiguousInput) {
  const auto [v, i] = ops::sort(transposed_matrix23(), 0, true);
  EXPECT_EQ(values(v), (Values{4, 5, 6, 1, 2, 3}));
  EXPECT_EQ(indices(i), (Indices{1, 1, 1, 0, 0, 0}));
}

TEST(ScanSort, BoolRankZeroAndEmpty) {
  const auto [b, b_i] = ops::sort(from_values({1, 0, 1}, {3}, DType::Bool));
  EXPECT_EQ(values(b), (Values{0, 1, 1}));
  EXPECT_EQ(indices(b_i), (Indices{1, 0, 2}));
  const auto [s, s_i] = ops::sort(from_values({5}, {}));
  EXPECT_EQ(indices(s_i), Indices{0});
  EXPECT_EQ(ops::sort(Tensor::empty({2, 0}, DType::Float64)).second.shape(), (Shape{2, 0}));
}

TEST(ScanTopk, LargestTiesGoToTheLowerIndex) {
  const auto [v, i] = ops::topk(from_values({1, 3, 2, 3}, {4}), 2);
  EXPECT_EQ(values(v), (Values{3, 3}));
  EXPECT_EQ(indices(i), (Indices{1, 3}));
}

TEST(ScanTopk, Smallest) {
  const auto [v, i] = ops::topk(from_values({1, 3, 2, 1}, {4}), 3, -1, false);
  EXPECT_EQ(values(v), (Values{1, 1, 2}));
  EXPECT_EQ(indices(i), (Indices{0, 3, 2}));
}

TEST(ScanTopk, NanCountsAsLargest) {
  const auto [v, i] = ops::topk(from_values({1, kNaN, 2}, {3}), 2);
  EXPECT_EQ(indices(i), (Indices{1, 2}));
}

TEST(ScanTopk, AlongDimZeroAndKZero) {
  const auto [v, i] = ops::topk(matrix23(), 1, 0);
  EXPECT_EQ(v.shape(), (Shape{1, 3}));
  EXPECT_EQ(values(v), (Values{4, 5, 6}));
  EXPECT_EQ(ops::topk(matrix23(), 0).first.shape(), (Shape{2, 0}));
}

TEST(ScanTopk, KOutsideTheDimIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::topk(matrix23(), 4); }), ErrorKind::IndexOutOfRange);
  EXPECT_EQ(error_kind_of([] { ops::topk(matrix23(), -1); }), ErrorKind::IndexOutOfRange);
}

}  // namespace
}  // namespace funcspec
