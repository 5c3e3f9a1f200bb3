#include "conformance/samples/special_points.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "conformance/suite/tier_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

std::int64_t floating_elements(const OpSample& sample) {
  std::int64_t n = 0;
  for (const Tensor& t : sample.inputs) {
    if (t.defined() && !t.is_wrapped_number() && is_floating(t.dtype())) n += t.numel();
  }
  return n;
}

TEST(SpecialPoints, EveryDeclarationNamesAnOpWithSamples) {
  for (const auto& [op, points] : special_point_declarations()) {
    EXPECT_NE(OpRegistry::instance().find(op), nullptr) << op << " is not in the catalogue";
    EXPECT_NE(OpSampleRegistry::instance().find(op), nullptr) << op << " has no samples";
    EXPECT_FALSE(points.empty()) << op;
  }
}

TEST(SpecialPoints, EachPointIsASmallSampleOfItsOpThatThePrTierRuns) {
  for (const auto& [op, points] : special_point_declarations()) {
    for (DType floating : {DType::Float64, DType::Float32}) {
      SampleRng rng(1);
      const std::vector<OpSample> all = OpSampleRegistry::instance().find(op)->generate(floating, rng);
      const std::vector<std::size_t> pr = conformance::pr_sample_indices(all);
      for (const SpecialPoint& point : points) {
        SCOPED_TRACE(op + ": " + point.name);
        auto it = std::find_if(all.begin(), all.end(), [&](const OpSample& s) {
          return s.special_point == point.name && s.attrs.values() == point.attrs.values();
        });
        ASSERT_NE(it, all.end());
        EXPECT_EQ(it->label.rfind("special point: " + point.name, 0), 0u) << it->label;
        EXPECT_LE(floating_elements(*it), kMaxSpecialPointElements);
        const auto index = static_cast<std::size_t>(it - all.begin());
        EXPECT_NE(std::find(pr.begin(), pr.end(), index), pr.end());
      }
    }
  }
}

TEST(SpecialPoints, Float32TakesItsOwnValuesWhereItsRegionLiesElsewhere) {
  const std::vector<OpSample> f64 = special_point_samples("exp", DType::Float64);
  const std::vector<OpSample> f32 = special_point_samples("exp", DType::Float32);
  ASSERT_FALSE(f64.empty());
  ASSERT_EQ(f64.size(), f32.size());
  EXPECT_EQ(f64[0].inputs[0].to_vector<double>(), std::vector<double>{700.0});
  EXPECT_EQ(f32[0].inputs[0].dtype(), DType::Float32);
  EXPECT_EQ(f32[0].inputs[0].to_vector<double>(), std::vector<double>{80.0});
}

TEST(SpecialPoints, AnOpWithoutDeclarationsHasNone) {
  EXPECT_TRUE(special_point_samples("add", DType::Float64).empty());
}

}  // namespace
}  // namespace funcspec::samples
