#pragma once
// The launchers of the spectral linalg ops' CUDA kernels (linalg_spectral.cu), called by the host
// glue (linalg_spectral.cpp). Plain C++17: pointers, geometries, strided views.
#include <cstdint>

#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {

// eigh: each matrix of `a` ([*, n, n], batch geometry `batch`) rebuilt symmetric from its lower (else
// upper) triangle (common::gather_symmetric) and decomposed by common::symmetric_eigen_in_place, one
// thread per matrix, in `workspace` (batch * (2n² + n) elements). `eigenvalues` is an n×1 matrix
// per batch element, `eigenvectors` n×n. float and double.
template <typename T>
void launch_eigh(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> eigenvalues,
                 BatchedMatrices<T> eigenvectors, bool lower);

}  // namespace funcspec::cuda
