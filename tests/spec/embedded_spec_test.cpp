// docs/SPEC.md as embedded at configure time: it parses, and it defines the clause ids that
// generated tests elsewhere carry.
#include <gtest/gtest.h>

#include <string>

#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

TEST(EmbeddedSpec, IsTheMarkdownOfDocsSpec) {
  EXPECT_TRUE(embedded_spec_text().starts_with("# The funcspec specification"));
}

TEST(EmbeddedSpec, Parses) {
  try {
    EXPECT_GT(parse_spec(embedded_spec_text(), "docs/SPEC.md").size(), 30u);
  } catch (const SpecError& e) {
    FAIL() << e.what();
  }
}

// The lead's generated tests carry these ids; renumbering them would orphan those tests.
TEST(EmbeddedSpec, DefinesTheFixedClauseIds) {
  for (const char* id : {"OPS-1.1", "OPS-1.2", "OPS-1.3", "OPS-2.1", "TENSOR-4.1", "TENSOR-5.1", "TENSOR-6.1",
                         "TENSOR-6.2", "TENSOR-7.1", "GEN-2.1"})
    EXPECT_NE(spec_testing::find_clause(id), nullptr) << id;
}

TEST(EmbeddedSpec, FixedClausesNameTheGeneratedTestFamilies) {
  const auto has_pattern = [](const char* id, const std::string& pattern) {
    const SpecClause* clause = spec_testing::find_clause(id);
    return clause && std::find(clause->test_patterns.begin(), clause->test_patterns.end(), pattern) !=
                         clause->test_patterns.end();
  };
  EXPECT_TRUE(has_pattern("OPS-1.1", "OPS-VALUES/*/float64/*"));
  EXPECT_TRUE(has_pattern("OPS-1.2", "OPS-VALUES/*/float32/*"));
  EXPECT_TRUE(has_pattern("TENSOR-4.1", "OPS-VALUES/*_/*"));
  EXPECT_TRUE(has_pattern("TENSOR-5.1", "OPS-VALUES/*.out/*"));
  EXPECT_TRUE(has_pattern("TENSOR-6.1", "OPS-META/*"));
}

TEST(EmbeddedSpec, EveryClauseHasAnAreaOfTheSpec) {
  for (const SpecClause& clause : embedded_spec()) {
    const std::string area = clause.id.substr(0, clause.id.find('-'));
    EXPECT_TRUE(area == "TENSOR" || area == "OPS" || area == "GEN" || area == "ERR" || area == "VMAP" || area == "AD" ||
                area == "CUSTOM" || area == "FUNC" || area == "MOD")
        << clause.id;
  }
}

}  // namespace
}  // namespace funcspec::conformance
