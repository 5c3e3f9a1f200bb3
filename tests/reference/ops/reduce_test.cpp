// Hand-worked tests of the reductions (docs/ops/reduce.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/conversion.h"
#include "reference/api/reduce.h"
#include "reference/ops/registry.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::kInf;
using testing_support::kNaN;
using testing_support::matrix23;
using testing_support::transposed_matrix23;
using testing_support::values;

using Dims = std::vector<std::int64_t>;
using Values = std::vector<double>;

TEST(ReduceSum, AllDimsByDefault) {
  const Tensor s = ops::sum(matrix23());
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(values(s), Values{21});
}

TEST(ReduceSum, OneDimKeepdim) {
  const Tensor s = ops::sum(matrix23(), Dims{1}, true);
  EXPECT_EQ(s.shape(), (Shape{2, 1}));
  EXPECT_EQ(values(s), (Values{6, 15}));
}

TEST(ReduceSum, NegativeDim) { EXPECT_EQ(values(ops::sum(matrix23(), Dims{-2})), (Values{5, 7, 9})); }

TEST(ReduceSum, EmptyDimListReducesEveryDim) {
  const Tensor s = ops::sum(matrix23(), Dims{});
  EXPECT_EQ(s.shape(), Shape{});
  EXPECT_EQ(values(s), Values{21});
}

TEST(ReduceSum, NonContiguousInput) { EXPECT_EQ(values(ops::sum(transposed_matrix23(), Dims{1})), (Values{6, 15})); }

TEST(ReduceSum, EmptyReductionIsZero) {
  const Tensor s = ops::sum(Tensor::empty({0, 3}, DType::Float64), Dims{0});
  EXPECT_EQ(s.shape(), Shape{3});
  EXPECT_EQ(values(s), (Values{0, 0, 0}));
}

TEST(ReduceSum, RankZeroAcceptsDimZeroAndMinusOne) {
  const Tensor x = from_values({5}, {});
  EXPECT_EQ(values(ops::sum(x, Dims{0})), Values{5});
  EXPECT_EQ(ops::sum(x, Dims{-1}, true).shape(), Shape{});
}

TEST(ReduceSum, DimOutOfRangeIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::sum(matrix23(), Dims{2}); }), ErrorKind::DimOutOfRange);
  EXPECT_EQ(error_kind_of([] { ops::sum(from_values({5}, {}), Dims{1}); }), ErrorKind::DimOutOfRange);
}

TEST(ReduceSum, RepeatedDimIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::sum(matrix23(), Dims{1, -1}); }), ErrorKind::InvalidArgument);
}

TEST(ReduceSum, BoolCountsIntoInt64) {
  const Tensor s = ops::sum(from_values({1, 0, 1}, {3}, DType::Bool));
  EXPECT_EQ(s.dtype(), DType::Int64);
  EXPECT_EQ(s.to_vector<std::int64_t>(), std::vector<std::int64_t>{2});
}

TEST(ReduceSum, Int64OverflowWraps) {
  const Tensor x =
      from_vector(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), 1}, {2}, DType::Int64);
  EXPECT_EQ(ops::sum(x).to_vector<std::int64_t>(), std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
}

TEST(ReduceSum, DtypeCastsTheInputFirst) {
  const Tensor s = ops::sum(from_values({1, 2}, {2}, DType::Int64), std::nullopt, false, DType::Float64);
  EXPECT_EQ(s.dtype(), DType::Float64);
  EXPECT_EQ(values(s), Values{3});
}

TEST(ReduceSum, Float32AccumulatesInFloat64) {
  // In float32, 2^24 + 1 rounds back to 2^24 at each step; in float64 the total 2^24 + 2 is exact
  // and representable in float32.
  const Tensor x = from_values({16777216, 1, 1}, {3}, DType::Float32);
  EXPECT_EQ(values(ops::sum(x)), Values{16777218});
}

TEST(ReduceSum, NanPropagates) { EXPECT_TRUE(std::isnan(values(ops::sum(from_values({1, kNaN, 2}, {3})))[0])); }

