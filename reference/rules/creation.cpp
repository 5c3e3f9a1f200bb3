// Transform rules of the creation family (arange, full).
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {

// arange and full take no tensor inputs, so under vmap nothing of theirs is ever batched: the vmap
// interpreter passes them straight through, and they need no batching rule.
void register_creation_batch_rules(BatchRuleRegistry&) {}

void register_creation_ad_rules(AdRuleRegistry&) {}

}  // namespace funcspec::transforms
