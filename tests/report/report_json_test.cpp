#include "conformance/report/report_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "tests/report/report_test_support.h"

namespace funcspec::conformance {
namespace {

using testing_support::sample_report;

// The message of the ReportError that parsing `json` raises.
std::string report_parse_error(const Json& json) {
  try {
    parse_report(json, "shard0.json");
  } catch (const ReportError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the report parsed";
  return "";
}

void expect_same_record(const TestRecord& a, const TestRecord& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.clauses, b.clauses);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.max_abs_error, b.max_abs_error);
  EXPECT_EQ(a.max_ulp_error, b.max_ulp_error);
  EXPECT_EQ(a.tolerance, b.tolerance);
  EXPECT_EQ(a.replay_case, b.replay_case);
  EXPECT_EQ(a.replay_command, b.replay_command);
  EXPECT_EQ(a.seconds, b.seconds);
}

TEST(ReportJsonTest, RoundTripKeepsEveryField) {
  Report report = sample_report();
  report.run.shard_index = 2;
  report.run.shard_count = 4;
  report.run.seed = 18446744073709551615ull;  // the largest seed survives as an integer
  const Report back = parse_report_text(write_report_text(report));
  EXPECT_EQ(back.run.backend.spec, report.run.backend.spec);
  EXPECT_EQ(back.run.backend.name, report.run.backend.name);
  EXPECT_EQ(back.run.backend.version, report.run.backend.version);
  EXPECT_EQ(back.run.seed, report.run.seed);
  EXPECT_EQ(back.run.tier, report.run.tier);
  EXPECT_EQ(back.run.filter, report.run.filter);
  EXPECT_EQ(back.run.funcspec_version, report.run.funcspec_version);
  EXPECT_EQ(back.run.command_line, report.run.command_line);
  EXPECT_EQ(back.run.shard_index, 2);
  EXPECT_EQ(back.run.shard_count, 4);
  EXPECT_EQ(back.run.merged_shards, report.run.merged_shards);
  EXPECT_EQ(back.run.xfail_unmatched, report.run.xfail_unmatched);
  EXPECT_EQ(back.run.seconds, report.run.seconds);
  ASSERT_EQ(back.tests.size(), report.tests.size());
  for (std::size_t i = 0; i < report.tests.size(); ++i) {
    SCOPED_TRACE(report.tests[i].id);
    expect_same_record(back.tests[i], report.tests[i]);
  }
}

// An interrupted run says which signal stopped it; a complete one has no such field, so reports
// written before the field existed still read.
TEST(ReportJsonTest, AnInterruptedRunSaysSoAndACompleteOneHasNoField) {
  Report report = sample_report();
  EXPECT_FALSE(report_to_json(report)["run"].contains("interrupted"));
  EXPECT_EQ(parse_report_text(write_report_text(report)).run.interrupted, "");
  report.run.interrupted = "SIGINT";
  EXPECT_EQ(parse_report_text(write_report_text(report)).run.interrupted, "SIGINT");
  Json json = report_to_json(report);
  json["run"]["interrupted"] = "";
  EXPECT_NE(report_parse_error(json).find("run.interrupted: names the signal, or is absent"), std::string::npos);
}

// One record per line: how a --jobs worker hands a result to its parent.
TEST(ReportJsonTest, ARecordLineIsOneLineAndReadsBack) {
  for (const TestRecord& record : sample_report().tests) {
    const std::string line = write_test_record_line(record);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    expect_same_record(parse_test_record_line(line, "worker 0"), record);
  }
  try {
    parse_test_record_line(R"({"id": "a"})", "worker 1's record");
    ADD_FAILURE() << "a partial record was read";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("worker 1's record: clauses: missing field"), std::string::npos) << e.what();
  }
}

TEST(ReportJsonTest, InfiniteErrorsAreWrittenAsStringsAndReadBack) {
  const Report report = sample_report();
  const Json json = report_to_json(report);
  EXPECT_EQ(json["tests"][1]["max_abs_error"], "inf");
  const Report back = parse_report(json, "r.json");
  ASSERT_TRUE(back.tests[1].max_abs_error.has_value());
  EXPECT_TRUE(std::isinf(*back.tests[1].max_abs_error));
}

TEST(ReportJsonTest, NanAndNegativeInfinitySurvive) {
  Report report = sample_report();
  report.tests[0].max_abs_error = std::nan("");
  report.tests[0].tolerance = Tolerance{-std::numeric_limits<double>::infinity(), 0, 0};
  const Report back = parse_report_text(write_report_text(report));
  EXPECT_TRUE(std::isnan(*back.tests[0].max_abs_error));
  EXPECT_EQ(back.tests[0].tolerance->atol, -std::numeric_limits<double>::infinity());
}

TEST(ReportJsonTest, AbsentNumbersAreNull) {
  const Json json = report_to_json(sample_report());
  EXPECT_TRUE(json["tests"][2]["max_abs_error"].is_null());
  EXPECT_TRUE(json["tests"][2]["tolerance"].is_null());
  EXPECT_FALSE(parse_report(json, "r.json").tests[2].tolerance.has_value());
}

