#include <gtest/gtest.h>

#include "reference/api/conversion.h"
#include "reference/api/view.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

using IntList = std::vector<std::int64_t>;
using Values = std::vector<double>;

// 0, 1, 2, ... as float64 in a contiguous tensor of `shape`.
Tensor iota(const Shape& shape) {
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  return from_vector(values, shape, DType::Float64);
}

Tensor meta_of(const Shape& shape) { return Tensor::empty(shape, DType::Float32, Device::Meta); }

TEST(ViewOp, InfersMinusOneAndKeepsStorage) {
  const Tensor x = iota({2, 3});
  const Tensor v = ops::view(x, {3, -1});
  EXPECT_EQ(v.shape(), (Shape{3, 2}));
  EXPECT_TRUE(v.shares_storage_with(x));
  EXPECT_EQ(v.to_vector<double>(), (Values{0, 1, 2, 3, 4, 5}));
}

TEST(ViewOp, WriteThroughViewIsVisibleInBase) {
  const Tensor x = iota({2, 3});
  const Tensor v = ops::view(x, {6});
  ops::copy_(ops::select(v, 0, 4), ops::lit(40.0));
  EXPECT_EQ(x.to_vector<double>(), (Values{0, 1, 2, 3, 40, 5}));
}

TEST(ViewOp, IncompatibleStridesAreViewIncompatible) {
  const Tensor t = ops::permute(iota({2, 3}), {1, 0});
  expect_error_kind(ErrorKind::ViewIncompatible, [&] { ops::view(t, {6}); });
}

TEST(ViewOp, WrongNumelIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { ops::view(iota({2, 3}), {4}); });
}

TEST(ViewOp, TwoMinusOnesAreInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [&] { ops::view(iota({2, 3}), {-1, -1}); });
}

TEST(ViewOp, SplittingATransposedDimIsAllowed) {
  // [3, 2] with strides [1, 3]: inserting a size-1 dim needs no copy.
  const Tensor t = ops::permute(iota({2, 3}), {1, 0});
  const Tensor v = ops::view(t, {3, 1, 2});
  EXPECT_TRUE(v.shares_storage_with(t));
  EXPECT_EQ(v.strides()[0], 1);
  EXPECT_EQ(v.strides()[2], 3);
  EXPECT_EQ(v.to_vector<double>(), (Values{0, 3, 1, 4, 2, 5}));
}

TEST(ViewOp, WorksOnMeta) {
  const Tensor v = ops::view(meta_of({4, 6}), {2, -1, 3});
  EXPECT_EQ(v.shape(), (Shape{2, 4, 3}));
  EXPECT_EQ(v.device(), Device::Meta);
}

TEST(Permute, ReordersShapeAndStrides) {
  const Tensor p = ops::permute(iota({2, 3, 4}), {2, 0, 1});
  EXPECT_EQ(p.shape(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Strides{1, 12, 4}));
}

TEST(Permute, ElementsFollowTheNewOrder) {
  EXPECT_EQ(ops::permute(iota({2, 3}), {-1, 0}).to_vector<double>(), (Values{0, 3, 1, 4, 2, 5}));
}

TEST(Permute, RepeatedDimIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::permute(iota({2, 3}), {0, 0}); });
}

TEST(Permute, WrongLengthIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::permute(iota({2, 3}), {0}); });
}

TEST(Permute, DimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::permute(iota({2, 3}), {0, 2}); });
}

TEST(Squeeze, RemovesEverySizeOneDim) { EXPECT_EQ(ops::squeeze(iota({1, 3, 1, 2})).shape(), (Shape{3, 2})); }

TEST(Squeeze, ListedDimsOfOtherSizesAreKept) {
  EXPECT_EQ(ops::squeeze(iota({1, 3, 1}), {0, 1}).shape(), (Shape{3, 1}));
}

TEST(Squeeze, RankZeroStaysRankZero) { EXPECT_EQ(ops::squeeze(iota({}), {0}).shape(), (Shape{})); }

TEST(Squeeze, DimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::squeeze(iota({1, 3}), {2}); });
}

TEST(Unsqueeze, InsertsAtNegativePosition) {
  EXPECT_EQ(ops::unsqueeze(iota({2, 3}), -1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(ops::unsqueeze(iota({2, 3}), -3).shape(), (Shape{1, 2, 3}));
}

TEST(Unsqueeze, RankZeroGivesOneDim) { EXPECT_EQ(ops::unsqueeze(iota({}), 0).shape(), (Shape{1})); }

TEST(Unsqueeze, DimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::unsqueeze(iota({2, 3}), 3); });
}

TEST(Select, NegativeIndexCountsFromTheEnd) {
  EXPECT_EQ(ops::select(iota({2, 3}), 1, -1).to_vector<double>(), (Values{2, 5}));
}