TEST(ReduceSum, OnMetaGivesShapeAndDtype) {
  const Tensor s = ops::sum(Tensor::empty({2, 3, 4}, DType::Bool, Device::Meta), Dims{0, 2}, true);
  EXPECT_EQ(s.device(), Device::Meta);
  EXPECT_EQ(s.shape(), (Shape{1, 3, 1}));
  EXPECT_EQ(s.dtype(), DType::Int64);
}

TEST(ReduceSum, OutVariantWritesIntoOut) {
  const Tensor out = Tensor::empty({3}, DType::Float64);
  const Tensor result = ops::sum_out(matrix23(), out, Dims{0});
  EXPECT_TRUE(result.is_same(out));
  EXPECT_EQ(values(out), (Values{5, 7, 9}));
}

TEST(ReduceSum, OutVariantRejectsAWrongShape) {
  const Tensor out = Tensor::empty({2}, DType::Float64);
  EXPECT_EQ(error_kind_of([&] { ops::sum_out(matrix23(), out, Dims{0}); }), ErrorKind::OutShapeMismatch);
  EXPECT_EQ(values(out), (Values{0, 0}));
}

TEST(ReduceSum, OutVariantRejectsFloatIntoInt64) {
  const Tensor out = Tensor::empty({3}, DType::Int64);
  EXPECT_EQ(error_kind_of([&] { ops::sum_out(matrix23(), out, Dims{0}); }), ErrorKind::DtypeCastNotAllowed);
}

TEST(ReduceProd, OverOneDim) { EXPECT_EQ(values(ops::prod(matrix23(), Dims{1})), (Values{6, 120})); }

TEST(ReduceProd, EmptyReductionIsOne) {
  EXPECT_EQ(values(ops::prod(Tensor::empty({2, 0}, DType::Float32), Dims{1})), (Values{1, 1}));
}

TEST(ReduceProd, BoolMultipliesIntoInt64) {
  const Tensor p = ops::prod(from_values({1, 1, 0, 1}, {2, 2}, DType::Bool), Dims{1});
  EXPECT_EQ(p.dtype(), DType::Int64);
  EXPECT_EQ(p.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0}));
}

TEST(ReduceAmax, OverOneDimKeepsDtype) {
  const Tensor m = ops::amax(from_values({3, -1, 7, 2}, {2, 2}, DType::Int64), Dims{0});
  EXPECT_EQ(m.dtype(), DType::Int64);
  EXPECT_EQ(values(m), (Values{7, 2}));
}

TEST(ReduceAmin, AllDims) { EXPECT_EQ(values(ops::amin(transposed_matrix23())), Values{1}); }

TEST(ReduceAmax, NanPropagates) {
  EXPECT_TRUE(std::isnan(values(ops::amax(from_values({1, kNaN, 9}, {3})))[0]));
  EXPECT_TRUE(std::isnan(values(ops::amin(from_values({1, kNaN, -9}, {3})))[0]));
}

TEST(ReduceAmax, EmptyReductionIsAnError) {
  EXPECT_EQ(error_kind_of([] {
              ops::amax(Tensor::empty({0, 3}, DType::Float64), Dims{0});
            }),
            ErrorKind::InvalidArgument);
  EXPECT_EQ(error_kind_of([] { ops::amin(Tensor::empty({0}, DType::Float64, Device::Meta)); }),
            ErrorKind::InvalidArgument);
}

TEST(ReduceAmax, EmptyKeptDimIsFine) {
  EXPECT_EQ(ops::amax(Tensor::empty({0, 3}, DType::Float64), Dims{1}).shape(), Shape{0});
}

TEST(ReduceArgmax, FirstOccurrenceOnTies) {
  EXPECT_EQ(values(ops::argmax(from_values({1, 3, 3, 2}, {4}))), Values{1});
  EXPECT_EQ(values(ops::argmin(from_values({2, 1, 3, 1}, {4}))), Values{1});
}

TEST(ReduceArgmax, NoDimIndexesTheFlattenedTensor) {
  const Tensor i = ops::argmax(from_values({1, 5, 7, 2}, {2, 2}));
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_EQ(i.shape(), Shape{});
  EXPECT_EQ(values(i), Values{2});
}

TEST(ReduceArgmax, NoDimKeepdimKeepsTheRank) {
  EXPECT_EQ(ops::argmax(matrix23(), std::nullopt, true).shape(), (Shape{1, 1}));
}

