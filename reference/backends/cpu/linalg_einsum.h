#pragma once
// The cpu kernel of einsum, which executes an equation's plan (backends/common/einsum_plan.h).
#include "reference/backends/common/einsum_plan.h"
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// out = einsum over `operands` (all of out's dtype) following `plan`. float32 products and sums are
// carried in float64 and rounded once; int64 wraps around on overflow.
void einsum(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out);

}  // namespace funcspec::cpu
