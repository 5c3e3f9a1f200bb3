#include "reference/transforms/batch_rules.h"

#include <algorithm>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/op_def.h"
#include "reference/transforms/custom_function.h"

namespace funcspec::transforms {
namespace {

// The live ScopedBatchRules of this thread by op, innermost last (NOTE: [rules replaced for a
// scope]).
std::map<std::string, std::vector<const BatchRule*>, std::less<>>& scoped_rules() {
  thread_local std::map<std::string, std::vector<const BatchRule*>, std::less<>> rules;
  return rules;
}

}  // namespace

const BatchRuleRegistry& BatchRuleRegistry::instance() {
  static const BatchRuleRegistry registry = [] {
    BatchRuleRegistry r;
    register_unary_batch_rules(r);
    register_binary_batch_rules(r);
    register_reduce_batch_rules(r);
    register_linalg_batch_rules(r);
    register_scan_batch_rules(r);
    register_view_batch_rules(r);
    register_view_copy_batch_rules(r);
    register_index_batch_rules(r);
    register_conversion_batch_rules(r);
    register_creation_batch_rules(r);
    register_random_batch_rules(r);
    return r;
  }();
  return registry;
}

const BatchRule* BatchRuleRegistry::find(const std::string& op) const {
  if (const auto scoped = scoped_rules().find(op); scoped != scoped_rules().end()) return scoped->second.back();
  const auto it = rules_.find(op);
  return it == rules_.end() ? nullptr : &it->second;
}

const BatchRule* BatchRuleRegistry::find(const OpDef& op) const {
  if (op.own_rules) return op.own_rules->batch ? &op.own_rules->batch : nullptr;
  return find(op.name());
}

void BatchRuleRegistry::add(const std::string& op, BatchRule rule) {
  FUNCSPEC_INTERNAL_ASSERT(rules_.emplace(op, std::move(rule)).second, "two batching rules for one op");
}

ScopedBatchRule::ScopedBatchRule(std::string op, BatchRule rule) : op_(std::move(op)), rule_(std::move(rule)) {
  scoped_rules()[op_].push_back(&rule_);
}

ScopedBatchRule::~ScopedBatchRule() {
  const auto it = scoped_rules().find(op_);
  if (it == scoped_rules().end()) return;
  std::erase(it->second, &rule_);
  if (it->second.empty()) scoped_rules().erase(it);
}

}  // namespace funcspec::transforms
