#include "reference/transforms/linear_trace.h"

#include <fmt/format.h>

#include "reference/api/ops.h"
#include "reference/core/error.h"
#include "reference/core/wrapper_walk.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace {

// A meta tensor with `t`'s geometry and dtype, standing for `t` when the linear level works out
// the shape and dtype of a recorded op's results.
Tensor meta_placeholder(const Tensor& t) {
  const Shape& shape = t.shape();
  const Strides& strides = t.strides();
  const DType dtype = t.dtype();
  Tensor placeholder = Tensor::empty(shape, dtype, Device::Meta);
  if (strides != placeholder.strides() && numel_of(shape) > 0) {
    // Views must see the same geometry as they will at evaluation.
    std::int64_t span = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) span += (shape[d] - 1) * strides[d];
    placeholder = Tensor::view_of(Tensor::empty({span}, dtype, Device::Meta), shape, strides, 0);
  }
  if (t.is_wrapped_number()) placeholder.impl_ptr()->set_wrapped_number(true);
  return placeholder;
}

}  // namespace

void LinearTape::snapshot_constants_sharing(const void* memory, const std::function<Tensor(const Tensor&)>& copy) {
  if (memory == nullptr) return;
  for (LinearNode& node : nodes_) {
    for (Tensor& constant : node.constants) {
      if (constant.defined() && memory_identity(constant) == memory) constant = copy(constant);
    }
  }
}

std::int64_t LinearTape::new_variable(TensorMeta meta, Device device) {
  metas_.push_back(std::move(meta));
  devices_.push_back(device);
  return static_cast<std::int64_t>(metas_.size()) - 1;
}

TensorList LinearTape::evaluate(const std::vector<std::int64_t>& inputs, const TensorList& input_values,
                                const std::vector<std::int64_t>& outputs) const {
  FUNCSPEC_INTERNAL_ASSERT(inputs.size() == input_values.size(), "one value per linear input");
  TensorList env(metas_.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    // Recorded views assumed the contiguous layout a fresh variable has.
    if (input_values[i].defined()) env[static_cast<std::size_t>(inputs[i])] = ops::contiguous(input_values[i]);
  }
  for (const LinearNode& node : nodes_) {
    bool any = false;
    for (std::int64_t id : node.input_ids) any = any || (id >= 0 && env[static_cast<std::size_t>(id)].defined());
    if (!any) continue;  // every linear input is zero, so is every result
    TensorList args = node.constants;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::int64_t id = node.input_ids[i];
      if (id < 0) continue;
      const Tensor& value = env[static_cast<std::size_t>(id)];
      args[i] = value.defined() ? value : zeros_of(meta(id), device(id));
    }
    const TensorList results = call(*node.op, args, node.attrs);
    for (std::size_t k = 0; k < node.output_ids.size(); ++k) {
      env[static_cast<std::size_t>(node.output_ids[k])] = results.at(k);
    }
  }
  TensorList values;
  for (std::int64_t id : outputs) values.push_back(id < 0 ? Tensor() : env[static_cast<std::size_t>(id)]);
  return values;
}

