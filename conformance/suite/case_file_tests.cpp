// Hand-written case files (conformance/cases/**.json): one test each, id and clauses from the file.
// A file that does not parse still becomes a test, one that errors with the parser's message, so a
// broken file is reported rather than silently dropped from the run. The one exception is a data
// file that a directory of golden fixtures keeps beside its cases (docs/fixtures.md): its format tag
// says what it is.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "conformance/case/case_json.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {
namespace {

// The fixture index and the peers' agreement file (conformance/fixtures/fixture_index.h and
// peer_agreement.h), named here by their format tags because the fixtures library builds on this one.
constexpr std::array<std::string_view, 2> kFixtureDataFormats = {"funcspec-fixtures/1", "funcspec-peer-agreement/1"};

bool is_fixture_data_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  const Json json = Json::parse(in, nullptr, false);
  if (!json.is_object() || !json.contains("format") || !json["format"].is_string()) return false;
  const std::string format = json["format"].get<std::string>();
  return std::find(kFixtureDataFormats.begin(), kFixtureDataFormats.end(), format) != kFixtureDataFormats.end();
}

}  // namespace

void add_case_file_tests(const SuiteOptions& options, ConformanceTests& tests) {
  for (const std::filesystem::path& dir : options.case_dirs) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
    }
    if (error) {
      const std::string problem = fmt::format("cannot read the case directory {}: {}", dir.string(), error.message());
      tests.push_back(
          {fmt::format("CASE-FILES/{}", dir.filename().string()), {}, Tier::Smoke, dir.string(), [problem]() -> Case {
             throw std::runtime_error(problem);
           }});
      continue;
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      try {
        Case c = read_case_file(file);
        ConformanceTest test{c.id, c.clauses, c.tier, file.string(), nullptr};
        test.build = [c = std::move(c)]() { return c; };
        tests.push_back(std::move(test));
      } catch (const CaseError& e) {
        if (is_fixture_data_file(file)) continue;
        const std::string problem = e.what();
        const std::string relative = std::filesystem::relative(file, dir).generic_string();
        tests.push_back({fmt::format("CASE-FILES/{}", relative), {}, Tier::Smoke, file.string(), [problem]() -> Case {
                           throw std::runtime_error(problem);
                         }});
      }
    }
  }
}

}  // namespace funcspec::conformance
