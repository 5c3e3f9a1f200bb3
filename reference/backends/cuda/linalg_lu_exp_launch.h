#pragma once
// The launchers of lu_factor's and matrix_exp's CUDA kernels (linalg_lu_exp.cu), called by the host
// glue (linalg_lu_exp.cpp). Plain C++17. One thread per matrix runs the cpu's per-matrix routine
// (reference/backends/common/linalg_lu.h, matrix_exp.h) on a row-major copy in device scratch.
#include <cstdint>

#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {

// lu_factor: each m×n matrix of `a` (batch geometry `batch`) factored by
// common::lu_factor_rectangular_in_place in `scratch` (batch * m * n elements; `index_scratch`
// batch * (m + min(m, n)): the row permutation and the pivots), then written to `lu` and its
// min(m, n) pivots to `pivots` (an int64 matrix of 1 row per batch element).
template <typename T>
void launch_lu_factor(const Geometry& batch, BatchedMatrices<const T> a, T* scratch, std::int64_t* index_scratch,
                      BatchedMatrices<T> lu, BatchedMatrices<std::int64_t> pivots, bool pivot);

// matrix_exp (e.data null) or matrix_exp_frechet: the exponential of each n×n matrix of `a`, or of
// the 2n×2n block matrix [[a, e], [0, a]] whose upper-right block is written; `scratch` holds
// batch * 4 * s * s elements for s = n (or 2n).
template <typename T>
void launch_matrix_exp(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> e, T* scratch,
                       BatchedMatrices<T> out);

}  // namespace funcspec::cuda
