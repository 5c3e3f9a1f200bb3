#include <gtest/gtest.h>

#include "reference/core/error.h"
#include "reference/core/shape.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

TEST(BroadcastShapes, AlignsTrailingDims) {
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{2, 1, 3}, {4, 1}}, "t"), (Shape{2, 4, 3}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{}, {5}}, "t"), (Shape{5}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{0, 1}, {1, 3}}, "t"), (Shape{0, 3}));
}

TEST(BroadcastShapes, MismatchNamesBothShapes) {
  try {
    broadcast_shapes(std::vector<Shape>{{2, 3}, {4}}, "add");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ShapeMismatch);
    EXPECT_NE(std::string(e.what()).find("[add] shapes [2, 3] and [4]"), std::string::npos) << e.what();
  }
}

TEST(WrapDim, AcceptsNegativeAndRejectsOutOfRange) {
  EXPECT_EQ(wrap_dim(-1, 3, "t"), 2);
  EXPECT_EQ(wrap_dim(0, 0, "t"), 0);  // a scalar accepts dims 0 and -1
  EXPECT_EQ(wrap_dim(-1, 0, "t"), 0);
  EXPECT_EQ(error_kind_of([] { wrap_dim(3, 3, "t"); }), ErrorKind::DimOutOfRange);
  EXPECT_EQ(error_kind_of([] { wrap_dim(-4, 3, "t"); }), ErrorKind::DimOutOfRange);
}

TEST(WrapDims, RejectsRepeatedDims) {
  EXPECT_EQ(error_kind_of([] { wrap_dims(std::vector<std::int64_t>{0, -2}, 2, "t"); }), ErrorKind::InvalidArgument);
}

TEST(ViewStrides, MergesAndSplitsContiguousRuns) {
  EXPECT_EQ(view_strides(Shape{2, 3}, Strides{3, 1}, Shape{6}), (Strides{1}));
  EXPECT_EQ(view_strides(Shape{6}, Strides{1}, Shape{3, 2}), (Strides{2, 1}));
  // A transposed [3, 2] (strides [1, 3]) gains a size-1 dim but cannot merge its dims. (A size-1
  // dim's stride is never used; this is the value PyTorch's view gives it.)
  EXPECT_EQ(view_strides(Shape{3, 2}, Strides{1, 3}, Shape{3, 1, 2}), (Strides{1, 6, 3}));
  EXPECT_FALSE(view_strides(Shape{3, 2}, Strides{1, 3}, Shape{6}).has_value());
}

TEST(ViewStrides, ExpandedDimsCannotBeMerged) {
  EXPECT_FALSE(view_strides(Shape{2, 3}, Strides{0, 1}, Shape{6}).has_value());
  EXPECT_EQ(view_strides(Shape{2, 3}, Strides{0, 1}, Shape{2, 3, 1}), (Strides{0, 1, 1}));
}

TEST(ViewStrides, ScalarsAndEmptyTensorsViewAsAnything) {
  EXPECT_EQ(view_strides(Shape{}, Strides{}, Shape{1, 1}), (Strides{1, 1}));
  EXPECT_TRUE(view_strides(Shape{0, 3}, Strides{1, 0}, Shape{3, 0}).has_value());
}

TEST(InferSize, ResolvesOneMinusOne) {
  EXPECT_EQ(infer_size(std::vector<std::int64_t>{-1, 4}, 12, "t"), (Shape{3, 4}));
  EXPECT_EQ(error_kind_of([] { infer_size(std::vector<std::int64_t>{-1, -1}, 12, "t"); }), ErrorKind::InvalidArgument);
  EXPECT_EQ(error_kind_of([] { infer_size(std::vector<std::int64_t>{5, -1}, 12, "t"); }), ErrorKind::ShapeMismatch);
  EXPECT_EQ(error_kind_of([] { infer_size(std::vector<std::int64_t>{-1, 0}, 0, "t"); }), ErrorKind::ShapeMismatch);
}

TEST(ContiguousStrides, TreatsZeroSizesAsOne) {
  EXPECT_EQ(contiguous_strides(Shape{2, 0, 3}), (Strides{3, 3, 1}));
  EXPECT_EQ(contiguous_strides(Shape{}), (Strides{}));
}

}  // namespace
}  // namespace funcspec
