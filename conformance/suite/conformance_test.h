#pragma once
// NOTE: [conformance tests]
// A conformance test is one case (docs/case-format.md) with a stable id, the spec clauses it checks
// and the cheapest tier that runs it. Tests come from two sources: hand-written case files under
// conformance/cases/, and generators written in C++ (op values from the sample database, the type
// promotion table, ...). Either way the test is judged only through the Backend interface, so it
// runs unchanged against the reference, a plug-in or an external process.
//
// Building the case is deferred (`build`): computing an expectation can cost an oracle evaluation,
// and a run that filters down to ten tests must not pay for ten thousand.
//
// A property test (property_tests/, NOTE: [property tests]) is not one case but a law checked on many
// generated programs; it sets `run` instead of `build` and judges the backend itself, writing the
// shrunk counterexample as a replayable case when the law fails.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "conformance/case/case.h"
#include "conformance/report/test_record.h"

namespace funcspec::conformance {

class Backend;
struct EvaluateOptions;

struct ConformanceTest {
  std::string id;                    // stable; the case's id
  std::vector<std::string> clauses;  // docs/SPEC.md clause ids, at least one
  Tier tier = Tier::Pr;              // the cheapest tier that runs it
  std::string origin;                // where it comes from: a case file's path, or the generator's name
  std::function<Case()> build;       // the case with its expectation; may throw (the test is then an error)
  // Property tests only (then `build` is empty): checks the law against `backend`, writing any
  // counterexample's case file under `artifacts_dir`. Fills everything of the record but id, clauses
  // and seconds.
  std::function<TestRecord(Backend& backend, const EvaluateOptions& options,
                           const std::filesystem::path& artifacts_dir)>
      run = {};
};

struct SuiteOptions {
  std::uint64_t seed = 20261121;  // sample values and random draws of generated tests
  Tier tier = Tier::Pr;           // generators may produce more tests at higher tiers
  std::vector<std::filesystem::path> case_dirs;
  // Only the tests of the case files, as when judging a directory of golden fixtures, whose ids
  // are the generated tests' own.
  bool case_files_only = false;
};

using ConformanceTests = std::vector<ConformanceTest>;

// The generators, one per file of conformance/suite/.
void add_case_file_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_op_value_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_op_meta_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_promotion_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_vmap_oracle_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_vmap_random_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_ad_check_tests(const SuiteOptions& options, ConformanceTests& tests);
void add_ad_composition_tests(const SuiteOptions& options, ConformanceTests& tests);
// The property tests, defined in property_tests/ (NOTE: [property tests]).
void add_property_tests(const SuiteOptions& options, ConformanceTests& tests);

}  // namespace funcspec::conformance
