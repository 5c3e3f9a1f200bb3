#include "conformance/backend/reference_backend.h"

#include "conformance/case/evaluate.h"
#include "funcspec_backend_version.h"
#include "reference/ops/registry.h"

namespace funcspec::conformance {

std::string_view funcspec_version() { return FUNCSPEC_VERSION_STRING; }

std::set<std::string, std::less<>> reference_transforms() {
  // Every transform the case format names (docs/case-format.md, *Transforms*): the engine runs each.
  return {"vmap",    "grad",          "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd",
          "hessian", "functionalize", "functional_call"};
}

Capabilities reference_capabilities(Device compute_device) {
  Capabilities capabilities;
  capabilities.name = "funcspec-reference";
  capabilities.version = std::string(funcspec_version());
  for (const OpDef* op : OpRegistry::instance().all()) capabilities.ops.insert(op->schema.name);
  capabilities.transforms = reference_transforms();
  capabilities.dtypes = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};
  capabilities.devices = {std::string(device_name(Device::Cpu)), std::string(device_name(Device::Meta))};
  capabilities.features = {"aliased_inputs", "autograd_api",      "before_call",
                           "call_modes",     "grad_mode_regions", "stored_values"};
  if (compute_device == Device::Cuda) capabilities.devices.insert(std::string(device_name(Device::Cuda)));
  return capabilities;
}

ReferenceBackend::ReferenceBackend(Device compute_device)
    : compute_device_(compute_device), capabilities_(reference_capabilities(compute_device)) {}

ProgramResult ReferenceBackend::evaluate(const Case& c, const EvaluateOptions& /*options*/) {
  if (std::optional<std::string> missing = missing_capability(capabilities_, c)) {
    ProgramResult result;
    result.unsupported = std::move(*missing);
    return result;
  }
  return run_on_reference(c, compute_device_);
}

}  // namespace funcspec::conformance
