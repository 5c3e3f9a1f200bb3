#include "conformance/report/report_merge.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "conformance/report/report_json.h"

namespace funcspec::conformance {

namespace {

// The run fields every shard of one run shares, as (field name, printable value).
std::vector<std::pair<std::string_view, std::string>> shared_fields(const RunInfo& run) {
  return {{"backend.spec", run.backend.spec},         {"backend.name", run.backend.name},
          {"backend.version", run.backend.version},   {"seed", std::to_string(run.seed)},
          {"tier", std::string(tier_name(run.tier))}, {"filter", run.filter},
          {"funcspec_version", run.funcspec_version}, {"shard_count", std::to_string(run.shard_count)}};
}

std::vector<int> shards_of(const RunInfo& run) {
  return run.merged_shards.empty() ? std::vector<int>{run.shard_index} : run.merged_shards;
}

}  // namespace

MergeResult merge_reports(const std::vector<NamedReport>& inputs) {
  if (inputs.empty()) throw ReportError("report merge: no input reports");
  const NamedReport& first = inputs.front();
  const auto first_fields = shared_fields(first.report.run);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const auto fields = shared_fields(inputs[i].report.run);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (fields[f].second != first_fields[f].second) {
        throw ReportError(fmt::format("report merge: the reports disagree on run.{}: {} has \"{}\", {} has \"{}\"",
                                      fields[f].first, first.file, first_fields[f].second, inputs[i].file,
                                      fields[f].second));
      }
    }
  }

  MergeResult result;
  RunInfo& run = result.report.run;
  run = first.report.run;
  run.shard_index = -1;
  run.merged_shards.clear();
  run.seconds = 0;

  std::map<int, const std::string*> file_of_shard;
  std::map<std::string, const std::string*, std::less<>> file_of_test;
  for (const NamedReport& input : inputs) {
    for (int shard : shards_of(input.report.run)) {
      const auto [where, inserted] = file_of_shard.emplace(shard, &input.file);
      if (!inserted) {
        throw ReportError(fmt::format("report merge: shard {} of {} is in both {} and {}", shard, run.shard_count,
                                      *where->second, input.file));
      }
    }
    for (const TestRecord& test : input.report.tests) {
      const auto [where, inserted] = file_of_test.emplace(test.id, &input.file);
      if (!inserted) {
        throw ReportError(
            fmt::format("report merge: the test \"{}\" is in both {} and {}", test.id, *where->second, input.file));
      }
      result.report.tests.push_back(test);
    }
    run.seconds = std::max(run.seconds, input.report.run.seconds);
    // One interrupted shard makes the merge incomplete too.
    if (run.interrupted.empty()) run.interrupted = input.report.run.interrupted;
    if (input.report.run.command_line != run.command_line) run.command_line.clear();
  }
  for (const auto& [shard, file] : file_of_shard) run.merged_shards.push_back(shard);

  std::vector<int> missing;
  for (int shard = 0; shard < run.shard_count; ++shard) {
    if (!file_of_shard.contains(shard)) missing.push_back(shard);
  }
  if (!missing.empty()) {
    result.warnings.push_back(fmt::format("shard{} {} of {} {} missing from the merge", missing.size() == 1 ? "" : "s",
                                          fmt::join(missing, ", "), run.shard_count,
                                          missing.size() == 1 ? "is" : "are"));
  }

  run.xfail_unmatched.clear();
  for (const std::string& pattern : first.report.run.xfail_unmatched) {
    const bool unmatched_everywhere = std::all_of(inputs.begin(), inputs.end(), [&](const NamedReport& input) {
      const auto& unmatched = input.report.run.xfail_unmatched;
      return std::find(unmatched.begin(), unmatched.end(), pattern) != unmatched.end();
    });
    if (unmatched_everywhere) run.xfail_unmatched.push_back(pattern);
  }

  std::stable_sort(result.report.tests.begin(), result.report.tests.end(),
                   [](const TestRecord& a, const TestRecord& b) { return a.id < b.id; });
  return result;
}

std::vector<std::string> merge_report_files(const std::filesystem::path& out,
                                            const std::vector<std::filesystem::path>& inputs) {
  std::vector<NamedReport> reports;
  for (const std::filesystem::path& input : inputs) reports.push_back({input.string(), read_report_file(input)});
  MergeResult merged = merge_reports(reports);
  write_report_file(merged.report, out);
  return merged.warnings;
}

}  // namespace funcspec::conformance
