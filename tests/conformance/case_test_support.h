#pragma once
// Helpers shared by the tests of the case machinery: a small valid case to start from, parsing
// that reports the CaseError, and a scratch directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "conformance/case/case_json.h"

namespace funcspec::conformance::testing_support {

// y = x + w with x of shape [2, 3] and w of shape [3] (broadcast), worked out by hand.
inline Json add_case_json() {
  return Json::parse(R"({
    "format": "funcspec-case/1",
    "id": "OPS-VALUES/add/broadcast-2x3-3",
    "clauses": ["OPS-1.1"],
    "description": "add broadcasts a row over a matrix",
    "seed": 7,
    "tier": "smoke",
    "inputs": {
      "x": {"dtype": "float64", "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6]},
      "w": {"dtype": "float64", "shape": [3], "data": [0.5, -1, 10]}
    },
    "program": [{"out": ["y"], "op": "add", "args": ["x", "w"], "attrs": {"alpha": 2}}],
    "outputs": ["y"],
    "expect": {
      "values": {"y": {"dtype": "float64", "shape": [2, 3], "data": [2, 0, 23, 5, 3, 26]}},
      "tolerance": {"atol": 0, "rtol": 0, "ulps": 0}
    }
  })");
}

// The CaseError that parsing `json` raises; a test failure when it parses.
inline CaseError parse_error_of(const Json& json, const std::filesystem::path& base_dir = ".") {
  try {
    parse_case(json, "test.json", base_dir);
  } catch (const CaseError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a CaseError, but the case parsed";
  return CaseError("", "", "");
}

// A fresh empty directory under the system's temporary directory, named after the running test.
inline std::filesystem::path scratch_dir() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    (std::string("funcspec-cases-") + info->test_suite_name() + "-" + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace funcspec::conformance::testing_support
