#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/conversion.h"
#include "reference/api/creation.h"
#include "reference/api/index.h"
#include "reference/api/view.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

using Values = std::vector<double>;

// Tensors of `shape` holding the listed values, in float64, int64 and bool.
Tensor shaped_f64(std::initializer_list<double> values, const Shape& shape) { return from_values(values, shape); }
Tensor shaped_i64(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Int64);
}
Tensor mask(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Bool);
}

// ---- cat / stack

TEST(Cat, JoinsAlongADim) {
  const Tensor c = ops::cat({shaped_f64({1, 2, 3, 4}, {2, 2}), shaped_f64({5, 6}, {2, 1})}, 1);
  EXPECT_EQ(c.shape(), (Shape{2, 3}));
  EXPECT_EQ(c.to_vector<double>(), (Values{1, 2, 5, 3, 4, 6}));
}

TEST(Cat, PromotesDtypes) {
  const Tensor c = ops::cat({shaped_i64({1, 2}, {2}), from_values({0.5}, {1}, DType::Float32)});
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_EQ(c.to_vector<double>(), (Values{1, 2, 0.5}));
}

TEST(Cat, LegacyEmptyOneDimTensorIsSkipped) {
  const Tensor c = ops::cat({shaped_f64({}, {0}), shaped_f64({1, 2}, {1, 2})}, 1);
  EXPECT_EQ(c.shape(), (Shape{1, 2}));
}

TEST(Cat, ResultDoesNotAliasInputs) {
  const Tensor a = shaped_f64({1, 2}, {2});
  const Tensor c = ops::cat({a});
  EXPECT_FALSE(c.shares_storage_with(a));
}

TEST(Cat, MismatchedShapesAreShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::cat({shaped_f64({1, 2}, {1, 2}), shaped_f64({1, 2, 3}, {1, 3})});
  });
}

TEST(Cat, RankZeroIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::cat({shaped_f64({1}, {})}); });
}

TEST(Cat, EmptyListIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::cat({}); });
}

TEST(Cat, DimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::cat({shaped_f64({1, 2}, {2})}, 1); });
}

TEST(Stack, AddsANewDim) {
  const Tensor s = ops::stack({shaped_f64({1, 2}, {2}), shaped_f64({3, 4}, {2})}, 1);
  EXPECT_EQ(s.shape(), (Shape{2, 2}));
  EXPECT_EQ(s.to_vector<double>(), (Values{1, 3, 2, 4}));
}

TEST(Stack, RankZeroInputsGiveOneDim) {
  EXPECT_EQ(ops::stack({shaped_f64({1}, {}), shaped_f64({2}, {})}).to_vector<double>(), (Values{1, 2}));
}

TEST(Stack, DifferentShapesAreShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::stack({shaped_f64({1, 2}, {2}), shaped_f64({1}, {1})}); });
}

// ---- index_select

TEST(IndexSelect, PicksRowsWithRepeats) {
  const Tensor x = shaped_f64({1, 2, 3, 4, 5, 6}, {3, 2});
  EXPECT_EQ(ops::index_select(x, 0, shaped_i64({2, 0, 2}, {3})).to_vector<double>(), (Values{5, 6, 1, 2, 5, 6}));
}

TEST(IndexSelect, PicksColumnsOfATransposedInput) {
  const Tensor x = ops::transpose(shaped_f64({1, 2, 3, 4, 5, 6}, {2, 3}), 0, 1);  // [[1,4],[2,5],[3,6]]
  EXPECT_EQ(ops::index_select(x, -1, shaped_i64({1}, {1})).to_vector<double>(), (Values{4, 5, 6}));
}

TEST(IndexSelect, OutOfRangeIndexNamesTheValue) {
  try {
    ops::index_select(shaped_f64({1, 2}, {2}), 0, shaped_i64({0, 2}, {2}));
    ADD_FAILURE() << "expected index_out_of_range";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::IndexOutOfRange);
    EXPECT_NE(std::string(e.what()).find("index 2"), std::string::npos) << e.what();
  }
}

