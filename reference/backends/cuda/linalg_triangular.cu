// CUDA kernels of the triangular and Cholesky ops: one thread per matrix of the batch through the
// cpu's own per-matrix routines (reference/backends/common/linalg_triangular_solve.h), so both
// backends perform the same operations in the same order. Compiled with --fmad=false
// (reference/CMakeLists.txt), so that no `v -= a * x` is fused and the bits agree with the cpu's.
#include <cstdint>

#include "reference/backends/common/linalg_cholesky.h"
#include "reference/backends/common/linalg_triangular_solve.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_triangular_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__device__ T* matrix_at(const BatchedMatrices<T>& m, std::int64_t b, const Geometry& batch) {
  return m.data + offset_of(b, batch, m.batch_strides);
}

template <typename T>
__global__ void solve_triangular_kernel(Geometry batch, BatchedMatrices<const T> a, BatchedMatrices<const T> rhs,
                                        BatchedMatrices<T> x, bool upper, bool unitriangular) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const T* matrix = matrix_at(a, b, batch);
    const T* source = matrix_at(rhs, b, batch);
    T* target = matrix_at(x, b, batch);
    for (std::int64_t c = 0; c < rhs.cols; ++c) {
      T* column = target + c * x.col_stride;
      for (std::int64_t i = 0; i < rhs.rows; ++i)
        column[i * x.row_stride] = source[i * rhs.row_stride + c * rhs.col_stride];
      common::triangular_substitute(matrix, a.row_stride, a.col_stride, a.rows, upper, unitriangular, column,
                                    x.row_stride);
    }
  }
}

template <typename T>
__global__ void cholesky_kernel(Geometry batch, BatchedMatrices<const T> a, BatchedMatrices<T> l,
                                StridedView<std::int64_t> info) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    element_at(info, b, batch) = common::cholesky_factor(matrix_at(a, b, batch), a.row_stride, a.col_stride, a.rows,
                                                         matrix_at(l, b, batch), l.row_stride, l.col_stride);
  }
}

// One thread per matrix: blocks of 64 threads so that small batches still spread over the SMs.
constexpr int kThreadsPerTriangularBlock = 64;

unsigned triangular_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerTriangularBlock - 1) / kThreadsPerTriangularBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_solve_triangular(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> b,
                             BatchedMatrices<T> x, bool upper, bool unitriangular) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(triangular_blocks(batch.numel), kThreadsPerTriangularBlock, solve_triangular_kernel<T>)
  (batch, a, b, x, upper, unitriangular);
  check_launch("solve_triangular kernel launch");
}

template <typename T>
void launch_cholesky(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<T> l,
                     StridedView<std::int64_t> info) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(triangular_blocks(batch.numel), kThreadsPerTriangularBlock, cholesky_kernel<T>)(batch, a, l, info);
  check_launch("cholesky kernel launch");
}

template void launch_cholesky<float>(const Geometry&, BatchedMatrices<const float>, BatchedMatrices<float>,
                                     StridedView<std::int64_t>);
template void launch_cholesky<double>(const Geometry&, BatchedMatrices<const double>, BatchedMatrices<double>,
                                      StridedView<std::int64_t>);
template void launch_solve_triangular<float>(const Geometry&, BatchedMatrices<const float>,
                                             BatchedMatrices<const float>, BatchedMatrices<float>, bool, bool);
template void launch_solve_triangular<double>(const Geometry&, BatchedMatrices<const double>,
                                              BatchedMatrices<const double>, BatchedMatrices<double>, bool, bool);

}  // namespace funcspec::cuda
