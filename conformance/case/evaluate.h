#pragma once
// Running a case's program on the reference, through funcspec::call, and judging what came back.
// Running is backend-specific; judging (judge.h) is shared by every backend, so a backend only has
// to produce a ProgramResult. A runner's callers build their inputs with case_tensors.h, included
// here with the judge.
#include <map>
#include <optional>
#include <string>

#include "conformance/case/case.h"
#include "conformance/case/case_tensors.h"
#include "conformance/case/judge.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// Runs the program on the reference under random::GeneratorScope(case.seed). `compute_device` is
// where cpu cases compute: Device::Cpu, or Device::Cuda for the reference-cuda backend, which moves
// the inputs (layouts kept) to the GPU, creates tensors there, and brings the results back; meta
// cases stay on meta either way (case_placement.h). A cuda case needs compute_device cuda (else:
// unsupported).
ProgramResult run_on_reference(const Case& c, Device compute_device = Device::Cpu);

// The case's transformed program (without its seed scope) applied to engine tensors given by input
// name, in any dtype, the oracle's included; literal inputs come from the case. For suites that
// need the reference's values of a case at other points (finite differences in the oracle dtype).
// `transform_tensors_as` converts the floating tangents and cotangents the transforms carry (the
// oracle dtype, to differentiate in it). Throws what the program throws.
TensorList run_case_program(const Case& c, const std::map<std::string, Tensor, std::less<>>& tensor_inputs,
                            std::optional<DType> transform_tensors_as = std::nullopt);

inline Evaluation evaluate_on_reference(const Case& c) { return judge(c, run_on_reference(c)); }

}  // namespace funcspec::conformance
