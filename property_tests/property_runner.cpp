#include "property_tests/property_runner.h"

#include <fmt/format.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
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

TestRecord run_property(const PropertyDef& property, conformance::Backend& backend, const PropertyRunOptions& options) {
  TestRecord record;
  record.id = property.id;
  record.clauses = property.clauses;
  const bool is_reference = backend.spec() == "reference";
  if (!property.engine_only.empty() && !is_reference) {
    record.status = TestStatus::Unsupported;
    record.reason = fmt::format("only the in-process reference engine can take part: {}", property.engine_only);
    return record;
  }

  const std::uint64_t seed = property_seed(property, options.seed);
  const int cases = options.cases.value_or(cases_at(property, options.tier));
  int held = 0;
  int unsupported = 0;
  std::string first_unsupported;
  double max_error = 0;
  std::optional<PropertyCheck> last_violation;  // the last one seen is the shrunk one

  auto testable = [&] {
    PropertyContext context{backend, options.evaluate, is_reference};
    PropertyCheck check;
    try {
      check = property.check(context);
    } catch (const rc::GenerationFailure&) {
      throw;
    } catch (const std::exception& e) {
      check = PropertyCheck::violated(fmt::format("checking the law raised: {}", e.what()), std::nullopt);
    }
    switch (check.outcome) {
      case PropertyCheck::Outcome::Holds:
        ++held;
        max_error = std::max(max_error, check.max_abs_error);
        return;
      case PropertyCheck::Outcome::Unsupported:
        if (unsupported++ == 0) first_unsupported = check.message;
        return;
      case PropertyCheck::Outcome::Violated: last_violation = check; RC_FAIL(check.message);
    }
  };

  load_rapidcheck_configuration_quietly();
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = cases;
  params.maxSize = 100;
  params.maxDiscardRatio = 20;
  rc::detail::TestMetadata metadata{property.id, property.law};
  rc::detail::TestListenerAdapter quiet;
  const rc::detail::TestResult result =
      rc::detail::checkProperty(rc::detail::toProperty(testable), metadata, params, quiet);

  const std::string run_line = fmt::format("seed {} (run seed {} mixed with the id), tier {}", seed, options.seed,
                                           conformance::tier_name(options.tier));
  if (result.template is<rc::detail::SuccessResult>()) {
    const int passed = result.template get<rc::detail::SuccessResult>().numSuccess;
    if (held == 0 && unsupported > 0) {
      record.status = TestStatus::Unsupported;
      record.reason = fmt::format("no generated program could run: {}", first_unsupported);
    } else {
      record.status = TestStatus::Pass;
    }
    record.note = fmt::format("{} programs, {} held, {} unsupported; {}", passed, held, unsupported, run_line);
    if (max_error > 0) record.max_abs_error = max_error;
    return record;
  }
  if (result.template is<rc::detail::FailureResult>()) {
    const auto& failure = result.template get<rc::detail::FailureResult>();
    record.status = TestStatus::Fail;
    // RapidCheck's description repeats the failing macro; what matters is the law's message and
    // the log of the shrunk program and stack (RC_LOG).
    const std::string message = last_violation ? last_violation->message : failure.description;
    const std::size_t log_at = failure.description.find("Log:\n");
    const std::string shrunk = log_at == std::string::npos ? std::string() : failure.description.substr(log_at + 5);
    record.reason = fmt::format("{}: violated after {} passing programs: {}\nshrunk counterexample:\n{}", property.law,
                                failure.numSuccess, message, shrunk);
    record.note = run_line;
    if (last_violation && last_violation->counterexample) {
      conformance::Case c = *last_violation->counterexample;
      c.id = property.id + "/counterexample";
      c.clauses = property.clauses;
      if (c.description.empty()) c.description = property.law;
      const std::filesystem::path file = options.artifacts_dir / (conformance::id_slug(c.id) + ".json");
      try {
        std::filesystem::create_directories(options.artifacts_dir);
        conformance::write_case_file(c, file);
        record.replay_case = file.string();
      } catch (const std::exception& e) {
        record.reason +=
            fmt::format("\n(the counterexample case could not be written to {}: {})", file.string(), e.what());
      }
    }
    return record;
  }
  record.status = TestStatus::Error;
  record.note = run_line;
  if (result.template is<rc::detail::GaveUpResult>()) {
    const auto& gave_up = result.template get<rc::detail::GaveUpResult>();
    record.reason =
        fmt::format("the generators gave up after {} programs: {}", gave_up.numSuccess, gave_up.description);
  } else {
    record.reason =
        fmt::format("RapidCheck could not run the property: {}", result.template get<rc::detail::Error>().description);
  }
  return record;
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
