// Every hand-written case file under conformance/cases: it parses, names only clauses of
// docs/SPEC.md whose Tests: patterns cover its id, and passes on the reference.
#include <gtest/gtest.h>

#include <set>

#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

using spec_testing::case_file_paths;
using spec_testing::cases_dir;

class CaseFile : public ::testing::TestWithParam<std::string> {
 protected:
  Case read() const { return read_case_file(cases_dir() / GetParam()); }
};

TEST_P(CaseFile, NamesOnlyClausesWhosePatternsCoverItsId) {
  const Case c = read();
  EXPECT_EQ(spec_testing::clause_problems(c.id, c.clauses), "");
}

TEST_P(CaseFile, HasADescriptionSayingWhyTheExpectationIsRight) { EXPECT_FALSE(read().description.empty()); }

TEST_P(CaseFile, PassesOnTheReference) {
  const Case c = read();
  const Evaluation ev = evaluate_on_reference(c);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << c.id << ": " << ev.reason << ev.result.error_message;
}

INSTANTIATE_TEST_SUITE_P(Cases, CaseFile, ::testing::ValuesIn(case_file_paths()),
                         [](const auto& param_info) { return spec_testing::parameter_name(param_info.param); });

TEST(CaseFiles, ThereAreAtLeastSixty) { EXPECT_GE(case_file_paths().size(), 60u); }

TEST(CaseFiles, IdsAreUnique) {
  std::set<std::string> ids;
  for (const std::string& path : case_file_paths())
    EXPECT_TRUE(ids.insert(read_case_file(cases_dir() / path).id).second) << path;
}

}  // namespace
}  // namespace funcspec::conformance
