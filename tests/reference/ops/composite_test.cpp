#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/composite.h"
#include "reference/api/conversion.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

void expect_near_all(const Tensor& t, const std::vector<double>& want, double tolerance = 1e-12) {
  const std::vector<double> got = t.to_vector<double>();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tolerance) << "element " << i;
}

Tensor int_targets(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Int64);
}

TEST(Fill, WritesTheValueIntoEveryElementAndReturnsSelf) {
  const Tensor self = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor out = ops::fill_(self, 2.5);
  EXPECT_TRUE(out.is_same(self));
  EXPECT_EQ(self.to_vector<double>(), (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
}

TEST(Fill, ConvertsTheValueToSelfsDtype) {
  const Tensor self = from_values({0, 0}, {2}, DType::Int64);
  ops::fill_(self, -2.7);
  EXPECT_EQ(self.to_vector<std::int64_t>(), (std::vector<std::int64_t>{-2, -2}));
}

TEST(Fill, WritesThroughAViewIntoItsBase) {
  const Tensor base = from_values({1, 2, 3, 4, 5, 6}, {6});
  ops::fill_(Tensor::view_of(base, {3}, {2}, 1), 0);
  EXPECT_EQ(base.to_vector<double>(), (std::vector<double>{1, 0, 3, 0, 5, 0}));
}

TEST(Fill, WorksOnMeta) {
  const Tensor self = Tensor::empty({2, 3}, DType::Float32, Device::Meta);
  EXPECT_TRUE(ops::fill_(self, 1).is_same(self));
}

TEST(Fill, RejectsATargetWithOverlappingElements) {
  const Tensor base = from_values({1}, {1});
  expect_error_kind(ErrorKind::InternalOverlap, [&] { ops::fill_(Tensor::view_of(base, {3}, {0}, 0), 2); });
}

TEST(Zero, OverwritesNanAndInf) {
  const Tensor self = from_values({NAN, INFINITY, -1}, {3});
  ops::zero_(self);
  EXPECT_EQ(self.to_vector<double>(), (std::vector<double>{0, 0, 0}));
}

TEST(Dropout, EvalReturnsTheInputItself) {
  const Tensor x = from_values({1, 2}, {2});
  EXPECT_TRUE(ops::dropout(x, 0.5, false).is_same(x));
}

TEST(Dropout, ZeroProbabilityReturnsTheInputAndDrawsNothing) {
  random::GeneratorScope scope(1);
  const Tensor x = from_values({1, 2}, {2});
  EXPECT_TRUE(ops::dropout(x, 0.0).is_same(x));
  EXPECT_EQ(random::current_generator().offset(), 0u);
}

TEST(Dropout, RejectsPOutsideUnitInterval) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::dropout(from_values({1}, {1}), 1.5); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::dropout(from_values({1}, {1}), -0.1); });
}

TEST(Dropout, RejectsIntegerInput) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::dropout(from_values({1}, {1}, DType::Int64)); });
}

TEST(Dropout, KeptValuesAreScaledByOneOverOneMinusP) {
  random::GeneratorScope scope(3);
  const std::vector<double> out = ops::dropout(from_values({1, 1, 1, 1, 1, 1, 1, 1}, {8}), 0.75).to_vector<double>();
  for (double v : out) EXPECT_TRUE(v == 0 || v == 4) << v;
}

TEST(Dropout, PEqualOneGivesZerosForFiniteInput) {
  EXPECT_EQ(ops::dropout(from_values({3, -2}, {2}), 1.0).to_vector<double>(), (std::vector<double>{0, 0}));
}

TEST(Softmax, HandValues) { expect_near_all(ops::softmax(from_values({0, std::log(3.0)}, {1, 2}), 1), {0.25, 0.75}); }

TEST(Softmax, LargeInputsDoNotOverflow) {
  expect_near_all(ops::softmax(from_values({1000, 1000}, {2}), 0), {0.5, 0.5});
}

TEST(Softmax, RejectsDimOutOfRange) {
  expect_error_kind(ErrorKind::DimOutOfRange, [] { ops::softmax(from_values({1, 2}, {2}), 1); });
}

TEST(Softmax, RejectsIntegerInput) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::softmax(from_values({1, 2}, {2}, DType::Int64), 0); });
}

TEST(LogSoftmax, HandValues) {
  expect_near_all(ops::log_softmax(from_values({0, std::log(3.0)}, {2}), 0), {std::log(0.25), std::log(0.75)});
}

TEST(LogSoftmax, SizeZeroInputGivesEmpty) {
  EXPECT_EQ(ops::log_softmax(Tensor::empty({0, 3}, DType::Float64), 1).shape(), (Shape{0, 3}));
}

TEST(NllLoss, IgnoredTargetsContributeZeroAndLeaveTheMean) {
  const Tensor self = from_values({-1, -2, -3, -4, -5, -6}, {2, 3});
  const Tensor target = int_targets({2, -100}, {2});
  expect_near_all(ops::nll_loss(self, target, Tensor(), "none"), {3, 0});
  expect_near_all(ops::nll_loss(self, target), {3});
}

TEST(NllLoss, WeightedMeanDividesBySummedWeights) {
  const Tensor self = from_values({-1, -2, -3, -4, -5, -6}, {2, 3});
  const Tensor weight = from_values({1, 2, 3}, {3});
  expect_near_all(ops::nll_loss(self, int_targets({0, 1}, {2}), weight), {(1.0 + 10.0) / 3.0});
}

TEST(NllLoss, AllTargetsIgnoredGivesNanMean) {
  EXPECT_TRUE(
      std::isnan(ops::nll_loss(from_values({-1, -2}, {1, 2}), int_targets({-100}, {1})).to_vector<double>()[0]));
}

