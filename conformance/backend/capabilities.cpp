// missing_capability: what a case needs that a backend does not state it has.
#include <fmt/format.h>

#include <variant>

#include "conformance/backend/backend.h"

namespace funcspec::conformance {

namespace {

// The first tensor of the case (inputs, then tangents and cotangents, then expected values) whose
// dtype is outside `dtypes`.
std::optional<DType> first_missing_dtype(const std::set<DType>& dtypes, const Case& c) {
  auto missing = [&](const TensorSpec& spec) { return dtypes.count(spec.data.dtype) == 0; };
  for (const CaseInput& in : c.inputs) {
    if (const auto* spec = std::get_if<TensorSpec>(&in.value); spec != nullptr && missing(*spec))
      return spec->data.dtype;
  }
  for (const Transform& transform : c.transforms) {
    if (const auto* vjp = std::get_if<VjpTransform>(&transform)) {
      for (const NamedTensor& n : vjp->cotangents)
        if (missing(n.tensor)) return n.tensor.data.dtype;
    }
    if (const auto* jvp = std::get_if<JvpTransform>(&transform)) {
      for (const NamedTensor& n : jvp->tangents)
        if (missing(n.tensor)) return n.tensor.data.dtype;
    }
  }
  for (const ExpectedValue& v : c.expect.values)
    if (missing(v.tensor)) return v.tensor.data.dtype;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> missing_capability(const Capabilities& capabilities, const Case& c) {
  const std::string_view who = capabilities.name.empty() ? std::string_view("the backend") : capabilities.name;
  const std::string_view device = device_name(c.device);
  if (capabilities.devices.count(device) == 0)
    return fmt::format("the case runs on the device '{}', which {} does not support", device, who);
  if (const std::optional<DType> dtype = first_missing_dtype(capabilities.dtypes, c))
    return fmt::format("the case uses the dtype '{}', which {} does not support", dtype_name(*dtype), who);
  for (const OpCall& call : c.program) {
    if (call.is_autograd_call()) continue;  // a feature (autograd_api), checked below
    if (capabilities.ops.count(call.op) == 0)
      return fmt::format("the case calls the op '{}', which {} does not implement", call.op, who);
  }
  for (const Transform& transform : c.transforms) {
    const std::string_view name = transform_name(transform);
    if (capabilities.transforms.count(name) == 0)
      return fmt::format("the case applies the transform '{}', which {} does not implement", name, who);
  }
  std::vector<OpCall> outside = c.after;
  for (const Transform& transform : c.transforms) {
    if (const auto* vjp = std::get_if<VjpTransform>(&transform))
      outside.insert(outside.end(), vjp->before_call.begin(), vjp->before_call.end());
    if (const auto* jvp = std::get_if<JvpTransform>(&transform))
      outside.insert(outside.end(), jvp->before_call.begin(), jvp->before_call.end());
  }
  for (const OpCall& call : outside) {
    if (capabilities.ops.count(call.op) == 0)
      return fmt::format("the case calls the op '{}', which {} does not implement", call.op, who);
  }
  for (std::string_view feature : case_features(c)) {
    if (capabilities.features.count(feature) == 0)
      return fmt::format("the case uses '{}' of case format 1.1, which {} does not state among its features", feature,
                         who);
  }
  return std::nullopt;
}

}  // namespace funcspec::conformance