TEST(ReduceArgmin, AlongOneDim) {
  EXPECT_EQ(values(ops::argmin(from_values({4, 1, 6, 0, 5, 9}, {2, 3}), 1)), (Values{1, 0}));
}

TEST(ReduceArgmax, NanCountsAsTheExtreme) {
  const Tensor x = from_values({1, kNaN, 5, kNaN}, {4});
  EXPECT_EQ(values(ops::argmax(x)), Values{1});
  EXPECT_EQ(values(ops::argmin(x)), Values{1});
}

TEST(ReduceArgmax, EmptyReductionIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::argmax(Tensor::empty({0}, DType::Float64)); }), ErrorKind::InvalidArgument);
}

TEST(ReduceArgmax, BoolIsNotSupported) {
  EXPECT_EQ(error_kind_of([] { ops::argmax(from_values({1, 0}, {2}, DType::Bool)); }), ErrorKind::DtypeNotSupported);
}

TEST(ReduceAll, OverOneDim) {
  const Tensor a = ops::all(from_values({1, 2, 0, 3}, {2, 2}), Dims{1});
  EXPECT_EQ(a.dtype(), DType::Bool);
  EXPECT_EQ(values(a), (Values{1, 0}));
}

TEST(ReduceAny, OverOneDim) {
  EXPECT_EQ(values(ops::any(from_values({0, 0, 0, -2}, {2, 2}), Dims{1})), (Values{0, 1}));
}

TEST(ReduceAll, EmptyIsTrueAndAnyIsFalse) {
  const Tensor empty = Tensor::empty({0}, DType::Int64);
  EXPECT_EQ(values(ops::all(empty)), Values{1});
  EXPECT_EQ(values(ops::any(empty)), Values{0});
}

TEST(ReduceAll, NanCountsAsTrue) {
  EXPECT_EQ(values(ops::all(from_values({kNaN, 1}, {2}))), Values{1});
  EXPECT_EQ(values(ops::any(from_values({kNaN, 0}, {2}))), Values{1});
}

TEST(ReduceNorm, TwoNormIsEuclidean) { EXPECT_EQ(values(ops::norm(from_values({3, -4}, {2}))), Values{5}); }

TEST(ReduceNorm, OneNormSumsMagnitudes) { EXPECT_EQ(values(ops::norm(from_values({-1, 2, -3}, {3}), 1)), Values{6}); }

TEST(ReduceNorm, InfinityNormsAreMaxAndMinMagnitude) {
  const Tensor x = from_values({-7, 2, -3}, {3});
  EXPECT_EQ(values(ops::norm(x, kInf)), Values{7});
  EXPECT_EQ(values(ops::norm(x, -kInf)), Values{2});
}

TEST(ReduceNorm, ZeroNormCountsNonZeros) {
  EXPECT_EQ(values(ops::norm(from_values({0, 2, 0, -1}, {4}), 0)), Values{2});
}

TEST(ReduceNorm, ThreeNorm) {
  // (1 + 8)^(1/3) = 9^(1/3)
  EXPECT_NEAR(values(ops::norm(from_values({1, -2}, {2}), 3))[0], 2.0800838230519041, 1e-15);
}

TEST(ReduceNorm, OverOneDimKeepdim) {
  const Tensor n = ops::norm(from_values({3, 4, 0, 5}, {2, 2}, DType::Float32), 2, Dims{1}, true);
  EXPECT_EQ(n.shape(), (Shape{2, 1}));
  EXPECT_EQ(values(n), (Values{5, 5}));
}

TEST(ReduceNorm, EmptyIsZeroForFiniteP) { EXPECT_EQ(values(ops::norm(Tensor::empty({0}, DType::Float64))), Values{0}); }

TEST(ReduceNorm, EmptyInfinityNormIsAnError) {
  EXPECT_EQ(error_kind_of([] { ops::norm(Tensor::empty({0}, DType::Float64), kInf); }), ErrorKind::InvalidArgument);
}

TEST(ReduceNorm, IntegerInputIsNotSupported) {
  EXPECT_EQ(error_kind_of([] { ops::norm(from_values({1}, {1}, DType::Int64)); }), ErrorKind::DtypeNotSupported);
}

