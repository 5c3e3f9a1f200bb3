#pragma once
// What the spec tests check the clauses against: the hand-written case files under
// conformance/cases and the generated promotion tests, with helpers to look clauses up.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/report/glob.h"
#include "conformance/spec/spec_clauses.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance::spec_testing {

inline const std::filesystem::path& cases_dir() {
  static const std::filesystem::path dir = FUNCSPEC_CASES_DIR;
  return dir;
}

// Every .json file under conformance/cases, relative to it, sorted.
inline std::vector<std::string> case_file_paths() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(cases_dir()))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      paths.push_back(entry.path().lexically_relative(cases_dir()).generic_string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

inline const ConformanceTests& promotion_tests() {
  static const ConformanceTests tests = [] {
    ConformanceTests t;
    add_promotion_tests(SuiteOptions{}, t);
    return t;
  }();
  return tests;
}

inline const SpecClause* find_clause(const std::string& id) {
  const auto& clauses = embedded_spec();
  const auto it = std::find_if(clauses.begin(), clauses.end(), [&](const SpecClause& c) { return c.id == id; });
  return it == clauses.end() ? nullptr : &*it;
}

inline bool matches_any_pattern(const SpecClause& clause, const std::string& test_id) {
  return std::any_of(clause.test_patterns.begin(), clause.test_patterns.end(),
                     [&](const std::string& p) { return glob_match(p, test_id); });
}

// Problems with the clauses a test names: none named, a clause not in SPEC.md, or a clause whose
// Tests: patterns do not cover the test's id. Empty when all is well.
inline std::string clause_problems(const std::string& test_id, const std::vector<std::string>& clauses) {
  std::string problems;
  if (clauses.empty()) problems += test_id + " names no clause; ";
  for (const std::string& id : clauses) {
    const SpecClause* clause = find_clause(id);
    if (!clause)
      problems += test_id + " names clause " + id + ", which docs/SPEC.md does not define; ";
    else if (!matches_any_pattern(*clause, test_id))
      problems += test_id + " names clause " + id + " (SPEC.md line " + std::to_string(clause->line) +
                  ") but matches none of its Tests: patterns; ";
  }
  return problems;
}

}  // namespace funcspec::conformance::spec_testing
