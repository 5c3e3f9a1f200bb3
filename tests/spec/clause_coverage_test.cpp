// Every clause of docs/SPEC.md is checked by some test: each of its Tests: patterns matches at least
// one hand-written case or promotion test. The exception is kPatternsOnlyGeneratedTestsMatch: the
// families that only the generated op value and meta tests (OPS-VALUES, OPS-META) fill. This check
// moves to the full test registry once those generators exist, and the list goes away.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include "conformance/case/case_json.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

constexpr std::array<std::string_view, 15> kPatternsOnlyGeneratedTestsMatch{{
    "OPS-VALUES/*/float64/*",
    "OPS-VALUES/*/float32/*",
    "OPS-VALUES/*/int64/*",
    "OPS-VALUES/*/bool/*",
    "OPS-VALUES/*",
    "OPS-VALUES/*_/*",
    "OPS-VALUES/*.out/*",
    "OPS-META/*",
    "OPS-VALUES/rand/*",
    "OPS-VALUES/randn/*",
    "OPS-VALUES/randint/*",
    "OPS-VALUES/bernoulli*",
    "OPS-VALUES/normal*",
    "OPS-VALUES/uniform*",
    "OPS-VALUES/multinomial/*",
}};

bool only_generated_tests_match(const std::string& pattern) {
  return std::find(kPatternsOnlyGeneratedTestsMatch.begin(), kPatternsOnlyGeneratedTestsMatch.end(), pattern) !=
         kPatternsOnlyGeneratedTestsMatch.end();
}

std::vector<std::string> known_test_ids() {
  std::vector<std::string> ids;
  for (const std::string& path : spec_testing::case_file_paths())
    ids.push_back(read_case_file(spec_testing::cases_dir() / path).id);
  for (const ConformanceTest& t : spec_testing::promotion_tests()) ids.push_back(t.id);
  return ids;
}

TEST(ClauseCoverage, EveryPatternMatchesATest) {
  const std::vector<std::string> ids = known_test_ids();
  for (const SpecClause& clause : embedded_spec()) {
    for (const std::string& pattern : clause.test_patterns) {
      if (only_generated_tests_match(pattern)) continue;
      const bool matched =
          std::any_of(ids.begin(), ids.end(), [&](const std::string& id) { return test_id_matches(pattern, id); });
      EXPECT_TRUE(matched) << clause.id << " (SPEC.md line " << clause.line << "): pattern `" << pattern
                           << "` matches no test";
    }
  }
}

// The exemptions must stay exactly the generated families: a hand-written family put on the list
// would escape the check above.
TEST(ClauseCoverage, ExemptPatternsAreGeneratedFamiliesUsedBySpec) {
  for (const std::string_view pattern : kPatternsOnlyGeneratedTestsMatch) {
    EXPECT_TRUE(pattern.starts_with("OPS-VALUES/") || pattern.starts_with("OPS-META/")) << pattern;
    bool used = false;
    for (const SpecClause& clause : embedded_spec())
      used = used ||
             std::find(clause.test_patterns.begin(), clause.test_patterns.end(), pattern) != clause.test_patterns.end();
    EXPECT_TRUE(used) << pattern << " is exempt but no clause lists it";
  }
}

TEST(ClauseCoverage, EveryClauseIsNamedByATestOrListsAGeneratedFamily) {
  std::set<std::string> named;
  for (const std::string& path : spec_testing::case_file_paths())
    for (const std::string& id : read_case_file(spec_testing::cases_dir() / path).clauses) named.insert(id);
  for (const ConformanceTest& t : spec_testing::promotion_tests()) named.insert(t.clauses.begin(), t.clauses.end());
  for (const SpecClause& clause : embedded_spec()) {
    const bool generated = std::any_of(clause.test_patterns.begin(), clause.test_patterns.end(),
                                       [](const std::string& p) { return only_generated_tests_match(p); });
    EXPECT_TRUE(named.contains(clause.id) || generated) << clause.id << " is named by no test";
  }
}

}  // namespace
}  // namespace funcspec::conformance
