#pragma once
#include <ostream>
#include <string>

namespace funcspec::tools {

enum class ReportFormat { Text, Markdown };

// Prints the op catalogue: per family, each op's kind, schema and one-line semantics.
void print_catalogue(std::ostream& out, ReportFormat format, const std::string& family_filter);

}  // namespace funcspec::tools