TEST(IndexSelect, NegativeIndexIsOutOfRange) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    ops::index_select(shaped_f64({1, 2}, {2}), 0, shaped_i64({-1}, {1}));
  });
}

TEST(IndexSelect, FloatIndexIsDtypeNotSupported) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    ops::index_select(shaped_f64({1, 2}, {2}), 0, shaped_f64({0}, {1}));
  });
}

TEST(IndexSelect, TwoDimIndexIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::index_select(shaped_f64({1, 2}, {2}), 0, shaped_i64({0}, {1, 1}));
  });
}

TEST(IndexSelect, EmptyIndexGivesEmptyDim) {
  EXPECT_EQ(ops::index_select(shaped_f64({1, 2, 3, 4}, {2, 2}), 1, shaped_i64({}, {0})).shape(), (Shape{2, 0}));
}

// ---- gather / take_along_dim

TEST(Gather, PicksPerPosition) {
  const Tensor x = shaped_f64({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(ops::gather(x, 1, shaped_i64({0, 0, 1, 0}, {2, 2})).to_vector<double>(), (Values{1, 1, 4, 3}));
  EXPECT_EQ(ops::gather(x, 0, shaped_i64({1, 0}, {1, 2})).to_vector<double>(), (Values{3, 2}));
}

TEST(Gather, IndexOutOfRange) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] { ops::gather(shaped_f64({1, 2}, {2}), 0, shaped_i64({2}, {1})); });
}

TEST(Gather, IndexLargerOutsideDimIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::gather(shaped_f64({1, 2}, {1, 2}), 1, shaped_i64({0, 0}, {2, 1}));
  });
}

TEST(Gather, RankMismatchIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::gather(shaped_f64({1, 2}, {1, 2}), 1, shaped_i64({0}, {1})); });
}

TEST(TakeAlongDim, BroadcastsOtherDims) {
  // self [[1,2,3]] broadcast against indices of 2 rows.
  const Tensor t = ops::take_along_dim(shaped_f64({1, 2, 3}, {1, 3}), shaped_i64({2, 0}, {2, 1}), 1);
  EXPECT_EQ(t.shape(), (Shape{2, 1}));
  EXPECT_EQ(t.to_vector<double>(), (Values{3, 1}));
}

TEST(TakeAlongDim, NoDimUsesTheFlattenedInput) {
  EXPECT_EQ(ops::take_along_dim(shaped_f64({1, 2, 3, 4}, {2, 2}), shaped_i64({3, 0}, {2})).to_vector<double>(),
            (Values{4, 1}));
}

// ---- scatter_add

TEST(ScatterAdd, AccumulatesDuplicates) {
  const Tensor out =
      ops::scatter_add(shaped_f64({0, 0, 0}, {3}), 0, shaped_i64({0, 2, 0}, {3}), shaped_f64({1, 2, 4}, {3}));
  EXPECT_EQ(out.to_vector<double>(), (Values{5, 0, 2}));
}

TEST(ScatterAdd, LeavesSelfUnchanged) {
  const Tensor self = shaped_f64({1, 1}, {2});
  ops::scatter_add(self, 0, shaped_i64({1}, {1}), shaped_f64({5}, {1}));
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 1}));
}

TEST(ScatterAdd, TwoDimsAlongRows) {
  // self zeros [2, 2]; index [[1, 0]] along dim 0 puts src[0][0] in row 1 col 0, src[0][1] in row 0 col 1.
  const Tensor out = ops::scatter_add(ops::zeros({2, 2}, DType::Float64), 0, shaped_i64({1, 0}, {1, 2}),
                                      shaped_f64({7, 8, 9, 10}, {2, 2}));
  EXPECT_EQ(out.to_vector<double>(), (Values{0, 8, 7, 0}));
}

