#include "conformance/report/glob.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace funcspec::conformance {
namespace {

TEST(GlobTest, LiteralMatchesOnlyItself) {
  EXPECT_TRUE(glob_match("OPS-VALUES/add/x", "OPS-VALUES/add/x"));
  EXPECT_FALSE(glob_match("OPS-VALUES/add/x", "OPS-VALUES/add/xy"));
  EXPECT_FALSE(glob_match("OPS-VALUES/add/xy", "OPS-VALUES/add/x"));
}

TEST(GlobTest, EmptyPatternMatchesOnlyEmptyText) {
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "a"));
}

TEST(GlobTest, StarMatchesAnyRunIncludingSlashes) {
  EXPECT_TRUE(glob_match("OPS-VALUES/*", "OPS-VALUES/add/broadcast"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*/add/*", "OPS-VALUES/add/x"));
  EXPECT_TRUE(glob_match("a*", "a"));
  EXPECT_FALSE(glob_match("OPS-VALUES/*", "OPS-ERRORS/add"));
}

TEST(GlobTest, StarBacktracksToFindALaterMatch) {
  EXPECT_TRUE(glob_match("*ab", "aab"));
  EXPECT_TRUE(glob_match("a*b*c", "abxbxc"));
  EXPECT_FALSE(glob_match("a*b*c", "abxbx"));
}

TEST(GlobTest, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(glob_match("VMAP-?.1", "VMAP-2.1"));
  EXPECT_FALSE(glob_match("VMAP-?.1", "VMAP-.1"));
  EXPECT_FALSE(glob_match("VMAP-?.1", "VMAP-12.1"));
}

TEST(GlobTest, ClassesMatchMembersRangesAndNegations) {
  EXPECT_TRUE(glob_match("x[abc]", "xb"));
  EXPECT_FALSE(glob_match("x[abc]", "xd"));
  EXPECT_TRUE(glob_match("v[0-9]", "v7"));
  EXPECT_FALSE(glob_match("v[0-9]", "va"));
  EXPECT_TRUE(glob_match("v[!0-9]", "va"));
  EXPECT_FALSE(glob_match("v[!0-9]", "v7"));
  EXPECT_TRUE(glob_match("v[^a]", "vb"));
}

TEST(GlobTest, ClosingBracketFirstInAClassIsAMember) {
  EXPECT_TRUE(glob_match("[]]", "]"));
  EXPECT_TRUE(glob_match("[!]]", "a"));
  EXPECT_FALSE(glob_match("[!]]", "]"));
}

TEST(GlobTest, DashAtAClassEdgeIsAMember) {
  EXPECT_TRUE(glob_match("[-a]", "-"));
  EXPECT_TRUE(glob_match("[a-]", "-"));
  EXPECT_FALSE(glob_match("[a-]", "b"));
}

TEST(GlobTest, UnclosedBracketIsLiteral) {
  EXPECT_TRUE(glob_match("a[b", "a[b"));
  EXPECT_FALSE(glob_match("a[b", "ab"));
}

TEST(GlobTest, BackslashEscapesAWildcard) {
  EXPECT_TRUE(glob_match("a\\*", "a*"));
  EXPECT_FALSE(glob_match("a\\*", "ab"));
  EXPECT_TRUE(glob_match("a\\", "a\\"));
}

TEST(GlobTest, PathologicalPatternRunsInPolynomialTime) {
  const std::string text(10000, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*b", text));
  EXPECT_TRUE(glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*", text));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(1));
}

TEST(GlobTest, SyntaxErrorsNameTheProblem) {
  EXPECT_FALSE(glob_syntax_error("OPS-*/[a-z]?\\*").has_value());
  ASSERT_TRUE(glob_syntax_error("OPS[abc").has_value());
  EXPECT_NE(glob_syntax_error("OPS[abc")->find("offset 3"), std::string::npos);
  EXPECT_TRUE(glob_syntax_error("abc\\").has_value());
}

TEST(GlobTest, IsGlobPatternSpotsWildcards) {
  EXPECT_FALSE(is_glob_pattern("OPS-VALUES/add/x"));
  EXPECT_TRUE(is_glob_pattern("OPS-VALUES/*"));
  EXPECT_TRUE(is_glob_pattern("a?"));
  EXPECT_TRUE(is_glob_pattern("[ab]"));
}

TEST(GlobTest, FilterSelectsByIdOrClause) {
  const std::vector<std::string> clauses = {"VMAP-2.3", "OPS-VALUES-1"};
  EXPECT_TRUE(filter_selects("", "anything", clauses));
  EXPECT_TRUE(filter_selects("VMAP-2.*", "OPS-VALUES/add/x", clauses));
  EXPECT_TRUE(filter_selects("OPS-VALUES/add/*", "OPS-VALUES/add/x", clauses));
  EXPECT_FALSE(filter_selects("GRAD-*", "OPS-VALUES/add/x", clauses));
}

}  // namespace
}  // namespace funcspec::conformance
