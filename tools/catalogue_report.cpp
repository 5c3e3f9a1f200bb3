#include "tools/catalogue_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>

#include "reference/ops/registry.h"

namespace funcspec::tools {

void print_catalogue(std::ostream& out, ReportFormat format, const std::string& family_filter) {
  std::map<std::string, int> kind_counts;
  std::string family;
  int shown = 0;
  std::size_t name_width = 0;  // the text columns line up under the longest name (custom.* ops are long)
  for (const OpDef* op : OpRegistry::instance().all()) name_width = std::max(name_width, op->name().size());
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (!family_filter.empty() && op->family != family_filter) continue;
    if (op->family != family) {
      family = op->family;
      if (format == ReportFormat::Markdown) {
        fmt::print(out, "\n## {}\n\n| op | kind | schema | semantics |\n|---|---|---|---|\n", family);
      } else {
        fmt::print(out, "\n[{}]\n", family);
      }
    }
    const std::string kind =
        std::string(op_kind_name(op->kind)) + (op->random && op->kind != OpKind::Random ? ", random" : "");
    if (format == ReportFormat::Markdown) {
      fmt::print(out, "| `{}` | {} | `{}` | {} |\n", op->name(), kind, op->schema.to_string(), op->summary);
    } else {
      fmt::print(out, "  {:<{}} {:<20} {}\n", op->name(), name_width, kind, op->schema.to_string());
    }
    ++kind_counts[std::string(op_kind_name(op->kind))];
    ++shown;
  }
  fmt::print(out, "\n{} ops:", shown);
  for (const auto& [kind, count] : kind_counts) fmt::print(out, " {} {},", count, kind);
  fmt::print(out, "\n");
}

}  // namespace funcspec::tools
