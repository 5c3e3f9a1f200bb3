#pragma once
// NOTE: [custom functions]
// A custom function is a function with its own transform rules: the analogue of
// torch.autograd.Function (forward, setup_context, backward/vjp, jvp, the vmap staticmethod) and of
// JAX's custom_vjp and custom_jvp (docs/custom-rules.md; docs/SPEC.md, CUSTOM). It is declared by
// an op schema and it is an op: an OpDef of kind Custom (NOTE: [op kinds]) that call() dispatches
// like any other, so it composes with every transform and any nesting of them.
//  - Where no transform is visible, the call runs the forward. Its ops are plain: no transform
//    records, batches or differentiates the inside of a custom function.
//  - A transform sees the call whole, as one op, and uses the rules made from the definition
//    (OpDef::rules, NOTE: [op rules]):
//      vmap     the vmap rule; without one, the for-loop fallback, counted in fallback_log.h like
//               the fallback of any op without a batching rule;
//      jvp      the jvp rule, applied to the input tangents (zeros for floating inputs without one)
//               and to what setup_context saved; without one, custom_rule_missing;
//      reverse  NOTE: [custom functions on the tape];
//    and any other transform (composite compliance, functionalize) passes it down like an op.
//  - The rules run below their transform's level, as every rule does, so the ops they call are
//    seen by the outer transforms: grad of grad differentiates the vjp rule, vmap batches it. That
//    needs rules written with ops; a rule that reads values (data(), item()) works only where no
//    transform wraps what it reads.
// The forward and the rules compute from what they are given: a tensor of a running transform
// captured from outside is not theirs to use (torch.func has the same limit), and they do not
// apply transforms themselves.
//
// NOTE: [custom functions on the tape]
// Reverse mode linearizes f and transposes the tape (NOTE: [reverse mode]). A call of a custom
// function that has a vjp rule goes on the tape as one opaque linear step, made for that call:
// its constant operands are what setup_context saved, its linear operands the input tangents,
// and its results the output tangents.
//  - Transposing the step (grad, vjp, jacrev) calls the vjp rule.
//  - Evaluating the step forward (linearize's jvp_fn) calls the jvp rule, or raises
//    custom_rule_missing when the function has none, as torch.func raises for an
//    autograd.Function without jvp.
// A custom function with a jvp rule and no vjp rule is linearized through its jvp rule: the tape
// records the ops the rule applies to the tangents and transposes them one by one, so its vjp is
// the transpose of its jvp, as with JAX's custom_jvp (torch.autograd.Function would raise
// instead). Such a jvp rule must be linear in the tangents, as a derivative is, and apply only ops
// that have transpose rules (NOTE: [derivative rules]).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "reference/ops/attrs.h"
#include "reference/ops/op_def.h"
#include "reference/transforms/op_rules.h"

namespace funcspec {
class OpRegistry;
}

namespace funcspec::transforms {

// What setup_context keeps for the rules: tensors (ctx.save_for_backward in PyTorch, the
// residuals of JAX's custom_vjp) and other values (attributes set on ctx).
struct SavedContext {
  TensorList tensors;
  Attrs values;
};

// What a jvp or vjp rule sees of the call it differentiates.
struct CustomContext {
  const TensorList& saved;  // setup_context's tensors
  const Attrs& values;      // setup_context's other values
  const Attrs& attrs;       // the call's attributes (its non-tensor arguments, bound to the schema)
};

// What a vmap rule sees: torch.autograd.Function.vmap's (info, in_dims, *args).
struct CustomVmapCall {
  const BatchedValues& inputs;  // per tensor input: the whole batch and its batch dim (none: not batched)
  const Attrs& attrs;
  std::int64_t batch_size;
  Randomness randomness;
};

// inputs (one per Tensor argument of the schema) -> outputs (one per result).
using CustomForward = std::function<TensorList(const TensorList& inputs, const Attrs& attrs)>;
using CustomSetupContext =
    std::function<SavedContext(const TensorList& inputs, const TensorList& outputs, const Attrs& attrs)>;
// One cotangent per output (zeros for a floating output that received none, undefined for the
// others) -> one cotangent per input, of the input's shape and dtype (undefined: zero). What it
// returns for an input that is not floating is ignored.
using CustomVjp = std::function<TensorList(const CustomContext& context, const TensorList& cotangents)>;
// One tangent per input (zeros for a floating input that has none, undefined for the others) ->
// one tangent per output, of the output's shape and dtype (undefined: zero).
using CustomJvp = std::function<TensorList(const CustomContext& context, const TensorList& tangents)>;
// The results for the whole batch, each with its batch dim (none: the same for every example).
using CustomVmapRule = std::function<BatchedValues(const CustomVmapCall& call)>;

struct CustomFunctionDef {
  // An op schema, e.g. "clip_gradient(Tensor x, float min, float max) -> Tensor": Tensor arguments
  // (not optional, not lists, not written into) are the inputs, the others attributes; the results
  // are Tensors (at least one, none aliasing an input).
  std::string schema;
  CustomForward forward;             // required
  CustomSetupContext setup_context;  // optional: saves nothing
  CustomVjp vjp;                     // optional (see NOTE: [custom functions on the tape])
  CustomJvp jvp;                     // optional
  CustomVmapRule vmap;               // optional: the counted vmap fallback
};

// A custom function of the user's: an op outside the catalogue, owned by the handle (copies
// share it). Calling it is calling its op.
class CustomFunction {
 public:
  // Checks the definition: a schema as above and a forward; otherwise invalid_argument.
  explicit CustomFunction(CustomFunctionDef def, std::string summary = "a user-defined custom function");

  TensorList operator()(const TensorList& inputs, const Attrs& attrs = {}) const;
  const OpDef& op() const { return *op_; }
  const std::string& name() const { return op_->name(); }

 private:
  std::shared_ptr<const OpDef> op_;
};

// Declares `def` as an op of the catalogue, of family "custom" (the spec-defined custom functions
// of reference/ops/custom_ops.cpp).
void register_custom_function(OpRegistry& registry, CustomFunctionDef def, std::string summary);

}  // namespace funcspec::transforms
