#pragma once
// The launcher of the QR decomposition's CUDA kernel (linalg_qr.cu), called by the host glue
// (linalg_qr.cpp). Plain C++17: pointers, geometries, strided views.
#include <cstdint>

#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {

// qr: each matrix of `a` ([*, m, n], batch geometry `batch`) copied row-major into `workspace`
// (batch * (m·n + k + m·q_cols) elements) and factored by common::householder_qr_in_place, one
// thread per matrix; R's r.rows rows go to `r` and, where `compute_q`, Q's q.cols columns
// (common::householder_q) to `q`. float and double.
template <typename T>
void launch_qr(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> q,
               BatchedMatrices<T> r, bool compute_q);

}  // namespace funcspec::cuda
