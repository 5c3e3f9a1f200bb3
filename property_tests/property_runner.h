#pragma once
// Running one property (NOTE: [property tests]) against a backend with RapidCheck, and turning the
// outcome into a conformance TestRecord: pass, fail with a shrunk counterexample written as a case
// file, unsupported (an engine-only law, or a backend that lacks what every program needed), or error
// (the generators gave up, or the property itself broke).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "conformance/backend/backend.h"
#include "conformance/report/test_record.h"
#include "property_tests/property.h"

namespace funcspec::properties {

// How many distinct failures one law reports before it stops drawing: enough to show a backend's
// several bugs, few enough that a backend wrong everywhere ends its run quickly.
inline constexpr std::size_t kMostDistinctFailures = 10;

struct PropertyRunOptions {
  std::uint64_t seed = 20261121;  // the run's seed; each property mixes in its id
  conformance::Tier tier = conformance::Tier::Pr;
  std::optional<int> cases;  // overrides the tier's count
  std::filesystem::path artifacts_dir = "funcspec-artifacts";
  conformance::EvaluateOptions evaluate;
  // How many distinct failures the law seeks before it stops (a test that needs only the first one
  // to be caught and shrunk sets 1).
  std::size_t most_distinct_failures = kMostDistinctFailures;
};

// The most programs a law checks while it shrinks one failure: shrinking a failure through an
// external backend costs a call per candidate, and a counterexample a few steps from minimal
// replays as well as a minimal one.
inline constexpr int kMostShrinkCandidates = 150;
// An in-process backend (the reference, a plug-in, a mutant) answers a candidate in microseconds:
// it shrinks over more, so that its counterexample is the wrong op and what feeds it.
inline constexpr int kMostShrinkCandidatesInProcess = 500;
// A crash, a timeout or a protocol break costs a restart of an external backend per candidate, and
// the program that first showed it already replays it: such a failure shrinks over fewer.
inline constexpr int kMostShrinkCandidatesOfAFault = 20;

// One distinct failure of a law (NOTE: [distinct failures]): its kind ("wrong values", "raises
// internal", ...), the ops of its shrunk program, the law's message on that program, RapidCheck's
// log of it (program and stack), and the replayable case written for it.
struct DistinctFailure {
  std::string kind;
  std::vector<std::string> ops;
  std::string message;
  std::string shrunk;
  std::string replay_case;     // "" when the law states no case (a backend that gave no answer)
  int programs_before = 0;     // programs checked before the one that found it, over the whole run
  int shrink_candidates = 0;   // programs checked while shrinking it
  bool shrinking_cut = false;  // kMostShrinkCandidates ended the shrinking
};

// What a law's exploration found, and the conformance record that reports it.
struct PropertyRun {
  conformance::TestRecord record;
  int programs = 0;     // checked in all, the failing ones included
  int held = 0;         // the law held
  int known = 0;        // violated again in a way a failure already found explains
  int unsupported = 0;  // the backend could not run them
  std::vector<DistinctFailure> failures;
};

// The seed RapidCheck runs `property` with: the run's seed mixed with the property id, so adding a
// property never changes the programs another one draws.
std::uint64_t property_seed(const PropertyDef& property, std::uint64_t run_seed);

conformance::TestRecord run_property(const PropertyDef& property, conformance::Backend& backend,
                                     const PropertyRunOptions& options);
// The kind of a violation, from the law's message: "wrong values", "wrong shape", "raises <kind>",
// "raises <kind> where <kind> is expected", "no answer", ... (NOTE: [distinct failures]).
std::string failure_kind(const PropertyCheck& check);

// The same run with what it found in detail.
PropertyRun explore_property(const PropertyDef& property, conformance::Backend& backend,
                             const PropertyRunOptions& options);

// What the property tests' executables run with: the tier of FUNCSPEC_PROPERTY_TIER (CI's sanitizer
// build sets smoke) else pr, the seed of FUNCSPEC_PROPERTY_SEED else the suite's default, artifacts
// under `artifacts_dir`. A value that does not parse is an error naming the variable, never ignored.
PropertyRunOptions run_options_from_environment(const std::filesystem::path& artifacts_dir);

}  // namespace funcspec::properties
