// Transform rules of the linalg family: det, einsum, inverse, slogdet, solve, tril, triu.
// Batching: these ops act on the last two dims and take any leading dims as a batch, so the vmap
// batch goes to the front and the op runs once. einsum gives the batch a label of its own on every
// batched operand and in the output.
//
// As in the index rules, the examples' shapes and dtypes are checked first by the op itself on meta
// examples: a batch of rank-1 examples must not pass for one matrix; the data errors
// (singular_matrix) are the kernels', on the batched values.
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"
#include "reference/transforms/vmap_interpreter.h"

namespace funcspec::transforms {
namespace {

using rules::check_examples;

// The first letter the equation does not use, or '\0' when it uses all 52.
char unused_label(const std::string& equation) {
  for (const char* letters : {"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}) {
    for (const char* c = letters; *c != '\0'; ++c) {
      if (equation.find(*c) == std::string::npos) return *c;
    }
  }
  return '\0';
}

// A valid `equation` with `label` leading the terms of the batched operands and the output. An
// implicit output is written out first (the ellipsis, then the letters used once, in ASCII order):
// left implicit, a label shared by two operands would be summed.
std::string with_batch_label(const std::string& equation, const std::vector<bool>& batched, char label) {
  std::string compact;
  for (char c : equation) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) compact.push_back(c);
  }
  const std::size_t arrow = compact.find("->");
  const std::string inputs = compact.substr(0, arrow);
  std::string output;
  if (arrow != std::string::npos) {
    output = compact.substr(arrow + 2);
  } else {
    std::map<char, int> uses;
    for (char c : inputs) {
      if (std::isalpha(static_cast<unsigned char>(c)) != 0) ++uses[c];
    }
    if (inputs.find("...") != std::string::npos) output = "...";
    for (const auto& [letter, count] : uses) {
      if (count == 1) output.push_back(letter);
    }
  }
  std::string labelled;
  std::size_t operand = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = inputs.find(',', start);
    if (operand > 0) labelled.push_back(',');
    if (batched.at(operand)) labelled.push_back(label);
    labelled += inputs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    ++operand;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return labelled + "->" + label + output;
}

BatchedValues einsum_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("einsum", in, attrs);
  const std::string& equation = attrs.get_string("equation");
  const char label = unused_label(equation);
  // An equation naming 52 labels leaves none for the batch: computed example by example.
  if (label == '\0') return vmap_fallback(OpRegistry::instance().get("einsum"), in, attrs, context);
  std::vector<bool> batched;
  TensorList operands;
  for (const BatchedValue& input : in) {
    batched.push_back(input.batched());
    operands.push_back(rules::batch_to_front(input));
  }
  return {{call_one("einsum", operands, {{"equation", with_batch_label(equation, batched, label)}}), 0}};
}

}  // namespace

void register_linalg_batch_rules(BatchRuleRegistry& registry) {
  // One matrix input, any leading dims.
  for (const char* name : {"det", "inverse", "slogdet", "tril", "triu"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      check_examples(op, in, attrs);
      return rules::batched_at_front(call(op, {rules::batch_to_front(in.at(0))}, attrs));
    });
  }
  // The op layer has checked A and B and broadcast their batch dims on the examples, so with both
  // batched at the front B is still a vector right-hand side exactly when its examples are.
  registry.add("solve", [](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    const Tensor a = rules::materialize_batch(in.at(0), context.batch_size);
    const Tensor b = rules::materialize_batch(in.at(1), context.batch_size);
    return rules::batched_at_front(call("solve", {a, b}, attrs));
  });
  registry.add("einsum", einsum_rule);
}

void register_linalg_ad_rules(AdRuleRegistry&) {}

}  // namespace funcspec::transforms
