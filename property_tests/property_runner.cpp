#include "property_tests/property_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "conformance/case/case_json.h"
#include "conformance/suite/op_sample_cases.h"

namespace funcspec::properties {

using conformance::TestRecord;
using conformance::TestStatus;

int cases_at(const PropertyDef& property, conformance::Tier tier) {
  switch (tier) {
    case conformance::Tier::Smoke: return std::max(3, property.pr_cases / 10);
    case conformance::Tier::Pr: return property.pr_cases;
    case conformance::Tier::Nightly: return property.pr_cases * 10;
    case conformance::Tier::Exhaustive: return property.pr_cases * 50;
  }
  return property.pr_cases;
}

std::uint64_t property_seed(const PropertyDef& property, std::uint64_t run_seed) {
  // FNV-1a of the id: the same on every platform, unlike std::hash.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : property.id) h = (h ^ ch) * 0x100000001b3ULL;
  return run_seed ^ h;
}

namespace {

// RapidCheck prints "Using configuration: seed=N" when it first loads its configuration. The runner
// never uses that global seed (each property is checked with the run's seed mixed with its id,
// printed in the report), so the line would only mislead a reader trying to reproduce a run.
void load_rapidcheck_configuration_quietly() {
  static const bool loaded = [] {
    std::streambuf* const original = std::cerr.rdbuf(nullptr);
    try {
      rc::detail::configuration();
    } catch (...) {
      std::cerr.rdbuf(original);
      throw;
    }
    std::cerr.rdbuf(original);
    return true;
  }();
  (void)loaded;
}

}  // namespace

// NOTE: [distinct failures]
// One violation must not end a law's exploration: against a real backend the first failure is
// often one explained elsewhere (a known bug of one op), and the programs the law would have drawn
// next go unchecked. So a law draws in rounds. Each round is one RapidCheck run with its own seed
// over the programs still to check; when it finds a violation, RapidCheck shrinks it, and the
// shrunk program's ops and the failure's kind (failure_kind) make a distinct failure, written as
// its own replayable case. Later rounds count a violation of the same kind on a program that calls
// every op of a distinct failure as *known* and draw on; while a round shrinks, a candidate that
// fails in another kind, or in a known way, is not taken, so shrinking stays on the failure it
// started from. A run ends when it has checked the tier's number of programs, found
// kMostDistinctFailures, or run as many rounds again as that bound allows (a failure whose
// shrunk form does not cover its own programs would otherwise be found again and again).

namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// The word after `marker` in `text` (an error kind's name), or "".
std::string word_after(std::string_view text, std::string_view marker) {
  const std::size_t at = text.find(marker);
  if (at == std::string_view::npos) return "";
  std::size_t begin = at + marker.size();
  std::size_t end = begin;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) ++end;
  return std::string(text.substr(begin, end - begin));
}

}  // namespace

std::string failure_kind(const PropertyCheck& check) {
  const std::string& m = check.message;
  if (contains(m, "checking the law raised")) return "the law's check raised";
  if (contains(m, "gave no answer") || contains(m, "got no answer")) return "no answer";
  // A fault judged as the law's case's answer (conformance/case/judge.cpp names it first).
  for (std::string_view fault : {"crash", "timeout", "protocol error"}) {
    if (contains(m, fmt::format(": {}: ", fault))) return std::string(fault);
  }
  if (contains(m, "but the program returned its results"))
    return "returns values where " + word_after(m, "expected the error ") + " is expected";
  if (contains(m, "expected the error "))
    return "raises " + word_after(m, "but got ") + " where " + word_after(m, "expected the error ") + " is expected";
  if (contains(m, "where values were expected")) return "raises " + word_after(m, "the program raised ");
  if (contains(m, "the backend raised ")) return "raises " + word_after(m, "the backend raised ");
  if (contains(m, "but the backend raises ")) return "raises " + word_after(m, "but the backend raises ");
  if (contains(m, "but the backend fails")) return "no answer";
  if (contains(m, "' has dtype ")) return "wrong dtype";
  if (contains(m, "' has shape ")) return "wrong shape";
  if (contains(m, "' is missing")) return "missing result";
  if (check.counterexample && check.counterexample->expect.error)
    return fmt::format("does not raise {}", error_kind_name(*check.counterexample->expect.error));
  return "wrong values";
}

