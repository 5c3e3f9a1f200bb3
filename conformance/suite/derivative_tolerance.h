#pragma once
// The tolerance of an expected derivative in the generated AD families (conformance/tolerances/
// ad.json, docs/conformance.md "Derivative tolerances"): one entry per (check, op, dtype).
#include <string>

#include "conformance/case/case.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance::ad {

// The case tolerance of `expected` (in the oracle dtype) for a check of `op`'s derivatives in `dtype`.
Tolerance derivative_tolerance(const std::string& check, const std::string& op, DType dtype, const Tensor& expected);

}  // namespace funcspec::conformance::ad
