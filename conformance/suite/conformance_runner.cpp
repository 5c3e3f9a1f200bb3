#include "conformance/suite/conformance_runner.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "conformance/case/case_json.h"
#include "conformance/report/judged_status.h"
#include "conformance/suite/op_sample_cases.h"

namespace funcspec::conformance {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Only comparisons of values report an error size; error expectations and meta cases have none.
bool compared_values(const Case& c, const Evaluation& evaluation) {
  if (c.expect.error || evaluation.result.error || evaluation.verdict == Verdict::Unsupported ||
      evaluation.verdict == Verdict::Error)
    return false;
  for (const ExpectedValue& value : c.expect.values) {
    if (!value.tensor.values_omitted) return true;
  }
  return false;
}

std::filesystem::path replay_file_for(const std::filesystem::path& dir, const std::string& id) {
  return dir / (id_slug(id) + ".json");
}

}  // namespace

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./:=+,@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char ch : word) {
    if (ch == '\'') {
      quoted += "'\\''";
    } else {
      quoted.push_back(ch);
    }
  }
  return quoted + "'";
}

std::string replay_command(const std::filesystem::path& case_file, const std::string& backend_spec) {
  return fmt::format("funcspec replay {} --backend {}", shell_quote(case_file.string()), shell_quote(backend_spec));
}

namespace {

// A property test judges the backend itself (NOTE: [property tests]); the manifest still applies.
TestRecord run_property_test(Backend& backend, const ConformanceTest& test, const RunnerOptions& options,
                             std::chrono::steady_clock::time_point start) {
  TestRecord record;
  try {
    record = test.run(backend, EvaluateOptions{options.timeout}, options.artifacts_dir);
  } catch (const std::exception& e) {
    record.status = TestStatus::Error;
    record.reason = fmt::format("the property could not be checked: {}", e.what());
  }
  record.id = test.id;
  record.clauses = test.clauses;
  const XfailEntry* listed = options.manifest != nullptr ? options.manifest->match(test.id) : nullptr;
  if (record.status == TestStatus::Pass || record.status == TestStatus::Fail) {
    const JudgedStatus judged =
        judged_status(record.status == TestStatus::Pass ? Verdict::Pass : Verdict::Fail, record.reason, listed);
    record.status = judged.status;
    record.reason = judged.reason;
  }
  if (!record.replay_case.empty()) record.replay_command = replay_command(record.replay_case, backend.spec());
  record.seconds = seconds_since(start);
  return record;
}

}  // namespace

TestRecord run_conformance_test(Backend& backend, const ConformanceTest& test, const RunnerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  TestRecord record;
  record.id = test.id;
  record.clauses = test.clauses;
  if (test.run) return run_property_test(backend, test, options, start);
  Case c;
  try {
    c = test.build();
  } catch (const std::exception& e) {
    record.status = TestStatus::Error;
    record.reason = fmt::format("the test could not be built: {}", e.what());
    record.seconds = seconds_since(start);
    return record;
  }
  record.clauses = c.clauses;  // building may refine them (an error expectation adds OPS-2.1)

  const Evaluation evaluation = judge(c, backend.evaluate(c, EvaluateOptions{options.timeout}));
  const XfailEntry* listed = options.manifest != nullptr ? options.manifest->match(test.id) : nullptr;
  const JudgedStatus judged = judged_status(evaluation.verdict, evaluation.reason, listed);
  record.status = judged.status;
  record.reason = judged.reason;
  if (compared_values(c, evaluation)) {
    record.max_abs_error = evaluation.max_abs_error;
    record.max_ulp_error = evaluation.max_ulp_error;
    record.tolerance = evaluation.tolerance;
  }
  const bool replayable = record.status == TestStatus::Fail || record.status == TestStatus::Xfail ||
                          record.status == TestStatus::Xpass || record.status == TestStatus::Error;
  if (replayable) {
    const std::filesystem::path file = replay_file_for(options.artifacts_dir, test.id);
    try {
      std::filesystem::create_directories(options.artifacts_dir);
      write_case_file(c, file);
      record.replay_case = file.string();
      record.replay_command = replay_command(file, backend.spec());
    } catch (const std::exception& e) {
      record.reason += fmt::format(" (the replay case could not be written to {}: {})", file.string(), e.what());
    }
  }
  record.seconds = seconds_since(start);
  return record;
}

namespace {

struct RunState {
  Backend* backend = nullptr;
  const RunnerOptions* options = nullptr;
  std::vector<TestRecord> records;
};

class ConformanceCaseTest : public testing::Test {
 public:
  ConformanceCaseTest(RunState* state, const ConformanceTest* test) : state_(state), test_(test) {}

  void TestBody() override {
    if (state_->options->should_stop && state_->options->should_stop()) GTEST_SKIP() << "the run was stopped";
    TestRecord record = run_conformance_test(*state_->backend, *test_, *state_->options);
    const TestStatus status = record.status;
    const std::string reason = record.reason;
    state_->records.push_back(std::move(record));
    if (state_->options->on_test_end) state_->options->on_test_end(state_->records.back(), state_->records.size());
    if (is_unexpected(status)) {
      ADD_FAILURE() << test_status_name(status) << ": " << reason;
    } else if (status == TestStatus::Unsupported || status == TestStatus::Skip) {
      GTEST_SKIP() << reason;
    }
  }

 private:
  RunState* state_;
  const ConformanceTest* test_;
};

}  // namespace

std::pair<int, int> gtest_shard() {
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  if (total == nullptr || index == nullptr) return {0, 1};
  const int count = std::atoi(total);
  const int at = std::atoi(index);
  if (count < 1 || at < 0 || at >= count) return {0, 1};
  return {at, count};
}

std::vector<TestRecord> run_with_gtest(Backend& backend, const ConformanceTests& tests, const RunnerOptions& options) {
  // gtest keeps the registrations for the life of the process, so the state they point at must too.
  static RunState state;
  state = RunState{&backend, &options, {}};
  state.records.reserve(tests.size());
  const std::string suite = "Conformance/" + backend.spec();
  for (const ConformanceTest& test : tests) {
    testing::RegisterTest(suite.c_str(), test.id.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [test_ptr = &test]() -> testing::Test* { return new ConformanceCaseTest(&state, test_ptr); });
  }
  // funcspec prints its own progress and failures.
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  [[maybe_unused]] const int gtest_status = RUN_ALL_TESTS();
  return std::move(state.records);
}

}  // namespace funcspec::conformance
