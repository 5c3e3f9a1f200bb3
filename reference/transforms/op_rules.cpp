#include "reference/transforms/op_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/registry.h"
#include "reference/rules/registration.h"

namespace funcspec::transforms {
namespace {

// The live replacements of this thread by op, innermost last (NOTE: [rules replaced for a scope]).
template <typename Rule>
std::map<const OpDef*, std::vector<const Rule*>>& scoped_rules() {
  thread_local std::map<const OpDef*, std::vector<const Rule*>> rules;
  return rules;
}

template <typename Rule>
const Rule* scoped_rule(const OpDef& op) {
  const auto& scoped = scoped_rules<Rule>();
  const auto it = scoped.find(&op);
  return it == scoped.end() ? nullptr : it->second.back();
}

template <typename Rule>
const Rule* rule_or_null(const Rule& rule) {
  return rule ? &rule : nullptr;
}

bool has_tensor_inputs(const OpDef& op) { return !op.schema.tensor_args().empty(); }

}  // namespace

const BatchRule* batch_rule(const OpDef& op) {
  if (const BatchRule* scoped = scoped_rule<BatchRule>(op)) return scoped;
  return op.rules ? rule_or_null(op.rules->batch) : nullptr;
}

const JvpRule* jvp_rule(const OpDef& op) {
  if (const JvpRule* scoped = scoped_rule<JvpRule>(op)) return scoped;
  return op.rules ? rule_or_null(op.rules->jvp) : nullptr;
}

const TransposeRule* transpose_rule(const OpDef& op) {
  if (const TransposeRule* scoped = scoped_rule<TransposeRule>(op)) return scoped;
  return op.rules ? rule_or_null(op.rules->transpose) : nullptr;
}

bool non_differentiable(const OpDef& op) {
  return scoped_rule<JvpRule>(op) == nullptr && op.rules != nullptr && op.rules->non_differentiable;
}

std::string missing_rules(const OpDef& op) {
  const OpRules none;
  const OpRules& rules = op.rules ? *op.rules : none;
  const bool any = rules.batch || rules.jvp || rules.transpose || rules.non_differentiable;
  switch (op.kind) {
    case OpKind::Composite:
    case OpKind::OutVariant:
      return any ? "carries transform rules, which never run: it decomposes before a transform sees it" : "";
    case OpKind::ScalarExtraction:
      return any ? "carries transform rules, which never run: it returns a host value, which no transform wraps" : "";
    case OpKind::Custom: return rules.jvp ? "" : "has no jvp entry point (custom_rule_missing is raised from it)";
    case OpKind::DynamicShape:
      // vmap refuses it by its kind (vmap_dynamic_shape) before any rule is asked for.
      if (rules.batch) return "carries a batching rule, which never runs: vmap refuses dynamic-shape ops";
      break;
    case OpKind::InPlace:
      if (op.decompose) {
        return any ? "carries transform rules, which never run: it decomposes before a transform sees it" : "";
      }
      [[fallthrough]];  // copy_, the in-place primitive, is seen whole like any primitive
    case OpKind::Primitive:
    case OpKind::View:
    case OpKind::Random:
      if (!rules.batch && (has_tensor_inputs(op) || op.kind == OpKind::Random))
        return "has no batching rule (vmap would fall back to the for-loop)";
      break;
  }
  if (rules.jvp && rules.non_differentiable) return "has a jvp rule and is marked non-differentiable";
  if (!rules.jvp && !rules.non_differentiable) return "has no jvp rule and is not marked non-differentiable";
  if (rules.transpose && rules.non_differentiable)
    return "has a transpose rule but is marked non-differentiable, so no tangent ever reaches it";
  return "";
}

OpRules& RuleAttacher::rules_of(std::string_view name) {
  OpDef* op = catalogue_.find_mutable(name);
  FUNCSPEC_INTERNAL_ASSERT(op != nullptr, fmt::format("transform rules for '{}', which the catalogue does not declare "
                                                      "(reference/rules/ attaches rules only to declared ops)",
                                                      name));
  if (!op->rules) op->rules = std::make_shared<OpRules>();
  return *op->rules;
}

void RuleAttacher::batch(std::string_view op, BatchRule rule) {
  OpRules& rules = rules_of(op);
  FUNCSPEC_INTERNAL_ASSERT(!rules.batch, fmt::format("two batching rules for '{}'", op));
  rules.batch = std::move(rule);
}

void RuleAttacher::jvp(std::string_view op, JvpRule rule) {
  OpRules& rules = rules_of(op);
  FUNCSPEC_INTERNAL_ASSERT(!rules.jvp, fmt::format("two jvp rules for '{}'", op));
  rules.jvp = std::move(rule);
}

void RuleAttacher::transpose(std::string_view op, TransposeRule rule) {
  OpRules& rules = rules_of(op);
  FUNCSPEC_INTERNAL_ASSERT(!rules.transpose, fmt::format("two transpose rules for '{}'", op));
  rules.transpose = std::move(rule);
}

void RuleAttacher::non_differentiable(std::string_view op) {
  OpRules& rules = rules_of(op);
  FUNCSPEC_INTERNAL_ASSERT(!rules.non_differentiable, fmt::format("'{}' marked non-differentiable twice", op));
  rules.non_differentiable = true;
}

void register_rules(OpRegistry& catalogue) {
  RuleAttacher attach(catalogue);
  register_unary_rules(attach);
  register_binary_rules(attach);
  register_reduce_rules(attach);
  register_linalg_rules(attach);
  register_linalg_spectral_rules(attach);
  register_linalg_svd_rules(attach);
  register_scan_rules(attach);
  register_view_rules(attach);
  register_view_copy_rules(attach);
  register_index_rules(attach);
  register_conversion_rules(attach);
  register_creation_rules(attach);
  register_random_rules(attach);
  register_dynamic_rules(attach);
}

template <typename Rule>
ScopedRule<Rule>::ScopedRule(std::string_view op, Rule rule)
    : op_(&OpRegistry::instance().get(op)), rule_(std::move(rule)) {
  scoped_rules<Rule>()[op_].push_back(&rule_);
}

template <typename Rule>
ScopedRule<Rule>::~ScopedRule() {
  auto& scoped = scoped_rules<Rule>();
  const auto it = scoped.find(op_);
  if (it == scoped.end()) return;
  std::erase(it->second, &rule_);
  if (it->second.empty()) scoped.erase(it);
}

template class ScopedRule<BatchRule>;
template class ScopedRule<JvpRule>;
template class ScopedRule<TransposeRule>;

}  // namespace funcspec::transforms
