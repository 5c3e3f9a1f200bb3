#pragma once
// CUDA kernel of svd, with the cpu's signature and semantics (reference/backends/cpu/linalg_svd.h):
// inputs arrive canonical, on cuda.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void svd(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices);

}  // namespace funcspec::cuda
