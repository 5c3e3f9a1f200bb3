// Transform rules of the creation family (arange, full). They take no tensor inputs, so under vmap
// nothing of theirs is ever batched: the vmap interpreter passes them straight through, and they
// need no batching rule.
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

void register_creation_rules(RuleAttacher& attach) {
  // Nothing they create depends on a tensor input; the other creation ops decompose into these.
  for (const char* op : {"arange", "full"}) attach.non_differentiable(op);
}

}  // namespace funcspec::transforms
