#include "conformance/suite/tier_samples.h"

#include <gtest/gtest.h>

namespace funcspec::conformance {
namespace {

samples::OpSample sample_with(Attrs attrs, std::string special_point = "") {
  samples::OpSample s;
  s.attrs = std::move(attrs);
  s.special_point = std::move(special_point);
  return s;
}

TEST(TierSamples, ThePrTierTakesEachAttributeSetOnceAndEverySpecialPoint) {
  const std::vector<samples::OpSample> samples{
      sample_with({}),
      sample_with({}),                                    // a shape variant: nightly
      sample_with({{"reduction", std::string("sum")}}),   // a new attribute set
      sample_with({{"reduction", std::string("sum")}}),   // seen
      sample_with({}, "kink at 0"),                       // a special point, whatever its attributes
      sample_with({{"reduction", std::string("none")}}),  // a new attribute set
  };
  EXPECT_EQ(pr_sample_indices(samples), (std::vector<std::size_t>{0, 2, 4, 5}));
}

TEST(TierSamples, NoSamplesNoIndices) { EXPECT_TRUE(pr_sample_indices({}).empty()); }

}  // namespace
}  // namespace funcspec::conformance
