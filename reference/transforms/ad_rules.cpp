#include "reference/transforms/ad_rules.h"

#include <algorithm>
#include <vector>

#include "reference/api/ops.h"
#include "reference/core/error.h"
#include "reference/transforms/custom_function.h"

namespace funcspec::transforms {
namespace {

// The live scoped rules of this thread by op, innermost last (NOTE: [rules replaced for a scope]).
template <typename Rule>
using ScopedRules = std::map<std::string, std::vector<const Rule*>, std::less<>>;

template <typename Rule>
ScopedRules<Rule>& scoped_rules() {
  thread_local ScopedRules<Rule> rules;
  return rules;
}

template <typename Rule>
const Rule* scoped_rule(std::string_view op) {
  const auto it = scoped_rules<Rule>().find(op);
  return it == scoped_rules<Rule>().end() ? nullptr : it->second.back();
}

template <typename Rule>
void push_scoped_rule(const std::string& op, const Rule* rule) {
  scoped_rules<Rule>()[op].push_back(rule);
}

template <typename Rule>
void pop_scoped_rule(const std::string& op, const Rule* rule) {
  const auto it = scoped_rules<Rule>().find(op);
  if (it == scoped_rules<Rule>().end()) return;
  std::erase(it->second, rule);
  if (it->second.empty()) scoped_rules<Rule>().erase(it);
}

}  // namespace

const AdRuleRegistry& AdRuleRegistry::instance() {
  static const AdRuleRegistry registry = [] {
    AdRuleRegistry r;
    register_unary_ad_rules(r);
    register_binary_ad_rules(r);
    register_reduce_ad_rules(r);
    register_linalg_ad_rules(r);
    register_scan_ad_rules(r);
    register_view_ad_rules(r);
    register_view_copy_ad_rules(r);
    register_index_ad_rules(r);
    register_conversion_ad_rules(r);
    register_creation_ad_rules(r);
    register_random_ad_rules(r);
    register_dynamic_ad_rules(r);
    return r;
  }();
  return registry;
}

void AdRuleRegistry::add_jvp(const std::string& op, JvpRule rule) {
  FUNCSPEC_INTERNAL_ASSERT(!non_differentiable_.contains(op) && jvp_.emplace(op, std::move(rule)).second,
                           "two jvp rules for one op");
}

void AdRuleRegistry::add_transpose(const std::string& op, TransposeRule rule) {
  FUNCSPEC_INTERNAL_ASSERT(transpose_.emplace(op, std::move(rule)).second, "two transpose rules for one op");
}

void AdRuleRegistry::add_non_differentiable(const std::string& op) {
  FUNCSPEC_INTERNAL_ASSERT(!jvp_.contains(op) && non_differentiable_.insert(op).second,
                           "an op both differentiable and not");
}

const JvpRule* AdRuleRegistry::find_jvp(std::string_view op) const {
  if (const JvpRule* scoped = scoped_rule<JvpRule>(op)) return scoped;
  const auto it = jvp_.find(op);
  return it == jvp_.end() ? nullptr : &it->second;
}

const TransposeRule* AdRuleRegistry::find_transpose(std::string_view op) const {
  if (const TransposeRule* scoped = scoped_rule<TransposeRule>(op)) return scoped;
  const auto it = transpose_.find(op);
  return it == transpose_.end() ? nullptr : &it->second;
}

const JvpRule* AdRuleRegistry::find_jvp(const OpDef& op) const {
  if (op.own_rules) return op.own_rules->jvp ? &op.own_rules->jvp : nullptr;
  return find_jvp(op.name());
}

const TransposeRule* AdRuleRegistry::find_transpose(const OpDef& op) const {
  if (op.own_rules) return op.own_rules->transpose ? &op.own_rules->transpose : nullptr;
  return find_transpose(op.name());
}

bool AdRuleRegistry::non_differentiable(std::string_view op) const {
  return scoped_rule<JvpRule>(op) == nullptr && non_differentiable_.contains(op);
}

bool AdRuleRegistry::non_differentiable(const OpDef& op) const {
  return op.own_rules == nullptr && non_differentiable(op.name());
}

ScopedJvpRule::ScopedJvpRule(std::string op, JvpRule rule) : op_(std::move(op)), rule_(std::move(rule)) {
  push_scoped_rule(op_, &rule_);
}

ScopedJvpRule::~ScopedJvpRule() { pop_scoped_rule(op_, &rule_); }

ScopedTransposeRule::ScopedTransposeRule(std::string op, TransposeRule rule)
    : op_(std::move(op)), rule_(std::move(rule)) {
  push_scoped_rule(op_, &rule_);
}

ScopedTransposeRule::~ScopedTransposeRule() { pop_scoped_rule(op_, &rule_); }

Tensor sum_to_shape(const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  const std::int64_t leading = t.dim() - static_cast<std::int64_t>(shape.size());
  FUNCSPEC_INTERNAL_ASSERT(leading >= 0, "sum_to_shape to a larger rank");
  std::vector<std::int64_t> dims;
  for (std::int64_t d = 0; d < leading; ++d) dims.push_back(d);
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1 && t.shape()[leading + d] != 1) dims.push_back(leading + static_cast<std::int64_t>(d));
  }
  Tensor summed = ops::sum(t, dims, /*keepdim=*/true);
  // The leading dims were kept as 1s; drop them.
  return leading == 0 ? summed : ops::view(summed, shape);
}

Tensor add_tangents(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return ops::add(a, b);
}

Tensor zeros_of(const TensorMeta& meta, Device device) {
  return ops::zeros(meta.shape, meta.dtype, std::string(device_name(device)));
}

}  // namespace funcspec::transforms
