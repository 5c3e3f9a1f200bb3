#pragma once
// The launcher of svd's CUDA kernel (linalg_svd.cu), called by the host glue (linalg_svd.cpp).
// Plain C++17: pointers, geometries, strided views.
#include <cstdint>

#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {

// svd: each matrix of `a` ([*, m, n], batch geometry `batch`) decomposed by common::svd_in_place, one
// thread per matrix, in `workspace` (batch * common::SvdDimensions::workspace() elements). `s` is a
// k×1 matrix per batch element, `u` and `vh` the factors in the shapes full_matrices gives them.
// float and double.
template <typename T>
void launch_svd(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> u,
                BatchedMatrices<T> s, BatchedMatrices<T> vh, bool full_matrices);

}  // namespace funcspec::cuda
