#include "conformance/spec/spec_clauses.h"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <optional>

namespace funcspec::conformance {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_decimal_without_leading_zero(std::string_view s) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The level of an ATX heading (`## Title` is 2), or 0 for any other line.
int heading_level(std::string_view line) {
  std::size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') ++hashes;
  if (hashes == 0 || hashes > 6) return 0;
  if (hashes < line.size() && line[hashes] != ' ') return 0;
  return static_cast<int>(hashes);
}

bool is_fence(std::string_view line) {
  const std::string_view t = trim(line);
  return t.starts_with("```") || t.starts_with("~~~");
}

constexpr std::string_view kTestsPrefix = "Tests:";

struct OpenClause {
  SpecClause clause;
  std::optional<int> tests_line;
};

std::vector<std::string> parse_patterns(std::string_view list, const std::string& clause_id, const std::string& file,
                                        int line) {
  std::vector<std::string> patterns;
  if (trim(list).empty())
    throw SpecError(file, line, fmt::format("clause {}: the Tests: line names no test pattern", clause_id));
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = trim(list.substr(0, comma));
    if (item.size() < 2 || item.front() != '`' || item.back() != '`')
      throw SpecError(file, line,
                      fmt::format("clause {}: test pattern '{}' must be written in backticks, e.g. `OPS-VALUES/add/*`",
                                  clause_id, item));
    const std::string_view pattern = item.substr(1, item.size() - 2);
    if (trim(pattern).empty() || pattern.find('`') != std::string_view::npos)
      throw SpecError(file, line, fmt::format("clause {}: empty or malformed test pattern {}", clause_id, item));
    patterns.emplace_back(pattern);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return patterns;
}

}  // namespace

SpecError::SpecError(std::string file, int line, std::string problem)
    : std::runtime_error(fmt::format("{}:{}: {}", file, line, problem)),
      file_(std::move(file)),
      line_(line),
      problem_(std::move(problem)) {}

bool is_clause_id(std::string_view id) {
  const std::size_t dash = id.find('-');
  if (dash == 0 || dash == std::string_view::npos) return false;
  for (char c : id.substr(0, dash))
    if (c < 'A' || c > 'Z') return false;
  const std::string_view number = id.substr(dash + 1);
  const std::size_t dot = number.find('.');
  if (dot == std::string_view::npos) return false;
  return is_decimal_without_leading_zero(number.substr(0, dot)) &&
         is_decimal_without_leading_zero(number.substr(dot + 1));
}

std::vector<SpecClause> parse_spec(std::string_view markdown, const std::string& file) {
  std::vector<SpecClause> clauses;
  std::map<std::string, int, std::less<>> first_line_of;
  std::optional<OpenClause> open;
  bool in_fence = false;

  const auto close_clause = [&] {
    if (!open) return;
    if (!open->tests_line)
      throw SpecError(file, open->clause.line,
                      fmt::format("clause {} has no `Tests:` line naming the tests that check it", open->clause.id));
    clauses.push_back(std::move(open->clause));
    open.reset();
  };

  int line_number = 0;
  std::size_t start = 0;
  while (start <= markdown.size()) {
    const std::size_t end = markdown.find('\n', start);
    std::string_view line =
        markdown.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    start = end == std::string_view::npos ? markdown.size() + 1 : end + 1;

    // Examples in fenced blocks may contain anything, headings and Tests: lines included.
    if (is_fence(line)) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;

    const int level = heading_level(line);
    if (level != 0 && level <= 3) close_clause();
    if (level == 3) {
      const std::string_view heading = trim(line.substr(3));
      const std::size_t space = heading.find(' ');
      const std::string id(heading.substr(0, space));
      if (!is_clause_id(id))
        throw SpecError(file, line_number,
                        fmt::format("'{}' is not a clause id: a level-3 heading must start with AREA-MAJOR.MINOR, e.g. "
                                    "`### TENSOR-1.2 Broadcasting aligns trailing dims`",
                                    id));
      const std::string_view title = space == std::string_view::npos ? "" : trim(heading.substr(space));
      if (title.empty()) throw SpecError(file, line_number, fmt::format("clause {} has no title", id));
      if (const auto it = first_line_of.find(id); it != first_line_of.end())
        throw SpecError(file, line_number, fmt::format("duplicate clause id {} (first at line {})", id, it->second));
      first_line_of.emplace(id, line_number);
      open = OpenClause{SpecClause{id, std::string(title), {}, line_number}, std::nullopt};
      continue;
    }

    const std::string_view trimmed = trim(line);
    if (!trimmed.starts_with(kTestsPrefix)) continue;
    if (!open) throw SpecError(file, line_number, "a Tests: line outside any clause");
    if (open->tests_line)
      throw SpecError(file, line_number,
                      fmt::format("clause {} has a second Tests: line (the first is at line {})", open->clause.id,
                                  *open->tests_line));
    open->tests_line = line_number;
    open->clause.test_patterns =
        parse_patterns(trimmed.substr(kTestsPrefix.size()), open->clause.id, file, line_number);
  }
  if (in_fence) throw SpecError(file, line_number, "a fenced code block is never closed");
  close_clause();
  return clauses;
}

const std::vector<SpecClause>& embedded_spec() {
  static const std::vector<SpecClause> clauses = parse_spec(embedded_spec_text(), "docs/SPEC.md");
  return clauses;
}

}  // namespace funcspec::conformance