TEST(Select, WritesThroughBaseAreVisible) {
  const Tensor x = iota({2, 3});
  const Tensor row = ops::select(x, 0, 1);
  ops::copy_(x, ops::lit(7.0));
  EXPECT_EQ(row.to_vector<double>(), (Values{7, 7, 7}));
}

TEST(Select, IndexOutOfRange) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] { ops::select(iota({2, 3}), 0, 2); });
  expect_error_kind(ErrorKind::IndexOutOfRange, [] { ops::select(iota({2, 3}), 0, -3); });
}

TEST(Select, RankZeroIsDimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::select(iota({}), 0, 0); });
}

TEST(Slice, StartAndStep) {
  EXPECT_EQ(ops::slice(iota({7}), 0, 1, std::nullopt, 3).to_vector<double>(), (Values{1, 4}));
}

TEST(Slice, BoundsClampLikePython) {
  EXPECT_EQ(ops::slice(iota({5}), 0, -2, 100).to_vector<double>(), (Values{3, 4}));
  EXPECT_EQ(ops::slice(iota({5}), 0, -100, 2).to_vector<double>(), (Values{0, 1}));
}

TEST(Slice, EndBeforeStartIsEmpty) { EXPECT_EQ(ops::slice(iota({5}), 0, 4, 1).shape(), (Shape{0})); }

TEST(Slice, AliasesItsInput) {
  const Tensor x = iota({2, 4});
  const Tensor s = ops::slice(x, 1, 1, 3);
  ops::copy_(s, ops::lit(-1.0));
  EXPECT_EQ(x.to_vector<double>(), (Values{0, -1, -1, 3, 4, -1, -1, 7}));
}

TEST(Slice, NonPositiveStepIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::slice(iota({5}), 0, std::nullopt, std::nullopt, 0); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::slice(iota({5}), 0, std::nullopt, std::nullopt, -1); });
}

TEST(Diagonal, MainAndOffsets) {
  // 0 1 2 3 / 4 5 6 7 / 8 9 10 11
  const Tensor m = iota({3, 4});
  EXPECT_EQ(ops::diagonal(m).to_vector<double>(), (Values{0, 5, 10}));
  EXPECT_EQ(ops::diagonal(m, 2).to_vector<double>(), (Values{2, 7}));
  EXPECT_EQ(ops::diagonal(m, -1).to_vector<double>(), (Values{4, 9}));
}

TEST(Diagonal, OffsetPastTheEndIsEmpty) {
  EXPECT_EQ(ops::diagonal(iota({3, 4}), 4).shape(), (Shape{0}));
  EXPECT_EQ(ops::diagonal(iota({3, 4}), -3).shape(), (Shape{0}));
}

TEST(Diagonal, BatchedDiagonalGoesLast) {
  // [2, 2, 2]: batch dim 0 stays, diagonal of dims 1 and 2 appended.
  EXPECT_EQ(ops::diagonal(iota({2, 2, 2}), 0, 1, 2).to_vector<double>(), (Values{0, 3, 4, 7}));
  EXPECT_EQ(ops::diagonal(iota({2, 3, 2}), 0, 0, 2).shape(), (Shape{3, 2}));
}

TEST(Diagonal, WriteThroughIsVisible) {
  const Tensor m = iota({2, 2});
  ops::copy_(ops::diagonal(m), ops::lit(9.0));
  EXPECT_EQ(m.to_vector<double>(), (Values{9, 1, 2, 9}));
}

TEST(Diagonal, SameDimTwiceIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::diagonal(iota({3, 3}), 0, 1, -1); });
}

TEST(Expand, BroadcastDimHasStrideZero) {
  const Tensor e = ops::expand(iota({3, 1}), {2, 3, 4});
  EXPECT_EQ(e.strides(), (Strides{0, 1, 0}));
}

TEST(Reshape, IsAViewWhenStridesAllow) {
  const Tensor x = iota({2, 3});
  const Tensor r = ops::reshape(x, {3, 2});
  EXPECT_TRUE(r.shares_storage_with(x));
}

TEST(Reshape, CopiesWhenStridesDoNotAllow) {
  const Tensor x = iota({2, 3});
  const Tensor r = ops::reshape(ops::transpose(x, 0, 1), {6});
  EXPECT_FALSE(r.shares_storage_with(x));
  EXPECT_EQ(r.to_vector<double>(), (Values{0, 3, 1, 4, 2, 5}));
}

TEST(Reshape, RankZeroToOneElement) { EXPECT_EQ(ops::reshape(iota({}), {1, 1}).shape(), (Shape{1, 1})); }

TEST(Reshape, WrongNumelIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::reshape(iota({2, 3}), {5}); });
}

