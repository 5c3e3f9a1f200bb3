#include "reference/transforms/vmap_interpreter.h"

#include <fmt/format.h>

#include "reference/core/wrapper_walk.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

void VmapInterpreter::check_out_variant(const OpDef& op, const TensorList& inputs) const {
  const auto batched_here = [this](const TransformPayload& payload) {
    return payload.level() == level() && dynamic_cast<const BatchedPayload*>(&payload) != nullptr;
  };
  for (const Tensor& t : inputs) {
    // Batched at this level at any depth (VMAP-3.2: any batched tensor): under vmap(jvp(f)) the
    // input is a dual whose primal is batched here, and out= is refused there as under vmap(f).
    if (find_wrapper(t, batched_here) == nullptr) continue;
    fail(ErrorKind::VmapOutVariant,
         "[{}] out= variants are not supported on tensors batched under vmap; call the functional op and return "
         "its result",
         op.name());
  }
}

TensorList VmapInterpreter::process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  BatchedValues values;
  values.reserve(inputs.size());
  bool any_batched = false;
  for (const Tensor& t : inputs) {
    values.push_back(unwrap_batched(t, level()));
    any_batched = any_batched || values.back().batched();
  }
  const bool random = op.kind == OpKind::Random;
  if (random && context_.randomness == Randomness::Error) {
    fail(ErrorKind::VmapRandomness,
         "[{}] random ops are not allowed under vmap(randomness='error'): pass randomness='different' for "
         "independent draws per example or 'same' for one draw shared by the batch",
         op.name());
  }
  if (!any_batched && !random) {
    LowerScope lower(*this);
    return call(op, inputs, attrs);
  }
  if (any_batched) {
    FUNCSPEC_CHECK(op.kind != OpKind::ScalarExtraction, ErrorKind::VmapDataDependent,
                   "[{}] reads the value of a tensor that is batched under vmap, so each example would take a "
                   "different path (data-dependent control flow); compute both branches and select with where()",
                   op.name());
    FUNCSPEC_CHECK(op.kind != OpKind::DynamicShape, ErrorKind::VmapDynamicShape,
                   "[{}] returns a shape that depends on the values, which may differ between the examples of a "
                   "vmapped batch; use a fixed-shape alternative (where, masked_fill)",
                   op.name());
    // An in-place write of a batched result into a tensor that is the same for every example would
    // need room for the whole batch: refused before anything is written.
    for (std::size_t position : written_inputs(op)) {
      if (position >= values.size() || values[position].batched()) continue;
      fail(ErrorKind::VmapInplaceUnbatched,
           "[{}] writes a result that differs per example of the vmapped batch into an input that is not batched "
           "(logical shape {}); write into a batched tensor or use the out-of-place op",
           op.name(), shape_to_string(inputs[position].shape()));
    }
  }

  BatchedValues results;
  {
    LowerScope lower(*this);
    const BatchRule* rule = batch_rule(op);
    results = rule != nullptr ? (*rule)(values, attrs, context_) : vmap_fallback(op, values, attrs, context_);
  }
  // In-place ops hand back the very tensor they wrote into (NOTE: [written inputs]).
  return results_returning_written_inputs(op, inputs, results.size(), [&](std::size_t k) {
    return make_batched(results[k].value, results[k].bdim, level());
  });
}

}  // namespace funcspec::transforms
