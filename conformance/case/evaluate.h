#pragma once
// Running a case's program and judging what came back against the case's expectation. Running is
// backend-specific (here: the reference, through funcspec::call); judging is shared by every
// backend, so a backend only has to produce a ProgramResult.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "conformance/case/case.h"
#include "reference/core/error.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// Error: the backend never produced a judgeable answer (it crashed, hung or broke the protocol).
enum class Verdict { Pass, Fail, Unsupported, Error };
std::string_view verdict_name(Verdict verdict);

// How a backend failed to answer a case at all; the run survives every one of them.
enum class Fault { None, Crash, Timeout, Protocol };
std::string_view fault_name(Fault fault);

// What a backend returned for a case: the named results, or the kind of error it raised, or the
// reason it could not run the case at all.
struct ProgramResult {
  std::vector<std::pair<std::string, TensorData>> outputs;
  std::optional<ErrorKind> error;
  std::string error_message;
  std::optional<std::string> unsupported;  // why the backend cannot run the case
  std::string broken;                      // a result no case can expect (an oracle or meta output)
  Fault fault = Fault::None;               // with the details in `broken`
};

struct Evaluation {
  Verdict verdict = Verdict::Fail;
  std::string reason;  // empty on a pass
  // Largest differences over every compared element (0 when nothing was compared); ulps are
  // measured in the expected dtype and are infinite across a NaN/number or sign-of-inf mismatch.
  double max_abs_error = 0;
  double max_ulp_error = 0;
  // The tolerance of the output whose comparison decided the verdict: the first failing one, or
  // on a pass the one the largest error was held to.
  Tolerance tolerance;
  ProgramResult result;
};

// The tensor an input spec describes, laid out as its layout says (on cpu).
Tensor materialize_tensor(const TensorSpec& spec);
// The same geometry on meta (no storage): the input of a meta case.
Tensor materialize_meta_tensor(const TensorSpec& spec);
// A contiguous copy of a cpu tensor's values; an oracle-dtype tensor is refused (CaseError).
TensorData tensor_data_of(const Tensor& tensor);
// Dtype and shape alone, no bytes: a result of a meta case.
TensorData tensor_metadata_of(const Tensor& tensor);

// Runs the program on the reference under random::GeneratorScope(case.seed). `compute_device` is
// where cpu cases compute: Device::Cpu, or Device::Cuda for the reference-cuda backend, which moves
// the inputs (layouts kept) to the GPU, creates tensors there, and brings the results back; meta
// cases stay on meta either way. A cuda case needs compute_device cuda (else: unsupported).
ProgramResult run_on_reference(const Case& c, Device compute_device = Device::Cpu);

// The case's transformed program (without its seed scope) applied to engine tensors given by input
// name, in any dtype, the oracle's included; literal inputs come from the case. For suites that
// need the reference's values of a case at other points (finite differences in the oracle dtype).
// `transform_tensors_as` converts the floating tangents and cotangents the transforms carry (the
// oracle dtype, to differentiate in it). Throws what the program throws.
TensorList run_case_program(const Case& c, const std::map<std::string, Tensor, std::less<>>& tensor_inputs,
                            std::optional<DType> transform_tensors_as = std::nullopt);

// Compares a result with the case's expectation: values within tolerance (NaN equals NaN; shapes
// and dtypes must match exactly) or the expected error kind.
Evaluation judge(const Case& c, ProgramResult result);

inline Evaluation evaluate_on_reference(const Case& c) { return judge(c, run_on_reference(c)); }

}  // namespace funcspec::conformance
