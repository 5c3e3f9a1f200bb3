// The for-loop fallback of vmap (NOTE: [batching rules]): what every batching rule must agree with.
#include <fmt/format.h>

#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap_interpreter.h"

namespace funcspec::transforms {
namespace {

Tensor example(const BatchedValue& input, std::int64_t index) {
  if (!input.batched() || !input.value.defined()) return input.value;
  return call_one("select", {input.value}, {{"dim", *input.bdim}, {"index", index}});
}

// The same geometry without storage: what the op infers for an example when the batch is empty.
Tensor meta_example(const BatchedValue& input) {
  if (!input.value.defined()) return input.value;
  Shape shape = input.value.shape();
  Strides strides = input.value.strides();
  if (input.batched()) {
    shape.erase(shape.begin() + *input.bdim);
    strides.erase(strides.begin() + *input.bdim);
  }
  auto impl = std::make_shared<TensorImpl>(nullptr, shape, strides, 0, input.value.dtype(), Device::Meta);
  impl->set_wrapped_number(input.value.is_wrapped_number());
  return Tensor(std::move(impl));
}

}  // namespace

BatchedValues vmap_fallback(const OpDef& op, const BatchedValues& inputs, const Attrs& attrs,
                            const BatchContext& context) {
  note_vmap_fallback(op.name());
  BatchedValues results;
  if (context.batch_size == 0) {
    TensorList meta_inputs;
    for (const BatchedValue& input : inputs) meta_inputs.push_back(meta_example(input));
    Attrs meta_attrs = attrs;
    if (op.schema.find_arg("device") != nullptr) meta_attrs.set("device", std::string("meta"));
    for (const Tensor& out : call(op, meta_inputs, meta_attrs)) {
      Shape shape = out.shape();
      shape.insert(shape.begin(), 0);
      const Device device =
          inputs.empty() || !inputs.front().value.defined() ? Device::Cpu : inputs.front().value.device();
      results.push_back({Tensor::empty(shape, out.dtype(), device), 0});
    }
  } else {
    std::vector<TensorList> per_output;
    for (std::int64_t b = 0; b < context.batch_size; ++b) {
      TensorList examples;
      for (const BatchedValue& input : inputs) examples.push_back(example(input, b));
      TensorList outs = call(op, examples, attrs);
      if (per_output.empty()) per_output.resize(outs.size());
      FUNCSPEC_CHECK(outs.size() == per_output.size(), ErrorKind::ShapeMismatch,
                     "[{}] under vmap, the examples returned different numbers of tensors", op.name());
      for (std::size_t k = 0; k < outs.size(); ++k) per_output[k].push_back(outs[k]);
    }
    for (TensorList& slices : per_output) results.push_back({call_one("stack", slices, {{"dim", 0}}), 0});
  }
  // The written-into inputs are results too: their examples were written through views.
  return results_returning_written_inputs(op, inputs, results.size(), [&](std::size_t k) { return results[k]; });
}

}  // namespace funcspec::transforms
