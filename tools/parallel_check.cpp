#include "tools/parallel_check.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>

#include "conformance/backend/child_process.h"
#include "conformance/report/report_json.h"
#include "conformance/suite/conformance_runner.h"
#include "tools/interruption.h"

namespace funcspec::tools {

using namespace conformance;

namespace {

// A record line holds a test's reason and replay command: far below this, unless the worker is broken.
constexpr std::size_t kMaxRecordLine = 64 * 1024 * 1024;

// One worker's share of the run: the tests it owns (indices into the selection, in order), how many
// of them it has reported, and the process running the rest.
struct WorkerShare {
  int shard_index = 0;
  int shard_count = 1;
  std::vector<std::size_t> tests;
  std::size_t reported = 0;
  std::unique_ptr<ChildProcess> process;
  // Deaths in a row with no record between them: a worker that cannot get through one test after a
  // restart will not get through the rest.
  int deaths_without_progress = 0;
};

void start(WorkerShare& share, const std::string& program, const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{program, "check"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  argv.insert(argv.end(), {"--worker-shard", fmt::format("{}/{}", share.shard_index, share.shard_count),
                           "--worker-skip", std::to_string(share.reported)});
  share.process = ChildProcess::spawn(argv);
}

TestRecord error_record(const ConformanceTest& test, std::string reason) {
  TestRecord record;
  record.id = test.id;
  record.clauses = test.clauses;
  record.status = TestStatus::Error;
  record.reason = std::move(reason);
  return record;
}

class ParallelRun {
 public:
  ParallelRun(const CheckOptions& options, std::string program, const ConformanceTests& selected,
              ProgressDisplay& display)
      : options_(options),
        program_(std::move(program)),
        selected_(selected),
        display_(display),
        records_(selected.size()) {}

  std::vector<TestRecord> run(int outer_index, int outer_count) {
    // Worker i of outer shard o is shard o + T*i of T*J: together they run exactly shard o of T.
    const int jobs = options_.jobs;
    for (int i = 0; i < jobs; ++i) {
      WorkerShare share;
      share.shard_index = outer_index + outer_count * i;
      share.shard_count = outer_count * jobs;
      share.tests = shard_positions(selected_.size(), share.shard_index, share.shard_count);
      shares_.push_back(std::move(share));
    }
    for (WorkerShare& share : shares_) {
      if (!share.tests.empty()) start_or_charge(share);
    }
    for (;;) {
      std::vector<ChildProcess*> live;
      for (WorkerShare& share : shares_) {
        if (share.process) live.push_back(share.process.get());
      }
      if (live.empty()) break;
      ChildProcess::wait_for_output(live, std::chrono::steady_clock::now() + std::chrono::seconds(1));
      if (interruption_signal() != 0) {
        // The tests in flight are abandoned: the report holds what the workers had handed over.
        for (WorkerShare& share : shares_) {
          if (!share.process) continue;
          take_output(share);
          if (share.process) {
            share.process->kill_group();
            share.process.reset();  // reaps it
          }
        }
        break;
      }
      for (WorkerShare& share : shares_) {
        if (share.process) take_output(share);
      }
    }
    std::vector<TestRecord> records;
    for (const std::size_t k : shard_positions(selected_.size(), outer_index, outer_count)) {
      if (records_[k]) {
        records.push_back(std::move(*records_[k]));
      } else if (interruption_signal() == 0) {
        // Unreachable: a run that is not interrupted reports or charges every test it owns.
        records.push_back(error_record(selected_[k], "no worker process reported this test"));
      }
    }
    return records;
  }

 private:
  void start_or_charge(WorkerShare& share) {
    try {
      start(share, program_, options_.worker_arguments);
    } catch (const std::exception& e) {
      charge_rest(share, fmt::format("not run: the worker process could not be started: {}", e.what()));
    }
  }

  void report(WorkerShare& share, TestRecord record) {
    display_.test_done(record);
    records_[share.tests[share.reported]] = std::move(record);
    ++share.reported;
  }

  void charge_rest(WorkerShare& share, const std::string& reason) {
    while (share.reported < share.tests.size())
      report(share, error_record(selected_[share.tests[share.reported]], reason));
  }

  // Every line the worker has ready: its records, and anything else it printed, passed through.
  void take_output(WorkerShare& share) {
    for (;;) {
      const ChildProcess::Exchange got = share.process->read_line(std::chrono::steady_clock::now(), kMaxRecordLine);
      switch (got.outcome) {
        case ChildProcess::Outcome::Replied:
          if (!take_line(share, got.line)) return;
          continue;
        case ChildProcess::Outcome::TimedOut: return;
        case ChildProcess::Outcome::TooLong:
          share.process->kill_group();
          ended(share, fmt::format("wrote a line longer than {} bytes", kMaxRecordLine));
          return;
        case ChildProcess::Outcome::Closed: ended(share, ""); return;
      }
    }
  }

  // False when the line shows the worker is broken (it is then stopped and its test charged).
  bool take_line(WorkerShare& share, const std::string& line) {
    if (!line.starts_with(kWorkerLinePrefix)) {
      fmt::print("{}\n", line);
      return true;
    }
    std::string problem;
    try {
      TestRecord record = parse_test_record_line(std::string_view(line).substr(kWorkerLinePrefix.size()),
                                                 fmt::format("worker {}'s record", share.shard_index));
      if (share.reported < share.tests.size() && record.id == selected_[share.tests[share.reported]].id) {
        share.deaths_without_progress = 0;
        report(share, std::move(record));
        return true;
      }
      problem = fmt::format("reported the test '{}' out of turn", record.id);
    } catch (const std::exception& e) {
      problem = fmt::format("wrote a record that cannot be read ({})", e.what());
    }
    share.process->kill_group();
    ended(share, problem);
    return false;
  }

  // The worker's stdout closed: it finished its share, or it died in the test it had not reported.
  void ended(WorkerShare& share, const std::string& problem) {
    const std::string how = share.process->finish(std::chrono::seconds(5));
    const std::string last_words = share.process->stderr_tail();
    share.process.reset();
    if (interruption_signal() != 0) return;  // its test in flight is abandoned, not charged
    const std::string stderr_note =
        last_words.empty() ? "" : fmt::format("; its last words on stderr:\n{}", last_words);
    if (share.reported == share.tests.size() && problem.empty()) {
      if (how != describe_wait_status(0) || !last_words.empty())
        fmt::print(stderr, "funcspec check: worker {} {} after its last test{}\n", share.shard_index, how, stderr_note);
      return;
    }
    const std::string what = problem.empty() ? how : fmt::format("{} and {}", problem, how);
    if (share.reported < share.tests.size()) {
      report(share, error_record(selected_[share.tests[share.reported]],
                                 fmt::format("the worker process running this test {} before reporting it{}", what,
                                             stderr_note)));
    }
    if (share.reported == share.tests.size()) return;
    if (++share.deaths_without_progress >= 2) {
      charge_rest(share, fmt::format("not run: the worker process {} twice in a row without finishing a test{}", what,
                                     stderr_note));
      return;
    }
    start_or_charge(share);  // the rest of its share, from the test after the one it died in
  }

  const CheckOptions& options_;
  std::string program_;
  const ConformanceTests& selected_;
  ProgressDisplay& display_;
  std::vector<std::optional<TestRecord>> records_;
  std::vector<WorkerShare> shares_;
};

}  // namespace

std::vector<std::size_t> shard_positions(std::size_t size, int index, int count) {
  std::vector<std::size_t> positions;
  for (auto k = static_cast<std::size_t>(index); k < size; k += static_cast<std::size_t>(count)) positions.push_back(k);
  return positions;
}

std::vector<TestRecord> run_parallel_check(const CheckOptions& options, const std::string& program_path,
                                           const ConformanceTests& selected, ProgressDisplay& display) {
  const auto [outer_index, outer_count] = gtest_shard();
  return ParallelRun(options, program_path, selected, display).run(outer_index, outer_count);
}

}  // namespace funcspec::tools
