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

// For every matrix of the batch (one thread each): l = common::cholesky_factor of `a` (both already
// laid out for a lower factor: the host glue transposes them for upper=True), and info (a view over
// `batch`) = its result. float and double.
template <typename T>
void launch_cholesky(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<T> l,
                     StridedView<std::int64_t> info);

}  // namespace funcspec::cuda