namespace {

int shrink_budget(const std::string& kind, const conformance::Backend& backend) {
  const bool fault = kind == "crash" || kind == "timeout" || kind == "protocol error" || kind == "no answer";
  if (fault) return kMostShrinkCandidatesOfAFault;
  return backend.spec().starts_with("exec:") ? kMostShrinkCandidates : kMostShrinkCandidatesInProcess;
}

bool covers(const std::vector<std::string>& ops, const std::vector<std::string>& of_failure) {
  return std::includes(ops.begin(), ops.end(), of_failure.begin(), of_failure.end());
}

std::string describe_failure(const DistinctFailure& f) {
  return fmt::format("{} in {}", f.kind,
                     f.ops.empty() ? std::string("a program") : fmt::format("{}", fmt::join(f.ops, ", ")));
}

// Writes a distinct failure's case under the artifacts dir: the first as <id>/counterexample (the
// name replay has always used), the k-th as <id>/counterexample-k.
std::string write_counterexample(const PropertyDef& property, const PropertyRunOptions& options, conformance::Case c,
                                 std::size_t number, std::string& problem) {
  c.id = number == 1 ? property.id + "/counterexample" : fmt::format("{}/counterexample-{}", property.id, number);
  c.clauses = property.clauses;
  if (c.description.empty()) c.description = property.law;
  const std::filesystem::path file = options.artifacts_dir / (conformance::id_slug(c.id) + ".json");
  try {
    std::filesystem::create_directories(options.artifacts_dir);
    conformance::write_case_file(c, file);
    return file.string();
  } catch (const std::exception& e) {
    problem = fmt::format("(the counterexample case could not be written to {}: {})", file.string(), e.what());
    return "";
  }
}

}  // namespace

