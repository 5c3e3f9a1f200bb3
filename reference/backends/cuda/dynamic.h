#pragma once
// The dynamic family's CUDA kernels (host side): the signatures and semantics of
// reference/backends/cpu/dynamic.h for tensors on cuda; the outputs are allocated on cuda.
// NOTE: [cuda dynamic kernels] (dynamic_launch.h) tells how the row-major order is kept.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// Copies the one element to the host.
Scalar single_element(const Tensor& self);
Tensor nonzero_indices(const Tensor& self);
Tensor select_masked(const Tensor& self, const Tensor& mask);

}  // namespace funcspec::cuda
