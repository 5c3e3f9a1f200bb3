#include "reference/transforms/custom_function.h"

#include <fmt/format.h>

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/interpreter.h"
#include "reference/transforms/linear_trace.h"

namespace funcspec::transforms {
namespace {

// Everything the op and the rules it carries need of one custom function. The rules hold it, not
// the OpDef, so that an OpDef and its rules do not own each other.
struct CustomFunctionImpl {
  OpSchema schema;
  CustomFunctionDef def;
  OpSchema step_schema;  // of the linear steps its calls record (NOTE: [custom functions on the tape])
};
using ImplPtr = std::shared_ptr<const CustomFunctionImpl>;

std::string describe_meta(const TensorMeta& meta) {
  return fmt::format("{} {}", dtype_name(meta.dtype), shape_to_string(meta.shape));
}

TensorMeta tensor_meta(const Tensor& t) { return {t.shape(), t.dtype()}; }

// --- Declaration ---

OpSchema parse_custom_schema(const std::string& text) {
  OpSchema schema;
  try {
    schema = parse_schema(text);
  } catch (const std::exception& e) {
    // parse_schema reports a malformed catalogue schema as a bug in funcspec; here it is the user's.
    fail(ErrorKind::InvalidArgument, "[custom function] {}", e.what());
  }
  const std::string& name = schema.name;
  FUNCSPEC_CHECK(!name.empty(), ErrorKind::InvalidArgument, "[custom function] the schema '{}' names no function",
                 text);
  for (const ArgSpec& arg : schema.args) {
    if (!arg.is_tensor()) continue;
    FUNCSPEC_CHECK(arg.type == ArgType::TensorArg && !arg.optional && arg.alias.empty() && !arg.mutated,
                   ErrorKind::InvalidArgument,
                   "[{}] argument '{}' of a custom function must be a plain Tensor (not optional, not a list, not "
                   "written into): '{}'",
                   name, arg.name, text);
  }
  FUNCSPEC_CHECK(!schema.returns.empty(), ErrorKind::InvalidArgument,
                 "[{}] a custom function must return at least one Tensor: '{}'", name, text);
  for (const ReturnSpec& ret : schema.returns) {
    FUNCSPEC_CHECK(ret.type == ArgType::TensorArg && ret.alias.empty(), ErrorKind::InvalidArgument,
                   "[{}] a custom function returns new Tensors only (no lists, no aliases of its inputs): '{}'", name,
                   text);
  }
  return schema;
}

ImplPtr make_impl(CustomFunctionDef def) {
  OpSchema schema = parse_custom_schema(def.schema);
  FUNCSPEC_CHECK(def.forward != nullptr, ErrorKind::InvalidArgument, "[{}] a custom function needs a forward",
                 schema.name);
  OpSchema step_schema = parse_schema("linear_step(Tensor[] operands) -> Tensor[]");
  step_schema.name = schema.name + ".linear_step";
  return std::make_shared<const CustomFunctionImpl>(
      CustomFunctionImpl{std::move(schema), std::move(def), std::move(step_schema)});
}

// --- Forward and context ---

TensorList run_custom_forward(const CustomFunctionImpl& fn, const TensorList& inputs, const Attrs& attrs) {
  TensorList outputs = fn.def.forward(inputs, attrs);
  FUNCSPEC_CHECK(outputs.size() == fn.schema.returns.size(), ErrorKind::CustomRuleMismatch,
                 "[{}] the forward returned {} tensors but the schema declares {} results", fn.schema.name,
                 outputs.size(), fn.schema.returns.size());
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    FUNCSPEC_CHECK(outputs[k].defined(), ErrorKind::CustomRuleMismatch,
                   "[{}] the forward returned an undefined tensor as result {}", fn.schema.name, k);
  }
  return outputs;
}

SavedContext run_setup_context(const CustomFunctionImpl& fn, const TensorList& inputs, const TensorList& outputs,
                               const Attrs& attrs) {
  if (!fn.def.setup_context) return {};
  SavedContext saved = fn.def.setup_context(inputs, outputs, attrs);
  for (std::size_t i = 0; i < saved.tensors.size(); ++i) {
    FUNCSPEC_CHECK(saved.tensors[i].defined(), ErrorKind::CustomRuleMismatch,
                   "[{}] setup_context saved an undefined tensor at position {}", fn.schema.name, i);
  }
  return saved;
}

// --- Checking what the rules return ---

// `results` of a jvp or vjp rule against the values they belong to (outputs for tangents, inputs
// for cotangents): one each, of the value's shape and dtype or undefined where the value is
// floating; entries for values that are not floating are dropped.
TensorList checked_derivatives(const CustomFunctionImpl& fn, std::string_view rule, std::string_view what,
                               TensorList results, const std::vector<TensorMeta>& metas) {
  FUNCSPEC_CHECK(results.size() == metas.size(), ErrorKind::CustomRuleMismatch,
                 "[{}] the {} rule returned {} {}s for {} values; return one per value (undefined for zero)",
                 fn.schema.name, rule, results.size(), what, metas.size());
  for (std::size_t k = 0; k < results.size(); ++k) {
    Tensor& r = results[k];
    if (!is_floating(metas[k].dtype)) {
      r = Tensor();
      continue;
    }
    if (!r.defined()) continue;
    FUNCSPEC_CHECK(r.shape() == metas[k].shape && r.dtype() == metas[k].dtype, ErrorKind::CustomRuleMismatch,
                   "[{}] the {} rule returned a {} {} for value {}, which is {}; it must have the value's shape and "
                   "dtype",
                   fn.schema.name, rule, what, describe_meta(tensor_meta(r)), k, describe_meta(metas[k]));
  }
  return results;
}

// Zeros for the floating entries of `values` that are undefined, as the rules receive them.
TensorList with_zeros_materialized(TensorList values, const std::vector<TensorMeta>& metas, Device device) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!values[k].defined() && is_floating(metas[k].dtype)) values[k] = zeros_of(metas[k], device);
  }
  return values;
}

