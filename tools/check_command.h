#pragma once
// `funcspec check`: run the conformance tests against a backend and gate on the result
// (NOTE: [conformance runner]). Exit status 0 iff no test is fail, xpass or error; 2 when the run
// could not start (unusable backend, unreadable manifest).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/case/case.h"

namespace funcspec::tools {

struct CheckOptions {
  std::string backend = "reference";
  conformance::Tier tier = conformance::Tier::Pr;
  std::vector<std::string> filters;
  std::vector<std::string> excludes;  // globs over test ids
  std::string xfail_file;
  std::uint64_t seed = 20261121;
  double timeout_seconds = 30;
  int jobs = 1;
  std::string json_file;
  std::string junit_file;
  std::string markdown_file;
  std::filesystem::path artifacts_dir = "funcspec-artifacts";
  std::vector<std::filesystem::path> case_dirs;  // empty: the suite's own
  bool cases_only = false;                       // the case files alone: no generated tests, no property laws
  bool quiet = false;
  // Internal to --jobs: this process is a worker running shard "I/N" of the selection, from its
  // `worker_skip`-th test on (a restart after a worker died), and prints each record on stdout.
  std::string worker_shard;
  std::size_t worker_skip = 0;
  // For the suite's own tests: a worker aborts after running a test whose id matches this glob,
  // before reporting it, as an in-process backend that crashes would.
  std::string crash_worker_at;
  // Arguments to repeat for workers (everything but --jobs and the report files).
  std::vector<std::string> worker_arguments;
  // The whole command line, shell-quoted, for the report.
  std::string command_line;
};

int run_check(const CheckOptions& options, const std::string& program_path);

}  // namespace funcspec::tools
