#include "conformance/report/markdown_report.h"

#include <gtest/gtest.h>

#include "tests/report/report_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::record;
using testing_support::sample_report;

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(MarkdownReportTest, HeaderNamesBackendSeedTierAndCounts) {
  const std::string text = write_markdown_text(sample_report());
  EXPECT_TRUE(contains(text, "## funcspec conformance: my-backend 1.2.3")) << text;
  EXPECT_TRUE(contains(text, "seed: 42 · tier: smoke")) << text;
  EXPECT_TRUE(contains(text, "tests: 7 (1 pass · 1 fail · 1 xfail · 1 xpass · 1 unsupported · 1 skip · 1 error)"))
      << text;
  EXPECT_TRUE(contains(text, "clauses: 4 (1 satisfied · 1 unsupported · 2 violated)")) << text;
}

TEST(MarkdownReportTest, AnInterruptedRunIsMarkedIncomplete) {
  Report report = sample_report();
  EXPECT_FALSE(contains(write_markdown_text(report), "incomplete"));
  report.run.interrupted = "SIGINT";
  EXPECT_TRUE(contains(write_markdown_text(report),
                       "- **incomplete**: the run was stopped by SIGINT; these are the tests it finished"));
}

TEST(MarkdownReportTest, OneRowPerClauseWithCountsAndVerdict) {
  const std::string text = write_markdown_text(sample_report());
  EXPECT_TRUE(
      contains(text, "| clause | tests | pass | fail | xfail | xpass | unsupported | skip | error | verdict |"));
  EXPECT_TRUE(contains(text, "| OPS-VALUES-1 | 3 | 1 | 1 | 1 | 0 | 0 | 0 | 0 | **violated** |")) << text;
  EXPECT_TRUE(contains(text, "| TENSOR-BROADCAST-1 | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | satisfied |")) << text;
  EXPECT_TRUE(contains(text, "| ERRORS-1 | 2 | 0 | 0 | 0 | 0 | 1 | 1 | 0 | unsupported |")) << text;
}

TEST(MarkdownReportTest, TitlesAddAColumn) {
  MarkdownOptions options;
  options.clause_titles["OPS-VALUES-1"] = "Op values | within tolerance";
  const std::string text = write_markdown_text(sample_report(), options);
  EXPECT_TRUE(contains(text, "| clause | title | tests |"));
  EXPECT_TRUE(contains(text, "| OPS-VALUES-1 | Op values \\| within tolerance | 3 |")) << text;
  EXPECT_TRUE(contains(text, "| ERRORS-1 |  | 2 |")) << text;
}

TEST(MarkdownReportTest, ListsUnexpectedResultsWithReasonAndReplay) {
  const std::string text = write_markdown_text(sample_report());
  EXPECT_TRUE(contains(text, "### Unexpected results (3)")) << text;
  EXPECT_TRUE(contains(text,
                       "| `OPS-VALUES/sin/large` | fail | OPS-VALUES-1 | y[3]: expected 1, got 2 | abs inf, ulp "
                       "inf vs tol atol 0 rtol 0 ulps 2 | `funcspec replay "))
      << text;
  EXPECT_TRUE(contains(text, "| `OPS-VALUES/tan/zero` | xpass |")) << text;
  EXPECT_TRUE(contains(text, "| `OPS-VALUES/exp/crash` | error |")) << text;
  EXPECT_FALSE(contains(text, "`OPS-VALUES/cos/nan`")) << text;  // xfail is expected
}

TEST(MarkdownReportTest, CapsTheUnexpectedListAndSaysHowManyWereLeftOut) {
  Report report;
  for (int i = 0; i < 5; ++i) report.tests.push_back(record("t/" + std::to_string(i), {"C"}, TestStatus::Fail, "bad"));
  MarkdownOptions options;
  options.max_unexpected = 2;
  const std::string text = write_markdown_text(report, options);
  EXPECT_TRUE(contains(text, "`t/1`"));
  EXPECT_FALSE(contains(text, "`t/2`"));
  EXPECT_TRUE(contains(text, "and 3 more")) << text;
}

TEST(MarkdownReportTest, NoUnexpectedResultsIsSaid) {
  Report report;
  report.tests.push_back(record("t/0", {"C"}, TestStatus::Pass));
  EXPECT_TRUE(contains(write_markdown_text(report), "No unexpected results."));
}

TEST(MarkdownReportTest, CellsEscapePipesNewlinesAndMarkup) {
  EXPECT_EQ(markdown_cell("a|b\nc<d>&"), "a\\|b<br>c&lt;d&gt;&amp;");
}

TEST(MarkdownReportTest, CodeCellsUseALongerFenceThanAnyBacktickRun) {
  EXPECT_EQ(markdown_code_cell("run `x` | y"), "``run `x` \\| y``");
  EXPECT_EQ(markdown_code_cell("`a`"), "`` `a` ``");
  EXPECT_EQ(markdown_code_cell(""), "");
}

}  // namespace
}  // namespace funcspec::conformance
