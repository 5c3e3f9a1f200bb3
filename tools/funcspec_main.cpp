// The funcspec command line. With no subcommand it runs the main job: `funcspec check` of the
// reference backend at the pr tier.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <set>
#include <string_view>
#include <vector>

#include "conformance/report/report_merge.h"
#include "conformance/suite/conformance_runner.h"
#include "reference/core/error.h"
#include "tools/catalogue_report.h"
#include "tools/check_command.h"
#include "tools/fixtures_command.h"
#include "tools/replay_command.h"
#include "tools/smoke_evaluation.h"

namespace {

// The check arguments a --jobs worker repeats: all but --jobs and the report files, which only
// the parent writes.
std::vector<std::string> worker_arguments(const std::vector<std::string>& check_arguments) {
  const std::set<std::string> parent_only = {"--jobs",         "-j",           "--json", "--junit", "--markdown",
                                             "--worker-shard", "--worker-skip"};
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < check_arguments.size(); ++i) {
    const std::string& arg = check_arguments[i];
    const std::string name = arg.substr(0, arg.find('='));
    if (parent_only.count(name) != 0) {
      if (name == arg) ++i;  // the value is the next argument
      continue;
    }
    kept.push_back(arg);
  }
  kept.push_back("--jobs=1");
  return kept;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace funcspec;
  // gtest runs the conformance tests: it takes its own --gtest_* flags out of argv first. It is
  // given only those, since it would answer --help (and -h, -?) with its own flags' help.
  std::vector<char*> gtest_argv{argv[0]};
  std::vector<char*> kept_argv{argv[0]};
  for (int i = 1; i < argc; ++i) {
    (std::string_view(argv[i]).starts_with("--gtest_") ? gtest_argv : kept_argv).push_back(argv[i]);
  }
  int gtest_argc = static_cast<int>(gtest_argv.size());
  testing::InitGoogleTest(&gtest_argc, gtest_argv.data());
  for (int i = 1; i < gtest_argc; ++i) kept_argv.push_back(gtest_argv[static_cast<std::size_t>(i)]);  // not gtest's
  argc = static_cast<int>(kept_argv.size());
  kept_argv.push_back(nullptr);
  argv = kept_argv.data();

  CLI::App app{"funcspec: the executable specification of composable function transforms"};
  app.require_subcommand(0, 1);

