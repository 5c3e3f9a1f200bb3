#pragma once
// The JSON report (`funcspec check --json FILE`, format `funcspec-report/1`, docs/report-format.md):
// the run's identity, every test's record and a summary by status and by clause. Reading validates
// the whole document, so that `funcspec report merge` never works on a half-understood report.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "conformance/case/json.h"
#include "conformance/report/test_record.h"

namespace funcspec::conformance {

inline constexpr std::string_view kReportFormat = "funcspec-report/1";

// A report that cannot be read, parsed or merged; the message names the file and the JSON path of
// the field at fault (`tests[3].status`).
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The summary is written for readers' convenience; the reader recomputes it from the tests rather
// than trusting it.
Json report_to_json(const Report& report);
std::string write_report_text(const Report& report);
void write_report_file(const Report& report, const std::filesystem::path& path);

Report parse_report(const Json& json, const std::string& file);
Report parse_report_text(std::string_view text, const std::string& file = "<report>");
Report read_report_file(const std::filesystem::path& path);

// One test's record as one line of JSON (no newline in it), and back: how a `--jobs` worker hands
// each result to its parent the moment it has it, so a worker that dies loses only its test in flight.
std::string write_test_record_line(const TestRecord& record);
TestRecord parse_test_record_line(std::string_view line, const std::string& source);

}  // namespace funcspec::conformance
