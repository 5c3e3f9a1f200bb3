// Transform rules of the linalg family.
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {

// No batching rules yet: these ops run under vmap through the counted for-loop fallback.
void register_linalg_batch_rules(BatchRuleRegistry&) {}

}  // namespace funcspec::transforms
