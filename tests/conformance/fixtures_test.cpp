// The hand-written example cases in fixtures/cases: each parses, survives a write/read round trip,
// and passes on the reference (or is unsupported, for a case with transforms the reference lacks).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "tests/conformance/case_test_support.h"

namespace funcspec::conformance {
namespace {

std::vector<std::filesystem::path> fixture_cases() {
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(FUNCSPEC_FIXTURES_DIR "/cases")) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(FixtureCases, ThereAreSome) { EXPECT_GE(fixture_cases().size(), 8u); }

// The engine gains transforms issue by issue; a case using one it lacks is unsupported, never failed.
TEST(FixtureCases, EveryCasePassesOrIsUnsupportedForATransformTheReferenceLacks) {
  for (const auto& path : fixture_cases()) {
    SCOPED_TRACE(path.filename().string());
    const Case c = read_case_file(path);
    const Evaluation ev = evaluate_on_reference(c);
    // The reference lacks only functionalize and functional_call (issue 7).
    const bool supported = std::none_of(c.transforms.begin(), c.transforms.end(), [](const Transform& t) {
      return std::holds_alternative<FunctionalizeTransform>(t) || std::holds_alternative<FunctionalCallTransform>(t);
    });
    EXPECT_EQ(ev.verdict, supported ? Verdict::Pass : Verdict::Unsupported) << ev.reason;
  }
}

TEST(FixtureCases, EveryCaseRoundTripsThroughAFile) {
  const auto dir = testing_support::scratch_dir();
  for (const auto& path : fixture_cases()) {
    SCOPED_TRACE(path.filename().string());
    const Case c = read_case_file(path);
    write_case_file(c, dir / path.filename());
    EXPECT_EQ(case_to_json(read_case_file(dir / path.filename())), case_to_json(c));
  }
}

TEST(FixtureCases, IdsAreUnique) {
  std::vector<std::string> ids;
  for (const auto& path : fixture_cases()) ids.push_back(read_case_file(path).id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

}  // namespace
}  // namespace funcspec::conformance