// int64 sums wrap modulo 2^64 (two's complement), as every int64 sum of the reference does: one
// specified answer, and no signed overflow for UBSan to report.
TEST(ScatterAdd, Int64SumsWrapAround) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const Tensor self = from_vector(std::vector<std::int64_t>{kMax, 0}, {2}, DType::Int64);
  const Tensor src = from_vector(std::vector<std::int64_t>{1, kMax, kMax}, {3}, DType::Int64);
  const Tensor out = ops::scatter_add(self, 0, shaped_i64({0, 1, 1}, {3}), src);
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), -2}));
}

TEST(IndexAdd, Int64SumsAndProductsWrapAround) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const Tensor self = from_vector(std::vector<std::int64_t>{kMax, 6}, {2}, DType::Int64);
  const Tensor source = from_vector(std::vector<std::int64_t>{1, kMax}, {2}, DType::Int64);
  // Modulo 2^64: kMax + 3·1 = min + 2; 3·kMax = kMax - 2, and 6 + (kMax - 2) = min + 3.
  const Tensor out = ops::index_add(self, 0, shaped_i64({0, 1}, {2}), source, Scalar(std::int64_t{3}));
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{kMin + 2, kMin + 3}));
}

TEST(ScatterAdd, OrderIsRowMajorSoFloatRoundingIsReproducible) {
  // Added to 2^53 one at a time, each 1 is rounded away (ties to even), so the result stays 2^53;
  // summing the sources first would give 2^53 + 2.
  const double big = 9007199254740992.0;
  const Tensor out = ops::scatter_add(shaped_f64({big}, {1}), 0, shaped_i64({0, 0}, {2}), shaped_f64({1, 1}, {2}));
  EXPECT_EQ(out.to_vector<double>(), (Values{big}));
}

TEST(ScatterAdd, OutOfRangeIndex) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    ops::scatter_add(shaped_f64({0, 0}, {2}), 0, shaped_i64({5}, {1}), shaped_f64({1}, {1}));
  });
}

TEST(ScatterAdd, DtypeMismatchIsDtypeNotSupported) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    ops::scatter_add(shaped_f64({0, 0}, {2}), 0, shaped_i64({1}, {1}), shaped_i64({1}, {1}));
  });
}

// ---- masked_fill

TEST(MaskedFill, FillsWhereMaskIsTrue) {
  const Tensor out = ops::masked_fill(shaped_f64({1, 2, 3}, {3}), mask({1, 0, 1}, {3}), ops::lit(-1.0));
  EXPECT_EQ(out.to_vector<double>(), (Values{-1, 2, -1}));
}

TEST(MaskedFill, BroadcastsMaskAndKeepsSelfDtype) {
  const Tensor out = ops::masked_fill(shaped_i64({1, 2, 3, 4}, {2, 2}), mask({0, 1}, {2}), ops::lit(9.7));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.to_vector<double>(), (Values{1, 9, 3, 9}));
}

TEST(MaskedFill, NanValue) {
  const Tensor out = ops::masked_fill(shaped_f64({1, 2}, {2}), mask({0, 1}, {2}), ops::lit(std::nan("")));
  EXPECT_EQ(out.to_vector<double>()[0], 1.0);
  EXPECT_TRUE(std::isnan(out.to_vector<double>()[1]));
}

TEST(MaskedFill, NonBoolMaskIsDtypeNotSupported) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    ops::masked_fill(shaped_f64({1, 2}, {2}), shaped_i64({0, 1}, {2}), ops::lit(0.0));
  });
}

TEST(MaskedFill, NonScalarValueIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    ops::masked_fill(shaped_f64({1, 2}, {2}), mask({0, 1}, {2}), shaped_f64({1, 2}, {2}));
  });
}

TEST(MaskedFillInPlace, WritesIntoSelf) {
  const Tensor self = shaped_f64({1, 2, 3}, {3});
  const Tensor result = ops::masked_fill_(self, mask({0, 1, 0}, {3}), ops::lit(0.0));
  EXPECT_TRUE(result.is_same(self));
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 0, 3}));
}

