#pragma once
// From a judge's verdict and the expected-failure manifest's entry for the test (or none) to the
// status a report records. The table (docs/report-format.md):
//   verdict      not listed    listed
//   pass         pass          xpass  (unexpected: the entry is stale and should be removed)
//   fail         fail          xfail  (reason: the manifest's reason, then the failure)
//   unsupported  unsupported   unsupported
//   error        error         error  (a crash, hang or protocol break is never an expected failure)
// An expected failure that crashes is still a crash: the manifest vouches for a wrong answer, not
// for a backend that fails to answer, so the run still reports it.
#include <string>
#include <string_view>

#include "conformance/case/judge.h"
#include "conformance/report/test_record.h"
#include "conformance/report/xfail_manifest.h"

namespace funcspec::conformance {

struct JudgedStatus {
  TestStatus status = TestStatus::Pass;
  std::string reason;  // for TestRecord::reason
};

// `failure_reason` is the judge's reason (empty on a pass); `listed` the manifest's entry or nullptr.
JudgedStatus judged_status(Verdict verdict, std::string_view failure_reason, const XfailEntry* listed);

}  // namespace funcspec::conformance
