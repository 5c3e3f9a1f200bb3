#include "tools/fixtures_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>

#include "conformance/fixtures/fixture_directory.h"
#include "conformance/suite/test_catalogue.h"

namespace funcspec::tools {

using namespace conformance;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string coverage_line(const GenerationSummary& summary) {
  const std::vector<SpecClause>& spec = embedded_spec();
  std::size_t covered = 0;
  for (const auto& [clause, count] : fixtures_per_clause(summary.index, spec)) covered += count > 0 ? 1 : 0;
  const auto from_oracle = summary.by_fallback.find(Fallback::None);
  const std::size_t oracle = from_oracle == summary.by_fallback.end() ? 0 : from_oracle->second;
  return fmt::format(
      "{} fixtures: {} with values from the oracle dtype, {} from the reference's own result; {} of {} clauses "
      "covered, {} checked only by property laws",
      summary.index.fixtures.size(), oracle, summary.index.fixtures.size() - oracle, covered, spec.size(),
      summary.index.property_only.size());
}

// The command that brings `dir` up to date.
std::string regen_command(const std::filesystem::path& dir) {
  const FixturesOptions defaults;
  return dir == defaults.dir ? "funcspec fixtures regen"
                             : fmt::format("funcspec fixtures regen --dir {}", dir.string());
}

void print_paths(std::ostream& err, const char* what, const std::vector<std::string>& paths, std::size_t& budget) {
  for (const std::string& path : paths) {
    if (budget == 0) return;
    --budget;
    fmt::print(err, "  {} {}\n", what, path);
  }
}

}  // namespace

int run_fixtures_regen(const FixturesOptions& options, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  try {
    FixtureOptions fixture_options;
    fixture_options.seed = options.seed;
    fixture_options.tier = options.tier;
    fixture_options.case_dirs = default_case_dirs();
    const GenerationSummary summary = regenerate_fixture_directory(options.dir, fixture_options);
    fmt::print(out, "funcspec fixtures regen: wrote {} in {:.1f} s\n{}\n", options.dir.string(), seconds_since(start),
               coverage_line(summary));
    return 0;
  } catch (const std::exception& e) {
    fmt::print(err, "funcspec fixtures regen: {}\n", e.what());
    return 2;
  }
}

int run_fixtures_verify(const FixturesOptions& options, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  Verification verification;
  try {
    verification = verify_fixture_directory(options.dir, default_case_dirs());
  } catch (const std::exception& e) {
    fmt::print(err, "funcspec fixtures verify: {}\n", e.what());
    return 2;
  }
  const TreeDifference& difference = verification.difference;
  if (difference.empty()) {
    fmt::print(out, "funcspec fixtures verify: {} is current ({:.1f} s)\n{}\n", options.dir.string(),
               seconds_since(start), coverage_line(verification.summary));
    return 0;
  }
  fmt::print(err, "funcspec fixtures verify: {} is out of date: {} {} from what regeneration writes\n",
             options.dir.string(), difference.size(), difference.size() == 1 ? "file differs" : "files differ");
  constexpr std::size_t kShown = 10;
  std::size_t budget = kShown;
  print_paths(err, "differs:", difference.differing, budget);
  print_paths(err, "missing:", difference.missing, budget);
  print_paths(err, "extra:  ", difference.extra, budget);
  if (difference.size() > kShown) fmt::print(err, "  and {} more\n", difference.size() - kShown);
  fmt::print(err, "run `{}` and commit the result (docs/fixtures.md)\n", regen_command(options.dir));
  return 1;
}

}  // namespace funcspec::tools