TEST(MaskedFillInPlace, MaskLargerThanSelfIsInplaceBroadcast) {
  const Tensor self = shaped_f64({1, 2}, {2});
  expect_error_kind(ErrorKind::InplaceBroadcast, [&] {
    ops::masked_fill_(self, mask({0, 1, 1, 0}, {2, 2}), ops::lit(0.0));
  });
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 2}));
}

// ---- index_add

TEST(IndexAdd, AddsScaledSlicesInOrder) {
  // rows 0 and 2 receive source rows; row 0 twice.
  const Tensor self = shaped_f64({1, 1, 1, 1, 1, 1}, {3, 2});
  const Tensor out =
      ops::index_add(self, 0, shaped_i64({0, 2, 0}, {3}), shaped_f64({1, 2, 3, 4, 5, 6}, {3, 2}), Scalar(2));
  EXPECT_EQ(out.to_vector<double>(), (Values{13, 17, 1, 1, 7, 9}));
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 1, 1, 1, 1, 1}));
}

TEST(IndexAdd, AlongColumns) {
  const Tensor out =
      ops::index_add(ops::zeros({2, 3}, DType::Float64), 1, shaped_i64({2}, {1}), shaped_f64({5, 6}, {2, 1}));
  EXPECT_EQ(out.to_vector<double>(), (Values{0, 0, 5, 0, 0, 6}));
}

TEST(IndexAdd, OutOfRangeIndex) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    ops::index_add(shaped_f64({0, 0}, {2}), 0, shaped_i64({-1}, {1}), shaped_f64({1}, {1}));
  });
}

TEST(IndexAdd, WrongSourceShapeIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::index_add(shaped_f64({0, 0}, {2}), 0, shaped_i64({0, 1}, {2}), shaped_f64({1}, {1}));
  });
}

TEST(IndexAdd, FloatAlphaForIntegerSelfIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    ops::index_add(shaped_i64({0, 0}, {2}), 0, shaped_i64({0}, {1}), shaped_i64({1}, {1}), Scalar(0.5));
  });
}

TEST(IndexAddInPlace, WritesIntoSelf) {
  const Tensor self = shaped_f64({1, 2}, {2});
  ops::index_add_(self, 0, shaped_i64({1, 1}, {2}), shaped_f64({10, 20}, {2}));
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 32}));
}

TEST(IndexAddInPlace, OutOfRangeLeavesSelfUntouched) {
  const Tensor self = shaped_f64({1, 2}, {2});
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    ops::index_add_(self, 0, shaped_i64({0, 7}, {2}), shaped_f64({10, 20}, {2}));
  });
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 2}));
}

// ---- pad

TEST(Pad, LastDimFirst) {
  // [[1, 2]] padded by (1, 0) on the last dim and (0, 1) on the first.
  const Tensor out = ops::pad(shaped_f64({1, 2}, {1, 2}), {1, 0, 0, 1}, Scalar(9.0));
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(out.to_vector<double>(), (Values{9, 1, 2, 9, 9, 9}));
}

TEST(Pad, NegativePadsCrop) {
  EXPECT_EQ(ops::pad(shaped_f64({1, 2, 3, 4}, {4}), {-1, 1}).to_vector<double>(), (Values{2, 3, 4, 0}));
}

TEST(Pad, CropOnlyDoesNotAlias) {
  const Tensor x = shaped_f64({1, 2, 3}, {3});
  const Tensor out = ops::pad(x, {-1, -1});
  EXPECT_EQ(out.to_vector<double>(), (Values{2}));
  EXPECT_FALSE(out.shares_storage_with(x));
}

TEST(Pad, KeepsDtype) {
  const Tensor out = ops::pad(shaped_i64({1}, {1}), {1, 1}, Scalar(std::int64_t{5}));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.to_vector<double>(), (Values{5, 1, 5}));
}

TEST(Pad, OddLengthIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::pad(shaped_f64({1}, {1}), {1}); });
}

TEST(Pad, TooManyDimsIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::pad(shaped_f64({1}, {1}), {1, 1, 1, 1}); });
}

