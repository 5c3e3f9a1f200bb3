#pragma once
// A small report with one test of every status, shared by the report tests.
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <string>

#include "conformance/report/test_record.h"

namespace funcspec::conformance::testing_support {

// A path in the temporary directory no concurrent test process shares.
inline std::filesystem::path scratch_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("funcspec_report_" + std::to_string(::getpid()) + "_" + name);
}

inline TestRecord record(std::string id, std::vector<std::string> clauses, TestStatus status, std::string reason = "") {
  TestRecord test;
  test.id = std::move(id);
  test.clauses = std::move(clauses);
  test.status = status;
  test.reason = std::move(reason);
  test.seconds = 0.25;
  return test;
}

inline Report sample_report() {
  Report report;
  report.run.backend = {"exec:./my-backend --fast", "my-backend", "1.2.3"};
  report.run.seed = 42;
  report.run.tier = Tier::Smoke;
  report.run.filter = "OPS-*";
  report.run.funcspec_version = "0.1";
  report.run.seconds = 3.5;
  report.run.command_line = "funcspec check --backend 'exec:./my-backend --fast'";
  report.run.xfail_unmatched = {"OPS-VALUES/old/*"};

  TestRecord pass = record("OPS-VALUES/add/broadcast", {"OPS-VALUES-1", "TENSOR-BROADCAST-1"}, TestStatus::Pass);
  pass.max_abs_error = 1e-17;
  pass.max_ulp_error = 0.5;
  pass.tolerance = Tolerance{1e-12, 1e-9, 4};
  TestRecord fail = record("OPS-VALUES/sin/large", {"OPS-VALUES-1"}, TestStatus::Fail, "y[3]: expected 1, got 2");
  fail.max_abs_error = std::numeric_limits<double>::infinity();
  fail.max_ulp_error = std::numeric_limits<double>::infinity();
  fail.tolerance = Tolerance{0, 0, 2};
  fail.replay_case = "funcspec-failures/OPS-VALUES_sin_large.json";
  fail.replay_command = "funcspec replay funcspec-failures/OPS-VALUES_sin_large.json --backend 'exec:./my-backend'";
  report.tests = {pass,
                  fail,
                  record("OPS-VALUES/cos/nan", {"OPS-VALUES-1"}, TestStatus::Xfail, "expected failure: known"),
                  record("OPS-VALUES/tan/zero", {"OPS-VALUES-2"}, TestStatus::Xpass, "unexpected pass"),
                  record("OPS-ERRORS/cat/empty", {"ERRORS-1"}, TestStatus::Unsupported, "no cat"),
                  record("PROPS/peer/grad", {"ERRORS-1"}, TestStatus::Skip, "no peer"),
                  record("OPS-VALUES/exp/crash", {"OPS-VALUES-2"}, TestStatus::Error, "crash: signal 11")};
  return report;
}

}  // namespace funcspec::conformance::testing_support