TEST(ReduceNorm, NegativeFinitePIsRejected) {
  EXPECT_EQ(error_kind_of([] { ops::norm(from_values({1}, {1}), -1); }), ErrorKind::InvalidArgument);
}

TEST(ReduceMean, IntegerInputIsNotSupported) {
  EXPECT_EQ(error_kind_of([] { ops::mean(from_values({1, 2}, {2}, DType::Int64)); }), ErrorKind::DtypeNotSupported);
}

TEST(ReduceMean, OverOneDim) { EXPECT_EQ(values(ops::mean(matrix23(), Dims{1})), (Values{2, 5})); }

TEST(ReduceMean, DtypeMakesIntegersFloating) {
  const Tensor m = ops::mean(from_values({1, 2}, {2}, DType::Int64), std::nullopt, false, DType::Float64);
  EXPECT_EQ(m.dtype(), DType::Float64);
  EXPECT_EQ(values(m), Values{1.5});
}

TEST(ReduceMean, EmptyIsNan) { EXPECT_TRUE(std::isnan(values(ops::mean(Tensor::empty({0}, DType::Float64)))[0])); }

TEST(ReduceVar, IntegerInputIsNotSupported) {
  EXPECT_EQ(error_kind_of([] { ops::var(from_values({1, 2}, {2}, DType::Int64)); }), ErrorKind::DtypeNotSupported);
}

TEST(ReduceVar, DefaultCorrectionIsOne) {
  // mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, divided by 4 - 1
  EXPECT_DOUBLE_EQ(values(ops::var(from_values({1, 2, 3, 4}, {4})))[0], 5.0 / 3.0);
}

TEST(ReduceVar, CorrectionZeroIsThePopulationVariance) {
  EXPECT_EQ(values(ops::var(from_values({1, 2, 3, 4, 0, 0, 0, 0}, {2, 4}), Dims{1}, Scalar(0))), (Values{1.25, 0}));
}

TEST(ReduceVar, SingleElementWithCorrectionOneIsNan) {
  EXPECT_TRUE(std::isnan(values(ops::var(from_values({3}, {1})))[0]));
}

TEST(ReduceVar, CorrectionAboveCountIsInfinity) {
  // squared deviations 1 + 1 = 2 divided by max(2 - 3, 0) = 0
  EXPECT_EQ(values(ops::var(from_values({1, 3}, {2}), std::nullopt, Scalar(3))), Values{kInf});
}

TEST(ReduceStd, IsTheRootOfVar) {
  const Tensor s = ops::std(from_values({2, 4, 4, 4, 5, 5, 7, 9}, {8}), std::nullopt, Scalar(0), true);
  EXPECT_EQ(s.shape(), Shape{1});
  EXPECT_EQ(values(s), Values{2});
}

TEST(ReduceLogsumexp, DoesNotOverflow) {
  EXPECT_DOUBLE_EQ(values(ops::logsumexp(from_values({1000, 1000}, {2}), Dims{0}))[0], 1000 + std::log(2.0));
}

TEST(ReduceLogsumexp, RowsOfInfinities) {
  const Tensor l = ops::logsumexp(from_values({-kInf, -kInf, 1, kInf}, {2, 2}), Dims{1}, true);
  EXPECT_EQ(l.shape(), (Shape{2, 1}));
  EXPECT_EQ(values(l), (Values{-kInf, kInf}));
}

TEST(ReduceLogsumexp, NanPropagates) {
  EXPECT_TRUE(std::isnan(values(ops::logsumexp(from_values({1, kNaN}, {2}), Dims{0}))[0]));
}

TEST(ReduceLogsumexp, IntegersComputeInFloat32) {
  const Tensor l = ops::logsumexp(from_values({0, 0}, {2}, DType::Int64), Dims{0});
  EXPECT_EQ(l.dtype(), DType::Float32);
  EXPECT_NEAR(values(l)[0], 0.69314718055994531, 1e-7);  // log 2 to float32 precision
}

TEST(ReduceLogsumexp, EmptyIsMinusInfinity) {
  EXPECT_EQ(values(ops::logsumexp(Tensor::empty({2, 0}, DType::Float64), Dims{1})), (Values{-kInf, -kInf}));
}

}  // namespace
}  // namespace funcspec
