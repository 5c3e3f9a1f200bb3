#include <gtest/gtest.h>

#include "conformance/samples/sample_checks.h"

namespace funcspec::samples {
namespace {

// The catalogue-wide sample checks (meta agreement, float64/float32 against the oracle) for the
// random and value-dependent ops, over several seeds, independent of the rest of the catalogue.
// rand, randn and randint have no tensor input that check_meta_agrees could move to meta (their
// samples run on cpu twice), so their meta behaviour is unit-tested instead (Rand.OnMeta...).
void expect_samples_pass(const std::string& op, bool check_meta) {
  const OpSampleSpec* spec = OpSampleRegistry::instance().find(op);
  ASSERT_NE(spec, nullptr) << op;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    std::vector<SampleVerdict> verdicts{check_oracle_agrees(*spec, DType::Float64, seed),
                                        check_oracle_agrees(*spec, DType::Float32, seed)};
    if (check_meta) verdicts.push_back(check_meta_agrees(*spec, seed));
    for (const SampleVerdict& v : verdicts) {
      EXPECT_TRUE(v.passed()) << v.check << ": " << (v.failures.empty() ? "" : v.failures[0]);
      ::testing::Test::RecordProperty(op + "/" + v.check + "/" + std::to_string(seed),
                                      std::to_string(v.max_error_ulps));
    }
  }
}

class RandomDynamicSamples : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomDynamicSamples, PassTheCatalogueChecks) {
  const std::string& op = GetParam();
  expect_samples_pass(op, op != "rand" && op != "randn" && op != "randint");
}

INSTANTIATE_TEST_SUITE_P(Ops, RandomDynamicSamples,
                         ::testing::Values("rand", "randn", "randint", "bernoulli", "bernoulli.p", "normal",
                                           "normal_functional", "uniform", "multinomial", "normal_", "uniform_",
                                           "bernoulli_", "item", "is_nonzero", "nonzero", "masked_select", "fill_",
                                           "zero_"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) {
                             if (c == '.') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace funcspec::samples
