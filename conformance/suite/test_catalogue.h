#pragma once
// All conformance tests of a run (NOTE: [conformance tests]), and the selection a run makes.
#include <string>
#include <vector>

#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {

// The directories of hand-written cases shipped with the suite (conformance/cases).
std::vector<std::filesystem::path> default_case_dirs();

// Every test the generators and case files produce for these options, in a fixed order (case
// files, then generated tests by generator), so that gtest's sharding splits every run the same
// way. Duplicate ids are reported as error tests rather than silently merged.
ConformanceTests collect_tests(const SuiteOptions& options);

// The tests a run executes: those of `tier` or a cheaper one, matching any of `filters` (globs
// over the test id and over each of its clause ids; no filters: all).
ConformanceTests select_tests(ConformanceTests tests, Tier tier, const std::vector<std::string>& filters);

}  // namespace funcspec::conformance
