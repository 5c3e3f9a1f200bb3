// The higher-order AD families do not silently skip an op whose samples are all too big
// (higher_order_samples): they shrink its smallest sample, or run that sample as it is, and the
// id says which.
#include "conformance/suite/ad_samples.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/suite/variant_samples.h"
#include "reference/api/ops.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance::ad {
namespace {

AdOpSamples one_sample(const std::string& op, TensorList inputs, Attrs attrs, const std::string& label) {
  samples::SampleRng rng(7);
  for (Tensor& t : inputs) t = rng.tensor(t.shape(), DType::Float64);
  const samples::OpSample sample{std::move(inputs), std::move(attrs), label};
  const SampleCall call{&all_sample_specs().at(op), sample, DType::Float64, 1};
  std::optional<AdCheckSample> checked = checkable_sample(op, OpRegistry::instance().get(op), call, DType::Float64, 0);
  EXPECT_TRUE(checked.has_value()) << op;
  AdOpSamples all{op, DType::Float64, {}};
  if (checked) all.samples.push_back(*checked);
  return all;
}

Tensor of_shape(const Shape& shape) { return ops::zeros(shape, DType::Float64); }

TEST(HigherOrderSamples, ASampleWithinTheLimitIsCheckedAsItIs) {
  const std::vector<AdCheckSample> chosen = higher_order_samples(one_sample("sin", {of_shape({2, 3})}, {}, "2x3"));
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].suffix, "0-2x3");
  EXPECT_EQ(chosen[0].tier, Tier::Pr);  // the op's only small sample reaches pr
  EXPECT_TRUE(chosen[0].provenance.empty());
}

TEST(HigherOrderSamples, AnOpWithOnlyLargeSamplesGetsAShrunkOne) {
  const std::vector<AdCheckSample> chosen = higher_order_samples(one_sample("sin", {of_shape({4, 5})}, {}, "4x5"));
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].suffix, "0-4x5-shrunk3");
  EXPECT_EQ(chosen[0].s.sample.inputs[0].shape(), (Shape{3, 3}));
  EXPECT_EQ(chosen[0].tier, Tier::Pr);
  EXPECT_NE(chosen[0].provenance.find("cut to its first 3"), std::string::npos) << chosen[0].provenance;
}

TEST(HigherOrderSamples, InputsSharingADimAreCutConsistently) {
  const std::vector<AdCheckSample> chosen =
      higher_order_samples(one_sample("matmul", {of_shape({4, 5}), of_shape({5, 4})}, {}, "4x5 at 5x4"));
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].suffix, "0-4x5-at-5x4-shrunk2");  // 3x3 and 3x3 are 18 elements: over the limit
  EXPECT_EQ(chosen[0].s.sample.inputs[1].shape(), (Shape{2, 2}));
}

TEST(HigherOrderSamples, AnOpThatDoesNotShrinkRunsItsSmallestSampleAndSaysSo) {
  // reshape to [20] runs on no cut of a 4x5 input.
  const std::vector<AdCheckSample> chosen = higher_order_samples(
      one_sample("reshape", {of_shape({4, 5})}, {{"shape", std::vector<std::int64_t>{20}}}, "4x5 to 20"));
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].suffix, "0-4x5-to-20-smallest-sample");
  EXPECT_EQ(chosen[0].tier, Tier::Pr);
  EXPECT_FALSE(chosen[0].provenance.empty());
}

TEST(HigherOrderSamples, AnEmptySampleDoesNotStandInForAnOpsDerivatives) {
  AdOpSamples op = one_sample("sin", {of_shape({4, 5})}, {}, "4x5");
  AdOpSamples empty = one_sample("sin", {of_shape({0, 3})}, {}, "0x3");
  empty.samples[0].index = 1;
  empty.samples[0].suffix = "1-0x3";
  op.samples.push_back(empty.samples[0]);
  const std::vector<AdCheckSample> chosen = higher_order_samples(op);
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0].suffix, "1-0x3");
  EXPECT_EQ(chosen[1].suffix, "0-4x5-shrunk3");
  EXPECT_EQ(chosen[1].tier, Tier::Pr);
}

}  // namespace
}  // namespace funcspec::conformance::ad
