#include "conformance/report/test_record.h"

namespace funcspec::conformance {

std::string_view test_status_name(TestStatus status) {
  switch (status) {
    case TestStatus::Pass: return "pass";
    case TestStatus::Fail: return "fail";
    case TestStatus::Xfail: return "xfail";
    case TestStatus::Xpass: return "xpass";
    case TestStatus::Unsupported: return "unsupported";
    case TestStatus::Skip: return "skip";
    case TestStatus::Error: return "error";
  }
  return "error";
}

std::optional<TestStatus> parse_test_status(std::string_view name) {
  for (TestStatus status : kAllTestStatuses) {
    if (test_status_name(status) == name) return status;
  }
  return std::nullopt;
}

bool is_unexpected(TestStatus status) {
  return status == TestStatus::Fail || status == TestStatus::Xpass || status == TestStatus::Error;
}

namespace {

std::map<TestStatus, int> zero_counts() {
  std::map<TestStatus, int> counts;
  for (TestStatus status : kAllTestStatuses) counts[status] = 0;
  return counts;
}

int count_of(const std::map<TestStatus, int>& counts, TestStatus status) {
  const auto found = counts.find(status);
  return found == counts.end() ? 0 : found->second;
}

}  // namespace

std::string clause_verdict(const std::map<TestStatus, int>& by_status) {
  const auto count = [&](TestStatus status) { return count_of(by_status, status); };
  // An expected failure still means the backend departs from the clause: the manifest only keeps
  // the exit status quiet about it.
  if (count(TestStatus::Fail) + count(TestStatus::Xfail) + count(TestStatus::Error) > 0) return "violated";
  const int passed = count(TestStatus::Pass) + count(TestStatus::Xpass);
  const int not_run = count(TestStatus::Unsupported) + count(TestStatus::Skip);
  if (passed == 0) return "unsupported";
  return not_run == 0 ? "satisfied" : "partial";
}

Summary summarize(const std::vector<TestRecord>& tests) {
  Summary summary;
  summary.by_status = zero_counts();
  for (const TestRecord& test : tests) {
    ++summary.by_status[test.status];
    for (const std::string& clause : test.clauses) {
      auto [entry, inserted] = summary.by_clause.try_emplace(clause);
      if (inserted) entry->second.by_status = zero_counts();
      ++entry->second.by_status[test.status];
    }
  }
  for (auto& [clause, clause_summary] : summary.by_clause) {
    clause_summary.verdict = clause_verdict(clause_summary.by_status);
  }
  return summary;
}

}  // namespace funcspec::conformance
