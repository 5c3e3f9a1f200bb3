#include "conformance/report/test_record.h"

#include <gtest/gtest.h>

#include "tests/report/report_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::record;

TEST(TestRecordTest, StatusNamesRoundTrip) {
  for (TestStatus status : kAllTestStatuses) EXPECT_EQ(parse_test_status(test_status_name(status)), status);
  EXPECT_EQ(parse_test_status("passed"), std::nullopt);
  EXPECT_EQ(parse_test_status("PASS"), std::nullopt);
}

TEST(TestRecordTest, OnlyFailXpassAndErrorAreUnexpected) {
  EXPECT_TRUE(is_unexpected(TestStatus::Fail));
  EXPECT_TRUE(is_unexpected(TestStatus::Xpass));
  EXPECT_TRUE(is_unexpected(TestStatus::Error));
  EXPECT_FALSE(is_unexpected(TestStatus::Pass));
  EXPECT_FALSE(is_unexpected(TestStatus::Xfail));
  EXPECT_FALSE(is_unexpected(TestStatus::Unsupported));
  EXPECT_FALSE(is_unexpected(TestStatus::Skip));
}

TEST(TestRecordTest, SummaryCountsEveryStatusIncludingZeros) {
  const Summary summary = summarize(
      {record("a", {}, TestStatus::Pass), record("b", {}, TestStatus::Pass), record("c", {}, TestStatus::Fail)});
  EXPECT_EQ(summary.by_status.size(), std::size(kAllTestStatuses));
  EXPECT_EQ(summary.by_status.at(TestStatus::Pass), 2);
  EXPECT_EQ(summary.by_status.at(TestStatus::Fail), 1);
  EXPECT_EQ(summary.by_status.at(TestStatus::Error), 0);
  EXPECT_TRUE(summary.by_clause.empty());
}

TEST(TestRecordTest, SummaryCountsATestOnceForEachOfItsClauses) {
  const Summary summary =
      summarize({record("a", {"X-1", "Y-1"}, TestStatus::Pass), record("b", {"X-1"}, TestStatus::Skip)});
  ASSERT_EQ(summary.by_clause.size(), 2u);
  EXPECT_EQ(summary.by_clause.at("X-1").by_status.at(TestStatus::Pass), 1);
  EXPECT_EQ(summary.by_clause.at("X-1").by_status.at(TestStatus::Skip), 1);
  EXPECT_EQ(summary.by_clause.at("Y-1").by_status.at(TestStatus::Pass), 1);
  EXPECT_EQ(summary.by_clause.at("Y-1").by_status.at(TestStatus::Skip), 0);
}

TEST(TestRecordTest, ClauseVerdicts) {
  const auto verdict = [](std::vector<TestStatus> statuses) {
    std::vector<TestRecord> tests;
    for (TestStatus status : statuses) tests.push_back(record("t" + std::to_string(tests.size()), {"C"}, status));
    return summarize(tests).by_clause.at("C").verdict;
  };
  EXPECT_EQ(verdict({TestStatus::Pass, TestStatus::Xpass}), "satisfied");
  EXPECT_EQ(verdict({TestStatus::Pass, TestStatus::Unsupported}), "partial");
  EXPECT_EQ(verdict({TestStatus::Pass, TestStatus::Skip}), "partial");
  EXPECT_EQ(verdict({TestStatus::Unsupported, TestStatus::Skip}), "unsupported");
  EXPECT_EQ(verdict({TestStatus::Pass, TestStatus::Fail}), "violated");
  EXPECT_EQ(verdict({TestStatus::Pass, TestStatus::Xfail}), "violated");
  EXPECT_EQ(verdict({TestStatus::Unsupported, TestStatus::Error}), "violated");
}

}  // namespace
}  // namespace funcspec::conformance
