#pragma once
// CUDA kernel of copies and dtype conversions: the same interface and semantics as cpu/copy.h.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// Writes src (same shape as dst, any dtype, any strides) into dst element by element, converting
// with cast_scalar. dst must not overlap src (the op layer materialises src first when it does).
void copy_elements(const Tensor& src, const Tensor& dst);

}  // namespace funcspec::cuda
