#pragma once
// Kernels of the creation ops: they write every element of a freshly allocated output.
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// Every element of `out` set to `value` converted to out's dtype.
void fill(const Tensor& out, const Scalar& value);

// out[i] = start + i * step, evaluated exactly in int64 when `integral`, else in the wider of
// double and out's dtype and then rounded once to out's dtype.
void arange(const Tensor& out, const Scalar& start, const Scalar& step, bool integral);

}  // namespace funcspec::cpu
