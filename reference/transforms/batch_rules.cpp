#include "reference/transforms/batch_rules.h"

#include "reference/core/error.h"

namespace funcspec::transforms {

const BatchRuleRegistry& BatchRuleRegistry::instance() {
  static const BatchRuleRegistry registry = [] {
    BatchRuleRegistry r;
    register_unary_batch_rules(r);
    register_binary_batch_rules(r);
    register_reduce_batch_rules(r);
    register_linalg_batch_rules(r);
    register_scan_batch_rules(r);
    register_view_batch_rules(r);
    register_index_batch_rules(r);
    register_conversion_batch_rules(r);
    register_creation_batch_rules(r);
    register_random_batch_rules(r);
    return r;
  }();
  return registry;
}

const BatchRule* BatchRuleRegistry::find(const std::string& op) const {
  const auto it = rules_.find(op);
  return it == rules_.end() ? nullptr : &it->second;
}

void BatchRuleRegistry::add(const std::string& op, BatchRule rule) {
  FUNCSPEC_INTERNAL_ASSERT(rules_.emplace(op, std::move(rule)).second, "two batching rules for one op");
}

}  // namespace funcspec::transforms
