#pragma once
// The tolerance of an expected derivative in the generated AD families (conformance/tolerances/
// ad.json, docs/conformance.md "Derivative tolerances"): one entry per (check, op, dtype).
#include <string>

#include "conformance/case/case.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance::ad {

// The case tolerance of `expected` (in the oracle dtype) for a check of `op`'s derivatives in
// `dtype`, on a sample at a special point of the op or not.
//
// Derivatives are sums of products whose rounding follows their largest terms, so the absolute
// part of the bound, atol, scales with the tensor's largest element (at least 1). That bound is
// blind to small derivatives: tanh'(20) ~ 1.7e-17 computed as 0 would pass within 1e-10. So where
// the derivatives are small -- the sample sits at a special point of the op, or every element of
// the tensor is below `tiny_below` (a saturated or underflowing region) -- atol scales with the
// smallest nonzero element instead (never up), which makes the bound relative there. A wrong tiny
// derivative (0 for 4e-18) then fails, while one computed with honest relative rounding passes.
// Values below `oracle_zero_below` times max(1, the largest) count as the oracle's noise around a
// zero: a derivative that small is not told from zero.
Tolerance derivative_tolerance(const std::string& check, const std::string& op, DType dtype, const Tensor& expected,
                               bool special_point);

}  // namespace funcspec::conformance::ad
