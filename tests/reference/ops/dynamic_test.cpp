#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/conversion.h"
#include "reference/api/dynamic.h"
#include "reference/api/random.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

Tensor meta_like(const Tensor& t) { return Tensor::empty(t.shape(), t.dtype(), Device::Meta); }

TEST(Item, ReturnsAWrappedNumberHoldingTheValue) {
  const Tensor v = ops::item(from_values({-2.5}, {1, 1}));
  EXPECT_TRUE(v.is_wrapped_number());
  EXPECT_EQ(v.dim(), 0);
  EXPECT_EQ(v.dtype(), DType::Float64);
  EXPECT_EQ(v.to_vector<double>(), (std::vector<double>{-2.5}));
}

TEST(Item, KeepsIntegerAndBoolCategories) {
  EXPECT_EQ(ops::item(from_values({7}, {}, DType::Int64)).dtype(), DType::Int64);
  EXPECT_EQ(ops::item(from_values({7}, {}, DType::Int64)).to_vector<std::int64_t>(), (std::vector<std::int64_t>{7}));
  EXPECT_EQ(ops::item(from_values({1}, {}, DType::Bool)).dtype(), DType::Bool);
}

TEST(Item, Float32ValueIsWidenedExactly) {
  const Tensor v = ops::item(from_values({0.1}, {}, DType::Float32));
  EXPECT_EQ(v.to_vector<double>()[0], static_cast<double>(0.1f));
}

TEST(Item, OracleValueIsRoundedToDouble) {
  const Tensor third = from_vector(std::vector<oracle_t>{oracle_t(1) / 3}, {}, DType::Oracle);
  EXPECT_EQ(ops::item(third).to_vector<double>()[0], 1.0 / 3);
}

TEST(Item, ReadsTheElementOfAView) {
  const Tensor base = from_values({1, 2, 3}, {3});
  EXPECT_EQ(ops::item(Tensor::view_of(base, {}, {}, 2)).to_vector<double>()[0], 3.0);
}

TEST(Item, NanSurvives) { EXPECT_TRUE(std::isnan(ops::item(from_values({NAN}, {})).to_vector<double>()[0])); }

TEST(Item, MoreThanOneElementIsAScalarConversionError) {
  expect_error_kind(ErrorKind::ScalarConversion, [] { ops::item(from_values({1, 2}, {2})); });
}

TEST(Item, EmptyTensorIsAScalarConversionError) {
  expect_error_kind(ErrorKind::ScalarConversion, [] { ops::item(Tensor::empty({0}, DType::Float64)); });
}

TEST(Item, OnMetaIsDataDependent) {
  expect_error_kind(ErrorKind::DataDependentOnMeta, [] { ops::item(meta_like(from_values({1}, {}))); });
}

TEST(IsNonzero, ZeroAndNegativeZeroAreFalse) {
  EXPECT_EQ(ops::is_nonzero(from_values({0.0}, {})).to_vector<bool>(), (std::vector<bool>{false}));
  EXPECT_EQ(ops::is_nonzero(from_values({-0.0}, {1})).to_vector<bool>(), (std::vector<bool>{false}));
}

TEST(IsNonzero, NanAndNonZeroAreTrue) {
  EXPECT_EQ(ops::is_nonzero(from_values({NAN}, {})).to_vector<bool>(), (std::vector<bool>{true}));
  EXPECT_EQ(ops::is_nonzero(from_values({-3}, {}, DType::Int64)).to_vector<bool>(), (std::vector<bool>{true}));
  EXPECT_EQ(ops::is_nonzero(from_values({-3}, {})).dtype(), DType::Bool);
}

TEST(IsNonzero, AmbiguousTensorsAreScalarConversionErrors) {
  expect_error_kind(ErrorKind::ScalarConversion, [] { ops::is_nonzero(from_values({1, 1}, {2})); });
  expect_error_kind(ErrorKind::ScalarConversion, [] { ops::is_nonzero(Tensor::empty({0, 2}, DType::Bool)); });
}

TEST(Nonzero, ListsIndicesInRowMajorOrder) {
  const Tensor out = ops::nonzero(from_values({0, 1, 2, 0, 0, 3}, {2, 3}));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_EQ(out.shape(), (Shape{3, 2}));
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 0, 2, 1, 2}));
}

TEST(Nonzero, CountsNanAsNonZero) {
  EXPECT_EQ(ops::nonzero(from_values({NAN, 0, -0.0}, {3})).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0}));
}

TEST(Nonzero, FollowsLogicalOrderOfATransposedView) {
  // base [[1, 0], [0, 0], [2, 0]] (3x2); its transpose is [[1, 0, 2], [0, 0, 0]].
  const Tensor base = from_values({1, 0, 0, 0, 2, 0}, {3, 2});
  const Tensor t = Tensor::view_of(base, {2, 3}, {1, 2}, 0);
  EXPECT_EQ(ops::nonzero(t).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 0, 2}));
}

TEST(Nonzero, RankZeroGivesOneOrZeroRowsOfNoColumns) {
  EXPECT_EQ(ops::nonzero(from_values({5}, {})).shape(), (Shape{1, 0}));
  EXPECT_EQ(ops::nonzero(from_values({0}, {})).shape(), (Shape{0, 0}));
}

TEST(Nonzero, EmptyInputGivesZeroRows) {
  EXPECT_EQ(ops::nonzero(Tensor::empty({0, 3}, DType::Bool)).shape(), (Shape{0, 2}));
}

TEST(Nonzero, OnMetaIsDataDependent) {
  expect_error_kind(ErrorKind::DataDependentOnMeta, [] { ops::nonzero(meta_like(from_values({1, 0}, {2}))); });
}

TEST(MaskedSelect, SelectsInRowMajorOrderWithABroadcastMask) {
  const Tensor self = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor mask = from_values({1, 0, 1}, {3}, DType::Bool);
  const Tensor out = ops::masked_select(self, mask);
  EXPECT_EQ(out.shape(), (Shape{4}));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{1, 3, 4, 6}));
}

TEST(MaskedSelect, MaskCanBroadcastSelf) {
  const Tensor self = from_values({7, 8}, {2}, DType::Int64);
  const Tensor mask = from_values({1, 0}, {2, 1}, DType::Bool);
  EXPECT_EQ(ops::masked_select(self, mask).to_vector<std::int64_t>(), (std::vector<std::int64_t>{7, 8}));
}

TEST(MaskedSelect, KeepsNanAndDtype) {
  const Tensor out =
      ops::masked_select(from_values({NAN, 1}, {2}, DType::Float32), from_values({1, 0}, {2}, DType::Bool));
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_TRUE(std::isnan(out.to_vector<double>()[0]));
}

TEST(MaskedSelect, AllFalseGivesEmpty) {
  EXPECT_EQ(ops::masked_select(from_values({1, 2}, {2}), from_values({0}, {}, DType::Bool)).shape(), (Shape{0}));
}

TEST(MaskedSelect, NonBoolMaskIsRejected) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    ops::masked_select(from_values({1, 2}, {2}), from_values({1, 0}, {2}, DType::Int64));
  });
}

TEST(MaskedSelect, UnbroadcastableShapesAreRejected) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::masked_select(from_values({1, 2}, {2}), from_values({1, 0, 1}, {3}, DType::Bool));
  });
}

TEST(MaskedSelect, OnMetaIsDataDependent) {
  expect_error_kind(ErrorKind::DataDependentOnMeta, [] {
    ops::masked_select(meta_like(from_values({1}, {1})), meta_like(from_values({1}, {1}, DType::Bool)));
  });
}

}  // namespace
}  // namespace funcspec