std::vector<TensorMeta> tensor_metas(const TensorList& values) {
  std::vector<TensorMeta> metas;
  for (const Tensor& v : values) metas.push_back(tensor_meta(v));
  return metas;
}

Device first_device(const TensorList& values) {
  for (const Tensor& v : values) {
    if (v.defined() && !v.is_wrapped_number()) return v.device();
  }
  return Device::Cpu;
}

TensorList apply_jvp_rule(const CustomFunctionImpl& fn, const SavedContext& saved, const Attrs& attrs,
                          const TensorList& tangents, const std::vector<TensorMeta>& output_metas) {
  const CustomContext context{saved.tensors, saved.values, attrs};
  return checked_derivatives(fn, "jvp", "tangent", fn.def.jvp(context, tangents), output_metas);
}

TensorList apply_vjp_rule(const CustomFunctionImpl& fn, const SavedContext& saved, const Attrs& attrs,
                          const TensorList& cotangents, const std::vector<TensorMeta>& input_metas) {
  const CustomContext context{saved.tensors, saved.values, attrs};
  return checked_derivatives(fn, "vjp", "cotangent", fn.def.vjp(context, cotangents), input_metas);
}

// --- The linear step (NOTE: [custom functions on the tape]) ---

// What one recorded step needs to evaluate or transpose itself. Its operands are the saved
// tensors, then the tangents of the floating inputs; its results the tangents of the floating
// outputs.
struct LinearStepPlan {
  Attrs attrs;
  Attrs saved_values;
  std::size_t saved_count = 0;
  std::vector<TensorMeta> input_metas;
  std::vector<TensorMeta> output_metas;
  std::vector<std::size_t> tangent_inputs;   // the input of each tangent operand
  std::vector<std::size_t> tangent_outputs;  // the output of each result
  Device device = Device::Cpu;
};

SavedContext saved_operands(const LinearStepPlan& plan, const TensorList& operands) {
  return {TensorList(operands.begin(), operands.begin() + static_cast<std::ptrdiff_t>(plan.saved_count)),
          plan.saved_values};
}

// linearize's jvp_fn: the output tangents from the input tangents.
TensorList evaluate_step(const CustomFunctionImpl& fn, const LinearStepPlan& plan, const TensorList& operands) {
  FUNCSPEC_CHECK(fn.def.jvp != nullptr, ErrorKind::CustomRuleMissing,
                 "[{}] has no jvp rule, and evaluating its linearization forward (linearize's jvp_fn) needs one; "
                 "its vjp rule serves reverse mode (grad, vjp, jacrev) only",
                 fn.schema.name);
  TensorList tangents(plan.input_metas.size());
  for (std::size_t j = 0; j < plan.tangent_inputs.size(); ++j) {
    tangents[plan.tangent_inputs[j]] = operands.at(plan.saved_count + j);
  }
  const TensorList out =
      apply_jvp_rule(fn, saved_operands(plan, operands), plan.attrs,
                     with_zeros_materialized(tangents, plan.input_metas, plan.device), plan.output_metas);
  TensorList results;
  for (std::size_t k : plan.tangent_outputs) results.push_back(out[k]);  // undefined: zero, as on any tape
  return results;
}

