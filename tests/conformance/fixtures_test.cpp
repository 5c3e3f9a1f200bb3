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

// The in-process reference implements every transform of the case format; only cuda cases belong to
// another backend.
TEST(FixtureCases, EveryCasePassesOrIsUnsupportedForCuda) {
  for (const auto& path : fixture_cases()) {
    SCOPED_TRACE(path.filename().string());
    const Case c = read_case_file(path);
    const Evaluation ev = evaluate_on_reference(c);
    EXPECT_EQ(ev.verdict, c.device == Device::Cuda ? Verdict::Unsupported : Verdict::Pass) << ev.reason;
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
