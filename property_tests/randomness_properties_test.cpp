// The randomness properties catch the backends they exist to catch: a backend that ignores
// randomness='error', one that swaps 'same' and 'different', one whose draws have the wrong spread;
// each fails at the pr tier with a counterexample case the reference passes and the mutant fails.
// Also: the statistics' bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "property_tests/law_checks.h"
#include "property_tests/mutant_backends_test_support.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "property_tests/randomness_statistics.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"

namespace funcspec::properties {
namespace {

using conformance::Case;
using conformance::ProgramResult;
using conformance::Randomness;

// Every randomness flag of the case rewritten by `flip`.
RewritingMutantBackend flag_mutant(std::string name, std::function<Randomness(Randomness)> flip) {
  return RewritingMutantBackend(std::move(name), [flip](const Case& c, conformance::Backend& reference) {
    Case rewritten = c;
    for (conformance::Transform& t : rewritten.transforms) {
      if (auto* vmap = std::get_if<conformance::VmapTransform>(&t)) vmap->randomness = flip(vmap->randomness);
      if (auto* jac = std::get_if<conformance::JacobianTransform>(&t)) jac->randomness = flip(jac->randomness);
    }
    return reference.evaluate(rewritten, {});
  });
}

TEST(RandomnessMutants, IgnoringErrorIsCaught) {
  RewritingMutantBackend mutant =
      flag_mutant("ignores-error", [](Randomness r) { return r == Randomness::Error ? Randomness::Different : r; });
  expect_caught(mutant, "PROP-RANDOM/error-refuses");
}

Randomness swap_same_and_different(Randomness r) {
  if (r == Randomness::Same) return Randomness::Different;
  if (r == Randomness::Different) return Randomness::Same;
  return r;
}

TEST(RandomnessMutants, SwappingSameAndDifferentIsCaughtByTheDraws) {
  RewritingMutantBackend mutant = flag_mutant("swaps-same-and-different", swap_same_and_different);
  expect_caught(mutant, "PROP-RANDOM/same-and-different-draws");
}

TEST(RandomnessMutants, SwappingSameAndDifferentIsCaughtByTheSlices) {
  RewritingMutantBackend mutant = flag_mutant("swaps-same-and-different-slices", swap_same_and_different);
  expect_caught(mutant, "PROP-RANDOM/slice-distributions");
}

TEST(RandomnessMutants, DrawsOfTwiceTheSpreadAreCaught) {
  RewritingMutantBackend mutant("twice-the-spread", [](const Case& c, conformance::Backend& reference) {
    ProgramResult result = reference.evaluate(c, {});
    for (auto& [name, data] : result.outputs) {
      if (data.dtype == DType::Bool) continue;
      data = data_of(call_one("mul", {tensor_of(data), Tensor::wrapped_scalar(Scalar(std::int64_t{2}))}));
    }
    return result;
  });
  expect_caught(mutant, "PROP-RANDOM/slice-distributions");
}

TEST(RandomnessStatistics, ThresholdIsTheDkwBoundSolvedForT) {
  const double t = two_sided_threshold(4096, 1e-14);
  EXPECT_NEAR(2 * std::exp(-2 * 4096 * t * t), 1e-14, 1e-20);
  EXPECT_NEAR(t, 0.0638, 5e-4);
  EXPECT_THROW(two_sided_threshold(0, 0.5), std::invalid_argument);
}

TEST(RandomnessStatistics, KsOfAnEvenGridIsHalfAStep) {
  std::vector<double> grid;
  for (int i = 0; i < 1000; ++i) grid.push_back((i + 0.5) / 1000);
  EXPECT_NEAR(ks_statistic_uniform(grid), 0.0005, 1e-12);
  EXPECT_NEAR(ks_statistic_uniform(std::vector<double>(1000, 0.25)), 0.75, 1e-12);
  EXPECT_NEAR(ks_statistic_uniform({2.0, -1.0}), 0.5, 1e-12);  // out of range: the nearer end
}

TEST(RandomnessStatistics, NormalCdf) {
  EXPECT_DOUBLE_EQ(standard_normal_cdf(0), 0.5);
  EXPECT_NEAR(standard_normal_cdf(1.959963984540054), 0.975, 1e-12);
  EXPECT_NEAR(standard_normal_cdf(-1), 1 - standard_normal_cdf(1), 1e-15);
}

// The reference's own draws sit far inside the bound the property uses: the distance of 200
// draws of rand and randn (4096 each) to their CDF stays below half of it.
TEST(RandomnessStatistics, ReferenceDrawsSitInsideTheBound) {
  const double bound = two_sided_threshold(4096, 1e-14);
  double worst = 0;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const random::GeneratorScope scope(seed);
    for (const char* op : {"rand", "randn"}) {
      const conformance::TensorData draw =
          data_of(call_one(op, {}, {{"size", std::vector<std::int64_t>{4096}}, {"dtype", DType::Float64}}));
      std::vector<double> u;
      for (std::int64_t i = 0; i < draw.numel(); ++i) {
        const double x = draw.element_as_double(i);
        u.push_back(std::string(op) == "rand" ? x : standard_normal_cdf(x));
      }
      worst = std::max(worst, ks_statistic_uniform(u));
    }
  }
  EXPECT_LT(worst, bound / 2);
}

}  // namespace
}  // namespace funcspec::properties