TensorList LinearTape::transpose(const std::vector<std::int64_t>& inputs, const std::vector<std::int64_t>& outputs,
                                 const TensorList& output_cotangents) const {
  FUNCSPEC_INTERNAL_ASSERT(outputs.size() == output_cotangents.size(), "one cotangent per linear output");
  TensorList env(metas_.size());
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    if (outputs[k] < 0) continue;
    Tensor& slot = env[static_cast<std::size_t>(outputs[k])];
    slot = add_tangents(slot, output_cotangents[k]);
  }
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    const LinearNode& node = *it;
    TensorList cotangents;
    bool any = false;
    for (std::int64_t id : node.output_ids) {
      Tensor& slot = env[static_cast<std::size_t>(id)];
      cotangents.push_back(slot);
      any = any || slot.defined();
      slot = Tensor();  // consumed: intermediate cotangents do not outlive their use
    }
    if (!any) continue;
    std::vector<bool> linear;
    for (std::int64_t id : node.input_ids) linear.push_back(id >= 0);
    const TransposeRule* rule = transpose_rule(*node.op);
    FUNCSPEC_INTERNAL_ASSERT(rule != nullptr, "a recorded linear op without a transpose rule");
    const TensorList input_cotangents =
        (*rule)(TransposeCall{node.constants, linear, node.input_metas, node.output_metas, cotangents, node.attrs});
    for (std::size_t i = 0; i < node.input_ids.size(); ++i) {
      const std::int64_t id = node.input_ids[i];
      if (id < 0 || i >= input_cotangents.size() || !input_cotangents[i].defined()) continue;
      const Tensor& ct = input_cotangents[i];
      FUNCSPEC_INTERNAL_ASSERT(ct.shape() == meta(id).shape && ct.dtype() == meta(id).dtype,
                               fmt::format("the transpose rule of {} returned a cotangent {} {} for an input {} {}",
                                           node.op->name(), dtype_name(ct.dtype()), shape_to_string(ct.shape()),
                                           dtype_name(meta(id).dtype), shape_to_string(meta(id).shape)));
      Tensor& slot = env[static_cast<std::size_t>(id)];
      slot = add_tangents(slot, ct);
    }
  }
  TensorList result;
  for (std::int64_t id : inputs) result.push_back(env[static_cast<std::size_t>(id)]);
  return result;
}

Tensor LinearInterpreter::variable(const TensorMeta& meta, Device device) {
  const std::int64_t id = tape_->new_variable(meta, device);
  return Tensor::transform_wrapper(meta.shape, contiguous_strides(meta.shape), meta.dtype, device,
                                   std::make_shared<LinearPayload>(level(), id));
}

std::int64_t LinearInterpreter::variable_id(const Tensor& tensor) const {
  if (!tensor.defined() || tensor.payload() == nullptr || tensor.payload()->level() != level()) return -1;
  const auto* payload = dynamic_cast<const LinearPayload*>(tensor.payload());
  return payload == nullptr ? -1 : payload->id();
}

TensorList LinearInterpreter::process(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  std::vector<std::int64_t> ids;
  bool any = false;
  for (const Tensor& t : inputs) {
    ids.push_back(variable_id(t));
    any = any || ids.back() >= 0;
  }
  if (!any) {
    LowerScope lower(*this);
    // An in-place write must not change the values the tape saved: those it is about to overwrite
    // are copied first, as they are now (PyTorch instead refuses, through version counters).
    for (std::size_t position : written_inputs(op)) {
      if (position >= inputs.size()) continue;
      tape_->snapshot_constants_sharing(memory_identity(inputs[position]),
                                        [](const Tensor& t) { return ops::clone(t); });
    }
    return call(op, inputs, attrs);
  }
  FUNCSPEC_INTERNAL_ASSERT(
      transpose_rule(op) != nullptr && op.kind != OpKind::InPlace,
      fmt::format("a jvp rule applied {} to a tangent, but {} has no transpose rule (jvp rules may only apply "
                  "linear ops with transpose rules to tangents)",
                  op.name(), op.name()));
  LinearNode node;
  node.op = &op;
  node.attrs = attrs;
  node.input_ids = ids;
  Device device = Device::Cpu;
  TensorList placeholders;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    node.constants.push_back(ids[i] >= 0 ? Tensor() : t);
    node.input_metas.push_back(t.defined() ? TensorMeta{t.shape(), t.dtype()} : TensorMeta{{}, DType::Float32});
    if (ids[i] >= 0) device = tape_->device(ids[i]);
    placeholders.push_back(t.defined() ? meta_placeholder(t) : Tensor());
  }
  TensorList results;
  {
    // Shapes and dtypes only: the op runs on meta placeholders, with every transform hidden.
    NoTransformScope no_transforms;
    results = call(op, placeholders, attrs);
  }
  TensorList outputs;
  for (const Tensor& r : results) {
    const std::int64_t id = tape_->new_variable({r.shape(), r.dtype()}, device);
    node.output_ids.push_back(id);
    node.output_metas.push_back({r.shape(), r.dtype()});
    outputs.push_back(Tensor::transform_wrapper(r.shape(), r.strides(), r.dtype(), device,
                                                std::make_shared<LinearPayload>(level(), id)));
  }
  tape_->record(std::move(node));
  return outputs;
}

}  // namespace funcspec::transforms
