#include "tools/progress_display.h"

#include "conformance/report/report_json.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>

namespace funcspec::tools {

using conformance::TestRecord;
using conformance::TestStatus;

ProgressStyle default_progress_style(bool quiet) {
  if (quiet) return ProgressStyle::Quiet;
  const char* ci = std::getenv("CI");
  const bool in_ci = ci != nullptr && *ci != '\0' && std::string(ci) != "false";
  return !in_ci && isatty(STDERR_FILENO) == 1 ? ProgressStyle::Live : ProgressStyle::Plain;
}

std::string describe_failure(const TestRecord& record) {
  std::string text = fmt::format("{:<5} {}  [{}]\n", conformance::test_status_name(record.status), record.id,
                                 fmt::join(record.clauses, ", "));
  if (!record.reason.empty()) text += fmt::format("      {}\n", record.reason);
  if (record.max_abs_error && record.tolerance) {
    text += fmt::format("      max error {:.3g} ({:.3g} ulps) against tolerance atol {:.3g}, rtol {:.3g}, ulps {}\n",
                        *record.max_abs_error, record.max_ulp_error.value_or(0), record.tolerance->atol,
                        record.tolerance->rtol, record.tolerance->ulps);
  }
  if (!record.replay_command.empty()) text += fmt::format("      replay: {}\n", record.replay_command);
  return text;
}

ProgressDisplay::ProgressDisplay(ProgressStyle style, std::size_t total) : style_(style), total_(total) {
  next_plain_report_ = std::max<std::size_t>(total_ / 10, 1);
}

ProgressDisplay::~ProgressDisplay() { finish(); }

void ProgressDisplay::count(TestStatus status) {
  ++done_;
  if (conformance::is_unexpected(status)) ++unexpected_;
}

void ProgressDisplay::redraw(const std::string& current, bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (style_ == ProgressStyle::Live) {
    if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    std::string shown = current.size() > 60 ? current.substr(0, 57) + "..." : current;
    fmt::print(stderr, "\r\033[K[{}/{}] {} unexpected · {:.1f} s  {}", done_, total_, unexpected_, elapsed, shown);
    std::fflush(stderr);
    line_drawn_ = true;
  } else if (style_ == ProgressStyle::Plain && (done_ >= next_plain_report_ || done_ == total_)) {
    next_plain_report_ = done_ + std::max<std::size_t>(total_ / 10, 1);
    fmt::print(stderr, "progress: {}/{} tests, {} unexpected, {:.1f} s\n", done_, total_, unexpected_, elapsed);
  }
}

void ProgressDisplay::test_done(const TestRecord& record) {
  count(record.status);
  if (style_ == ProgressStyle::Worker) {
    fmt::print("{}{}\n", kWorkerLinePrefix, conformance::write_test_record_line(record));
    std::fflush(stdout);
    return;
  }
  const bool show = conformance::is_unexpected(record.status);
  if (show) {
    if (line_drawn_) fmt::print(stderr, "\r\033[K");
    fmt::print(stderr, "{}", describe_failure(record));
  }
  redraw(record.id, show);
}

void ProgressDisplay::finish() {
  if (line_drawn_) {
    fmt::print(stderr, "\r\033[K");
    std::fflush(stderr);
    line_drawn_ = false;
  }
}

}  // namespace funcspec::tools
