#include "reference/transforms/jvp_interpreter.h"

#include <fmt/format.h>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/dual.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

JvpInterpreter::JvpInterpreter(bool reverse)
    : Interpreter(TransformKind::Jvp), reverse_(reverse), grad_enabled_at_entry_(grad_enabled()) {}

bool JvpInterpreter::differentiating() const { return !reverse_ || grad_enabled(); }

bool JvpInterpreter::grad_mode_below() const { return grad_enabled() && (!reverse_ || grad_enabled_at_entry_); }

TensorList JvpInterpreter::process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  TensorList primals;
  TensorList tangents;
  bool any_tangent = false;
  for (const Tensor& t : inputs) {
    DualValue d = unwrap_dual(t, level());
    any_tangent = any_tangent || d.tangent.defined();
    primals.push_back(std::move(d.primal));
    tangents.push_back(std::move(d.tangent));
  }
  const bool differentiate = any_tangent && differentiating();
  TensorList outputs;
  {
    LowerScope lower(*this);
    GradModeGuard mode(grad_mode_below());
    outputs = call(op, primals, attrs);
  }
  // Host values (item()) are not tensors of any level.
  if (op.kind == OpKind::ScalarExtraction) return outputs;

  TensorList out_tangents(outputs.size());
  if (differentiate && !non_differentiable(op)) {
    const JvpRule* rule = jvp_rule(op);
    FUNCSPEC_INTERNAL_ASSERT(rule != nullptr, fmt::format("{} met a tangent but has no jvp rule and is not declared "
                                                          "non-differentiable",
                                                          op.name()));
    LowerScope lower(*this);
    GradModeGuard mode(grad_mode_below());
    out_tangents = (*rule)(JvpCall{primals, tangents, outputs, attrs});
    FUNCSPEC_INTERNAL_ASSERT(out_tangents.size() == outputs.size(),
                             fmt::format("the jvp rule of {} returned {} tangents for {} results", op.name(),
                                         out_tangents.size(), outputs.size()));
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    Tensor& tangent = out_tangents[k];
    if (!tangent.defined()) continue;
    // Integer and bool results carry no derivative.
    if (!outputs[k].defined() || !is_floating(outputs[k].dtype())) {
      tangent = Tensor();
      continue;
    }
    FUNCSPEC_INTERNAL_ASSERT(tangent.shape() == outputs[k].shape() && tangent.dtype() == outputs[k].dtype(),
                             fmt::format("the jvp rule of {} gave result {} a tangent {} {} for a primal {} {}",
                                         op.name(), k, dtype_name(tangent.dtype()), shape_to_string(tangent.shape()),
                                         dtype_name(outputs[k].dtype()), shape_to_string(outputs[k].shape())));
  }

  // An in-place op hands back the very tensor it wrote into (NOTE: [written inputs]), which takes the
  // written value's tangent.
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const std::optional<std::size_t> position = returned_written_input(op, k, inputs.size());
    if (!position) continue;
    const Tensor& target = inputs[*position];
    if (dual_payload(target, level()) == nullptr) {
      FUNCSPEC_CHECK(!out_tangents[k].defined(), ErrorKind::AdInplaceCaptured,
                     "[{}] writes a value that carries a derivative into a tensor created outside the transformed "
                     "function; its derivative cannot be tracked. Clone it inside the function first, or use the "
                     "out-of-place op",
                     op.name());
      continue;
    }
    // Inside no_grad the write is invisible to differentiation: the tangent stays.
    if (!differentiating()) continue;
    const bool changes_tangent = out_tangents[k].defined() || unwrap_dual(target, level()).tangent.defined();
    FUNCSPEC_CHECK(!changes_tangent || !has_live_aliases(target, level()), ErrorKind::AdInplaceAliased,
                   "[{}] writes a value that carries a derivative into a tensor that shares storage with a view "
                   "(or base) still in use; the reference tracks one derivative per tensor, so the other's would be "
                   "stale. Write into a clone, or use the out-of-place op",
                   op.name());
    set_tangent(target, out_tangents[k], level());
  }

  std::shared_ptr<AliasGroup> aliases;
  if (op.kind == OpKind::View && !inputs.empty()) {
    // A view of a captured tensor stays captured: a write through it must be refused as one.
    if (dual_payload(inputs[0], level()) == nullptr) return outputs;
    aliases = alias_group(inputs[0], level());
  }
  return results_returning_written_inputs(op, inputs, outputs.size(), [&](std::size_t k) {
    return outputs[k].defined() ? make_dual(outputs[k], out_tangents[k], level(), aliases) : outputs[k];
  });
}

}  // namespace funcspec::transforms
