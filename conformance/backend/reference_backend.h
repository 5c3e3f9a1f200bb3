#pragma once
// The reference engine as a Backend, in this process. The same object answers the protocol in the
// funcspec-reference-backend executable and behind the reference plug-in, so all three ways in
// state the same capabilities and compute the same bytes.
#include <set>
#include <string>
#include <string_view>

#include "conformance/backend/backend.h"

namespace funcspec::conformance {

// The transforms the reference engine implements, by their case-file names. The single place to
// extend as the engine gains transforms (docs/case-format.md lists the names).
std::set<std::string, std::less<>> reference_transforms();

// funcspec's version (the project version in CMakeLists.txt), as reports and hellos state it.
std::string_view funcspec_version();

// What the reference states: every op of the catalogue, reference_transforms(), the case dtypes
// and the devices cpu and meta, plus cuda when `compute_device` is cuda.
Capabilities reference_capabilities(Device compute_device = Device::Cpu);

// `reference` computes on the cpu; `reference-cuda` is the same engine computing on the GPU: cpu
// and cuda cases run with their inputs moved to cuda (run_on_reference, evaluate.h), meta cases on
// meta. make_backend refuses reference-cuda where no GPU is usable.
class ReferenceBackend final : public Backend {
 public:
  explicit ReferenceBackend(Device compute_device = Device::Cpu);
  std::string spec() const override { return compute_device_ == Device::Cuda ? "reference-cuda" : "reference"; }
  const Capabilities& capabilities() const override { return capabilities_; }
  // Runs the case on the reference after the capability check; the timeout is ignored (an
  // in-process evaluation cannot be interrupted).
  ProgramResult evaluate(const Case& c, const EvaluateOptions& options) override;

 private:
  Device compute_device_;
  Capabilities capabilities_;
};

}  // namespace funcspec::conformance
