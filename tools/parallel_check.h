#pragma once
// `funcspec check --jobs N`: N worker processes, each a gtest shard of this run (so a --jobs run
// and a CI matrix split tests the same way). A worker hands over each test's record as it finishes
// it; one that dies costs only the test it was running, reported as an error with how the worker
// ended and its last words on stderr, and a new worker takes the rest of its share.
#include <cstddef>
#include <string>
#include <vector>

#include "conformance/report/test_record.h"
#include "conformance/suite/conformance_test.h"
#include "tools/check_command.h"
#include "tools/progress_display.h"

namespace funcspec::tools {

// The positions in a selection of `size` tests that shard `index` of `count` runs: every count-th
// from the index-th. The one rule of a --jobs parent, its workers and a CI matrix.
std::vector<std::size_t> shard_positions(std::size_t size, int index, int count);

// The records of every selected test this process's shard owns, in selection order.
std::vector<conformance::TestRecord> run_parallel_check(const CheckOptions& options, const std::string& program_path,
                                                        const conformance::ConformanceTests& selected,
                                                        ProgressDisplay& display);

}  // namespace funcspec::tools
