#pragma once
// CPU kernels of the unary elementwise ops (reference/ops/unary.cpp declares the ops).
#include "reference/backends/common/unary_fn.h"
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// out[i] = fn(in[i]); `in` and `out` have one shape, and one dtype except for LogicalNot (bool out).
void unary_kernel(common::UnaryFn fn, const Tensor& in, const Tensor& out, const common::UnaryParams& params = {});

}  // namespace funcspec::cpu
