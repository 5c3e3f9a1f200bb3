// Transform rules of the unary family (elementwise ops of one tensor). Batching: the op applies to
// every element of the batched value alike, so the batch dim stays where it is.
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {

void register_unary_batch_rules(BatchRuleRegistry& registry) {
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->family != "unary" || op->kind != OpKind::Primitive) continue;
    const std::string name = op->name();
    registry.add(name, [name](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      return {{call_one(name, {in.at(0).value}, attrs), in.at(0).bdim}};
    });
  }
}

void register_unary_ad_rules(AdRuleRegistry& registry) {
  registry.add_jvp("sin", [](const JvpCall& c) -> TensorList { return {ops::mul(c.tangents[0], ops::cos(c.primals[0]))}; });
  registry.add_jvp("cos", [](const JvpCall& c) -> TensorList {
    return {ops::mul(c.tangents[0], ops::neg(ops::sin(c.primals[0])))};
  });
  registry.add_jvp("neg", [](const JvpCall& c) -> TensorList { return {ops::neg(c.tangents[0])}; });
  registry.add_transpose("neg", [](const TransposeCall& c) -> TensorList { return {ops::neg(c.cotangents[0])}; });
}

}  // namespace funcspec::transforms
