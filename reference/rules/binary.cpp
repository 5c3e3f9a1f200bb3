// Transform rules of the binary family (elementwise ops of several tensors: add, where, clamp, ...).
// Batching: the op layer has already promoted and broadcast the examples (NOTE: [interpreter
// stack] in dispatch), so the inputs' examples share one shape; with every batch dim moved to the
// front (unbatched inputs expanded, without copying), the op applies element by element.
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
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

void register_binary_ad_rules(AdRuleRegistry& registry) {
  registry.add_jvp("add", [](const JvpCall& c) -> TensorList {
    const Scalar alpha = c.attrs.get_scalar("alpha");
    const Tensor other = c.tangents[1].defined() ? ops::mul(c.tangents[1], ops::lit(alpha)) : Tensor();
    return {add_tangents(c.tangents[0], other)};
  });
  registry.add_jvp("mul", [](const JvpCall& c) -> TensorList {
    const Tensor a = c.tangents[0].defined() ? ops::mul(c.tangents[0], c.primals[1]) : Tensor();
    const Tensor b = c.tangents[1].defined() ? ops::mul(c.primals[0], c.tangents[1]) : Tensor();
    return {add_tangents(a, b)};
  });
  registry.add_transpose("add", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {ct, c.linear[1] ? ops::mul(ct, ops::lit(c.attrs.get_scalar("alpha"))) : Tensor()};
  });
  registry.add_transpose("mul", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {c.linear[0] ? ops::mul(ct, c.inputs[1]) : Tensor(), c.linear[1] ? ops::mul(c.inputs[0], ct) : Tensor()};
  });
}

}  // namespace funcspec::transforms
