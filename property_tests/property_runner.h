#pragma once
// Running one property (NOTE: [property tests]) against a backend with RapidCheck, and turning the
// outcome into a conformance TestRecord: pass, fail with a shrunk counterexample written as a case
// file, unsupported (an engine-only law, or a backend that lacks what every program needed), or error
// (the generators gave up, or the property itself broke).
#include <cstdint>
#include <filesystem>
#include <optional>

#include "conformance/backend/backend.h"
#include "conformance/report/test_record.h"
#include "property_tests/property.h"

namespace funcspec::properties {

struct PropertyRunOptions {
  std::uint64_t seed = 20261121;  // the run's seed; each property mixes in its id
  conformance::Tier tier = conformance::Tier::Pr;
  std::optional<int> cases;  // overrides the tier's count
  std::filesystem::path artifacts_dir = "funcspec-artifacts";
  conformance::EvaluateOptions evaluate;
};

// The seed RapidCheck runs `property` with: the run's seed mixed with the property id, so adding a
// property never changes the programs another one draws.
std::uint64_t property_seed(const PropertyDef& property, std::uint64_t run_seed);

conformance::TestRecord run_property(const PropertyDef& property, conformance::Backend& backend,
                                     const PropertyRunOptions& options);

// What the property tests' executables run with: the tier of FUNCSPEC_PROPERTY_TIER (CI's sanitizer
// build sets smoke) else pr, the seed of FUNCSPEC_PROPERTY_SEED else the suite's default, artifacts
// under `artifacts_dir`. A value that does not parse is an error naming the variable, never ignored.
PropertyRunOptions run_options_from_environment(const std::filesystem::path& artifacts_dir);

}  // namespace funcspec::properties