TEST(ReportJsonTest, SummaryHasCountsByStatusAndByClause) {
  const Json json = report_to_json(sample_report());
  EXPECT_EQ(json["format"], "funcspec-report/1");
  EXPECT_EQ(json["summary"]["tests"], 7);
  EXPECT_EQ(json["summary"]["by_status"]["pass"], 1);
  EXPECT_EQ(json["summary"]["by_status"]["error"], 1);
  EXPECT_EQ(json["summary"]["by_clause"]["OPS-VALUES-1"]["by_status"]["fail"], 1);
  EXPECT_EQ(json["summary"]["by_clause"]["OPS-VALUES-1"]["verdict"], "violated");
  EXPECT_EQ(json["summary"]["by_clause"]["TENSOR-BROADCAST-1"]["verdict"], "satisfied");
  EXPECT_EQ(json["summary"]["by_clause"]["ERRORS-1"]["verdict"], "unsupported");
}

TEST(ReportJsonTest, InvalidUtf8InAReasonIsReplacedNotFatal) {
  Report report = sample_report();
  report.tests[1].reason = "bad byte \xFF here";
  const Report back = parse_report_text(write_report_text(report));
  EXPECT_EQ(back.tests[1].reason, "bad byte \xEF\xBF\xBD here");
}

TEST(ReportJsonTest, WrongFormatTagIsAnError) {
  Json json = report_to_json(sample_report());
  json["format"] = "funcspec-report/2";
  const std::string message = report_parse_error(json);
  EXPECT_NE(message.find("shard0.json: format:"), std::string::npos) << message;
}

TEST(ReportJsonTest, UnknownStatusIsAnErrorNamingTheField) {
  Json json = report_to_json(sample_report());
  json["tests"][3]["status"] = "flaky";
  const std::string message = report_parse_error(json);
  EXPECT_NE(message.find("shard0.json: tests[3].status: unknown status \"flaky\""), std::string::npos) << message;
}

TEST(ReportJsonTest, MissingTestFieldIsAnErrorNamingIt) {
  Json json = report_to_json(sample_report());
  json["tests"][0].erase("replay_command");
  const std::string message = report_parse_error(json);
  EXPECT_NE(message.find("tests[0].replay_command: missing field"), std::string::npos) << message;
}

TEST(ReportJsonTest, MissingRunFieldIsAnErrorNamingIt) {
  Json json = report_to_json(sample_report());
  json["run"]["backend"].erase("version");
  EXPECT_NE(report_parse_error(json).find("run.backend.version: missing field"), std::string::npos);
}

TEST(ReportJsonTest, UnknownFieldIsAnError) {
  Json json = report_to_json(sample_report());
  json["tests"][0]["tolerence"] = 1;
  EXPECT_NE(report_parse_error(json).find("tests[0].tolerence: unknown field"), std::string::npos);
}

TEST(ReportJsonTest, WrongTypeIsAnErrorNamingTheField) {
  Json json = report_to_json(sample_report());
  json["tests"][1]["max_abs_error"] = "lots";
  EXPECT_NE(report_parse_error(json).find("tests[1].max_abs_error: expected a number"), std::string::npos);
  json = report_to_json(sample_report());
  json["run"]["seed"] = -1;
  EXPECT_NE(report_parse_error(json).find("run.seed:"), std::string::npos);
  json = report_to_json(sample_report());
  json["tests"][1]["tolerance"]["ulps"] = 1.5;
  EXPECT_NE(report_parse_error(json).find("tests[1].tolerance.ulps:"), std::string::npos);
}

TEST(ReportJsonTest, UnknownTierIsAnError) {
  Json json = report_to_json(sample_report());
  json["run"]["tier"] = "weekly";
  EXPECT_NE(report_parse_error(json).find("run.tier: unknown tier"), std::string::npos);
}

TEST(ReportJsonTest, ShardIndexOutOfRangeIsAnError) {
  Json json = report_to_json(sample_report());
  json["run"]["shard_index"] = 1;  // of 1
  EXPECT_NE(report_parse_error(json).find("run.shard_index:"), std::string::npos);
}

TEST(ReportJsonTest, DuplicateTestIdIsAnError) {
  Json json = report_to_json(sample_report());
  json["tests"][2]["id"] = json["tests"][0]["id"];
  EXPECT_NE(report_parse_error(json).find("tests[2].id: duplicate test id"), std::string::npos);
}

TEST(ReportJsonTest, NotJsonIsAnErrorNamingTheFile) {
  try {
    parse_report_text("{\"format\": ", "broken.json");
    ADD_FAILURE() << "parsed";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: not valid JSON"), std::string::npos);
  }
}

TEST(ReportJsonTest, WritesAndReadsAFile) {
  const auto path = testing_support::scratch_path("roundtrip.json");
  write_report_file(sample_report(), path);
  EXPECT_EQ(read_report_file(path).tests.size(), 7u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace funcspec::conformance