TEST(NllLoss, RejectsUnknownReduction) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    ops::nll_loss(from_values({-1, -2}, {1, 2}), int_targets({0}, {1}), Tensor(), "average");
  });
}

TEST(NllLoss, RejectsFloatingTargets) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] {
    ops::nll_loss(from_values({-1, -2}, {1, 2}), from_values({0}, {1}));
  });
}

TEST(NllLoss, RejectsTargetsOfTheWrongShape) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::nll_loss(from_values({-1, -2}, {1, 2}), int_targets({0, 1}, {2}));
  });
}

TEST(NllLoss, RejectsWeightOfTheWrongShape) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::nll_loss(from_values({-1, -2}, {1, 2}), int_targets({0}, {1}), from_values({1, 1, 1}, {3}));
  });
}

TEST(CrossEntropy, ClassIndexTargetHandValue) {
  expect_near_all(ops::cross_entropy(from_values({0, std::log(3.0)}, {1, 2}), int_targets({1}, {1})),
                  {-std::log(0.75)});
}

TEST(CrossEntropy, LabelSmoothingMixesInTheUniformTarget) {
  // p = [1/4, 3/4], target 1, eps = 0.2, C = 2: 0.8 (-ln 3/4) + 0.1 (-ln 1/4 - ln 3/4).
  const double want = 0.9 * -std::log(0.75) + 0.1 * std::log(4.0);
  expect_near_all(
      ops::cross_entropy(from_values({0, std::log(3.0)}, {1, 2}), int_targets({1}, {1}), Tensor(), "mean", -100, 0.2),
      {want});
}

TEST(CrossEntropy, UnweightedSmoothingMeanCountsOnlyKeptTargets) {
  // SPEC OPS-12.1: both terms are means over the one kept target: nll ln 2, smoothing 2 ln 2, mixed
  // (1 - 0.5) ln 2 + (0.5 / 2) 2 ln 2 = ln 2 (over both targets the smoothing term would give 0.75 ln 2).
  const double want = std::log(2.0);
  expect_near_all(
      ops::cross_entropy(from_values({0, 0, 0, 0}, {2, 2}), int_targets({0, -100}, {2}), Tensor(), "mean", -100, 0.5),
      {want});
}

TEST(CrossEntropy, ProbabilityTargetsHandValue) {
  const double want = -(0.5 * std::log(0.25) + 0.5 * std::log(0.75));
  expect_near_all(ops::cross_entropy(from_values({0, std::log(3.0)}, {1, 2}), from_values({0.5, 0.5}, {1, 2})), {want});
}

TEST(CrossEntropy, RejectsLabelSmoothingOutsideUnitInterval) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    ops::cross_entropy(from_values({0, 0}, {1, 2}), int_targets({0}, {1}), Tensor(), "mean", -100, 1.5);
  });
}

TEST(CrossEntropy, RejectsProbabilityTargetsOfAnotherShape) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::cross_entropy(from_values({0, 0}, {1, 2}), from_values({1}, {1}));
  });
}

TEST(MseLoss, HandValuesForEachReduction) {
  const Tensor a = from_values({1, 2, 3}, {3}), b = from_values({1, 0, 0}, {3});
  expect_near_all(ops::mse_loss(a, b, "none"), {0, 4, 9});
  expect_near_all(ops::mse_loss(a, b, "sum"), {13});
  expect_near_all(ops::mse_loss(a, b), {13.0 / 3});
}

TEST(MseLoss, RejectsUnknownReduction) {
  expect_error_kind(ErrorKind::InvalidArgument,
                    [] { ops::mse_loss(from_values({1}, {1}), from_values({1}, {1}), "max"); });
}

TEST(MseLoss, RejectsIntegerInputs) {
  expect_error_kind(ErrorKind::DtypeNotSupported,
                    [] { ops::mse_loss(from_values({1}, {1}, DType::Int64), from_values({1}, {1}, DType::Int64)); });
}

TEST(Linear, HandValuesWithBias) {
  const Tensor out =
      ops::linear(from_values({1, 2}, {1, 2}), from_values({1, 0, 0, 1, 1, 1}, {3, 2}), from_values({0, 0, 1}, {3}));
  EXPECT_EQ(out.shape(), (Shape{1, 3}));
  expect_near_all(out, {1, 2, 4});
}

TEST(Linear, RejectsMismatchedFeatureDims) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::linear(from_values({1, 2}, {1, 2}), from_values({1, 2, 3}, {1, 3}));
  });
}

TEST(Linear, RejectsThreeDimensionalWeight) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::linear(from_values({1}, {1}), from_values({1}, {1, 1, 1})); });
}

TEST(LayerNorm, HandValuesWithWeightAndBias) {
  const Tensor x = from_values({1, 3}, {1, 2});
  expect_near_all(ops::layer_norm(x, {2}, Tensor(), Tensor(), 0.0), {-1, 1});
  expect_near_all(ops::layer_norm(x, {2}, from_values({2, 1}, {2}), from_values({0, 1}, {2}), 0.0), {-2, 2});
}

TEST(LayerNorm, RejectsEmptyNormalizedShape) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::layer_norm(from_values({1, 2}, {2}), {}); });
}

TEST(LayerNorm, RejectsNormalizedShapeThatIsNotATrailingPart) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::layer_norm(from_values({1, 2}, {1, 2}), {1}); });
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::layer_norm(from_values({1, 2}, {2}), {1, 2}); });
}

TEST(LayerNorm, RejectsWeightOfTheWrongShape) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] {
    ops::layer_norm(from_values({1, 2}, {2}), {2}, from_values({1}, {1}));
  });
}

TEST(LayerNorm, RejectsIntegerInput) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::layer_norm(from_values({1, 2}, {2}, DType::Int64), {2}); });
}

}  // namespace
}  // namespace funcspec
