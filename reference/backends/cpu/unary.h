#pragma once
// CPU kernels of the unary elementwise ops (reference/ops/unary.cpp declares the ops).
#include "reference/backends/cpu/unary_fn.h"
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// out[i] = fn(in[i]); `in` and `out` have one shape, and one dtype except for LogicalNot (bool out).
void unary_kernel(UnaryFn fn, const Tensor& in, const Tensor& out, const UnaryParams& params = {});

}  // namespace funcspec::cpu
