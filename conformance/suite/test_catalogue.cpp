#include "conformance/suite/test_catalogue.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "conformance/report/glob.h"

namespace funcspec::conformance {

std::vector<std::filesystem::path> default_case_dirs() { return {FUNCSPEC_CASES_DIR}; }

ConformanceTests collect_tests(const SuiteOptions& options) {
  ConformanceTests tests;
  add_case_file_tests(options, tests);
  if (!options.case_files_only) {
    add_promotion_tests(options, tests);
    add_op_value_tests(options, tests);
    add_op_meta_tests(options, tests);
    add_vmap_oracle_tests(options, tests);
    add_vmap_random_tests(options, tests);
    add_ad_check_tests(options, tests);
    add_ad_composition_tests(options, tests);
    add_property_tests(options, tests);
  }

  std::map<std::string, std::string> first_origin;
  ConformanceTests unique;
  unique.reserve(tests.size());
  for (ConformanceTest& test : tests) {
    const auto [it, fresh] = first_origin.emplace(test.id, test.origin);
    if (fresh) {
      unique.push_back(std::move(test));
      continue;
    }
    const std::string problem =
        fmt::format("the test id {} is defined twice: by {} and by {}", test.id, it->second, test.origin);
    unique.push_back({test.id + "#duplicate", test.clauses, Tier::Smoke, test.origin,
                      [problem]() -> Case { throw std::runtime_error(problem); }});
  }
  return unique;
}

ConformanceTests select_tests(ConformanceTests tests, Tier tier, const std::vector<std::string>& filters) {
  auto matches = [&](const ConformanceTest& test) {
    if (filters.empty()) return true;
    return std::any_of(filters.begin(), filters.end(),
                       [&](const std::string& filter) { return filter_selects(filter, test.id, test.clauses); });
  };
  std::erase_if(tests, [&](const ConformanceTest& test) {
    return static_cast<int>(test.tier) > static_cast<int>(tier) || !matches(test);
  });
  return tests;
}

}  // namespace funcspec::conformance
