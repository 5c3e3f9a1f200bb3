// CUDA kernels of lu_factor, matrix_exp and matrix_exp_frechet: one thread per matrix of the batch
// through the cpu's own per-matrix routines (reference/backends/common/linalg_lu.h, matrix_exp.h),
// so both backends perform the same operations in the same order. Compiled with --fmad=false
// (reference/CMakeLists.txt), as linalg.cu is, so that the bits agree too.
#include <cstdint>

#include "reference/backends/common/linalg_lu.h"
#include "reference/backends/common/matrix_exp.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_lu_exp_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__device__ T& lu_exp_element(const BatchedMatrices<T>& m, std::int64_t b, const Geometry& batch, std::int64_t i,
                             std::int64_t j) {
  return m.data[offset_of(b, batch, m.batch_strides) + i * m.row_stride + j * m.col_stride];
}

// Copies the matrix at batch position b of `m` into the row-major `dst` of `dst_cols` columns at
// (row0, col0).
template <typename T>
__device__ void read_block(const BatchedMatrices<const T>& m, std::int64_t b, const Geometry& batch, T* dst,
                           std::int64_t dst_cols, std::int64_t row0, std::int64_t col0) {
  for (std::int64_t i = 0; i < m.rows; ++i) {
    for (std::int64_t j = 0; j < m.cols; ++j) dst[(row0 + i) * dst_cols + col0 + j] = lu_exp_element(m, b, batch, i, j);
  }
}

template <typename T>
__global__ void lu_factor_kernel(Geometry batch, BatchedMatrices<const T> a, T* scratch, std::int64_t* index_scratch,
                                 BatchedMatrices<T> lu, BatchedMatrices<std::int64_t> pivots, bool pivot) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t m = a.rows;
    const std::int64_t n = a.cols;
    T* work = scratch + b * m * n;
    read_block(a, b, batch, work, n, 0, 0);
    const std::int64_t steps = m < n ? m : n;
    std::int64_t* rows = index_scratch + b * (m + steps);
    std::int64_t* lapack_pivots = rows + m;
    common::lu_factor_rectangular_in_place(work, m, n, rows, lapack_pivots, pivot);
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) lu_exp_element(lu, b, batch, i, j) = work[i * n + j];
    }
    for (std::int64_t k = 0; k < steps; ++k) lu_exp_element(pivots, b, batch, 0, k) = lapack_pivots[k];
  }
}

template <typename T>
__global__ void matrix_exp_kernel(Geometry batch, BatchedMatrices<const T> a, BatchedMatrices<const T> e, T* scratch,
                                  BatchedMatrices<T> out) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t n = a.rows;
    const bool frechet = e.data != nullptr;
    const std::int64_t size = frechet ? 2 * n : n;
    T* matrix = scratch + b * 4 * size * size;
    T* result = matrix + size * size;
    T* work = result + size * size;
    for (std::int64_t k = 0; k < size * size; ++k) matrix[k] = T(0);
    read_block(a, b, batch, matrix, size, 0, 0);
    if (frechet) {
      read_block(a, b, batch, matrix, size, n, n);
      read_block(e, b, batch, matrix, size, 0, n);
    }
    common::matrix_exp(matrix, size, result, work);
    const std::int64_t col0 = frechet ? n : 0;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) lu_exp_element(out, b, batch, i, j) = result[i * size + col0 + j];
    }
  }
}

constexpr int kThreadsPerLuExpBlock = 64;

unsigned lu_exp_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerLuExpBlock - 1) / kThreadsPerLuExpBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_lu_factor(const Geometry& batch, BatchedMatrices<const T> a, T* scratch, std::int64_t* index_scratch,
                      BatchedMatrices<T> lu, BatchedMatrices<std::int64_t> pivots, bool pivot) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(lu_exp_blocks(batch.numel), kThreadsPerLuExpBlock, lu_factor_kernel<T>)
  (batch, a, scratch, index_scratch, lu, pivots, pivot);
  check_launch("lu_factor kernel launch");
}

template <typename T>
void launch_matrix_exp(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> e, T* scratch,
                       BatchedMatrices<T> out) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(lu_exp_blocks(batch.numel), kThreadsPerLuExpBlock, matrix_exp_kernel<T>)(batch, a, e, scratch, out);
  check_launch("matrix_exp kernel launch");
}

#define FUNCSPEC_INSTANTIATE_LU_EXP(T)                                                                                \
  template void launch_lu_factor<T>(const Geometry&, BatchedMatrices<const T>, T*, std::int64_t*, BatchedMatrices<T>, \
                                    BatchedMatrices<std::int64_t>, bool);                                             \
  template void launch_matrix_exp<T>(const Geometry&, BatchedMatrices<const T>, BatchedMatrices<const T>, T*,         \
                                     BatchedMatrices<T>);
FUNCSPEC_INSTANTIATE_LU_EXP(float)
FUNCSPEC_INSTANTIATE_LU_EXP(double)
#undef FUNCSPEC_INSTANTIATE_LU_EXP

}  // namespace funcspec::cuda
