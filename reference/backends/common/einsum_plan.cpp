#include "reference/backends/common/einsum_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>

namespace funcspec::common {
namespace {

// One subscript of a term: a letter, or the ellipsis.
constexpr int kEllipsis = -1;
using Term = std::vector<int>;

Term parse_term(std::string_view term, std::string_view equation) {
  Term out;
  for (std::size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      out.push_back(c);
      continue;
    }
    FUNCSPEC_CHECK(c == '.', ErrorKind::InvalidArgument, "[einsum] invalid character '{}' in equation '{}'", c,
                   equation);
    FUNCSPEC_CHECK(term.substr(i, 3) == "...", ErrorKind::InvalidArgument,
                   "[einsum] a '.' that is not part of an ellipsis '...' in equation '{}'", equation);
    FUNCSPEC_CHECK(std::find(out.begin(), out.end(), kEllipsis) == out.end(), ErrorKind::InvalidArgument,
                   "[einsum] term '{}' of equation '{}' has more than one ellipsis", term, equation);
    out.push_back(kEllipsis);
    i += 2;
  }
  return out;
}

struct ParsedEquation {
  std::vector<Term> inputs;
  std::optional<Term> output;  // nothing in implicit mode (no "->")
};

ParsedEquation parse_equation(std::string_view equation) {
  std::string compact;
  for (char c : equation) {
    if (!std::isspace(static_cast<unsigned char>(c))) compact.push_back(c);
  }
  std::string_view lhs = compact;
  std::optional<std::string_view> rhs;
  if (const std::size_t arrow = compact.find("->"); arrow != std::string::npos) {
    lhs = std::string_view(compact).substr(0, arrow);
    rhs = std::string_view(compact).substr(arrow + 2);
    FUNCSPEC_CHECK(rhs->find_first_of("->,") == std::string_view::npos, ErrorKind::InvalidArgument,
                   "[einsum] the output of equation '{}' must be a single term after one '->'", equation);
  }
  FUNCSPEC_CHECK(lhs.find_first_of("->") == std::string_view::npos, ErrorKind::InvalidArgument,
                 "[einsum] a '-' or '>' that is not part of '->' in equation '{}'", equation);
  ParsedEquation parsed;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = lhs.find(',', start);
    parsed.inputs.push_back(parse_term(lhs.substr(start, comma - start), equation));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (rhs) parsed.output = parse_term(*rhs, equation);
  return parsed;
}

// Merges one more occurrence of a label's size into the size seen so far (nothing yet: nullopt),
// by the broadcasting rule: equal sizes agree, a size 1 yields to the other.
std::int64_t merge_size(std::optional<std::int64_t> seen, std::int64_t size, std::string_view what, std::size_t operand,
                        std::string_view equation) {
  if (!seen || *seen == size || size == 1) return seen ? *seen : size;
  FUNCSPEC_CHECK(*seen == 1, ErrorKind::ShapeMismatch,
                 "[einsum] {} has size {} in operand {} but size {} in an earlier operand of '{}'; sizes must be "
                 "equal or 1",
                 what, size, operand, *seen, equation);
  return size;
}

std::string describe_label(int label) { return fmt::format("subscript '{}'", static_cast<char>(label)); }

}  // namespace

