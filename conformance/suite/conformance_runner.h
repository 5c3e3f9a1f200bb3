#pragma once
// NOTE: [conformance runner]
// The conformance tests are GoogleTest tests parameterized over the backend: each selected test is
// registered (testing::RegisterTest) in the suite `Conformance/<backend>`, and its body builds the
// case, sends it to the backend, judges the answer and records a TestRecord. Running them through
// gtest gives its sharding for free (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX split a run over CI
// machines; the per-shard JSON reports merge with `funcspec report merge`), and its flags
// (--gtest_repeat, --gtest_shuffle, --gtest_list_tests) keep working.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "conformance/backend/backend.h"
#include "conformance/report/test_record.h"
#include "conformance/report/xfail_manifest.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {

struct RunnerOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  std::filesystem::path artifacts_dir = "funcspec-artifacts";  // replay case files of failures
  const XfailManifest* manifest = nullptr;
  // Called after each test with its record (progress display); may be empty.
  std::function<void(const TestRecord&, std::size_t done)> on_test_end;
  // Asked before each test; once it says true, the remaining tests are not run and get no record
  // (an interrupted run). May be empty.
  std::function<bool()> should_stop;
};

// Judges one test: builds its case, evaluates it on the backend, judges the answer, consults the
// manifest, and for anything but a pass or unsupported writes a replay case file.
TestRecord run_conformance_test(Backend& backend, const ConformanceTest& test, const RunnerOptions& options);

// Registers `tests` with GoogleTest and runs them (RUN_ALL_TESTS, honouring sharding and any
// --gtest_* flags already parsed by testing::InitGoogleTest). Returns the records of the tests this
// shard ran, in run order. gtest's own console output is replaced by `on_test_end`.
std::vector<TestRecord> run_with_gtest(Backend& backend, const ConformanceTests& tests, const RunnerOptions& options);

// The shard this process runs, from the gtest environment variables: {index, count}.
std::pair<int, int> gtest_shard();

// `funcspec replay 'path' --backend 'spec'`, quoted for a POSIX shell.
std::string replay_command(const std::filesystem::path& case_file, const std::string& backend_spec);
std::string shell_quote(const std::string& word);

}  // namespace funcspec::conformance
