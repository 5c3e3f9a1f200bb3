// Every op of the catalogue is batched by a native rule, never by the for-loop fallback: the
// VMAP-ORACLE conformance tests (every op's samples under every batching) run on the reference
// without a single fallback. The fallback stays for what has no rule (a custom function without a
// vmap rule); this test names any catalogue op that falls back.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "conformance/case/evaluate.h"
#include "conformance/suite/test_catalogue.h"
#include "reference/transforms/fallback_log.h"

namespace funcspec::conformance {
namespace {

TEST(VmapNativeRules, NoOpOfTheCatalogueFallsBackToTheLoop) {
  SuiteOptions options;
  options.tier = Tier::Pr;
  const ConformanceTests tests = select_tests(collect_tests(options), Tier::Pr, {"VMAP-ORACLE/*"});
  ASSERT_GT(tests.size(), 1000u);
  transforms::VmapFallbackLog log;
  for (const ConformanceTest& test : tests) run_on_reference(test.build());
  std::vector<std::string> fell_back;
  for (const auto& [op, count] : log.counts()) fell_back.push_back(fmt::format("{} ({} calls)", op, count));
  EXPECT_TRUE(fell_back.empty()) << "ops without a batching rule: " << fmt::format("{}", fmt::join(fell_back, ", "));
}

}  // namespace
}  // namespace funcspec::conformance