// vjp_fn: the tangent operands' cotangents from the results'.
TensorList transpose_step(const CustomFunctionImpl& fn, const LinearStepPlan& plan, const TransposeCall& call) {
  TensorList cotangents(plan.output_metas.size());
  for (std::size_t j = 0; j < plan.tangent_outputs.size(); ++j)
    cotangents[plan.tangent_outputs[j]] = call.cotangents[j];
  const TensorList input_cotangents = apply_vjp_rule(
      fn, saved_operands(plan, call.inputs), plan.attrs,
      with_zeros_materialized(cotangents, plan.output_metas, first_device(call.cotangents)), plan.input_metas);
  TensorList per_operand(plan.saved_count);
  for (std::size_t i : plan.tangent_inputs) per_operand.push_back(input_cotangents[i]);
  return per_operand;
}

std::shared_ptr<const OpDef> make_linear_step(const ImplPtr& fn, std::shared_ptr<const LinearStepPlan> plan) {
  auto step = std::make_shared<OpDef>();
  step->schema = fn->step_schema;
  // A composite: evaluated, it decomposes into the jvp rule's ops, which the transforms around
  // jvp_fn see as they would any.
  step->kind = OpKind::Composite;
  step->family = "custom";
  step->summary = "one call of a custom function on a linear tape";
  step->decompose = [fn, plan](const TensorList& operands, const Attrs&) {
    return evaluate_step(*fn, *plan, operands);
  };
  auto rules = std::make_shared<OpRules>();
  rules->transpose = [fn, plan](const TransposeCall& call) { return transpose_step(*fn, *plan, call); };
  step->rules = std::move(rules);
  return step;
}

// The linear level whose variables some of `tangents` are, when it is the visible interpreter: the
// call is being linearized for reverse mode (grad, vjp, jacrev) or linearize.
LinearInterpreter* linearizing_level(const TensorList& tangents) {
  auto* linear = dynamic_cast<LinearInterpreter*>(visible_interpreter());
  if (linear == nullptr) return nullptr;
  for (const Tensor& t : tangents) {
    if (linear->variable_id(t) >= 0) return linear;
  }
  return nullptr;
}

TensorList record_linear_step(const ImplPtr& fn, LinearInterpreter& linear, SavedContext saved, const JvpCall& call) {
  auto plan = std::make_shared<LinearStepPlan>();
  plan->attrs = call.attrs;
  plan->saved_values = std::move(saved.values);
  plan->saved_count = saved.tensors.size();
  plan->input_metas = tensor_metas(call.primals);
  plan->output_metas = tensor_metas(call.outputs);

  LinearNode node;
  for (Tensor& t : saved.tensors) {
    node.input_metas.push_back(tensor_meta(t));
    node.input_ids.push_back(-1);
    node.constants.push_back(std::move(t));
  }
  std::optional<Device> device;
  for (std::size_t i = 0; i < call.primals.size(); ++i) {
    const TensorMeta& meta = plan->input_metas[i];
    if (!is_floating(meta.dtype)) continue;
    plan->tangent_inputs.push_back(i);
    node.input_metas.push_back(meta);
    const Tensor& tangent = call.tangents[i];
    const std::int64_t id = linear.variable_id(tangent);
    node.input_ids.push_back(id);
    if (id >= 0) {
      node.constants.emplace_back();
      device = device.value_or(linear.tape()->device(id));
    } else {
      // A zero tangent (or, from a rule, a constant one) is a constant operand.
      node.constants.push_back(tangent.defined() ? tangent : zeros_of(meta, call.primals[i].device()));
    }
  }
  plan->device = device.value_or(first_device(call.outputs));

  TensorList out_tangents(call.outputs.size());
  for (std::size_t k = 0; k < call.outputs.size(); ++k) {
    const TensorMeta& meta = plan->output_metas[k];
    if (!is_floating(meta.dtype)) continue;
    plan->tangent_outputs.push_back(k);
    out_tangents[k] = linear.variable(meta, plan->device);
    node.output_ids.push_back(linear.variable_id(out_tangents[k]));
    node.output_metas.push_back(meta);
  }
  node.owned_op = make_linear_step(fn, std::move(plan));
  node.op = node.owned_op.get();
  linear.tape()->record(std::move(node));
  return out_tangents;
}

