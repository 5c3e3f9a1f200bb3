#include "conformance/case/case_placement.h"

#include "conformance/case/case_tensors.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {

Case placed_on_cuda(const Case& c) {
  Case placed = c;
  placed.device = Device::Cuda;
  for (OpCall& call : placed.program) {
    const OpDef* op = OpRegistry::instance().find(call.op);
    if (op == nullptr || op->schema.find_arg("device") == nullptr) continue;
    if (call.attrs.has("device") && call.attrs.get_string("device") == device_name(Device::Meta)) continue;
    call.attrs.set("device", std::string(device_name(Device::Cuda)));
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
