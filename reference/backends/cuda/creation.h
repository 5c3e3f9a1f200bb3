#pragma once
// CUDA kernels of the creation ops: the same interface and semantics as cpu/creation.h.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// Every element of `out` set to `value` converted to out's dtype.
void fill(const Tensor& out, const Scalar& value);

// out[i] = start + i * step, evaluated exactly in int64 when `integral`, else in double and then
// rounded once to out's dtype (the cpu kernel's formula, element for element).
void arange(const Tensor& out, const Scalar& start, const Scalar& step, bool integral);

}  // namespace funcspec::cuda
