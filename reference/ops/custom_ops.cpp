// The spec-defined custom functions (docs/SPEC.md, CUSTOM-3.x): ops of kind Custom whose
// forward and rules the spec states, so that case files can call them and a backend that declares
// them implements exactly these rules. Each is an ordinary custom function (NOTE: [custom
// functions]); their rules are chosen to be told apart from the derivative of the forward.
#include "reference/api/ops.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"
#include "reference/transforms/custom_function.h"

namespace funcspec {
namespace {

using transforms::BatchedValues;
using transforms::CustomContext;
using transforms::CustomFunctionDef;
using transforms::CustomVmapCall;
using transforms::SavedContext;

// The vmap rule of a function applied elementwise: the function itself on the whole batch, whose
// batch dim stays where it was.
transforms::CustomVmapRule elementwise_vmap_rule(std::string op) {
  return [op = std::move(op)](const CustomVmapCall& call) {
    const transforms::BatchedValue& input = call.inputs.at(0);
    return BatchedValues{{call_one(op, {input.value}, call.attrs), input.bdim}};
  };
}

TensorList pass_derivative_through(const CustomContext&, const TensorList& values) { return values; }

SavedContext save_all_inputs(const TensorList& inputs, const TensorList&, const Attrs&) { return {inputs, {}}; }

CustomFunctionDef straight_through_round() {
  CustomFunctionDef def;
  def.schema = "custom.straight_through_round(Tensor self) -> Tensor";
  def.forward = [](const TensorList& inputs, const Attrs&) { return TensorList{ops::round(inputs.at(0))}; };
  def.vjp = pass_derivative_through;
  def.jvp = pass_derivative_through;
  def.vmap = elementwise_vmap_rule("custom.straight_through_round");
  return def;
}

// A jvp rule and no vjp rule: reverse mode transposes the jvp (NOTE: [custom functions on the tape]).
CustomFunctionDef straight_through_sign() {
  CustomFunctionDef def;
  def.schema = "custom.straight_through_sign(Tensor self) -> Tensor";
  def.forward = [](const TensorList& inputs, const Attrs&) { return TensorList{ops::sign(inputs.at(0))}; };
  def.jvp = pass_derivative_through;
  def.vmap = elementwise_vmap_rule("custom.straight_through_sign");
  return def;
}

// log(1 + exp(x)) without overflow: exp is only taken of -|x| <= 0.
CustomFunctionDef log1pexp() {
  CustomFunctionDef def;
  def.schema = "custom.log1pexp(Tensor self) -> Tensor";
  def.forward = [](const TensorList& inputs, const Attrs&) {
    const Tensor& x = inputs.at(0);
    return TensorList{ops::add(ops::relu(x), ops::log1p(ops::exp(ops::neg(ops::abs(x)))))};
  };
  def.setup_context = save_all_inputs;
  def.vjp = [](const CustomContext& context, const TensorList& cotangents) {
    return TensorList{ops::mul(cotangents.at(0), ops::sigmoid(context.saved.at(0)))};
  };
  def.jvp = [](const CustomContext& context, const TensorList& tangents) {
    return TensorList{ops::mul(tangents.at(0), ops::sigmoid(context.saved.at(0)))};
  };
  def.vmap = elementwise_vmap_rule("custom.log1pexp");
  return def;
}

// The identity whose cotangents are clipped to [min, max] on the way back (JAX's clip_gradient). A
// vjp rule and no jvp rule: forward-mode differentiation raises custom_rule_missing.
CustomFunctionDef clip_gradient() {
  CustomFunctionDef def;
  def.schema = "custom.clip_gradient(Tensor self, float min, float max) -> Tensor";
  def.forward = [](const TensorList& inputs, const Attrs& attrs) {
    const double min = attrs.get_float("min");
    const double max = attrs.get_float("max");
    FUNCSPEC_CHECK(min <= max, ErrorKind::InvalidArgument,
                   "[custom.clip_gradient] min {} is greater than max {}; the clipping interval is empty", min, max);
    return TensorList{ops::clone(inputs.at(0))};
  };
  def.vjp = [](const CustomContext& context, const TensorList& cotangents) {
    const Tensor min = ops::lit(context.attrs.get_float("min"));
    const Tensor max = ops::lit(context.attrs.get_float("max"));
    return TensorList{ops::clamp(cotangents.at(0), min, max)};
  };
  def.vmap = elementwise_vmap_rule("custom.clip_gradient");
  return def;
}

}  // namespace

void register_custom_ops(OpRegistry& registry) {
  transforms::register_custom_function(
      registry, straight_through_round(),
      "round(self), half to even; vjp and jvp pass the (co)tangent through unchanged (a straight-through estimator)");
  transforms::register_custom_function(
      registry, straight_through_sign(),
      "sign(self); jvp passes the tangent through, and it has no vjp rule: reverse mode transposes the jvp");
  transforms::register_custom_function(
      registry, log1pexp(),
      "log(1 + exp(self)) computed as relu(self) + log1p(exp(-|self|)); vjp g * sigmoid(self), jvp t * sigmoid(self)");
  transforms::register_custom_function(
      registry, clip_gradient(),
      "a copy of self; vjp clamps the cotangent to [min, max]; no jvp rule (forward mode raises custom_rule_missing)");
}

}  // namespace funcspec
