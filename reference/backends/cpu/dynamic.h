#pragma once
// Kernels whose output shape or host value depends on the input's values.
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// The single element of `self` as a host Scalar (bool, int64, or double for floating dtypes; the
// oracle's value is rounded to double).
Scalar single_element(const Tensor& self);
// int64 [n, rank]: the index of each non-zero element, in row-major order.
Tensor nonzero_indices(const Tensor& self);
// self's elements where mask (same shape, bool) is true, in row-major order, as a 1-D tensor.
Tensor select_masked(const Tensor& self, const Tensor& mask);

}  // namespace funcspec::cpu