  tools::CheckOptions check_options;
  std::string tier = "pr";
  auto* check = app.add_subcommand("check", "Run the conformance tests against a backend (the default)");
  check->add_option("--backend", check_options.backend, "reference | plugin:PATH | exec:COMMAND")
      ->capture_default_str();
  check->add_option("--tier", tier, "smoke | pr | nightly | exhaustive")
      ->check(CLI::IsMember({"smoke", "pr", "nightly", "exhaustive"}))
      ->capture_default_str();
  check->add_option("--filter", check_options.filters,
                    "Only tests whose id or a clause id matches this glob (repeatable)");
  check->add_option("--exclude", check_options.excludes,
                    "Leave out tests whose id matches this glob (repeatable; applied after --filter)");
  check->add_option("--xfail", check_options.xfail_file, "Expected-failure manifest (docs/report-format.md)");
  check->add_option("--seed", check_options.seed, "Seed of sample values and random draws")->capture_default_str();
  check->add_option("--timeout", check_options.timeout_seconds, "Seconds one case may take")->capture_default_str();
  check->add_option("-j,--jobs", check_options.jobs, "Worker processes (each a gtest shard)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  check->add_option("--json", check_options.json_file, "Write the JSON report here");
  check->add_option("--junit", check_options.junit_file, "Write a JUnit XML report here");
  check->add_option("--markdown", check_options.markdown_file, "Write the clause-by-clause Markdown matrix here");
  check->add_option("--artifacts", check_options.artifacts_dir, "Where replay case files of failures go")
      ->capture_default_str();
  check->add_option("--cases", check_options.case_dirs, "Directories of case files (default: the suite's own)");
  check->add_flag("--cases-only", check_options.cases_only,
                  "Run the case files alone, not the generated tests and property laws (golden fixtures)");
  check->add_flag("-q,--quiet", check_options.quiet, "Print failures and the summary only");
  check->add_option("--worker-shard", check_options.worker_shard)->group("");        // internal to --jobs
  check->add_option("--worker-skip", check_options.worker_skip)->group("");          // internal to --jobs
  check->add_option("--crash-worker-at", check_options.crash_worker_at)->group("");  // the suite's own tests

  std::string replay_file;
  std::string replay_backend = "reference";
  double replay_timeout = 30;
  auto* replay = app.add_subcommand("replay", "Judge one case file on a backend, printing all the judge saw");
  replay->add_option("FILE", replay_file, "The case file")->required();
  replay->add_option("--backend", replay_backend, "reference | plugin:PATH | exec:COMMAND")->capture_default_str();
  replay->add_option("--timeout", replay_timeout, "Seconds the case may take")->capture_default_str();

  auto* report = app.add_subcommand("report", "Work with JSON reports");
  report->require_subcommand(1);
  std::string merged_file;
  std::vector<std::string> shard_files;
  auto* merge = report->add_subcommand("merge", "Merge per-shard JSON reports into one");
  merge->add_option("OUT", merged_file, "The merged report")->required();
  merge->add_option("IN", shard_files, "The shards' reports")->required();

  std::string format = "text";
  std::string family;
  auto* ops = app.add_subcommand("ops", "Print the op catalogue");
  ops->add_option("--format", format, "text or markdown")->check(CLI::IsMember({"text", "markdown"}));
  ops->add_option("--family", family, "Only this op family");

  std::uint64_t smoke_seed = 20261121;
  bool verbose = false;
  auto* smoke = app.add_subcommand("smoke", "Check every op's samples: meta agreement, float64/float32 vs the oracle");
  smoke->add_option("--seed", smoke_seed, "Seed of the sample values and of random ops");
  smoke->add_flag("-v,--verbose", verbose, "Print passing checks with their largest error");

  tools::FixturesOptions fixtures_options;
  std::string fixtures_tier = "pr";
  auto* fixtures = app.add_subcommand("fixtures", "Golden fixtures (docs/fixtures.md): regenerate or verify them");
  fixtures->require_subcommand(1);
  auto* fixtures_regen =
      fixtures->add_subcommand("regen", "Rewrite the golden fixtures from the suite and the reference");
  auto* fixtures_verify =
      fixtures->add_subcommand("verify", "Check that the golden fixtures are what regen writes (exit 1 if not)");
  for (CLI::App* command : {fixtures_regen, fixtures_verify})
    command->add_option("--dir", fixtures_options.dir, "The fixture directory")->capture_default_str();
  fixtures_regen->add_option("--seed", fixtures_options.seed, "Seed of the generated tests")->capture_default_str();
  fixtures_regen->add_option("--tier", fixtures_tier, "The tier tests are selected from")
      ->check(CLI::IsMember({"smoke", "pr", "nightly", "exhaustive"}))
      ->capture_default_str();

  // A later occurrence overrides an earlier one, so a wrapper script's defaults can be overridden.
  for (CLI::App* command : {check, replay}) {
    for (CLI::Option* option : command->get_options()) {
      if (option->get_expected_max() == 1) option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }

  CLI11_PARSE(app, argc, argv);
  try {
    if (*ops) {
      const auto report_format = format == "markdown" ? tools::ReportFormat::Markdown : tools::ReportFormat::Text;
      tools::print_catalogue(std::cout, report_format, family);
      return 0;
    }
    if (*smoke) return tools::run_smoke_evaluation(std::cout, smoke_seed, verbose) == 0 ? 0 : 1;
    if (*fixtures_regen) {
      fixtures_options.tier = *conformance::parse_tier(fixtures_tier);
      return tools::run_fixtures_regen(fixtures_options, std::cout, std::cerr);
    }
    if (*fixtures_verify) return tools::run_fixtures_verify(fixtures_options, std::cout, std::cerr);
    if (*replay) return tools::run_replay(replay_file, replay_backend, replay_timeout);
    if (*merge) {
      std::vector<std::filesystem::path> inputs(shard_files.begin(), shard_files.end());
      for (const std::string& warning : conformance::merge_report_files(merged_file, inputs))
        fmt::print(stderr, "warning: {}\n", warning);
      fmt::print("merged {} reports into {}\n", inputs.size(), merged_file);
      return 0;
    }
    check_options.tier = *conformance::parse_tier(tier);
    std::vector<std::string> raw_arguments;
    for (int i = 1; i < argc; ++i) raw_arguments.emplace_back(argv[i]);
    if (!raw_arguments.empty() && raw_arguments.front() == "check") raw_arguments.erase(raw_arguments.begin());
    check_options.worker_arguments = worker_arguments(raw_arguments);
    check_options.command_line = "funcspec check";
    for (const std::string& argument : raw_arguments)
      check_options.command_line += " " + conformance::shell_quote(argument);
    return tools::run_check(check_options, std::filesystem::read_symlink("/proc/self/exe").string());
  } catch (const Error& e) {
    fmt::print(stderr, "funcspec: error [{}]: {}\n", error_kind_name(e.kind()), e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "funcspec: {}\n", e.what());
    return 2;
  }
}
