// The hand-written case files under conformance/cases: they parse, say why their expectation is
// right, and have distinct ids.
#include <gtest/gtest.h>

#include <set>

#include "conformance/case/case_json.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

using spec_testing::case_file_paths;
using spec_testing::cases_dir;

// Whether each case passes on the reference and names clauses covering its id is checked over the
// whole registry: by `funcspec check` in ctest (conformance.reference.*) and by
// clause_coverage_test.cpp. Here: what only a hand-written file can get wrong.
TEST(CaseFiles, EachHasADescriptionSayingWhyTheExpectationIsRight) {
  for (const std::string& path : case_file_paths())
    EXPECT_FALSE(read_case_file(cases_dir() / path).description.empty()) << path;
}

TEST(CaseFiles, ThereAreAtLeastSixty) { EXPECT_GE(case_file_paths().size(), 60u); }

TEST(CaseFiles, IdsAreUnique) {
  std::set<std::string> ids;
  for (const std::string& path : case_file_paths())
    EXPECT_TRUE(ids.insert(read_case_file(cases_dir() / path).id).second) << path;
}

}  // namespace
}  // namespace funcspec::conformance
