#pragma once
// `funcspec report merge OUT IN...`: one report from the per-shard reports of a sharded run
// (GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX), docs/report-format.md. Rules:
//  - the inputs agree on the backend (spec, name, version), seed, tier, filter, funcspec version and
//    shard count; the first difference is an error naming the field and the two files;
//  - no shard is in two inputs, and no test id is in two inputs;
//  - tests are ordered by id (shards interleave the run order, so no single run order exists);
//  - xfail_unmatched keeps the entries unmatched in every input (an entry matched by any shard
//    matched the run), in the first input's order;
//  - shard_index is -1 and merged_shards lists the shards joined; seconds is the longest input's
//    (shards run side by side); command_line is kept when every input has the same one;
//  - the summary is recomputed from the tests.
// A merge of merges is allowed: an input that is itself a merge contributes its merged_shards.
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/report/test_record.h"

namespace funcspec::conformance {

struct NamedReport {
  std::string file;  // for messages
  Report report;
};

struct MergeResult {
  Report report;
  // Not errors: shards missing from the merge ("shards 2, 3 of 4 are missing").
  std::vector<std::string> warnings;
};

// Throws ReportError (report_json.h) when the inputs cannot be merged; at least one input.
MergeResult merge_reports(const std::vector<NamedReport>& inputs);

// Reads every input, merges and writes `out`; returns the warnings.
std::vector<std::string> merge_report_files(const std::filesystem::path& out,
                                            const std::vector<std::filesystem::path>& inputs);

}  // namespace funcspec::conformance
