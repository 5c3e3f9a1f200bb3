// Hand-written case files (conformance/cases/**.json): one test each, id and clauses from the file.
// A file that does not parse still becomes a test, one that errors with the parser's message, so a
// broken file is reported rather than silently dropped from the run.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "conformance/case/case_json.h"
#include "conformance/suite/conformance_test.h"

namespace funcspec::conformance {

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
