#pragma once
// CUDA kernels of the spectral linalg ops, with the cpu's signatures and semantics
// (reference/backends/cpu/linalg_spectral.h): inputs arrive canonical, on cuda.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void eigh(const Tensor& a, const Tensor& eigenvalues, const Tensor& eigenvectors, bool lower);

}  // namespace funcspec::cuda
