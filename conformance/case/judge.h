#pragma once
// Judging what a backend returned for a case against the case's expectation. Judging is shared by
// every backend, so a backend only has to produce a ProgramResult.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/case/case.h"
#include "reference/core/error.h"

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

// Compares a result with the case's expectation: values within tolerance (NaN equals NaN; shapes
// and dtypes must match exactly) or the expected error kind.
Evaluation judge(const Case& c, ProgramResult result);

}  // namespace funcspec::conformance
