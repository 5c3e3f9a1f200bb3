#pragma once
// What `funcspec check` shows while it runs. On a terminal: one live line (done / total, failures
// so far, elapsed) redrawn in place, with each failure printed above it as it happens. In CI or
// when stderr is not a terminal: plain lines, a progress line every tenth of the run. Quiet: the
// failures alone. Worker: one machine-readable line per test on stdout, for the parent of a
// --jobs run.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

#include "conformance/report/test_record.h"

namespace funcspec::tools {

enum class ProgressStyle { Live, Plain, Quiet, Worker };

// Live on a terminal outside CI (the CI variable), Plain otherwise; Quiet when asked.
ProgressStyle default_progress_style(bool quiet);

// The lines describing an unexpected (or expected) failure: status, id, clauses, reason, error
// size against the tolerance, replay command.
std::string describe_failure(const conformance::TestRecord& record);

// The prefix of a worker's per-test line on stdout, followed by the test's record as one line of
// JSON (write_test_record_line).
inline constexpr std::string_view kWorkerLinePrefix = "@funcspec-record ";

class ProgressDisplay {
 public:
  ProgressDisplay(ProgressStyle style, std::size_t total);
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  void test_done(const conformance::TestRecord& record);
  // Clears the live line.
  void finish();

 private:
  void count(conformance::TestStatus status);
  void redraw(const std::string& current, bool force);

  ProgressStyle style_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::size_t unexpected_ = 0;
  std::size_t next_plain_report_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_draw_{};
  bool line_drawn_ = false;
};

}  // namespace funcspec::tools
