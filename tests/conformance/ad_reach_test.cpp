// Every differentiable op reaches every AD family at the pr tier: the size limit of the
// higher-order families (higher_order_samples) must not silently exclude an op, and neither may a
// family's own selection. An op named here is one the families skip.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "conformance/suite/ad_samples.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {
namespace {

TEST(AdReach, EveryDifferentiableOpReachesEveryFamilyAtPr) {
  const SuiteOptions options;  // the pr tier
  ConformanceTests tests;
  add_ad_check_tests(options, tests);
  add_ad_composition_tests(options, tests);
  std::set<std::string> ids;
  for (const ConformanceTest& t : tests) {
    if (t.tier <= Tier::Pr) ids.insert(t.id);
  }
  // Each family and the id its pr test of op `op` starts with (then the sample's suffix).
  const std::vector<std::string> families = {"AD-JVP-FD",    "AD-TRANSPOSE",     "AD-JACOBIAN",    "AD-HESSIAN",
                                             "AD-VMAP-GRAD", "AD-HIGHER",        "AD-FWD-FWD",     "AD-MIXED",
                                             "AD-VMAP-VJP",  "AD-VMAP-JVP",      "AD-VMAP-JACREV", "AD-VMAP-HESSIAN",
                                             "AD-LINEARIZE", "AD-VMAP-LINEARIZE"};
  std::size_t ops = 0;
  for (const ad::AdOpSamples& op_samples : ad::ad_op_samples(options)) {
    if (op_samples.samples.empty()) continue;  // no sample has derivatives to check (OPS-VALUES covers it)
    ++ops;
    for (const std::string& family : families) {
      const std::string prefix = family + "/" + op_samples.op + "/";
      const auto at = ids.lower_bound(prefix);
      EXPECT_TRUE(at != ids.end() && at->rfind(prefix, 0) == 0)
          << op_samples.op << " reaches no " << family << " test at the pr tier";
    }
  }
  EXPECT_GT(ops, 100u);
}

}  // namespace
}  // namespace funcspec::conformance
