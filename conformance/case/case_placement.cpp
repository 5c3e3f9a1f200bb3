#include "conformance/case/case_placement.h"

#include <variant>
#include <vector>

#include "conformance/case/case_tensors.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {

namespace {

// Creation ops of `steps` create on the GPU, unless a step asks for meta.
void place_creations_on_cuda(std::vector<OpCall>& steps) {
  for (OpCall& call : steps) {
    const OpDef* op = OpRegistry::instance().find(call.op);
    if (op == nullptr || op->schema.find_arg("device") == nullptr) continue;
    if (call.attrs.has("device") && call.attrs.get_string("device") == device_name(Device::Meta)) continue;
    call.attrs.set("device", std::string(device_name(Device::Cuda)));
  }
}

}  // namespace

Case placed_on_cuda(const Case& c) {
  Case placed = c;
  placed.device = Device::Cuda;
  // Every step the case runs is placed: f's program, the steps before vjp_fn or jvp_fn is called,
  // and the caller's steps after the call (case format 1.1).
  place_creations_on_cuda(placed.program);
  place_creations_on_cuda(placed.after);
  for (Transform& transform : placed.transforms) {
    if (auto* vjp = std::get_if<VjpTransform>(&transform)) place_creations_on_cuda(vjp->before_call);
    if (auto* jvp = std::get_if<JvpTransform>(&transform)) place_creations_on_cuda(jvp->before_call);
  }
  return placed;
}

Tensor placed_tensor(const TensorSpec& spec, Device device) {
  if (device == Device::Meta) return materialize_meta_tensor(spec);
  const Tensor on_host = materialize_tensor(spec);
  if (device != Device::Cuda) return on_host;
  const Tensor buffer = Tensor::view_of(on_host, {on_host.storage()->numel()}, {1}, 0);
  return Tensor::view_of(to_device(buffer, Device::Cuda), on_host.shape(), on_host.strides(), on_host.storage_offset());
}

bool is_on_run_device(const Tensor& result, Device device) {
  return device == Device::Cpu || result.device() == device || (device == Device::Cuda && result.is_wrapped_number());
}

TensorData host_values_of(const Tensor& result, Device device) {
  if (device == Device::Meta) return tensor_metadata_of(result);
  return tensor_data_of(device == Device::Cuda ? to_device(result, Device::Cpu) : result);
}

}  // namespace funcspec::conformance
