#pragma once
// The interpreter of a jvp level (NOTE: [dual tensors]): every op on duals of its level computes
// the primal results below the level and, when some input has a tangent, the results' tangents
// with the op's jvp rule (NOTE: [derivative rules]).
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

class JvpInterpreter final : public Interpreter {
 public:
  // `reverse`: this level serves grad, vjp or jacrev, so no_grad regions switch it off, and what it
  // hands down runs with the grad mode it was entered with (NOTE: [no_grad]).
  explicit JvpInterpreter(bool reverse);
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override;

 private:
  bool differentiating() const;
  // The grad mode for the levels below while this level computes on their values: off when this
  // reverse level was entered inside a no_grad region (NOTE: [no_grad]).
  bool grad_mode_below() const;
  bool reverse_;
  bool grad_enabled_at_entry_;
};

}  // namespace funcspec::transforms
