// The SPEC.md parser: clauses, titles, test patterns and lines from well-formed input, and a
// SpecError at the right line for each kind of malformed clause.
#include <gtest/gtest.h>

#include <string>

#include "conformance/spec/spec_clauses.h"

namespace funcspec::conformance {
namespace {

// The SpecError parsing `markdown` raises; a test failure when it parses.
SpecError error_of(const std::string& markdown) {
  try {
    parse_spec(markdown, "SPEC.md");
  } catch (const SpecError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a SpecError, but the markdown parsed";
  return SpecError("", 0, "");
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

constexpr const char* kTwoClauses =
    "# Spec\n"                                            // 1
    "\n"                                                  // 2
    "## TENSOR\n"                                         // 3
    "### TENSOR-1.1 Broadcasting aligns trailing dims\n"  // 4
    "Operands MUST broadcast.\n"                          // 5
    "```\n"                                               // 6
    "### not a heading inside a fence\n"                  // 7
    "Tests: neither is this\n"                            // 8
    "```\n"                                               // 9
    "Tests: `TENSOR-BROADCAST/*`, `OPS-VALUES/add/?x`\n"  // 10
    "#### Notes belong to the clause\n"                   // 11
    "### ERR-12.3 Errors\n"                               // 12
    "Tests: `ERR-KINDS/*`\n";                             // 13

TEST(SpecParser, ReadsClausesInOrderWithTitlesPatternsAndLines) {
  const auto clauses = parse_spec(kTwoClauses, "SPEC.md");
  ASSERT_EQ(clauses.size(), 2u);
  EXPECT_EQ(clauses[0].id, "TENSOR-1.1");
  EXPECT_EQ(clauses[0].title, "Broadcasting aligns trailing dims");
  EXPECT_EQ(clauses[0].test_patterns, (std::vector<std::string>{"TENSOR-BROADCAST/*", "OPS-VALUES/add/?x"}));
  EXPECT_EQ(clauses[0].line, 4);
  EXPECT_EQ(clauses[1].id, "ERR-12.3");
  EXPECT_EQ(clauses[1].test_patterns, (std::vector<std::string>{"ERR-KINDS/*"}));
  EXPECT_EQ(clauses[1].line, 12);
}

TEST(SpecParser, AcceptsCrLfLineEnds) {
  const auto clauses = parse_spec("### GEN-1.1 Seeds\r\nTests: `GEN-DRAWS/*`\r\n", "SPEC.md");
  ASSERT_EQ(clauses.size(), 1u);
  EXPECT_EQ(clauses[0].title, "Seeds");
  EXPECT_EQ(clauses[0].test_patterns, (std::vector<std::string>{"GEN-DRAWS/*"}));
}

TEST(SpecParser, MalformedClauseIdIsAnErrorAtItsLine) {
  const SpecError e = error_of("intro\n### Tensor-1.1 lower-case area\nTests: `X/*`\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.file(), "SPEC.md");
  EXPECT_TRUE(contains(e.problem(), "'Tensor-1.1' is not a clause id")) << e.what();
  EXPECT_TRUE(contains(e.what(), "SPEC.md:2: ")) << e.what();
}

TEST(SpecParser, ClauseIdWithoutMinorNumberIsAnError) {
  EXPECT_EQ(error_of("### TENSOR-1 Broadcasting\nTests: `X/*`\n").line(), 1);
}

TEST(SpecParser, ClauseWithoutTitleIsAnError) {
  const SpecError e = error_of("### TENSOR-1.1\nTests: `X/*`\n");
  EXPECT_EQ(e.line(), 1);
  EXPECT_TRUE(contains(e.problem(), "no title")) << e.what();
}

TEST(SpecParser, DuplicateIdIsAnErrorAtTheSecondNamingTheFirst) {
  const SpecError e = error_of("### OPS-1.1 A\nTests: `A/*`\n\n### OPS-1.1 B\nTests: `B/*`\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_TRUE(contains(e.problem(), "duplicate clause id OPS-1.1 (first at line 1)")) << e.what();
}

TEST(SpecParser, ClauseWithoutTestsLineIsAnErrorAtItsHeading) {
  const SpecError e = error_of("## Area\n### OPS-1.1 A\nprose only\n### OPS-1.2 B\nTests: `B/*`\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_TRUE(contains(e.problem(), "clause OPS-1.1 has no `Tests:` line")) << e.what();
}

TEST(SpecParser, LastClauseWithoutTestsLineIsAnError) {
  EXPECT_EQ(error_of("### OPS-1.1 A\nTests: `A/*`\n### OPS-1.2 B\nno tests\n").line(), 3);
}

TEST(SpecParser, SecondTestsLineIsAnErrorAtItsLine) {
  const SpecError e = error_of("### OPS-1.1 A\nTests: `A/*`\nmore prose\nTests: `B/*`\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_TRUE(contains(e.problem(), "second Tests: line (the first is at line 2)")) << e.what();
}

TEST(SpecParser, EmptyPatternListIsAnError) {
  const SpecError e = error_of("### OPS-1.1 A\nprose\nTests:   \n");
  EXPECT_EQ(e.line(), 3);
  EXPECT_TRUE(contains(e.problem(), "names no test pattern")) << e.what();
}

TEST(SpecParser, PatternWithoutBackticksIsAnError) {
  const SpecError e = error_of("### OPS-1.1 A\nTests: `A/*`, B/*\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_TRUE(contains(e.problem(), "'B/*' must be written in backticks")) << e.what();
}

TEST(SpecParser, EmptyBackticksAreAnError) { EXPECT_EQ(error_of("### OPS-1.1 A\nTests: `A/*`, ``\n").line(), 2); }

TEST(SpecParser, TestsLineOutsideAClauseIsAnError) { EXPECT_EQ(error_of("## Intro\nTests: `A/*`\n").line(), 2); }

TEST(SpecParser, LevelTwoHeadingEndsAClause) {
  // The Tests: line after `## Next` belongs to no clause.
  EXPECT_EQ(error_of("### OPS-1.1 A\n## Next\nTests: `A/*`\n").line(), 1);
}

TEST(SpecParser, UnclosedFenceIsAnError) {
  EXPECT_TRUE(contains(error_of("### OPS-1.1 A\n```\nTests: `A/*`\n").problem(), "never closed"));
}

TEST(ClauseId, AcceptsAreaMajorMinor) {
  EXPECT_TRUE(is_clause_id("TENSOR-1.2"));
  EXPECT_TRUE(is_clause_id("VMAP-10.0"));
  EXPECT_FALSE(is_clause_id("TENSOR-01.2"));
  EXPECT_FALSE(is_clause_id("TENSOR-1.2.3"));
  EXPECT_FALSE(is_clause_id("TENSOR1.2"));
  EXPECT_FALSE(is_clause_id("-1.2"));
  EXPECT_FALSE(is_clause_id("TENSOR-BROADCAST-1"));
}

}  // namespace
}  // namespace funcspec::conformance
