#pragma once
// CUDA kernels of the unary elementwise ops: the same interface and semantics as cpu/unary.h.
#include "reference/backends/common/unary_fn.h"
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// out[i] = fn(in[i]); `in` and `out` have one shape, and one dtype except for LogicalNot (bool out).
void unary_kernel(common::UnaryFn fn, const Tensor& in, const Tensor& out, const common::UnaryParams& params = {});

}  // namespace funcspec::cuda
