// The copying twins of the views and their scatters (NOTE: [view copies]) on values worked out by
// hand; their samples also run through every catalogue-wide check (catalogue_test.cpp) and the
// conformance suite's vmap and derivative families.
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"

namespace funcspec {
namespace view_copy_test {
namespace {

using testing_support::expect_error_kind;
using testing_support::matrix23;
using testing_support::transposed_matrix23;
using testing_support::values;

// Every twin shows what its view shows and shares nothing with its input.
TEST(ViewCopy, TwinsHoldWhatTheirViewShowsInAFreshContiguousTensor) {
  const Tensor x = ops::permute(ops::reshape(ops::to_dtype(ops::arange(Scalar(24)), DType::Float64), {2, 3, 4}),
                                {2, 0, 1});  // [4, 2, 3], strided
  const std::vector<std::pair<std::string, Attrs>> calls{
      {"expand", {{"size", std::vector<std::int64_t>{2, 4, 2, 3}}}},
      {"permute", {{"dims", std::vector<std::int64_t>{1, 2, 0}}}},
      {"squeeze", {}},
      {"unsqueeze", {{"dim", std::int64_t{-1}}}},
      {"select", {{"dim", std::int64_t{1}}, {"index", std::int64_t{1}}}},
      {"slice", {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"step", std::int64_t{2}}}},
      {"diagonal", {{"offset", std::int64_t{1}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{2}}}},
      {"detach", {}},
  };
  for (const auto& [view, attrs] : calls) {
    SCOPED_TRACE(view);
    const Tensor shown = call_one(view, {x}, attrs);
    const Tensor copied = call_one(view + "_copy", {x}, attrs);
    EXPECT_EQ(copied.shape(), shown.shape());
    EXPECT_EQ(values(copied), values(shown));
    EXPECT_TRUE(copied.is_contiguous());
    EXPECT_FALSE(copied.shares_storage_with(x));
  }
}

TEST(ViewCopy, ViewCopyTakesRowMajorOrderWhateverTheStrides) {
  // [[1, 2, 3], [4, 5, 6]] stored column by column: view cannot flatten it, view_copy can.
  expect_error_kind(ErrorKind::ViewIncompatible, [] { ops::view(transposed_matrix23(), {6}); });
  const Tensor flat = call_one("view_copy", {transposed_matrix23()}, {{"size", std::vector<std::int64_t>{-1}}});
  EXPECT_EQ(flat.shape(), (Shape{6}));
  EXPECT_EQ(values(flat), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  const Tensor split = call_one("view_copy", {matrix23()}, {{"size", std::vector<std::int64_t>{3, 2}}});
  EXPECT_EQ(values(split), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    call_one("view_copy", {matrix23()}, {{"size", std::vector<std::int64_t>{4}}});
  });
}

TEST(ViewCopy, TwinsRaiseWhatTheirViewsRaise) {
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    call_one("select_copy", {matrix23()}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}});
  });
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    call_one("expand_copy", {matrix23()}, {{"size", std::vector<std::int64_t>{4, 3}}});
  });
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    call_one("permute_copy", {matrix23()}, {{"dims", std::vector<std::int64_t>{0}}});
  });
}

TEST(ViewCopy, ScattersReplaceTheRegionTheirViewNames) {
  const Tensor src2 = testing_support::f64({-1, -2});
  // Row 1 of [[1, 2, 3], [4, 5, 6]].
  EXPECT_EQ(values(call_one("select_scatter", {matrix23(), testing_support::f64({7, 8, 9})},
                            {{"dim", std::int64_t{0}}, {"index", std::int64_t{-1}}})),
            (std::vector<double>{1, 2, 3, 7, 8, 9}));
  // Columns 0 and 2 (step 2) of a self stored column by column: the result is contiguous.
  const Tensor sliced =
      call_one("slice_scatter", {transposed_matrix23(), ops::reshape(testing_support::f64({-1, -2, -3, -4}), {2, 2})},
               {{"dim", std::int64_t{1}}, {"step", std::int64_t{2}}});
  EXPECT_EQ(values(sliced), (std::vector<double>{-1, 2, -2, -3, 5, -4}));
  EXPECT_TRUE(sliced.is_contiguous());
  // The diagonal above the main one: (0, 1), (1, 2).
  EXPECT_EQ(values(call_one("diagonal_scatter", {matrix23(), src2}, {{"offset", std::int64_t{1}}})),
            (std::vector<double>{1, -1, 3, 4, 5, -2}));
  // self is not written.
  const Tensor self = matrix23();
  call_one("select_scatter", {self, testing_support::f64({0, 0, 0})},
           {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}});
  EXPECT_EQ(values(self), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(ViewCopy, ScattersRefuseASourceUnlikeTheRegion) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    call_one("select_scatter", {matrix23(), testing_support::f64({1, 2})},
             {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}});
  });
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    call_one("select_scatter", {matrix23(), testing_support::f32({1, 2, 3})},
             {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}});
  });
  expect_error_kind(ErrorKind::IndexOutOfRange, [] {
    call_one("select_scatter", {matrix23(), testing_support::f64({1, 2, 3})},
             {{"dim", std::int64_t{0}}, {"index", std::int64_t{5}}});
  });
}

TEST(ViewCopy, DerivativesAgreeWithFiniteDifferencesAndTheirTransposes) {
  const Tensor x = ops::mul(matrix23(), ops::lit(0.25));
  testing_support::expect_derivatives_consistent("expand_copy", {x}, {{"size", std::vector<std::int64_t>{2, 2, 3}}});
  testing_support::expect_derivatives_consistent("view_copy", {transposed_matrix23()},
                                                 {{"size", std::vector<std::int64_t>{3, 2}}});
  testing_support::expect_derivatives_consistent("permute_copy", {x}, {{"dims", std::vector<std::int64_t>{1, 0}}});
  testing_support::expect_derivatives_consistent("select_copy", {x},
                                                 {{"dim", std::int64_t{1}}, {"index", std::int64_t{2}}});
  testing_support::expect_derivatives_consistent("diagonal_copy", {x}, {{"offset", std::int64_t{-1}}});
  testing_support::expect_derivatives_consistent("select_scatter", {x, testing_support::f64({0.5, -0.5, 1.5})},
                                                 {{"dim", std::int64_t{0}}, {"index", std::int64_t{1}}});
  testing_support::expect_derivatives_consistent(
      "slice_scatter", {x, ops::reshape(testing_support::f64({0.5, -0.5}), {2, 1})},
      {{"dim", std::int64_t{1}}, {"start", std::int64_t{1}}, {"end", std::int64_t{2}}});
  testing_support::expect_derivatives_consistent("diagonal_scatter", {x, testing_support::f64({0.5, -0.5})});
}

}  // namespace
}  // namespace view_copy_test
}  // namespace funcspec
