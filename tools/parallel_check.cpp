#include "tools/parallel_check.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "conformance/report/report_json.h"
#include "conformance/suite/conformance_runner.h"

extern char** environ;

namespace funcspec::tools {

using namespace conformance;

namespace {

struct Worker {
  pid_t pid = -1;
  int stdout_fd = -1;
  std::string pending;  // stdout bytes after the last complete line
  std::filesystem::path report;
  int index = 0;
  std::string ended;  // how it ended, once reaped
};

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "ended abnormally";
}

Worker spawn_worker(const std::string& program, const std::vector<std::string>& arguments, int shard_index,
                    int shard_count, const std::filesystem::path& report) {
  std::vector<std::string> argv_strings{program, "check"};
  argv_strings.insert(argv_strings.end(), arguments.begin(), arguments.end());
  argv_strings.insert(argv_strings.end(), {"--worker-report", report.string()});
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.starts_with("GTEST_TOTAL_SHARDS=") || entry.starts_with("GTEST_SHARD_INDEX=")) continue;
    env_strings.push_back(entry);
  }
  env_strings.push_back(fmt::format("GTEST_TOTAL_SHARDS={}", shard_count));
  env_strings.push_back(fmt::format("GTEST_SHARD_INDEX={}", shard_index));
  std::vector<char*> envp;
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error(fmt::format("cannot start the worker {}: {}", program, std::strerror(spawned)));
  }
  return Worker{pid, pipe_fds[0], "", report, shard_index, ""};
}

// Feeds complete "@funcspec-test STATUS ID" lines to the display; other output passes through.
void consume_lines(Worker& worker, ProgressDisplay& display) {
  std::size_t newline = 0;
  while ((newline = worker.pending.find('\n')) != std::string::npos) {
    const std::string line = worker.pending.substr(0, newline);
    worker.pending.erase(0, newline + 1);
    if (!line.starts_with(kWorkerLinePrefix)) {
      fmt::print("{}\n", line);
      continue;
    }
    const std::string rest = line.substr(kWorkerLinePrefix.size());
    const std::size_t space = rest.find(' ');
    const std::optional<TestStatus> status = parse_test_status(rest.substr(0, space));
    if (status && space != std::string::npos) display.test_done(*status, rest.substr(space + 1));
  }
}

}  // namespace

std::vector<TestRecord> run_parallel_check(const CheckOptions& options, const std::string& program_path,
                                           const ConformanceTests& selected, ProgressDisplay& display) {
  const auto [outer_index, outer_count] = gtest_shard();
  const int jobs = options.jobs;
  const std::filesystem::path scratch =
      std::filesystem::temp_directory_path() / fmt::format("funcspec-check-{}", getpid());
  std::filesystem::create_directories(scratch);

  // Worker i of outer shard o is shard o + T*i of T*J: together they run exactly shard o of T.
  std::vector<Worker> workers;
  for (int i = 0; i < jobs; ++i) {
    workers.push_back(spawn_worker(program_path, options.worker_arguments, outer_index + outer_count * i,
                                   outer_count * jobs, scratch / fmt::format("worker-{}.json", i)));
  }
  std::size_t open = workers.size();
  while (open > 0) {
    std::vector<pollfd> fds;
    for (const Worker& w : workers) fds.push_back(pollfd{w.stdout_fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < workers.size(); ++k) {
      Worker& w = workers[k];
      if (w.stdout_fd < 0 || fds[k].revents == 0) continue;
      char buffer[65536];
      const ssize_t got = read(w.stdout_fd, buffer, sizeof buffer);
      if (got > 0) {
        w.pending.append(buffer, static_cast<std::size_t>(got));
        consume_lines(w, display);
      } else if (got == 0 || errno != EINTR) {
        close(w.stdout_fd);
        w.stdout_fd = -1;
        --open;
      }
    }
  }

  std::map<std::string, TestRecord> finished;
  for (Worker& w : workers) {
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    w.ended = describe_status(status);
    try {
      for (TestRecord& record : read_report_file(w.report).tests) finished[record.id] = std::move(record);
    } catch (const std::exception& e) {
      fmt::print(stderr, "funcspec check: worker {} {} without a readable report ({})\n", w.index, w.ended, e.what());
    }
  }
  std::filesystem::remove_all(scratch);

  // Every test of this shard gets a record: a worker that died loses no result silently.
  std::vector<TestRecord> records;
  for (std::size_t k = 0; k < selected.size(); ++k) {
    if (static_cast<int>(k % static_cast<std::size_t>(outer_count)) != outer_index) continue;
    const ConformanceTest& test = selected[k];
    if (auto it = finished.find(test.id); it != finished.end()) {
      records.push_back(std::move(it->second));
      continue;
    }
    const int worker_index =
        static_cast<int>((k / static_cast<std::size_t>(outer_count)) % static_cast<std::size_t>(jobs));
    TestRecord lost;
    lost.id = test.id;
    lost.clauses = test.clauses;
    lost.status = TestStatus::Error;
    lost.reason = fmt::format("the worker process running this test {} before reporting it",
                              workers[static_cast<std::size_t>(worker_index)].ended);
    records.push_back(std::move(lost));
  }
  return records;
}

}  // namespace funcspec::tools
