// Transform rules of the binary family (elementwise ops of several tensors: add, where, clamp, ...).
// Batching: the op layer has already promoted and broadcast the examples (NOTE: [interpreter
// stack] in dispatch), so the inputs' examples share one shape; with every batch dim moved to the
// front (unbatched inputs expanded, without copying), the op applies element by element.
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {

void register_binary_batch_rules(BatchRuleRegistry& registry) {
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->family != "binary" || op->kind != OpKind::Primitive) continue;
    const std::string name = op->name();
    registry.add(
        name, [name](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
          TensorList values;
          for (const BatchedValue& input : in)
            values.push_back(input.value.defined() ? rules::materialize_batch(input, context.batch_size) : input.value);
          return rules::batched_at_front(call(name, values, attrs));
        });
  }
}

}  // namespace funcspec::transforms
