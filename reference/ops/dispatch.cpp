#include "reference/ops/dispatch.h"

#include <fmt/format.h>

#include "reference/core/error.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/interpreter.h"

namespace funcspec {
namespace {

// Checks the positional tensor inputs against the schema; returns them padded with undefined
// tensors for omitted trailing optional inputs.
TensorList bind_inputs(const OpSchema& schema, const TensorList& inputs) {
  const std::vector<const ArgSpec*> specs = schema.tensor_args();
  const bool variadic = specs.size() == 1 && specs[0]->type == ArgType::TensorListArg;
  if (variadic) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      FUNCSPEC_CHECK(inputs[i].defined(), ErrorKind::InvalidArgument, "[{}] tensor {} of '{}' is undefined",
                     schema.name, i, specs[0]->name);
    }
    return inputs;
  }
  FUNCSPEC_CHECK(inputs.size() <= specs.size(), ErrorKind::InvalidArgument, "[{}] takes {} tensor inputs but got {}",
                 schema.name, specs.size(), inputs.size());
  TensorList bound = inputs;
  bound.resize(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    FUNCSPEC_CHECK(bound[i].defined() || specs[i]->optional, ErrorKind::InvalidArgument,
                   "[{}] missing tensor input '{}'", schema.name, specs[i]->name);
  }
  return bound;
}

// The device the op runs on: that of its tensor inputs, or, for an op without any (a creation op),
// its `device` attribute. Wrapped numbers are host literals and follow the other operands (a
// literal may meet a meta or cuda tensor); every other input must be on that device.
Device common_device(const std::string& op, TensorList& inputs, const Attrs& attrs) {
  std::optional<Device> device;
  for (const Tensor& t : inputs) {
    if (!t.defined() || t.is_wrapped_number()) continue;
    FUNCSPEC_CHECK(!device || *device == t.device(), ErrorKind::DeviceMismatch,
                   "[{}] expected all tensors on one device but found {} and {}", op, device_name(*device),
                   device_name(t.device()));
    device = t.device();
  }
  // An op on literals alone (the op layer converting one) stays where the literals are.
  for (const Tensor& t : inputs) {
    if (!device && t.defined()) device = t.device();
  }
  if (!device && attrs.has("device")) {
    const std::string& name = attrs.get_string("device");
    device = parse_device(name);
    FUNCSPEC_CHECK(device.has_value(), ErrorKind::InvalidArgument,
                   "[{}] unknown device '{}' (expected cpu, meta or cuda)", op, name);
  }
  const Device target = device.value_or(Device::Cpu);
  for (Tensor& t : inputs) {
    if (!t.defined() || !t.is_wrapped_number() || t.device() == target) continue;
    t = to_device(t, target);
  }
  return target;
}

const KernelFn& kernel_for(const OpDef& op, Device device) {
  if (device == Device::Cuda) {
    FUNCSPEC_CHECK(op.cuda_kernel != nullptr, ErrorKind::CudaNotAvailable, "[{}] has no CUDA kernel in this build",
                   op.name());
    return op.cuda_kernel;
  }
  return op.cpu_kernel;
}

TensorList run_views(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  const Tensor& base = inputs.at(0);
  TensorList outputs;
  for (ViewGeometry& g : op.view(base, attrs)) {
    outputs.push_back(Tensor::view_of(base, std::move(g.shape), std::move(g.strides), g.offset));
  }
  return outputs;
}

// The op layer's work (promotion, broadcasting) on a primitive's inputs.
TensorList canonical_inputs(const OpDef& op, const TensorList& bound_inputs, const Attrs& attrs) {
  // Literals move to the op's device before the op layer promotes them (which would turn them into
  // ordinary tensors).
  TensorList inputs = bound_inputs;
  common_device(op.name(), inputs, attrs);
  if (op.canonicalize) inputs = op.canonicalize(inputs, attrs);
  return inputs;
}

