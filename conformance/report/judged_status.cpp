#include "conformance/report/judged_status.h"

#include <fmt/format.h>

namespace funcspec::conformance {

namespace {

std::string listing(const XfailEntry& entry) {
  return fmt::format("listed as an expected failure by {}:{} ({}): {}", entry.file, entry.line, entry.pattern,
                     entry.reason);
}

}  // namespace

JudgedStatus judged_status(Verdict verdict, std::string_view failure_reason, const XfailEntry* listed) {
  const std::string reason(failure_reason);
  switch (verdict) {
    case Verdict::Pass:
      if (listed == nullptr) return {TestStatus::Pass, ""};
      return {TestStatus::Xpass, fmt::format("unexpected pass: {}; remove the entry", listing(*listed))};
    case Verdict::Fail:
      if (listed == nullptr) return {TestStatus::Fail, reason};
      return {TestStatus::Xfail, fmt::format("expected failure: {}\nfailure: {}", listed->reason, reason)};
    case Verdict::Unsupported: return {TestStatus::Unsupported, reason};
    case Verdict::Error:
      if (listed == nullptr) return {TestStatus::Error, reason};
      return {TestStatus::Error,
              fmt::format("{}\n(also {}; an expected failure must still answer)", reason, listing(*listed))};
  }
  return {TestStatus::Error, reason};
}

}  // namespace funcspec::conformance
