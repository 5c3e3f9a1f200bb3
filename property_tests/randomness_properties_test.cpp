// The randomness properties catch the backends they exist to catch: a backend that ignores
// randomness='error', one that swaps 'same' and 'different', one whose draws have the wrong spread;
// each fails at the pr tier with a counterexample case the reference passes and the mutant fails.
// Also: the statistics' bounds, and the pinned reference bug that keeps jacfwd(randomness=
// 'different') out of the suite's draws.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "property_tests/law_checks.h"
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

// The reference behind a rewrite of each case (or of each answer): a deliberately wrong backend.
class MutantBackend : public conformance::Backend {
 public:
  using Evaluate = std::function<ProgramResult(const Case&, conformance::Backend& reference)>;
  MutantBackend(std::string name, Evaluate evaluate)
      : name_(std::move(name)), reference_(conformance::make_backend("reference")), evaluate_(std::move(evaluate)) {}
  std::string spec() const override { return "mutant:" + name_; }
  const conformance::Capabilities& capabilities() const override { return reference_->capabilities(); }
  ProgramResult evaluate(const Case& c, const conformance::EvaluateOptions&) override {
    return evaluate_(c, *reference_);
  }

 private:
  std::string name_;
  std::unique_ptr<conformance::Backend> reference_;
  Evaluate evaluate_;
};

// Every randomness flag of the case rewritten by `flip`.
MutantBackend flag_mutant(std::string name, std::function<Randomness(Randomness)> flip) {
  return MutantBackend(std::move(name), [flip](const Case& c, conformance::Backend& reference) {
    Case rewritten = c;
    for (conformance::Transform& t : rewritten.transforms) {
      if (auto* vmap = std::get_if<conformance::VmapTransform>(&t)) vmap->randomness = flip(vmap->randomness);
      if (auto* jac = std::get_if<conformance::JacobianTransform>(&t)) jac->randomness = flip(jac->randomness);
    }
    return reference.evaluate(rewritten, {});
  });
}

PropertyDef property_named(const std::string& id) {
  for (PropertyDef& property : all_properties()) {
    if (property.id == id) return property;
  }
  throw std::runtime_error("no property " + id);
}

// `property` fails for `mutant` at the pr tier, with a counterexample the reference passes and the
// mutant fails.
void expect_caught(const PropertyDef& property, MutantBackend& mutant) {
  PropertyRunOptions options;
  options.tier = conformance::Tier::Pr;
  options.artifacts_dir = std::filesystem::path("funcspec-artifacts/property-tests/mutants") / mutant.spec().substr(7);
  const conformance::TestRecord record = run_property(property, mutant, options);
  ASSERT_EQ(record.status, conformance::TestStatus::Fail) << property.id << " did not catch " << mutant.spec() << ": "
                                                          << conformance::test_status_name(record.status) << "\n"
                                                          << record.reason << "\n"
                                                          << record.note;
  ASSERT_FALSE(record.replay_case.empty()) << "no counterexample case was written:\n" << record.reason;
  const Case counterexample = conformance::read_case_file(record.replay_case);
  const conformance::Evaluation on_reference = conformance::evaluate_on_reference(counterexample);
  EXPECT_EQ(on_reference.verdict, conformance::Verdict::Pass)
      << record.replay_case << " fails the reference: " << on_reference.reason;
  const conformance::Evaluation on_mutant = conformance::judge(counterexample, mutant.evaluate(counterexample, {}));
  EXPECT_EQ(on_mutant.verdict, conformance::Verdict::Fail) << record.replay_case << " passes " << mutant.spec();
}

TEST(RandomnessMutants, IgnoringErrorIsCaught) {
  MutantBackend mutant =
      flag_mutant("ignores-error", [](Randomness r) { return r == Randomness::Error ? Randomness::Different : r; });
  expect_caught(property_named("PROP-RANDOM/error-refuses"), mutant);
}

Randomness swap_same_and_different(Randomness r) {
  if (r == Randomness::Same) return Randomness::Different;
  if (r == Randomness::Different) return Randomness::Same;
  return r;
}

TEST(RandomnessMutants, SwappingSameAndDifferentIsCaughtByTheDraws) {
  MutantBackend mutant = flag_mutant("swaps-same-and-different", swap_same_and_different);
  expect_caught(property_named("PROP-RANDOM/same-and-different-draws"), mutant);
}

TEST(RandomnessMutants, SwappingSameAndDifferentIsCaughtByTheSlices) {
  MutantBackend mutant = flag_mutant("swaps-same-and-different-slices", swap_same_and_different);
  expect_caught(property_named("PROP-RANDOM/slice-distributions"), mutant);
}

TEST(RandomnessMutants, DrawsOfTwiceTheSpreadAreCaught) {
  MutantBackend mutant("twice-the-spread", [](const Case& c, conformance::Backend& reference) {
    ProgramResult result = reference.evaluate(c, {});
    for (auto& [name, data] : result.outputs) {
      if (data.dtype == DType::Bool) continue;
      data = data_of(call_one("mul", {tensor_of(data), Tensor::wrapped_scalar(Scalar(std::int64_t{2}))}));
    }
    return result;
  });
  expect_caught(property_named("PROP-RANDOM/slice-distributions"), mutant);
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
