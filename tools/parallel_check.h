#pragma once
// `funcspec check --jobs N`: N worker processes, each a gtest shard of this run (so a --jobs run
// and a CI matrix split tests the same way, and a worker that crashes costs only its unfinished
// tests, which are reported as errors rather than lost).
#include <string>
#include <vector>

#include "conformance/report/test_record.h"
#include "conformance/suite/conformance_test.h"
#include "tools/check_command.h"
#include "tools/progress_display.h"

namespace funcspec::tools {

// The records of every selected test this process's shard owns, in selection order.
std::vector<conformance::TestRecord> run_parallel_check(const CheckOptions& options, const std::string& program_path,
                                                        const conformance::ConformanceTests& selected,
                                                        ProgressDisplay& display);

}  // namespace funcspec::tools
