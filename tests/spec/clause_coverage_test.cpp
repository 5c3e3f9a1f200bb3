// docs/SPEC.md and the conformance tests agree, over the whole registry the runner uses (case
// files, promotion tests, generated op value and meta tests): every Tests: pattern of every clause
// matches some test, every clause is named by some test, and every test names only clauses that
// exist and whose patterns cover its id.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "conformance/case/case_json.h"
#include "conformance/suite/test_catalogue.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

const ConformanceTests& registry() {
  static const ConformanceTests tests = [] {
    SuiteOptions options;
    options.tier = Tier::Pr;  // every family of generated tests (higher tiers add draws, not families)
    options.case_dirs = default_case_dirs();
    return collect_tests(options);
  }();
  return tests;
}

// The clauses each test's built case names: building may add some (an op value test whose sample
// raises also checks OPS-2.1).
const std::map<std::string, std::vector<std::string>>& built_clauses() {
  static const std::map<std::string, std::vector<std::string>> clauses = [] {
    std::map<std::string, std::vector<std::string>> out;
    for (const ConformanceTest& t : registry()) {
      if (t.run) {  // a property test: no single case to build (NOTE: [property tests])
        out[t.id] = t.clauses;
        continue;
      }
      try {
        const Case c = t.build();
        // A generated case must be a valid case file: what replay writes, and what an external
        // backend receives, goes through the reader.
        parse_case(case_to_json(c), t.id, ".");
        out[t.id] = c.clauses;
      } catch (const std::exception& e) {
        ADD_FAILURE() << t.id << " cannot be built: " << e.what();
        out[t.id] = t.clauses;
      }
    }
    return out;
  }();
  return clauses;
}

TEST(ClauseCoverage, EveryPatternMatchesATest) {
  for (const SpecClause& clause : embedded_spec()) {
    for (const std::string& pattern : clause.test_patterns) {
      const bool matched = std::any_of(registry().begin(), registry().end(),
                                       [&](const ConformanceTest& t) { return glob_match(pattern, t.id); });
      EXPECT_TRUE(matched) << clause.id << " (SPEC.md line " << clause.line << "): pattern `" << pattern
                           << "` matches no test";
    }
  }
}

// One test, so the registry's cases are built once.
TEST(ClauseCoverage, EveryClauseIsNamedByATestAndEveryTestByItsClauses) {
  std::set<std::string> named;
  std::size_t problems = 0;
  for (const auto& [id, clauses] : built_clauses()) {
    named.insert(clauses.begin(), clauses.end());
    const std::string problem = spec_testing::clause_problems(id, clauses);
    if (!problem.empty() && ++problems <= 20) ADD_FAILURE() << problem;
  }
  EXPECT_EQ(problems, 0u);
  for (const SpecClause& clause : embedded_spec())
    EXPECT_TRUE(named.contains(clause.id)) << clause.id << " is named by no test";
}

TEST(ClauseCoverage, TestIdsAreUnique) {
  std::set<std::string> ids;
  for (const ConformanceTest& t : registry()) EXPECT_TRUE(ids.insert(t.id).second) << t.id << " is registered twice";
  EXPECT_GT(ids.size(), 3000u);  // 8497 at the pr tier
}

}  // namespace
}  // namespace funcspec::conformance
