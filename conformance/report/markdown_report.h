#pragma once
// The Markdown report (`funcspec check --markdown FILE`): what a person reads in a pull-request
// comment. A header (backend, seed, tier, counts), a clause-by-clause matrix, then the unexpected
// results with their reasons and replay commands (docs/report-format.md).
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "conformance/report/test_record.h"

namespace funcspec::conformance {

struct MarkdownOptions {
  // Clause id -> title (from docs/SPEC.md); with any title given, the matrix gains a title column.
  std::map<std::string, std::string> clause_titles;
  // The unexpected results listed; the rest are counted ("and 12 more").
  std::size_t max_unexpected = 50;
};

std::string write_markdown_text(const Report& report, const MarkdownOptions& options = {});
void write_markdown_file(const Report& report, const std::filesystem::path& path, const MarkdownOptions& options = {});

// Text safe inside a table cell: `|` escaped, newlines as <br>, and `<`, `>`, `&` as entities so a
// backend's message cannot inject markup.
std::string markdown_cell(std::string_view text);
// A code span inside a table cell holding `text` literally (`|` still escaped, as GFM requires).
std::string markdown_code_cell(std::string_view text);

}  // namespace funcspec::conformance
