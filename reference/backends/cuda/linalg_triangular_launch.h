#pragma once
// The launchers of the triangular and Cholesky kernels (linalg_triangular.cu), called by their host
// glue (linalg_triangular.cpp). Plain C++17: pointers, geometries, batched matrix views.
#include <cstdint>

#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {

// For every matrix of the batch (geometry `batch`, one thread each): each column c of x is first
// column c of b, then solved in place by common::triangular_substitute with `a`'s triangle (`upper`
// or lower, `unitriangular`). `a`, `b` and `x` are already laid out for a left solve (the host glue
// transposes them, and flips `upper`, for left=False). float and double.
template <typename T>
void launch_solve_triangular(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> b,
                             BatchedMatrices<T> x, bool upper, bool unitriangular);

}  // namespace funcspec::cuda