TEST(Pad, NegativeResultSizeIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::pad(shaped_f64({1, 2}, {2}), {-2, -1}); });
}

// ---- scatter, scatter_reduce, take, put (SPEC OPS-22.x)

Attrs scatter_dim(std::int64_t dim) { return {{"dim", dim}}; }
Attrs scatter_reduction(const char* reduce, bool include_self) {
  return {{"dim", std::int64_t{0}}, {"reduce", std::string(reduce)}, {"include_self", include_self}};
}

TEST(Scatter, LastOfDuplicateTargetsWins) {
  const Tensor out =
      call_one("scatter", {shaped_f64({1, 2, 3}, {3}), shaped_i64({0, 0, 2, 0}, {4}), shaped_f64({0.5, -1, 2, 4}, {4})},
               scatter_dim(0));
  EXPECT_EQ(out.to_vector<double>(), (Values{4, 2, 2}));
}

TEST(Scatter, OutOfRangeIndexWritesNothing) {
  const Tensor self = shaped_f64({1, 2, 3}, {3});
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    call_one("scatter_", {self, shaped_i64({0, 3}, {2}), shaped_f64({7, 8}, {2})}, scatter_dim(0));
  });
  EXPECT_EQ(self.to_vector<double>(), (Values{1, 2, 3}));
}

TEST(ScatterReduce, MeanWithoutSelfAndUnreachedElementsKeepSelf) {
  const Tensor out = call_one(
      "scatter_reduce", {shaped_f64({1, 2, 3}, {3}), shaped_i64({2, 2, 2, 0}, {4}), shaped_f64({0.5, -1, 2, 4}, {4})},
      scatter_reduction("mean", false));
  EXPECT_EQ(out.to_vector<double>(), (Values{4, 2, 0.5}));
}

TEST(ScatterReduce, Int64MeanRoundsTowardMinusInfinity) {
  const Tensor out =
      call_one("scatter_reduce",
               {shaped_i64({1, 2, 3, 4}, {4}), shaped_i64({0, 0, 2, 2, 2}, {5}), shaped_i64({-3, -4, 1, 0, 0}, {5})},
               scatter_reduction("mean", true));
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-2, 2, 1, 4}));
}

TEST(ScatterReduce, AmaxPropagatesNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Tensor out = call_one(
      "scatter_reduce",
      {shaped_f64({1, nan, -inf, 2}, {4}), shaped_i64({0, 0, 2, 3, 3}, {5}), shaped_f64({inf, 0.5, 1, nan, -1}, {5})},
      scatter_reduction("amax", true));
  const Values got = out.to_vector<double>();
  EXPECT_EQ(got[0], inf);
  EXPECT_TRUE(std::isnan(got[1]));
  EXPECT_EQ(got[2], 1.0);
  EXPECT_TRUE(std::isnan(got[3]));
}

TEST(ScatterReduce, UnknownReduceIsInvalidArgument) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    call_one("scatter_reduce", {shaped_f64({1, 2}, {2}), shaped_i64({0}, {1}), shaped_f64({1}, {1})},
             scatter_reduction("max", true));
  });
}

TEST(Put, NegativePositionsCountFromTheEndAndTheLastDuplicateWins) {
  const Tensor out =
      call_one("put", {shaped_f64({1, 2, 3}, {3}), shaped_i64({2, -1, 0, 2}, {4}), shaped_f64({0.5, -1, 2, 4}, {4})},
               {{"accumulate", false}});
  EXPECT_EQ(out.to_vector<double>(), (Values{2, 2, 4}));
}

TEST(Take, PositionOutOfRangeIsIndexOutOfRange) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    call_one("take", {shaped_f64({1, 2, 3}, {3}), shaped_i64({-4}, {1})}, {});
  });
  EXPECT_EQ(call_one("take", {shaped_f64({1, 2, 3}, {3}), shaped_i64({-3, 2}, {2})}, {}).to_vector<double>(),
            (Values{1, 3}));
}

}  // namespace
}  // namespace funcspec
