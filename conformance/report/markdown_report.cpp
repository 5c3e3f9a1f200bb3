#include "conformance/report/markdown_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "conformance/report/report_json.h"

namespace funcspec::conformance {

namespace {

// A number to three significant digits, and nan/inf/-inf spelled out.
std::string three_digit_number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:.3g}", value);
}

std::string counts_line(const std::map<TestStatus, int>& by_status) {
  std::string out;
  for (TestStatus status : kAllTestStatuses) {
    const int n = by_status.at(status);
    if (n == 0) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : " · ", n, test_status_name(status));
  }
  return out.empty() ? std::string("none") : out;
}

std::string error_cell(const TestRecord& test) {
  std::string out;
  if (test.max_abs_error) out += "abs " + three_digit_number_text(*test.max_abs_error);
  if (test.max_ulp_error)
    out += (out.empty() ? "" : ", ") + std::string("ulp ") + three_digit_number_text(*test.max_ulp_error);
  if (test.tolerance) {
    out += fmt::format("{}tol atol {} rtol {} ulps {}", out.empty() ? "" : " vs ",
                       three_digit_number_text(test.tolerance->atol), three_digit_number_text(test.tolerance->rtol),
                       test.tolerance->ulps);
  }
  return out;
}

}  // namespace

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '|': out += "\\|"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\r': break;
      case '\n': out += "<br>"; break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_code_cell(std::string_view text) {
  if (text.empty()) return "";
  // A fence one backtick longer than the longest backtick run in the text keeps it literal.
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string body;
  for (char c : text) {
    if (c == '|') {
      body += "\\|";
    } else if (c == '\n' || c == '\r') {
      body += ' ';
    } else {
      body += c;
    }
  }
  const std::string fence(longest + 1, '`');
  const bool pad = body.front() == '`' || body.back() == '`';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string write_markdown_text(const Report& report, const MarkdownOptions& options) {
  const Summary summary = summarize(report.tests);
  const RunInfo& run = report.run;
  std::string out = fmt::format("## funcspec conformance: {}{}\n\n", markdown_cell(run.backend.name),
                                run.backend.version.empty() ? "" : " " + markdown_cell(run.backend.version));

  out += fmt::format("- backend: {}\n", markdown_code_cell(run.backend.spec));
  out += fmt::format("- seed: {} · tier: {}{}\n", run.seed, tier_name(run.tier),
                     run.filter.empty() ? "" : " · filter: " + markdown_code_cell(run.filter));
  if (!run.merged_shards.empty()) {
    out += fmt::format("- merge of {} of {} shards\n", run.merged_shards.size(), run.shard_count);
  } else if (run.shard_count > 1) {
    out += fmt::format("- shard {} of {}\n", run.shard_index, run.shard_count);
  }
  if (!run.interrupted.empty())
    out +=
        fmt::format("- **incomplete**: the run was stopped by {}; these are the tests it finished\n", run.interrupted);
  out += fmt::format("- tests: {} ({})\n", report.tests.size(), counts_line(summary.by_status));
  std::map<std::string, int> verdicts;
  for (const auto& [clause, clause_summary] : summary.by_clause) ++verdicts[clause_summary.verdict];
  std::string verdict_line;
  for (std::string_view verdict : {"satisfied", "partial", "unsupported", "violated"}) {
    const auto found = verdicts.find(std::string(verdict));
    if (found == verdicts.end()) continue;
    verdict_line += fmt::format("{}{} {}", verdict_line.empty() ? "" : " · ", found->second, verdict);
  }
  out +=
      fmt::format("- clauses: {}{}\n", summary.by_clause.size(), verdict_line.empty() ? "" : " (" + verdict_line + ")");
  if (!run.xfail_unmatched.empty()) {
    out += fmt::format("- expected-failure entries that matched nothing: {}\n", run.xfail_unmatched.size());
  }
  out += fmt::format("- seconds: {:.1f}\n\n", std::isfinite(run.seconds) ? run.seconds : 0.0);

  if (!summary.by_clause.empty()) {
    const bool titled = !options.clause_titles.empty();
    out += titled ? "| clause | title |" : "| clause |";
    out += " tests | pass | fail | xfail | xpass | unsupported | skip | error | verdict |\n";
    out += titled ? "|---|---|" : "|---|";
    out += "--:|--:|--:|--:|--:|--:|--:|--:|---|\n";
    for (const auto& [clause, clause_summary] : summary.by_clause) {
      int tests = 0;
      for (const auto& [status, n] : clause_summary.by_status) tests += n;
      out += "| " + markdown_cell(clause) + " |";
      if (titled) {
        const auto title = options.clause_titles.find(clause);
        out += " " + (title == options.clause_titles.end() ? std::string() : markdown_cell(title->second)) + " |";
      }
      out += fmt::format(" {} |", tests);
      for (TestStatus status : kAllTestStatuses) out += fmt::format(" {} |", clause_summary.by_status.at(status));
      const bool violated = clause_summary.verdict == "violated";
      out += fmt::format(" {}{}{} |\n", violated ? "**" : "", clause_summary.verdict, violated ? "**" : "");
    }
    out += "\n";
  }

  std::vector<const TestRecord*> unexpected;
  for (const TestRecord& test : report.tests) {
    if (is_unexpected(test.status)) unexpected.push_back(&test);
  }
  if (unexpected.empty()) {
    out += "No unexpected results.\n";
    return out;
  }
  out += fmt::format("### Unexpected results ({})\n\n", unexpected.size());
  out += "| test | status | clauses | reason | max error | replay |\n|---|---|---|---|---|---|\n";
  const std::size_t shown = std::min(unexpected.size(), options.max_unexpected);
  for (std::size_t i = 0; i < shown; ++i) {
    const TestRecord& test = *unexpected[i];
    std::string clauses;
    for (const std::string& clause : test.clauses) clauses += (clauses.empty() ? "" : ", ") + clause;
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_code_cell(test.id), test_status_name(test.status),
                       markdown_cell(clauses), markdown_cell(test.reason), markdown_cell(error_cell(test)),
                       markdown_code_cell(test.replay_command));
  }
  if (shown < unexpected.size()) {
    out += fmt::format("\n…and {} more, left out here: see the JSON or JUnit report.\n", unexpected.size() - shown);
  }
  return out;
}

void write_markdown_file(const Report& report, const std::filesystem::path& path, const MarkdownOptions& options) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ReportError(fmt::format("{}: cannot open the Markdown report for writing", path.string()));
  out << write_markdown_text(report, options);
  out.flush();
  if (!out) throw ReportError(fmt::format("{}: cannot write the Markdown report", path.string()));
}

}  // namespace funcspec::conformance
