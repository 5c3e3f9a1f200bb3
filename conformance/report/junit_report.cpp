#include "conformance/report/junit_report.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "conformance/report/report_json.h"

namespace funcspec::conformance {

namespace {

// The length of the UTF-8 sequence at text[i] when it is well formed and XML may hold its
// character, else 0.
std::size_t valid_utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF) return 0;  // overlong or beyond Unicode
  if (code >= 0xD800 && code <= 0xDFFF) return 0;            // surrogates
  if (code == 0xFFFE || code == 0xFFFF) return 0;            // not XML characters
  return length;
}

std::string seconds_text(double seconds) {
  return fmt::format("{:.3f}", std::isfinite(seconds) && seconds > 0 ? seconds : 0.0);
}

std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{:g}", value);
}

// `A/B/c` -> ("A.B", "c"); an id without `/` keeps the whole id as the name under "funcspec".
std::pair<std::string, std::string> class_and_name(std::string_view id) {
  const std::size_t last = id.rfind('/');
  if (last == std::string_view::npos) return {"funcspec", std::string(id)};
  std::string classname(id.substr(0, last));
  for (char& c : classname) {
    if (c == '/') c = '.';
  }
  return {classname, std::string(id.substr(last + 1))};
}

std::string join_clauses(const std::vector<std::string>& clauses) {
  std::string out;
  for (const std::string& clause : clauses) out += (out.empty() ? "" : ", ") + clause;
  return out;
}

std::string first_line(std::string_view text) { return std::string(text.substr(0, text.find('\n'))); }

// The body of a <failure> or <error>: everything a reader needs to act without the JSON report.
std::string failure_body(const TestRecord& test) {
  std::string body = test.reason.empty() ? std::string("(no reason given)") : test.reason;
  body += "\nclauses: " + (test.clauses.empty() ? std::string("(none)") : join_clauses(test.clauses));
  if (test.max_abs_error || test.max_ulp_error) {
    body += "\nmax error:";
    if (test.max_abs_error) body += " abs " + number_text(*test.max_abs_error);
    if (test.max_ulp_error) body += " ulp " + number_text(*test.max_ulp_error);
  }
  if (test.tolerance) {
    body += fmt::format("\ntolerance: atol {} rtol {} ulps {}", number_text(test.tolerance->atol),
                        number_text(test.tolerance->rtol), test.tolerance->ulps);
  }
  if (!test.replay_case.empty()) body += "\nreplay case: " + test.replay_case;
  if (!test.replay_command.empty()) body += "\nreplay: " + test.replay_command;
  return body;
}

void write_property(std::string& out, std::string_view indent, std::string_view name, std::string_view value) {
  out +=
      fmt::format("{}<property name=\"{}\" value=\"{}\"/>\n", indent, xml_escape(name, true), xml_escape(value, true));
}

void write_testcase(std::string& out, const TestRecord& test) {
  const auto [classname, name] = class_and_name(test.id);
  out += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{}\">\n", xml_escape(classname, true),
                     xml_escape(name, true), seconds_text(test.seconds));
  out += "      <properties>\n";
  write_property(out, "        ", "id", test.id);
  write_property(out, "        ", "clauses", join_clauses(test.clauses));
  write_property(out, "        ", "status", test_status_name(test.status));
  out += "      </properties>\n";
  const std::string status(test_status_name(test.status));
  switch (test.status) {
    case TestStatus::Pass: break;
    case TestStatus::Fail:
    case TestStatus::Xpass:
      out += fmt::format("      <failure type=\"{}\" message=\"{}\">{}</failure>\n", status,
                         xml_escape(first_line(test.reason), true), xml_escape(failure_body(test), false));
      break;
    case TestStatus::Error:
      out += fmt::format("      <error type=\"{}\" message=\"{}\">{}</error>\n", status,
                         xml_escape(first_line(test.reason), true), xml_escape(failure_body(test), false));
      break;
    case TestStatus::Unsupported:
    case TestStatus::Skip:
      out += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(status + ": " + test.reason, true));
      break;
    case TestStatus::Xfail:
      out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(failure_body(test), false));
      break;
  }
  out += "    </testcase>\n";
}

}  // namespace

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const std::size_t length = valid_utf8_length(text, i);
      if (length == 0) {
        out += fmt::format("\\x{:02X}", byte);
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\'': out += attribute ? "&apos;" : "'"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;  // a raw CR would be folded into a newline by the parser
      default:
        if (byte < 0x20 || byte == 0x7F) {
          out += fmt::format("\\x{:02X}", byte);
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string write_junit_text(const Report& report) {
  const Summary summary = summarize(report.tests);
  const auto count = [&](TestStatus status) { return summary.by_status.at(status); };
  const int failures = count(TestStatus::Fail) + count(TestStatus::Xpass);
  const int errors = count(TestStatus::Error);
  const int skipped = count(TestStatus::Unsupported) + count(TestStatus::Skip);
  const RunInfo& run = report.run;
  const std::string suite_name = fmt::format("funcspec conformance: {} ({})", run.backend.name, run.backend.spec);
  const std::string totals = fmt::format(R"(tests="{}" failures="{}" errors="{}" skipped="{}" time="{}")",
                                         report.tests.size(), failures, errors, skipped, seconds_text(run.seconds));

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"funcspec check\" {}>\n", totals);
  out += fmt::format("  <testsuite name=\"{}\" {}>\n", xml_escape(suite_name, true), totals);
  out += "    <properties>\n";
  write_property(out, "      ", "backend", run.backend.spec);
  write_property(out, "      ", "backend.name", run.backend.name);
  write_property(out, "      ", "backend.version", run.backend.version);
  write_property(out, "      ", "seed", std::to_string(run.seed));
  write_property(out, "      ", "tier", tier_name(run.tier));
  write_property(out, "      ", "filter", run.filter);
  write_property(out, "      ", "funcspec_version", run.funcspec_version);
  write_property(out, "      ", "shard",
                 run.merged_shards.empty()
                     ? fmt::format("{}/{}", run.shard_index, run.shard_count)
                     : fmt::format("merge of {} of {}", run.merged_shards.size(), run.shard_count));
  if (!run.interrupted.empty()) write_property(out, "      ", "interrupted", run.interrupted);
  out += "    </properties>\n";
  for (const TestRecord& test : report.tests) write_testcase(out, test);
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

void write_junit_file(const Report& report, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ReportError(fmt::format("{}: cannot open the JUnit report for writing", path.string()));
  out << write_junit_text(report);
  out.flush();
  if (!out) throw ReportError(fmt::format("{}: cannot write the JUnit report", path.string()));
}

}  // namespace funcspec::conformance