PropertyRun explore_property(const PropertyDef& property, conformance::Backend& backend,
                             const PropertyRunOptions& options) {
  PropertyRun run;
  TestRecord& record = run.record;
  record.id = property.id;
  record.clauses = property.clauses;
  const bool is_reference = backend.spec() == "reference";
  if (!property.engine_only.empty() && !is_reference) {
    record.status = TestStatus::Unsupported;
    record.reason = fmt::format("only the in-process reference engine can take part: {}", property.engine_only);
    return run;
  }

  const std::uint64_t seed = property_seed(property, options.seed);
  const int cases = options.cases.value_or(cases_at(property, options.tier));
  std::string first_unsupported;
  double max_error = 0;
  std::vector<std::string> write_problems;

  // One round's state: the kind of the violation it is shrinking ("" before the first) and the
  // last violation taken (RapidCheck's last failing call is its shrunk counterexample).
  std::string shrinking_kind;
  std::optional<PropertyCheck> last_violation;
  std::vector<std::string> last_violation_ops;
  int shrink_candidates = 0;

  auto testable = [&] {
    // Past the shrinking budget a candidate is not checked: RapidCheck keeps the smallest failure
    // found so far.
    if (!shrinking_kind.empty() && ++shrink_candidates > shrink_budget(shrinking_kind, backend)) return;
    PropertyContext context{backend, options.evaluate, is_reference};
    clear_drawn_ops();
    PropertyCheck check;
    try {
      check = property.check(context);
    } catch (const rc::GenerationFailure&) {
      throw;
    } catch (const std::exception& e) {
      check = PropertyCheck::violated(fmt::format("checking the law raised: {}", e.what()), std::nullopt);
    }
    const bool shrinking = !shrinking_kind.empty();
    switch (check.outcome) {
      case PropertyCheck::Outcome::Holds:
        if (shrinking) return;
        ++run.held;
        max_error = std::max(max_error, check.max_abs_error);
        return;
      case PropertyCheck::Outcome::Unsupported:
        if (shrinking) return;
        if (run.unsupported++ == 0) first_unsupported = check.message;
        return;
      case PropertyCheck::Outcome::Violated: break;
    }
    const std::string kind = failure_kind(check);
    const std::vector<std::string>& ops = drawn_ops();
    const bool known = std::any_of(run.failures.begin(), run.failures.end(),
                                   [&](const DistinctFailure& f) { return f.kind == kind && covers(ops, f.ops); });
    if (known) {
      if (!shrinking) ++run.known;
      return;
    }
    if (shrinking && kind != shrinking_kind) return;
    shrinking_kind = kind;
    last_violation = check;
    last_violation_ops = ops;
    RC_FAIL(check.message);
  };

  load_rapidcheck_configuration_quietly();
  const std::string run_line = fmt::format("seed {} (run seed {} mixed with the id), tier {}", seed, options.seed,
                                           conformance::tier_name(options.tier));
  std::optional<std::string> gave_up;
  const std::size_t most_rounds = 2 * options.most_distinct_failures + 1;
  for (std::size_t round = 0; round < most_rounds && run.programs < cases; ++round) {
    if (run.failures.size() >= options.most_distinct_failures) break;
    shrinking_kind.clear();
    last_violation.reset();
    shrink_candidates = 0;
    rc::detail::TestParams params;
    // Round 0 draws what a run before distinct failures drew; later rounds their own programs.
    params.seed = seed + round * 0x9e3779b97f4a7c15ULL;
    params.maxSuccess = cases - run.programs;
    params.maxSize = 100;
    params.maxDiscardRatio = 20;
    rc::detail::TestMetadata metadata{property.id, property.law};
    rc::detail::TestListenerAdapter quiet;
    const rc::detail::TestResult result =
        rc::detail::checkProperty(rc::detail::toProperty(testable), metadata, params, quiet);
    if (result.template is<rc::detail::SuccessResult>()) {
      run.programs += result.template get<rc::detail::SuccessResult>().numSuccess;
      break;
    }
    if (result.template is<rc::detail::FailureResult>()) {
      const auto& failure = result.template get<rc::detail::FailureResult>();
      DistinctFailure found;
      found.programs_before = run.programs + failure.numSuccess;
      run.programs += failure.numSuccess + 1;
      found.kind = shrinking_kind.empty() ? "wrong values" : shrinking_kind;
      found.ops = last_violation_ops;
      found.shrink_candidates = std::min(shrink_candidates, shrink_budget(found.kind, backend));
      found.shrinking_cut = shrink_candidates > shrink_budget(found.kind, backend);
      // RapidCheck's description repeats the failing macro; what matters is the law's message and
      // the log of the shrunk program and stack (RC_LOG).
      found.message = last_violation ? last_violation->message : failure.description;
      const std::size_t log_at = failure.description.find("Log:\n");
      found.shrunk = log_at == std::string::npos ? std::string() : failure.description.substr(log_at + 5);
      const bool repeat = std::any_of(run.failures.begin(), run.failures.end(), [&](const DistinctFailure& f) {
        return f.kind == found.kind && f.ops == found.ops;
      });
      if (repeat) {
        ++run.known;
        continue;
      }
      if (last_violation && last_violation->counterexample) {
        std::string problem;
        found.replay_case =
            write_counterexample(property, options, *last_violation->counterexample, run.failures.size() + 1, problem);
        if (!problem.empty()) write_problems.push_back(problem);
      }
      run.failures.push_back(std::move(found));
      continue;
    }
    if (result.template is<rc::detail::GaveUpResult>()) {
      const auto& gave_up_result = result.template get<rc::detail::GaveUpResult>();
      run.programs += gave_up_result.numSuccess;
      gave_up = fmt::format("the generators gave up after {} programs: {}", run.programs, gave_up_result.description);
    } else {
      gave_up = fmt::format("RapidCheck could not run the property: {}",
                            result.template get<rc::detail::Error>().description);
    }
    break;
  }

  const std::string counts = fmt::format("{} programs, {} held, {} failed as an earlier failure did, {} unsupported",
                                         run.programs, run.held, run.known, run.unsupported);
  if (!run.failures.empty()) {
    record.status = TestStatus::Fail;
    // The first failure keeps the form a report has always had ("violated after N passing programs:
    // message", then its shrunk counterexample); the others follow, each with its case.
    const DistinctFailure& first = run.failures.front();
    record.reason = fmt::format("{}: violated after {} passing programs: {}\nshrunk counterexample:\n{}", property.law,
                                first.programs_before, first.message, first.shrunk);
    record.reason += fmt::format("\n{} distinct failure{} in {} (at most {} are sought):", run.failures.size(),
                                 run.failures.size() == 1 ? "" : "s", counts, options.most_distinct_failures);
    for (std::size_t k = 0; k < run.failures.size(); ++k) {
      const DistinctFailure& f = run.failures[k];
      record.reason += fmt::format("\n[{}] {} (shrunk over {} programs{}): {}{}", k + 1, describe_failure(f),
                                   f.shrink_candidates, f.shrinking_cut ? ", where the shrinking budget ended it" : "",
                                   f.message, f.replay_case.empty() ? "" : "\n    replay: " + f.replay_case);
      if (k > 0) record.reason += "\n    shrunk counterexample:\n" + f.shrunk;
    }
    for (const std::string& problem : write_problems) record.reason += "\n" + problem;
    record.replay_case = first.replay_case;
    record.note = fmt::format("{}; {} distinct failures; {}", counts, run.failures.size(), run_line);
    return run;
  }
  if (gave_up) {
    record.status = TestStatus::Error;
    record.reason = *gave_up;
    record.note = run_line;
    return run;
  }
  if (run.held == 0 && run.unsupported > 0) {
    record.status = TestStatus::Unsupported;
    record.reason = fmt::format("no generated program could run: {}", first_unsupported);
  } else {
    record.status = TestStatus::Pass;
  }
  record.note = fmt::format("{}; {}", counts, run_line);
  if (max_error > 0) record.max_abs_error = max_error;
  return run;
}

TestRecord run_property(const PropertyDef& property, conformance::Backend& backend, const PropertyRunOptions& options) {
  return explore_property(property, backend, options).record;
}

PropertyRunOptions run_options_from_environment(const std::filesystem::path& artifacts_dir) {
  PropertyRunOptions options;
  if (const char* tier = std::getenv("FUNCSPEC_PROPERTY_TIER")) {
    const std::optional<conformance::Tier> parsed = conformance::parse_tier(tier);
    if (!parsed)
      throw std::invalid_argument(
          fmt::format("FUNCSPEC_PROPERTY_TIER='{}' is not a tier (smoke, pr, nightly, exhaustive)", tier));
    options.tier = *parsed;
  }
  if (const char* seed = std::getenv("FUNCSPEC_PROPERTY_SEED")) {
    const std::string text = seed;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty())
      throw std::invalid_argument(fmt::format("FUNCSPEC_PROPERTY_SEED='{}' is not an unsigned 64-bit integer", text));
    options.seed = value;
  }
  options.artifacts_dir = artifacts_dir;
  return options;
}

}  // namespace funcspec::properties
