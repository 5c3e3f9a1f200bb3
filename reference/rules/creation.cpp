// Transform rules of the creation family (arange, full).
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {

// arange and full take no tensor inputs, so under vmap nothing of theirs is ever batched: the vmap
// interpreter passes them straight through, and they need no batching rule.
void register_creation_batch_rules(BatchRuleRegistry&) {}

// Nothing they create depends on a tensor input; the other creation ops decompose into these.
void register_creation_ad_rules(AdRuleRegistry& registry) {
  for (const char* op : {"arange", "full"}) registry.add_non_differentiable(op);
}

}  // namespace funcspec::transforms
