#pragma once
// The outcome of a conformance run as data: one TestRecord per test, plus who was tested and how.
// `funcspec check` fills it; report_json.h, junit_report.h and markdown_report.h write it
// (docs/report-format.md); report merge joins the reports of several shards.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/case/case.h"

namespace funcspec::conformance {

// pass, fail: judged against the expectation. xfail, xpass: the same, for a test the expected-failure
// manifest lists (xpass is an *unexpected* pass). unsupported: the backend lacks something the
// test needs. skip: the test did not run (its tier or filter excluded it is not a skip; a skip is a
// test that was selected but could not be built, e.g. a property test with no peer). error: the
// backend never produced a judgeable answer (crash, timeout, protocol error) or the test could not
// be built.
enum class TestStatus { Pass, Fail, Xfail, Xpass, Unsupported, Skip, Error };
inline constexpr TestStatus kAllTestStatuses[] = {TestStatus::Pass,  TestStatus::Fail,        TestStatus::Xfail,
                                                  TestStatus::Xpass, TestStatus::Unsupported, TestStatus::Skip,
                                                  TestStatus::Error};
std::string_view test_status_name(TestStatus status);
std::optional<TestStatus> parse_test_status(std::string_view name);
// fail, xpass and error make a run's exit status non-zero.
bool is_unexpected(TestStatus status);

struct TestRecord {
  std::string id;                    // stable: manifests and reports key on it
  std::vector<std::string> clauses;  // docs/SPEC.md clause ids
  TestStatus status = TestStatus::Pass;
  std::string reason;  // why it did not pass (empty on a pass); for xfail, the manifest's reason
  // Numeric comparisons only: the largest error seen (logged on a pass too) and the tolerance.
  std::optional<double> max_abs_error;
  std::optional<double> max_ulp_error;
  std::optional<Tolerance> tolerance;
  std::string replay_case;     // the case file written for a failure ("" when none)
  std::string replay_command;  // one line that replays it
  double seconds = 0;          // wall time of the test
  // What else a reader needs to trust the verdict: a property test's case count and seed.
  std::string note;
};

struct BackendIdentity {
  std::string spec;  // as given to --backend
  std::string name;
  std::string version;
};

struct RunInfo {
  BackendIdentity backend;
  std::uint64_t seed = 0;
  Tier tier = Tier::Pr;
  std::string filter;  // "" when none
  std::string funcspec_version;
  int shard_index = 0;  // gtest sharding: GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS
  int shard_count = 1;
  std::vector<std::string> xfail_unmatched;  // manifest entries that matched no test of the run
  double seconds = 0;
  std::string command_line;  // how the run was started, shell-quoted ("" when unknown)
  // A merge of shard reports (report_merge.h) lists the shard indices it joined, ascending, and
  // has shard_index -1; a single run leaves it empty.
  std::vector<int> merged_shards;
  // "SIGINT" or "SIGTERM" when the run was stopped by that signal: the report holds only the tests
  // finished by then. "" for a run that ran to its end.
  std::string interrupted;
};

struct Report {
  RunInfo run;
  std::vector<TestRecord> tests;  // in run order
};

// Counts by status, and for each clause its tests' counts and verdict.
struct ClauseSummary {
  std::map<TestStatus, int> by_status;
  // "violated": a fail, xfail or error; otherwise "satisfied": every test passed (pass or xpass);
  // "partial": some passed, the rest were unsupported or skipped; "unsupported": none passed.
  std::string verdict;
};
struct Summary {
  std::map<TestStatus, int> by_status;
  std::map<std::string, ClauseSummary> by_clause;
};
// Every status is present in each by_status map, zero counts included; a test counts once for each
// of its clauses.
Summary summarize(const std::vector<TestRecord>& tests);
// "satisfied", "partial", "unsupported" or "violated" for one clause's counts (see ClauseSummary).
std::string clause_verdict(const std::map<TestStatus, int>& by_status);

}  // namespace funcspec::conformance