TensorList run_primitive(const OpDef& op, const TensorList& bound_inputs, const Attrs& attrs) {
  TensorList inputs = canonical_inputs(op, bound_inputs, attrs);
  // The devices are checked again on what the kernel will see.
  const Device device = common_device(op.name(), inputs, attrs);
  const bool dynamic = op.kind == OpKind::DynamicShape || op.kind == OpKind::ScalarExtraction;
  const bool in_place = op.kind == OpKind::InPlace;
  std::vector<TensorMeta> metas;
  if (op.infer) metas = op.infer(inputs, attrs);

  if (device == Device::Meta) {
    FUNCSPEC_CHECK(!dynamic, ErrorKind::DataDependentOnMeta,
                   "[{}] the result depends on tensor values, which meta tensors do not have", op.name());
  }
  TensorList outputs;
  if (in_place) {
    outputs.push_back(inputs.at(0));
  } else if (dynamic) {
    outputs.resize(op.schema.returns.size());
  } else {
    for (const TensorMeta& m : metas) outputs.push_back(Tensor::empty(m.shape, m.dtype, device));
  }
  std::optional<random::PhiloxStream> stream;
  if (op.kind == OpKind::Random) {
    std::uint64_t blocks = 0;
    if (op.random_draws) {
      blocks = op.random_draws(inputs, attrs);
    } else {
      for (const TensorMeta& m : metas) blocks += static_cast<std::uint64_t>(numel_of(m.shape));
    }
    // The offset advances on meta too, so a program draws the same bits whether or not an earlier
    // op ran on meta.
    stream = random::current_generator().reserve(blocks);
  }
  if (device == Device::Meta) return outputs;
  const KernelArgs args{inputs, attrs, outputs, stream ? &*stream : nullptr};
  kernel_for(op, device)(args);
  // Every write of the catalogue ends in an in-place primitive, so counting here counts them all
  // (NOTE: Storage::version).
  if (in_place && inputs.at(0).has_storage()) inputs.at(0).storage()->bump_version();
  return outputs;
}

}  // namespace

TensorList call(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  const Attrs bound_attrs = bind_attrs(op.schema, attrs);
  const TensorList bound_inputs = bind_inputs(op.schema, inputs);
  transforms::check_not_escaped(op.name(), bound_inputs);
  // Under a transform, everything with rules goes to the innermost visible interpreter (NOTE:
  // [interpreter stack]); composites and derived in-place ops decompose first, so the interpreter
  // sees their parts.
  // A primitive's op layer runs on what the transformed function sees (promotion and
  // broadcasting follow the examples' ranks and dtypes, not the batched values'), so its rules see
  // inputs of one dtype and one shape, as its kernel does.
  if (transforms::Interpreter* interpreter = transforms::visible_interpreter()) {
    const bool decomposes =
        op.kind == OpKind::Composite || op.kind == OpKind::OutVariant || (op.kind == OpKind::InPlace && op.decompose);
    if (op.kind == OpKind::OutVariant) transforms::check_out_variant(op, bound_inputs);
    if (!decomposes) {
      // A custom function takes its inputs as they are, like its forward (NOTE: [custom functions]).
      const bool has_op_layer = op.kind != OpKind::View && op.kind != OpKind::Custom;
      return interpreter->process(op, has_op_layer ? canonical_inputs(op, bound_inputs, bound_attrs) : bound_inputs,
                                  bound_attrs);
    }
  }
  switch (op.kind) {
    case OpKind::Composite:
    case OpKind::OutVariant:
    case OpKind::Custom: return op.decompose(bound_inputs, bound_attrs);
    case OpKind::InPlace:
      if (op.decompose) return op.decompose(bound_inputs, bound_attrs);
      return run_primitive(op, bound_inputs, bound_attrs);
    case OpKind::View: return run_views(op, bound_inputs, bound_attrs);
    case OpKind::Primitive:
    case OpKind::Random:
    case OpKind::DynamicShape:
    case OpKind::ScalarExtraction: return run_primitive(op, bound_inputs, bound_attrs);
  }
  FUNCSPEC_UNREACHABLE("unknown op kind");
}

TensorList call(std::string_view op, const TensorList& inputs, const Attrs& attrs) {
  return call(OpRegistry::instance().get(op), inputs, attrs);
}

Tensor call_one(std::string_view op, const TensorList& inputs, const Attrs& attrs) {
  TensorList outputs = call(op, inputs, attrs);
  FUNCSPEC_INTERNAL_ASSERT(outputs.size() == 1,
                           fmt::format("{} was called for one output but has {}", op, outputs.size()));
  return outputs[0];
}

}  // namespace funcspec
