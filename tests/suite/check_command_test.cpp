// `funcspec check` run as a user runs it: against deliberately broken backends (a crash, a hang or
// a lie costs one case and the run goes on), with expected-failure manifests, shards that merge,
// worker processes, malformed case files, and one-step replay of what failed.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "conformance/report/report_json.h"

namespace funcspec::conformance {
namespace {

struct CommandRun {
  int exit_status = -1;
  std::string output;  // stdout and stderr together
};

std::string quote(const std::string& word) {
  std::string quoted = "'";
  for (char ch : word) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

CommandRun run_command(const std::string& command) {
  CommandRun run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, got);
  const int status = pclose(pipe);
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

std::filesystem::path scratch_dir() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (std::string("funcspec-check-") + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// funcspec check with a JSON report in `dir`; `arguments` are shell words already quoted.
CommandRun check(const std::filesystem::path& dir, const std::string& arguments, const std::string& environment = "") {
  return run_command(environment + " CI=true " + quote(FUNCSPEC_BINARY) + " check --quiet --artifacts " +
                     quote((dir / "artifacts").string()) + " --json " + quote((dir / "report.json").string()) + " " +
                     arguments);
}

std::string broken_backend(const std::string& misbehaviour) {
  return quote(std::string("exec:") + FUNCSPEC_BROKEN_BACKEND + " " + misbehaviour);
}

std::map<std::string, TestRecord> records_by_id(const Report& report) {
  std::map<std::string, TestRecord> out;
  for (const TestRecord& record : report.tests) out[record.id] = record;
  return out;
}

bool contains(const std::string& text, const std::string& fragment) { return text.find(fragment) != std::string::npos; }

const std::string kNegAndAbs = "--filter 'OPS-VALUES/neg/float64/*' --filter 'OPS-VALUES/abs/float64/*'";
// The neg samples with elements to get wrong (not size-0, not an error expectation).
const std::string kNegWithValuesAndAbs =
    "--filter 'OPS-VALUES/neg/float64/[0-5]-*' --filter 'OPS-VALUES/abs/float64/*'";

// Every neg test has `status`, every abs test passed, and there were some of each.
void expect_neg_tests_are(const Report& report, TestStatus status, const std::string& reason_fragment) {
  int neg = 0;
  int abs = 0;
  for (const TestRecord& record : report.tests) {
    if (record.id.starts_with("OPS-VALUES/neg/")) {
      ++neg;
      EXPECT_EQ(record.status, status) << record.id << ": " << record.reason;
      EXPECT_TRUE(contains(record.reason, reason_fragment)) << record.reason;
    } else {
      ++abs;
      EXPECT_EQ(record.status, TestStatus::Pass) << record.id << ": " << record.reason;
    }
  }
  EXPECT_GT(neg, 0);
  EXPECT_GT(abs, 0);
}

TEST(CheckCommand, ACrashCostsItsCasesAndTheBackendIsRestartedForTheRest) {
  const auto dir = scratch_dir();
  const CommandRun run = check(dir, "--backend " + broken_backend("--crash-on=neg") + " " + kNegAndAbs);
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const Report report = read_report_file(dir / "report.json");
  expect_neg_tests_are(report, TestStatus::Error, "crash");
  for (const TestRecord& record : report.tests) {
    if (record.status == TestStatus::Error) {
      EXPECT_TRUE(std::filesystem::exists(record.replay_case)) << record.id;
    }
  }
}

TEST(CheckCommand, APluginThatSegfaultsCostsItsCasesOnly) {
  const auto dir = scratch_dir();
  const CommandRun run =
      check(dir, "--backend " + quote(std::string("plugin:") + FUNCSPEC_BROKEN_PLUGIN) + " " + kNegAndAbs,
            "FUNCSPEC_BROKEN_PLUGIN=--segv-on=neg");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  expect_neg_tests_are(read_report_file(dir / "report.json"), TestStatus::Error, "crash");
}

TEST(CheckCommand, AHangIsATimeoutAndTheRunGoesOn) {
  const auto dir = scratch_dir();
  const CommandRun run = check(dir, "--timeout 0.3 --backend " + broken_backend("--hang-on=neg") +
                                        " --filter 'OPS-VALUES/neg/float64/0-*' --filter 'OPS-VALUES/abs/float64/*'");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  expect_neg_tests_are(read_report_file(dir / "report.json"), TestStatus::Error, "timeout");
}

TEST(CheckCommand, GarbageRepliesAreProtocolErrors) {
  const auto dir = scratch_dir();
  const CommandRun run = check(dir, "--backend " + broken_backend("--garbage-on=neg") + " " + kNegAndAbs);
  EXPECT_EQ(run.exit_status, 1) << run.output;
  expect_neg_tests_are(read_report_file(dir / "report.json"), TestStatus::Error, "protocol error");
}

TEST(CheckCommand, ALieFailsWithTheClauseTheErrorAndAReplayCommandThatReproducesIt) {
  const auto dir = scratch_dir();
  const std::string backend = broken_backend("--lie-on=neg");
  const CommandRun run = check(dir, "--backend " + backend + " " + kNegWithValuesAndAbs);
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const Report report = read_report_file(dir / "report.json");
  expect_neg_tests_are(report, TestStatus::Fail, "differ");
  EXPECT_TRUE(contains(run.output, "OPS-1.1")) << run.output;
  EXPECT_TRUE(contains(run.output, "replay: funcspec replay")) << run.output;
  const auto failed_at = std::find_if(report.tests.begin(), report.tests.end(),
                                      [](const TestRecord& r) { return r.status == TestStatus::Fail; });
  ASSERT_NE(failed_at, report.tests.end());
  const TestRecord& failed = *failed_at;
  ASSERT_TRUE(failed.max_abs_error.has_value());
  EXPECT_GE(*failed.max_abs_error, 1.0);  // every element is off by one
  const std::string replay = quote(FUNCSPEC_BINARY) + " replay " + quote(failed.replay_case);
  EXPECT_EQ(run_command(replay + " --backend " + backend).exit_status, 1);
  const CommandRun on_reference = run_command(replay + " --backend reference");
  EXPECT_EQ(on_reference.exit_status, 0) << on_reference.output;
  EXPECT_TRUE(contains(on_reference.output, "verdict: pass")) << on_reference.output;
}

TEST(CheckCommand, AnExpectedFailureManifestTurnsFailuresIntoXfailAndWarnsAboutStaleEntries) {
  const auto dir = scratch_dir();
  std::ofstream(dir / "xfail.txt") << "# known\nOPS-VALUES/neg/float64/[0-5]-*  # this backend lies about neg\n"
                                      "NO-SUCH-TEST/*  # left over from an old run\n";
  const CommandRun run = check(dir, "--xfail " + quote((dir / "xfail.txt").string()) + " --backend " +
                                        broken_backend("--lie-on=neg") + " " + kNegWithValuesAndAbs);
  EXPECT_EQ(run.exit_status, 0) << run.output;
  const Report report = read_report_file(dir / "report.json");
  expect_neg_tests_are(report, TestStatus::Xfail, "this backend lies about neg");
  EXPECT_EQ(report.run.xfail_unmatched, std::vector<std::string>{"NO-SUCH-TEST/*"});
  EXPECT_TRUE(contains(run.output, "NO-SUCH-TEST/*")) << run.output;
}

TEST(CheckCommand, AnExpectedFailureThatPassesIsAnUnexpectedPass) {
  const auto dir = scratch_dir();
  std::ofstream(dir / "xfail.txt") << "OPS-VALUES/abs/float64/0-*  # was broken once\n";
  const CommandRun run =
      check(dir, "--xfail " + quote((dir / "xfail.txt").string()) + " --filter 'OPS-VALUES/abs/float64/*'");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  int xpass = 0;
  for (const TestRecord& record : read_report_file(dir / "report.json").tests)
    xpass += record.status == TestStatus::Xpass;
  EXPECT_EQ(xpass, 1);
}

TEST(CheckCommand, ShardsMergeIntoTheWholeRun) {
  const auto dir = scratch_dir();
  const std::string filter = "--filter 'TENSOR-PROMOTION/add/*'";
  ASSERT_EQ(check(dir, filter).exit_status, 0);
  const Report whole = read_report_file(dir / "report.json");
  std::vector<std::string> shard_files;
  for (int shard = 0; shard < 3; ++shard) {
    const auto shard_dir = dir / ("shard" + std::to_string(shard));
    std::filesystem::create_directories(shard_dir);
    const CommandRun run = check(shard_dir, filter, "GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=" + std::to_string(shard));
    ASSERT_EQ(run.exit_status, 0) << run.output;
    shard_files.push_back((shard_dir / "report.json").string());
  }
  const CommandRun merge =
      run_command(quote(FUNCSPEC_BINARY) + " report merge " + quote((dir / "merged.json").string()) + " " +
                  quote(shard_files[0]) + " " + quote(shard_files[1]) + " " + quote(shard_files[2]));
  ASSERT_EQ(merge.exit_status, 0) << merge.output;
  const Report merged = read_report_file(dir / "merged.json");
  std::set<std::string> whole_ids;
  std::set<std::string> merged_ids;
  for (const TestRecord& r : whole.tests) whole_ids.insert(r.id);
  for (const TestRecord& r : merged.tests) merged_ids.insert(r.id);
  EXPECT_GT(whole_ids.size(), 100u);
  EXPECT_EQ(merged_ids, whole_ids);
  EXPECT_EQ(merged.tests.size(), whole.tests.size());
}

TEST(CheckCommand, WorkerProcessesGiveTheSameResultsAsOneProcess) {
  const auto dir = scratch_dir();
  const std::string arguments = "--backend " + broken_backend("--lie-on=abs") + " " + kNegWithValuesAndAbs;
  check(dir, arguments + " --jobs 1");
  const Report one = read_report_file(dir / "report.json");
  const CommandRun run = check(dir, arguments + " --jobs 3");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const Report three = read_report_file(dir / "report.json");
  ASSERT_EQ(one.tests.size(), three.tests.size());
  for (std::size_t i = 0; i < one.tests.size(); ++i) {
    EXPECT_EQ(one.tests[i].id, three.tests[i].id);
    EXPECT_EQ(one.tests[i].status, three.tests[i].status) << one.tests[i].id;
  }
}

// The in-process reference runs in the --jobs workers: a crash there (an op's kernel, the oracle)
// kills the worker. It costs the test it was running and nothing else: every test the worker had
// finished was handed over already, and a new worker runs the rest of its share.
TEST(CheckCommand, AWorkerThatDiesCostsOnlyItsTestInFlight) {
  const auto dir = scratch_dir();
  const std::string tests = "--backend reference --filter 'OPS-VALUES/add/float64/*'";
  check(dir, tests + " --jobs 1");
  const Report whole = read_report_file(dir / "report.json");
  ASSERT_GE(whole.tests.size(), 8u);
  // The third test of the first worker's share.
  const std::string first_crash = whole.tests[4].id;
  const CommandRun run = check(dir, tests + " --jobs 2 --crash-worker-at " + quote(first_crash));
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const Report report = read_report_file(dir / "report.json");
  ASSERT_EQ(report.tests.size(), whole.tests.size()) << run.output;
  for (std::size_t i = 0; i < whole.tests.size(); ++i) {
    const TestRecord& record = report.tests[i];
    EXPECT_EQ(record.id, whole.tests[i].id);
    if (record.id == first_crash) {
      EXPECT_EQ(record.status, TestStatus::Error);
      EXPECT_TRUE(contains(record.reason, "the worker process running this test was killed by signal SIGABRT"))
          << record.reason;
    } else {
      EXPECT_EQ(record.status, whole.tests[i].status) << record.id << ": " << record.reason;
    }
  }
}

// A worker that keeps dying before it finishes a test is not restarted forever: after two such
// deaths in a row, the rest of its share is reported as not run, with the reason.
TEST(CheckCommand, AWorkerThatKeepsDyingIsNotRestartedForever) {
  const auto dir = scratch_dir();
  const CommandRun run = check(dir,
                               "--backend reference --filter 'OPS-VALUES/add/float64/*' --jobs 2 "
                               "--crash-worker-at 'OPS-VALUES/add/*'");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const Report report = read_report_file(dir / "report.json");
  ASSERT_GE(report.tests.size(), 8u);
  for (std::size_t i = 0; i < report.tests.size(); ++i) {
    const TestRecord& record = report.tests[i];
    EXPECT_EQ(record.status, TestStatus::Error) << record.id;
    // Tests 0 and 2 are the first worker's first two, 1 and 3 the second's: each died in them.
    if (i < 4) {
      EXPECT_TRUE(contains(record.reason, "the worker process running this test was killed by signal SIGABRT"))
          << i << ": " << record.reason;
    } else {
      EXPECT_TRUE(contains(record.reason,
                           "not run: the worker process was killed by signal SIGABRT (Aborted) twice "
                           "in a row without finishing a test"))
          << i << ": " << record.reason;
    }
  }
}

TEST(CheckCommand, AWorkerShareIsTheParentsToGive) {
  const CommandRun broken = run_command("CI=true " + quote(FUNCSPEC_BINARY) +
                                        " check --quiet --backend reference --filter 'OPS-VALUES/add/float64/*'"
                                        " --worker-shard 3/2");
  EXPECT_EQ(broken.exit_status, 2) << broken.output;
  EXPECT_TRUE(contains(broken.output, "--worker-shard '3/2': expected I/N with 0 <= I < N")) << broken.output;
}

// Starts funcspec check on `arguments` (with the reports in `dir`), sends `signal` once the run has
// finished its first test (its first progress line), and returns the exit status.
int interrupted_check(const std::filesystem::path& dir, const std::string& arguments, int signal) {
  const std::filesystem::path output = dir / "output.txt";
  const std::string command =
      "CI=true exec " + quote(FUNCSPEC_BINARY) + " check --artifacts " + quote((dir / "artifacts").string()) +
      " --json " + quote((dir / "report.json").string()) + " --junit " + quote((dir / "junit.xml").string()) +
      " --markdown " + quote((dir / "clauses.md").string()) + " " + arguments + " >" + quote(output.string()) + " 2>&1";
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) return -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream in(output);
    std::stringstream text;
    text << in.rdbuf();
    if (contains(text.str(), "progress: ")) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, signal);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Interrupted, `funcspec check` writes every report of the tests finished so far, marked
// interrupted, and exits with 128 + the signal's number; with --jobs, the workers' tests in flight
// are abandoned, not charged as errors.
TEST(CheckCommand, AnInterruptedRunWritesItsReportsOfWhatFinished) {
  for (const auto& [jobs, signal] : {std::pair{1, SIGINT}, std::pair{2, SIGTERM}}) {
    const auto dir = scratch_dir();
    const std::string selection = "--backend reference --filter 'VMAP-ORACLE/*' --jobs " + std::to_string(jobs);
    const int status = interrupted_check(dir, selection, signal);
    EXPECT_EQ(status, 128 + signal) << jobs;
    const Report report = read_report_file(dir / "report.json");
    EXPECT_EQ(report.run.interrupted, signal == SIGINT ? "SIGINT" : "SIGTERM");
    EXPECT_GT(report.tests.size(), 0u);
    for (const TestRecord& record : report.tests) EXPECT_EQ(record.status, TestStatus::Pass) << record.id;
    std::ifstream output(dir / "output.txt");
    std::stringstream text;
    text << output.rdbuf();
    EXPECT_TRUE(contains(text.str(), "the reports hold those (marked interrupted)")) << text.str();
    std::stringstream junit;
    junit << std::ifstream(dir / "junit.xml").rdbuf();
    EXPECT_TRUE(contains(junit.str(), "name=\"interrupted\"")) << junit.str().substr(0, 2000);
    std::stringstream markdown;
    markdown << std::ifstream(dir / "clauses.md").rdbuf();
    EXPECT_TRUE(contains(markdown.str(), "**incomplete**: the run was stopped by")) << markdown.str().substr(0, 2000);
    // Fewer than all: the selection takes seconds, the signal came after its first test.
    EXPECT_TRUE(contains(text.str(), "tests selected")) << text.str();
    const std::string first_line = text.str().substr(0, text.str().find('\n'));
    const std::size_t selected_at = first_line.rfind(", ") + 2;
    const std::size_t selected = std::stoul(first_line.substr(selected_at));
    EXPECT_LT(report.tests.size(), selected) << first_line;
  }
}

TEST(CheckCommand, AMalformedCaseFileIsAnErrorTestAndTheOthersStillRun) {
  const auto dir = scratch_dir();
  std::filesystem::create_directories(dir / "cases");
  std::ofstream(dir / "cases" / "broken.json") << R"({"format": "funcspec-case/1", "id": "X/y", "program": [)";
  std::ofstream(dir / "cases" / "fine.json") << R"({"format": "funcspec-case/1", "id": "TENSOR-BROADCAST/add/fine",
    "clauses": ["TENSOR-1.1"], "inputs": {"x": {"dtype": "int64", "shape": [2], "data": [1, 2]}},
    "program": [{"out": ["y"], "op": "add", "args": ["x", "x"]}], "outputs": ["y"],
    "expect": {"values": {"y": {"dtype": "int64", "shape": [2], "data": [2, 4]}}}})";
  const CommandRun run = check(dir, "--cases " + quote((dir / "cases").string()) +
                                        " --filter 'CASE-FILES/*' --filter "
                                        "'TENSOR-BROADCAST/*'");
  EXPECT_EQ(run.exit_status, 1) << run.output;
  const auto records = records_by_id(read_report_file(dir / "report.json"));
  ASSERT_EQ(records.count("CASE-FILES/broken.json"), 1u) << run.output;
  EXPECT_EQ(records.at("CASE-FILES/broken.json").status, TestStatus::Error);
  EXPECT_TRUE(contains(records.at("CASE-FILES/broken.json").reason, "invalid JSON"));
  EXPECT_EQ(records.at("TENSOR-BROADCAST/add/fine").status, TestStatus::Pass);
}

// A directory of golden fixtures holds cases with the generated tests' own ids (docs/fixtures.md):
// run with the generators, each would be defined twice.
TEST(CheckCommand, CasesOnlyRunsTheCaseFilesWithoutTheGeneratedTests) {
  const auto dir = scratch_dir();
  std::filesystem::create_directories(dir / "cases");
  std::ofstream(dir / "cases" / "neg.json") << R"({"format": "funcspec-case/1", "id": "OPS-VALUES/neg/float64/0-2x3",
    "clauses": ["OPS-1.1"], "inputs": {"x": {"dtype": "int64", "shape": [2], "data": [1, -2]}},
    "program": [{"out": ["y"], "op": "neg", "args": ["x"]}], "outputs": ["y"],
    "expect": {"values": {"y": {"dtype": "int64", "shape": [2], "data": [-1, 2]}}}})";
  std::ofstream(dir / "cases" / "index.json") << R"({"format": "funcspec-fixtures/1"})";
  const std::string cases = "--cases " + quote((dir / "cases").string());

  const CommandRun only = check(dir, cases + " --cases-only");
  EXPECT_EQ(only.exit_status, 0) << only.output;
  const auto records = records_by_id(read_report_file(dir / "report.json"));
  ASSERT_EQ(records.size(), 1u) << only.output;
  EXPECT_EQ(records.at("OPS-VALUES/neg/float64/0-2x3").status, TestStatus::Pass);

  const CommandRun all = check(dir, cases + " --filter 'OPS-VALUES/neg/float64/0-*'");
  EXPECT_EQ(all.exit_status, 1) << all.output;
  EXPECT_TRUE(contains(all.output, "the test id OPS-VALUES/neg/float64/0-2x3 is defined twice")) << all.output;
}

// gtest runs the conformance tests inside `funcspec`, but --help is funcspec's: gtest sees only
// --gtest_* flags, so its own help (which it prints for --help) does not bury the command's.
TEST(CheckCommand, HelpIsTheCommandsOwn) {
  for (const char* flag : {"--help", "-h"}) {
    const CommandRun run = run_command(quote(FUNCSPEC_BINARY) + " " + flag);
    EXPECT_EQ(run.exit_status, 0) << run.output;
    EXPECT_TRUE(run.output.starts_with("funcspec: the executable specification")) << run.output;
    EXPECT_FALSE(contains(run.output, "Google Test")) << run.output;
  }
}

TEST(CheckCommand, AnUnusableBackendStopsTheRunWithExitStatus2) {
  const auto dir = scratch_dir();
  const CommandRun run = check(dir, "--backend 'exec:/no/such/backend --flag'");
  EXPECT_EQ(run.exit_status, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "/no/such/backend")) << run.output;
}

}  // namespace
}  // namespace funcspec::conformance
