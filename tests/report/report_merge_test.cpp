#include "conformance/report/report_merge.h"

#include <gtest/gtest.h>

#include "conformance/report/report_json.h"
#include "tests/report/report_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::record;

Report shard(int index, int count, std::vector<TestRecord> tests, std::vector<std::string> unmatched = {}) {
  Report report;
  report.run.backend = {"reference", "funcspec-reference", "0.1"};
  report.run.seed = 7;
  report.run.shard_index = index;
  report.run.shard_count = count;
  report.run.seconds = 1.0 + index;
  report.run.command_line = "funcspec check";
  report.run.xfail_unmatched = std::move(unmatched);
  report.tests = std::move(tests);
  return report;
}

std::string merge_error(const std::vector<NamedReport>& inputs) {
  try {
    merge_reports(inputs);
  } catch (const ReportError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the reports merged";
  return "";
}

TEST(ReportMergeTest, JoinsShardsOrderedById) {
  const MergeResult merged =
      merge_reports({{"s0.json", shard(0, 2, {record("b", {}, TestStatus::Pass), record("d", {}, TestStatus::Fail)})},
                     {"s1.json", shard(1, 2, {record("a", {}, TestStatus::Pass), record("c", {}, TestStatus::Skip)})}});
  ASSERT_EQ(merged.report.tests.size(), 4u);
  EXPECT_EQ(merged.report.tests[0].id, "a");
  EXPECT_EQ(merged.report.tests[1].id, "b");
  EXPECT_EQ(merged.report.tests[2].id, "c");
  EXPECT_EQ(merged.report.tests[3].id, "d");
  EXPECT_EQ(merged.report.tests[3].status, TestStatus::Fail);
  EXPECT_TRUE(merged.warnings.empty());
}

TEST(ReportMergeTest, RecordsThatItIsAMerge) {
  const MergeResult merged =
      merge_reports({{"s1.json", shard(1, 3, {})}, {"s0.json", shard(0, 3, {})}, {"s2.json", shard(2, 3, {})}});
  EXPECT_EQ(merged.report.run.shard_index, -1);
  EXPECT_EQ(merged.report.run.shard_count, 3);
  EXPECT_EQ(merged.report.run.merged_shards, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(merged.report.run.seconds, 3.0);  // the longest shard
  EXPECT_EQ(merged.report.run.command_line, "funcspec check");
}

TEST(ReportMergeTest, OneInterruptedShardMakesTheMergeIncomplete) {
  Report interrupted = shard(1, 2, {});
  interrupted.run.interrupted = "SIGTERM";
  EXPECT_EQ(merge_reports({{"s0.json", shard(0, 2, {})}, {"s1.json", interrupted}}).report.run.interrupted, "SIGTERM");
  EXPECT_EQ(merge_reports({{"s0.json", shard(0, 2, {})}, {"s1.json", shard(1, 2, {})}}).report.run.interrupted, "");
}

TEST(ReportMergeTest, MergeSurvivesAJsonRoundTrip) {
  const MergeResult merged = merge_reports({{"s0.json", shard(0, 2, {})}, {"s1.json", shard(1, 2, {})}});
  const Report back = parse_report_text(write_report_text(merged.report));
  EXPECT_EQ(back.run.merged_shards, (std::vector<int>{0, 1}));
}

TEST(ReportMergeTest, MissingShardIsAWarning) {
  const MergeResult merged = merge_reports({{"s0.json", shard(0, 4, {})}, {"s2.json", shard(2, 4, {})}});
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_EQ(merged.warnings[0], "shards 1, 3 of 4 are missing from the merge");
}

TEST(ReportMergeTest, DisagreementNamesTheFieldAndBothFiles) {
  Report other = shard(1, 2, {});
  other.run.seed = 8;
  const std::string message = merge_error({{"s0.json", shard(0, 2, {})}, {"s1.json", other}});
  EXPECT_NE(message.find("run.seed"), std::string::npos) << message;
  EXPECT_NE(message.find("s0.json has \"7\""), std::string::npos) << message;
  EXPECT_NE(message.find("s1.json has \"8\""), std::string::npos) << message;
}

TEST(ReportMergeTest, FirstDisagreementIsTheOneReported) {
  Report other = shard(1, 2, {});
  other.run.backend.name = "other";
  other.run.tier = Tier::Nightly;
  EXPECT_NE(merge_error({{"s0.json", shard(0, 2, {})}, {"s1.json", other}}).find("run.backend.name"),
            std::string::npos);
}

TEST(ReportMergeTest, FilterAndTierMustAgree) {
  Report filtered = shard(1, 2, {});
  filtered.run.filter = "VMAP-*";
  EXPECT_NE(merge_error({{"a", shard(0, 2, {})}, {"b", filtered}}).find("run.filter"), std::string::npos);
  Report nightly = shard(1, 2, {});
  nightly.run.tier = Tier::Nightly;
  EXPECT_NE(merge_error({{"a", shard(0, 2, {})}, {"b", nightly}}).find("run.tier"), std::string::npos);
}

TEST(ReportMergeTest, DuplicateTestIdIsAnError) {
  const std::string message = merge_error({{"s0.json", shard(0, 2, {record("a/x", {}, TestStatus::Pass)})},
                                           {"s1.json", shard(1, 2, {record("a/x", {}, TestStatus::Fail)})}});
  EXPECT_NE(message.find("\"a/x\" is in both s0.json and s1.json"), std::string::npos) << message;
}

TEST(ReportMergeTest, SameShardTwiceIsAnError) {
  const std::string message = merge_error({{"s0.json", shard(0, 2, {})}, {"copy.json", shard(0, 2, {})}});
  EXPECT_NE(message.find("shard 0 of 2 is in both s0.json and copy.json"), std::string::npos) << message;
}

TEST(ReportMergeTest, UnmatchedEntriesAreThoseUnmatchedInEveryShard) {
  const MergeResult merged = merge_reports(
      {{"s0.json", shard(0, 2, {}, {"a/*", "b/*", "c/*"})}, {"s1.json", shard(1, 2, {}, {"c/*", "a/*"})}});
  EXPECT_EQ(merged.report.run.xfail_unmatched, (std::vector<std::string>{"a/*", "c/*"}));
}

TEST(ReportMergeTest, MergeOfMergesUsesTheirShards) {
  const Report left = merge_reports({{"s0", shard(0, 4, {})}, {"s1", shard(1, 4, {})}}).report;
  const Report right = merge_reports({{"s2", shard(2, 4, {})}, {"s3", shard(3, 4, {})}}).report;
  const MergeResult all = merge_reports({{"left", left}, {"right", right}});
  EXPECT_EQ(all.report.run.merged_shards, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(all.warnings.empty());
  EXPECT_NE(merge_error({{"left", left}, {"s1", shard(1, 4, {})}}).find("shard 1 of 4"), std::string::npos);
}

TEST(ReportMergeTest, NoInputsIsAnError) { EXPECT_THROW(merge_reports({}), ReportError); }

TEST(ReportMergeTest, MergesFiles) {
  const auto s0 = testing_support::scratch_path("merge_s0.json");
  const auto s1 = testing_support::scratch_path("merge_s1.json");
  const auto out = testing_support::scratch_path("merge_out.json");
  write_report_file(shard(0, 2, {record("b", {"C-1"}, TestStatus::Pass)}), s0);
  write_report_file(shard(1, 2, {record("a", {"C-1"}, TestStatus::Fail)}), s1);
  EXPECT_TRUE(merge_report_files(out, {s0, s1}).empty());
  const Json merged = Json::parse(write_report_text(read_report_file(out)));
  EXPECT_EQ(merged["summary"]["by_clause"]["C-1"]["verdict"], "violated");
  EXPECT_EQ(merged["tests"][0]["id"], "a");
  for (const auto& path : {s0, s1, out}) std::filesystem::remove(path);
}

}  // namespace
}  // namespace funcspec::conformance