EinsumPlan plan_einsum(std::string_view equation, const std::vector<Shape>& operand_shapes) {
  const ParsedEquation parsed = parse_equation(equation);
  FUNCSPEC_CHECK(parsed.inputs.size() == operand_shapes.size(), ErrorKind::InvalidArgument,
                 "[einsum] equation '{}' has {} operand terms but {} operands were given", equation,
                 parsed.inputs.size(), operand_shapes.size());

  // Sizes of letters and of the (right-aligned) ellipsis dims, and how often each letter occurs.
  std::map<int, std::int64_t> letter_size;
  std::map<int, int> letter_count;
  std::vector<int> first_appearance;
  std::size_t ellipsis_rank = 0;
  std::vector<std::size_t> operand_ellipsis_rank(operand_shapes.size(), 0);
  for (std::size_t k = 0; k < parsed.inputs.size(); ++k) {
    const Term& term = parsed.inputs[k];
    const bool has_ellipsis = std::find(term.begin(), term.end(), kEllipsis) != term.end();
    const std::size_t letters = term.size() - (has_ellipsis ? 1 : 0);
    const std::size_t rank = operand_shapes[k].size();
    FUNCSPEC_CHECK(has_ellipsis ? rank >= letters : rank == letters, ErrorKind::ShapeMismatch,
                   "[einsum] operand {} has shape {} but its term in '{}' names {}{} dims", k,
                   shape_to_string(operand_shapes[k]), equation, has_ellipsis ? "at least " : "", letters);
    if (has_ellipsis) {
      operand_ellipsis_rank[k] = rank - letters;
      ellipsis_rank = std::max(ellipsis_rank, rank - letters);
    }
  }
  std::vector<std::optional<std::int64_t>> ellipsis_size(ellipsis_rank);
  for (std::size_t k = 0; k < parsed.inputs.size(); ++k) {
    const Shape& shape = operand_shapes[k];
    std::map<int, std::int64_t> size_in_operand;
    std::size_t d = 0;
    for (int label : parsed.inputs[k]) {
      if (label == kEllipsis) {
        const std::size_t lead = ellipsis_rank - operand_ellipsis_rank[k];
        for (std::size_t e = 0; e < operand_ellipsis_rank[k]; ++e, ++d) {
          ellipsis_size[lead + e] =
              merge_size(ellipsis_size[lead + e], shape[d], fmt::format("ellipsis dim {}", lead + e), k, equation);
        }
        continue;
      }
      auto [it, first_in_operand] = size_in_operand.emplace(label, shape[d]);
      FUNCSPEC_CHECK(first_in_operand || it->second == shape[d], ErrorKind::ShapeMismatch,
                     "[einsum] {} is repeated in operand {} of '{}' with different sizes {} and {}",
                     describe_label(label), k, equation, it->second, shape[d]);
      if (first_in_operand) {
        auto seen = letter_size.find(label);
        letter_size[label] = merge_size(seen == letter_size.end() ? std::nullopt : std::optional(seen->second),
                                        shape[d], describe_label(label), k, equation);
      }
      if (letter_count[label]++ == 0) first_appearance.push_back(label);
      ++d;
    }
  }

  // The output term: explicit, or in implicit mode the ellipsis dims then the letters that occur
  // exactly once, in ASCII order (uppercase before lowercase), as numpy and PyTorch do.
  Term output;
  if (parsed.output) {
    output = *parsed.output;
    for (std::size_t i = 0; i < output.size(); ++i) {
      if (output[i] == kEllipsis) continue;
      FUNCSPEC_CHECK(letter_size.contains(output[i]), ErrorKind::InvalidArgument,
                     "[einsum] output {} of '{}' appears in no operand", describe_label(output[i]), equation);
      FUNCSPEC_CHECK(
          std::find(output.begin() + static_cast<std::ptrdiff_t>(i) + 1, output.end(), output[i]) == output.end(),
          ErrorKind::InvalidArgument, "[einsum] output {} of '{}' appears more than once", describe_label(output[i]),
          equation);
    }
  } else {
    if (ellipsis_rank > 0) output.push_back(kEllipsis);
    for (const auto& [label, count] : letter_count) {
      if (count == 1) output.push_back(label);
    }
  }

  // Iteration dims: the output's, then the summed letters in order of first appearance, then the
  // ellipsis dims when the output has no ellipsis (they are summed too).
  EinsumPlan plan;
  std::map<int, std::size_t> letter_dim;
  std::vector<std::size_t> ellipsis_dim(ellipsis_rank);
  auto add_ellipsis_dims = [&] {
    for (std::size_t e = 0; e < ellipsis_rank; ++e) {
      ellipsis_dim[e] = plan.sizes.size();
      plan.sizes.push_back(ellipsis_size[e].value_or(1));
    }
  };
  const bool output_has_ellipsis = std::find(output.begin(), output.end(), kEllipsis) != output.end();
  for (int label : output) {
    if (label == kEllipsis) {
      add_ellipsis_dims();
      continue;
    }
    letter_dim[label] = plan.sizes.size();
    plan.sizes.push_back(letter_size.at(label));
  }
  plan.output_rank = plan.sizes.size();
  for (int label : first_appearance) {
    if (letter_dim.contains(label)) continue;
    letter_dim[label] = plan.sizes.size();
    plan.sizes.push_back(letter_size.at(label));
  }
  if (!output_has_ellipsis) add_ellipsis_dims();

  for (std::size_t k = 0; k < parsed.inputs.size(); ++k) {
    std::vector<std::size_t> dims;
    for (int label : parsed.inputs[k]) {
      if (label != kEllipsis) {
        dims.push_back(letter_dim.at(label));
        continue;
      }
      const std::size_t lead = ellipsis_rank - operand_ellipsis_rank[k];
      for (std::size_t e = 0; e < operand_ellipsis_rank[k]; ++e) dims.push_back(ellipsis_dim[lead + e]);
    }
    plan.operand_dims.push_back(std::move(dims));
  }
  return plan;
}

}  // namespace funcspec::common