TEST(Transpose, SwapsTwoDims) {
  EXPECT_EQ(ops::transpose(iota({2, 3, 4}), 0, -1).shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(ops::transpose(iota({2, 3}), 0, 1).to_vector<double>(), (Values{0, 3, 1, 4, 2, 5}));
}

TEST(Transpose, RankZeroIsAllowed) { EXPECT_EQ(ops::transpose(iota({}), 0, -1).shape(), (Shape{})); }

TEST(Movedim, MovesOneDimAndKeepsOthersInOrder) {
  EXPECT_EQ(ops::movedim(iota({2, 3, 4}), {0}, {-1}).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(ops::movedim(iota({2, 3, 4, 5}), {3, 0}, {1, 3}).shape(), (Shape{3, 5, 4, 2}));
}

TEST(Movedim, LengthMismatchIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::movedim(iota({2, 3}), {0, 1}, {1}); });
}

TEST(Movedim, RepeatedDestinationIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::movedim(iota({2, 3}), {0, 1}, {1, 1}); });
}

TEST(BroadcastTo, AddsLeadingDims) {
  EXPECT_EQ(ops::broadcast_to(iota({3}), {2, 3}).to_vector<double>(), (Values{0, 1, 2, 0, 1, 2}));
}

TEST(BroadcastTo, IncompatibleIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::broadcast_to(iota({3}), {4}); });
}

TEST(Flatten, MergesARangeOfDims) {
  EXPECT_EQ(ops::flatten(iota({2, 3, 4})).shape(), (Shape{24}));
  EXPECT_EQ(ops::flatten(iota({2, 3, 4}), 1).shape(), (Shape{2, 12}));
  EXPECT_EQ(ops::flatten(iota({2, 3, 4}), 0, -2).shape(), (Shape{6, 4}));
}

TEST(Flatten, RankZeroGivesOneElement) { EXPECT_EQ(ops::flatten(iota({})).shape(), (Shape{1})); }

TEST(Flatten, StartAfterEndIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::flatten(iota({2, 3}), 1, 0); });
}

TEST(Unflatten, SplitsADim) {
  const Tensor x = iota({2, 12});
  const Tensor u = ops::unflatten(x, -1, {3, -1});
  EXPECT_EQ(u.shape(), (Shape{2, 3, 4}));
  EXPECT_TRUE(u.shares_storage_with(x));
}

TEST(Unflatten, WrongProductIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::unflatten(iota({2, 12}), 1, {5, 2}); });
}

TEST(Narrow, TakesARange) {
  EXPECT_EQ(ops::narrow(iota({5}), 0, 1, 3).to_vector<double>(), (Values{1, 2, 3}));
  EXPECT_EQ(ops::narrow(iota({5}), 0, -2, 2).to_vector<double>(), (Values{3, 4}));
}

TEST(Narrow, PastTheEndIsIndexOutOfRange) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] { ops::narrow(iota({5}), 0, 3, 3); });
  expect_error_kind(ErrorKind::IndexOutOfRange, [] { ops::narrow(iota({5}), 0, 6, 0); });
}

TEST(Narrow, NegativeLengthIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::narrow(iota({5}), 0, 1, -1); });
}

TEST(Unbind, GivesViewsWithoutTheDim) {
  const Tensor x = iota({2, 3});
  const TensorList cols = ops::unbind(x, 1);
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[2].to_vector<double>(), (Values{2, 5}));
  EXPECT_TRUE(cols[0].shares_storage_with(x));
}

TEST(Unbind, EmptyDimGivesNoPieces) { EXPECT_TRUE(ops::unbind(iota({0, 3})).empty()); }

TEST(Split, LastPieceIsSmaller) {
  const TensorList pieces = ops::split(iota({5}), 2);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].to_vector<double>(), (Values{4}));
  EXPECT_EQ(pieces[1].to_vector<double>(), (Values{2, 3}));
}

TEST(Split, EmptyDimGivesOneEmptyPiece) {
  const TensorList pieces = ops::split(iota({0}), 3);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].shape(), (Shape{0}));
}

TEST(Split, ZeroSizeOnNonEmptyDimIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::split(iota({3}), 0); });
}

TEST(SplitWithSizes, PiecesOfGivenSizes) {
  const TensorList pieces = ops::split_with_sizes(iota({2, 4}), {1, 0, 3}, 1);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[1].shape(), (Shape{2, 0}));
  EXPECT_EQ(pieces[2].to_vector<double>(), (Values{1, 2, 3, 5, 6, 7}));
}

TEST(SplitWithSizes, WrongSumIsShapeMismatch) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::split_with_sizes(iota({4}), {1, 2}); });
}

TEST(Chunk, FollowsPyTorchSizes) {
  // ceil(6 / 4) = 2, so only 3 chunks.
  const TensorList pieces = ops::chunk(iota({6}), 4);
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].to_vector<double>(), (Values{4, 5}));
  EXPECT_EQ(ops::chunk(iota({5}), 3).back().to_vector<double>(), (Values{4}));
}

TEST(Chunk, EmptyDimGivesChunksEmptyPieces) { EXPECT_EQ(ops::chunk(iota({0}), 3).size(), 3u); }

TEST(Chunk, NonPositiveChunksIsInvalid) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::chunk(iota({3}), 0); });
}

}  // namespace
}  // namespace funcspec
