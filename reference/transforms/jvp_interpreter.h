#pragma once
// The interpreter of a jvp level (NOTE: [dual tensors]): every op on duals of its level computes
// the primal results below the level and, when some input has a tangent, the results' tangents
// with the op's jvp rule (NOTE: [derivative rules]).
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {

class JvpInterpreter final : public Interpreter {
 public:
  // `reverse`: this level serves grad, vjp or jacrev, so no_grad regions entered after it switch
  // it off (NOTE: [no_grad]).
  explicit JvpInterpreter(bool reverse);
  TensorList process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) override;

 private:
  bool differentiating() const;
  bool reverse_;
  int no_grad_depth_at_entry_;
};

}  // namespace funcspec::transforms
