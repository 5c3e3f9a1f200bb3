#pragma once
// The interpreter of one vmap level (NOTE: [interpreter stack], [batched tensors]): it unwraps the
// inputs batched at its level, applies the op's batching rule (or the counted for-loop fallback),
// and wraps the results. It also enforces what vmap cannot do: random ops its randomness flag
// forbids, in-place writes of batched results into tensors that are not batched, out= variants,
// and ops that need values (item, bool conversion, nonzero).
#include "reference/transforms/batch_rules.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

class VmapInterpreter final : public Interpreter {
 public:
  explicit VmapInterpreter(BatchContext context) : Interpreter(TransformKind::Vmap), context_(context) {}
  const BatchContext& context() const { return context_; }
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override;
  // The copy_ an out= variant decomposes into would raise an in-place error that hides the real
  // limitation: raises vmap_out_variant when an input is batched at this level.
  void check_out_variant(const OpDef& op, const TensorList& inputs) const override;

 private:
  BatchContext context_;
};

// The for-loop fallback: the op once per example, results stacked along dim 0 (written-into
// inputs keep their own bdim). Correct for every op; used when there is no rule, and counted.
BatchedValues vmap_fallback(const OpDef& op, const BatchedValues& inputs, const Attrs& attrs,
                            const BatchContext& context);

}  // namespace funcspec::transforms
