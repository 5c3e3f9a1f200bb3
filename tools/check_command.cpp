#include "tools/check_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "conformance/backend/backend.h"
#include "conformance/backend/reference_backend.h"
#include "conformance/report/glob.h"
#include "conformance/report/junit_report.h"
#include "conformance/report/markdown_report.h"
#include "conformance/report/report_json.h"
#include "conformance/report/xfail_manifest.h"
#include "conformance/spec/spec_clauses.h"
#include "conformance/suite/conformance_runner.h"
#include "conformance/suite/test_catalogue.h"
#include "tools/interruption.h"
#include "tools/parallel_check.h"
#include "tools/progress_display.h"

namespace funcspec::tools {

using namespace conformance;

namespace {

void print_summary(const Report& report) {
  const Summary summary = summarize(report.tests);
  std::vector<std::string> counts;
  for (TestStatus status : kAllTestStatuses) {
    const auto it = summary.by_status.find(status);
    counts.push_back(fmt::format("{} {}", it == summary.by_status.end() ? 0 : it->second, test_status_name(status)));
  }
  fmt::print("tests: {} in {:.1f} s: {}\n", report.tests.size(), report.run.seconds, fmt::join(counts, ", "));
  std::map<std::string, int> verdicts;
  for (const auto& [clause, clause_summary] : summary.by_clause) ++verdicts[clause_summary.verdict];
  const std::vector<SpecClause>& spec = embedded_spec();
  std::size_t exercised = 0;
  for (const SpecClause& clause : spec) exercised += summary.by_clause.count(clause.id);
  fmt::print(
      "clauses: {} satisfied, {} partial, {} violated, {} unsupported ({} of the {} clauses of docs/SPEC.md "
      "exercised by this run)\n",
      verdicts["satisfied"], verdicts["partial"], verdicts["violated"], verdicts["unsupported"], exercised,
      spec.size());
  for (const std::string& pattern : report.run.xfail_unmatched)
    fmt::print("warning: the expected-failure entry '{}' matched no test of this run\n", pattern);
}

void write_outputs(const Report& report, const CheckOptions& options) {
  if (!options.json_file.empty()) write_report_file(report, options.json_file);
  if (!options.junit_file.empty()) write_junit_file(report, options.junit_file);
  if (!options.markdown_file.empty()) {
    MarkdownOptions markdown;
    for (const SpecClause& clause : embedded_spec()) markdown.clause_titles[clause.id] = clause.title;
    write_markdown_file(report, options.markdown_file, markdown);
  }
}

// A worker's tests: every N-th of the selection from the I-th ("I/N"), less the first `skip` of
// them, which an earlier worker of the same share ran. Run unsharded: the selection is the share.
ConformanceTests worker_share(ConformanceTests selected, const std::string& shard, std::size_t skip) {
  int index = -1;
  int count = 0;
  char slash = 0;
  std::istringstream in(shard);
  if (!(in >> index >> slash >> count) || slash != '/' || !in.eof() || count < 1 || index < 0 || index >= count)
    throw std::runtime_error(fmt::format("--worker-shard '{}': expected I/N with 0 <= I < N", shard));
  ConformanceTests share;
  const std::vector<std::size_t> positions = shard_positions(selected.size(), index, count);
  for (std::size_t i = std::min(skip, positions.size()); i < positions.size(); ++i)
    share.push_back(std::move(selected[positions[i]]));
  ::unsetenv("GTEST_TOTAL_SHARDS");
  ::unsetenv("GTEST_SHARD_INDEX");
  return share;
}

}  // namespace

int run_check(const CheckOptions& options, const std::string& program_path) {
  const auto start = std::chrono::steady_clock::now();
  const bool worker = !options.worker_shard.empty();
  std::unique_ptr<Backend> backend;
  XfailManifest manifest;
  for (const std::string& filter : options.excludes) {
    if (const auto problem = glob_syntax_error(filter)) {
      fmt::print(stderr, "funcspec check: --exclude '{}': {}\n", filter, *problem);
      return 2;
    }
  }
  for (const std::string& filter : options.filters) {
    if (const auto problem = glob_syntax_error(filter)) {
      fmt::print(stderr, "funcspec check: --filter '{}': {}\n", filter, *problem);
      return 2;
    }
  }
  try {
    backend = make_backend(options.backend);
    if (!options.xfail_file.empty()) manifest = XfailManifest::load(options.xfail_file);
  } catch (const BackendUnavailable& e) {
    fmt::print(stderr, "funcspec check: {} (nothing was run)\n", e.what());
    return kBackendUnavailableExit;
  } catch (const std::exception& e) {
    fmt::print(stderr, "funcspec check: {}\n", e.what());
    return 2;
  }

  SuiteOptions suite;
  suite.seed = options.seed;
  suite.tier = options.tier;
  suite.case_dirs = options.case_dirs.empty() ? default_case_dirs() : options.case_dirs;
  suite.case_files_only = options.cases_only;
  ConformanceTests selected = select_tests(collect_tests(suite), options.tier, options.filters);
  std::erase_if(selected, [&](const ConformanceTest& test) {
    return std::any_of(options.excludes.begin(), options.excludes.end(),
                       [&](const std::string& pattern) { return glob_match(pattern, test.id); });
  });
  if (worker) {
    try {
      selected = worker_share(std::move(selected), options.worker_shard, options.worker_skip);
    } catch (const std::exception& e) {
      fmt::print(stderr, "funcspec check: {}\n", e.what());
      return 2;
    }
  }

  Report report;
  report.run.backend = {options.backend, backend->capabilities().name, backend->capabilities().version};
  report.run.seed = options.seed;
  report.run.tier = options.tier;
  report.run.filter = fmt::format("{}", fmt::join(options.filters, " "));
  report.run.funcspec_version = std::string(funcspec_version());
  report.run.command_line = options.command_line;
  std::tie(report.run.shard_index, report.run.shard_count) = gtest_shard();
  if (!worker) {
    fmt::print("funcspec check: backend {} ({} {}), tier {}, seed {}, {} test{} selected", options.backend,
               report.run.backend.name, report.run.backend.version, tier_name(options.tier), options.seed,
               selected.size(), selected.size() == 1 ? "" : "s");
    if (report.run.shard_count > 1) fmt::print(", shard {} of {}", report.run.shard_index + 1, report.run.shard_count);
    fmt::print("\n");
    std::fflush(stdout);
  }

  // A parent (not a worker, which its parent stops) writes what it has when interrupted.
  if (!worker) stop_on_interruption();
  RunnerOptions runner;
  runner.should_stop = [] { return interruption_signal() != 0; };
  runner.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_seconds * 1000));
  runner.artifacts_dir = options.artifacts_dir;
  runner.manifest = &manifest;

  // The tests this shard runs: every shard_count-th selected test, from shard_index on.
  const auto shard_total = static_cast<std::size_t>(report.run.shard_count);
  const std::size_t shard_share =
      (selected.size() + shard_total - 1 - static_cast<std::size_t>(report.run.shard_index)) / shard_total;
  if (options.jobs > 1 && !worker) {
    // The workers judge; this process only shows progress and assembles their reports.
    backend.reset();
    ProgressDisplay display(default_progress_style(options.quiet), shard_share);
    report.tests = run_parallel_check(options, program_path, selected, display);
    display.finish();
    for (const ConformanceTest& test : selected) manifest.match(test.id);
  } else {
    ProgressDisplay display(worker ? ProgressStyle::Worker : default_progress_style(options.quiet),
                            worker ? selected.size() : shard_share);
    runner.on_test_end = [&display, &options](const TestRecord& record, std::size_t) {
      if (!options.crash_worker_at.empty() && glob_match(options.crash_worker_at, record.id)) std::abort();
      display.test_done(record);
    };
    report.tests = run_with_gtest(*backend, selected, runner);
    display.finish();
  }
  report.run.xfail_unmatched = manifest.unmatched_patterns();
  const int interrupted_by = interruption_signal();
  if (interrupted_by != 0) {
    report.run.interrupted = signal_name(interrupted_by);
    report.run.xfail_unmatched.clear();  // an entry for a test the run never reached is not stale
  }
  report.run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  try {
    if (worker) return 0;  // its records went to the parent as they were made
    write_outputs(report, options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "funcspec check: writing the report failed: {}\n", e.what());
    return 2;
  }
  print_summary(report);
  if (interrupted_by != 0) {
    fmt::print(stderr,
               "funcspec check: interrupted by {}: {} of the {} selected tests finished, and the reports hold "
               "those (marked interrupted)\n",
               report.run.interrupted, report.tests.size(), shard_share);
    return 128 + interrupted_by;
  }
  for (const TestRecord& record : report.tests) {
    if (is_unexpected(record.status)) return 1;
  }
  return 0;
}

}  // namespace funcspec::tools