// The function's jvp rule as the jvp interpreter asks for it (NOTE: [derivative rules]).
TensorList custom_jvp(const ImplPtr& fn, const JvpCall& call) {
  SavedContext saved = run_setup_context(*fn, call.primals, call.outputs, call.attrs);
  if (LinearInterpreter* linear = linearizing_level(call.tangents)) {
    if (fn->def.vjp) return record_linear_step(fn, *linear, std::move(saved), call);
    FUNCSPEC_CHECK(fn->def.jvp != nullptr, ErrorKind::CustomRuleMissing,
                   "[{}] has neither a vjp nor a jvp rule, and linearizing it (grad, vjp, jacrev, linearize) needs "
                   "one of them",
                   fn->schema.name);
  }
  FUNCSPEC_CHECK(fn->def.jvp != nullptr, ErrorKind::CustomRuleMissing,
                 "[{}] has no jvp rule, and forward-mode differentiation (jvp, jacfwd, hessian) needs one{}",
                 fn->schema.name, fn->def.vjp ? "; its vjp rule serves reverse mode (grad, vjp, jacrev) only" : "");
  const std::vector<TensorMeta> input_metas = tensor_metas(call.primals);
  return apply_jvp_rule(*fn, saved, call.attrs,
                        with_zeros_materialized(call.tangents, input_metas, first_device(call.primals)),
                        tensor_metas(call.outputs));
}

// The function's vmap rule as the vmap interpreter asks for it (NOTE: [batching rules]).
BatchedValues custom_batch(const CustomFunctionImpl& fn, const BatchedValues& inputs, const Attrs& attrs,
                           const BatchContext& context) {
  BatchedValues results = fn.def.vmap(CustomVmapCall{inputs, attrs, context.batch_size, context.randomness});
  const std::string& name = fn.schema.name;
  FUNCSPEC_CHECK(results.size() == fn.schema.returns.size(), ErrorKind::CustomRuleMismatch,
                 "[{}] the vmap rule returned {} results but the schema declares {}", name, results.size(),
                 fn.schema.returns.size());
  for (std::size_t k = 0; k < results.size(); ++k) {
    BatchedValue& r = results[k];
    FUNCSPEC_CHECK(r.value.defined(), ErrorKind::CustomRuleMismatch,
                   "[{}] the vmap rule returned an undefined tensor as result {}", name, k);
    if (!r.bdim) continue;
    const std::int64_t rank = r.value.dim();
    FUNCSPEC_CHECK(*r.bdim >= -rank && *r.bdim < rank, ErrorKind::CustomRuleMismatch,
                   "[{}] the vmap rule gave result {} (shape {}) the batch dim {}, outside [{}, {})", name, k,
                   shape_to_string(r.value.shape()), *r.bdim, -rank, rank);
    if (*r.bdim < 0) *r.bdim += rank;
    const std::int64_t size = r.value.shape()[static_cast<std::size_t>(*r.bdim)];
    FUNCSPEC_CHECK(size == context.batch_size, ErrorKind::CustomRuleMismatch,
                   "[{}] the vmap rule returned result {} with {} examples at its batch dim {}, for a batch of {}",
                   name, k, size, *r.bdim, context.batch_size);
  }
  return results;
}

void define_custom_op(OpDef& op, const ImplPtr& fn) {
  op.decompose = [fn](const TensorList& inputs, const Attrs& attrs) { return run_custom_forward(*fn, inputs, attrs); };
  auto rules = std::make_shared<OpRules>();
  rules->jvp = [fn](const JvpCall& call) { return custom_jvp(fn, call); };
  if (fn->def.vmap) {
    rules->batch = [fn](const BatchedValues& inputs, const Attrs& attrs, const BatchContext& context) {
      return custom_batch(*fn, inputs, attrs, context);
    };
  }
  op.rules = std::move(rules);
}

}  // namespace

CustomFunction::CustomFunction(CustomFunctionDef def, std::string summary) {
  const ImplPtr fn = make_impl(std::move(def));
  auto op = std::make_shared<OpDef>();
  op->schema = fn->schema;
  op->kind = OpKind::Custom;
  op->family = "custom";
  op->summary = std::move(summary);
  define_custom_op(*op, fn);
  op_ = std::move(op);
}

TensorList CustomFunction::operator()(const TensorList& inputs, const Attrs& attrs) const {
  return call(*op_, inputs, attrs);
}

void register_custom_function(OpRegistry& registry, CustomFunctionDef def, std::string summary) {
  const ImplPtr fn = make_impl(std::move(def));
  OpDef& op = registry.add(fn->schema, OpKind::Custom, "custom", std::move(summary));
  define_custom_op(op, fn);
}

}  // namespace funcspec::transforms
