// CUDA kernels of the linalg family: the triangular masks, and the LU-based det, slogdet, inverse
// and solve. The LU kernels run one thread per matrix of the batch through the cpu's own per-matrix
// routines (reference/backends/common/linalg_lu.h), so both backends perform the same operations in
// the same order. This file is compiled with --fmad=false (reference/CMakeLists.txt): nvcc would
// otherwise fuse the eliminations' `a -= m * b` into fused multiply-adds, which round once where
// the cpu rounds twice, and the bits would differ.
#include <cstdint>

#include "reference/backends/common/linalg_lu.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__global__ void tril_triu_kernel(Geometry geometry, StridedView<const T> in, StridedView<T> out, std::int64_t diagonal,
                                 bool lower) {
  const std::int64_t rows = geometry.sizes[geometry.rank - 2];
  const std::int64_t cols = geometry.sizes[geometry.rank - 1];
  FUNCSPEC_GRID_STRIDE_LOOP(linear, geometry.numel) {
    const std::int64_t j = linear % cols;
    const std::int64_t i = (linear / cols) % rows;
    const bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
    element_at(out, linear, geometry) = keep ? element_at(in, linear, geometry) : T(0);
  }
}

// Copies the matrix at batch position b of `a` into `dst` (row-major, rows * cols), as the cpu's
// gather_matrix does.
template <typename T>
__device__ void gather_matrix(const BatchedMatrices<const T>& a, std::int64_t b, const Geometry& batch, T* dst) {
  const T* base = a.data + offset_of(b, batch, a.batch_strides);
  for (std::int64_t i = 0; i < a.rows; ++i) {
    for (std::int64_t j = 0; j < a.cols; ++j) dst[i * a.cols + j] = base[i * a.row_stride + j * a.col_stride];
  }
}

template <typename T>
__device__ T& matrix_element(const BatchedMatrices<T>& m, std::int64_t b, const Geometry& batch, std::int64_t i,
                             std::int64_t j) {
  return m.data[offset_of(b, batch, m.batch_strides) + i * m.row_stride + j * m.col_stride];
}

// Gathers and factors the matrix at batch position b into its workspace slice.
template <typename T>
__device__ common::LuPivoting factor(const BatchedMatrices<const T>& a, std::int64_t b, const Geometry& batch,
                                     const LuWorkspace<T>& workspace) {
  const std::int64_t n = a.rows;
  T* lu = workspace.lu + b * n * n;
  gather_matrix(a, b, batch, lu);
  return common::lu_factor_in_place(lu, n, workspace.row_of + b * n);
}

template <typename T>
__global__ void det_kernel(Geometry batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace, StridedView<T> out) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const common::LuPivoting pivoting = factor(a, b, batch, workspace);
    element_at(out, b, batch) =
        common::lu_determinant(workspace.lu + b * a.rows * a.rows, a.rows, pivoting.odd_permutation);
  }
}

template <typename T>
__global__ void slogdet_kernel(Geometry batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace,
                               StridedView<T> sign, StridedView<T> logabsdet) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const common::LuPivoting pivoting = factor(a, b, batch, workspace);
    common::lu_sign_and_log_abs_determinant(workspace.lu + b * a.rows * a.rows, a.rows, pivoting.odd_permutation,
                                            pivoting.zero_pivot >= 0, element_at(sign, b, batch),
                                            element_at(logabsdet, b, batch));
  }
}

template <typename T>
__global__ void inverse_kernel(Geometry batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace,
                               BatchedMatrices<T> out) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t n = a.rows;
    const common::LuPivoting pivoting = factor(a, b, batch, workspace);
    workspace.zero_pivot[b] = pivoting.zero_pivot;
    if (pivoting.zero_pivot >= 0) continue;
    const T* lu = workspace.lu + b * n * n;
    const std::int64_t* row_of = workspace.row_of + b * n;
    T* column = workspace.vectors + b * 2 * n;
    T* solution = column + n;
    // Column j of the inverse solves A·x = e_j.
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < n; ++i) column[i] = T(0);
      column[j] = T(1);
      common::lu_solve(lu, row_of, n, column, solution);
      for (std::int64_t i = 0; i < n; ++i) matrix_element(out, b, batch, i, j) = solution[i];
    }
  }
}

template <typename T>
__global__ void solve_kernel(Geometry batch, BatchedMatrices<const T> a, BatchedMatrices<const T> rhs,
                             LuWorkspace<T> workspace, BatchedMatrices<T> x) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t n = a.rows;
    const common::LuPivoting pivoting = factor(a, b, batch, workspace);
    workspace.zero_pivot[b] = pivoting.zero_pivot;
    if (pivoting.zero_pivot >= 0) continue;
    const T* lu = workspace.lu + b * n * n;
    const std::int64_t* row_of = workspace.row_of + b * n;
    T* column = workspace.vectors + b * 2 * n;
    T* solution = column + n;
    for (std::int64_t c = 0; c < rhs.cols; ++c) {
      for (std::int64_t i = 0; i < rhs.rows; ++i) column[i] = matrix_element(rhs, b, batch, i, c);
      common::lu_solve(lu, row_of, n, column, solution);
      for (std::int64_t i = 0; i < x.rows; ++i) matrix_element(x, b, batch, i, c) = solution[i];
    }
  }
}

// One thread per matrix: blocks of 64 threads so that small batches still spread over the SMs.
constexpr int kThreadsPerMatrixBlock = 64;

unsigned matrix_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerMatrixBlock - 1) / kThreadsPerMatrixBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_tril_triu(const Geometry& geometry, StridedView<const T> in, StridedView<T> out, std::int64_t diagonal,
                      bool lower) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, tril_triu_kernel<T>)
  (geometry, in, out, diagonal, lower);
  check_launch(lower ? "tril kernel launch" : "triu kernel launch");
}

template <typename T>
void launch_det(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace, StridedView<T> out) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(matrix_blocks(batch.numel), kThreadsPerMatrixBlock, det_kernel<T>)(batch, a, workspace, out);
  check_launch("det kernel launch");
}

template <typename T>
void launch_slogdet(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace, StridedView<T> sign,
                    StridedView<T> logabsdet) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(matrix_blocks(batch.numel), kThreadsPerMatrixBlock, slogdet_kernel<T>)
  (batch, a, workspace, sign, logabsdet);
  check_launch("slogdet kernel launch");
}

template <typename T>
void launch_inverse(const Geometry& batch, BatchedMatrices<const T> a, LuWorkspace<T> workspace,
                    BatchedMatrices<T> out) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(matrix_blocks(batch.numel), kThreadsPerMatrixBlock, inverse_kernel<T>)(batch, a, workspace, out);
  check_launch("inverse kernel launch");
}

template <typename T>
void launch_solve(const Geometry& batch, BatchedMatrices<const T> a, BatchedMatrices<const T> b,
                  LuWorkspace<T> workspace, BatchedMatrices<T> x) {
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(matrix_blocks(batch.numel), kThreadsPerMatrixBlock, solve_kernel<T>)(batch, a, b, workspace, x);
  check_launch("solve kernel launch");
}

#define FUNCSPEC_INSTANTIATE_TRIL_TRIU(T) \
  template void launch_tril_triu<T>(const Geometry&, StridedView<const T>, StridedView<T>, std::int64_t, bool);
FUNCSPEC_INSTANTIATE_TRIL_TRIU(bool)
FUNCSPEC_INSTANTIATE_TRIL_TRIU(std::int64_t)
FUNCSPEC_INSTANTIATE_TRIL_TRIU(float)
FUNCSPEC_INSTANTIATE_TRIL_TRIU(double)
#undef FUNCSPEC_INSTANTIATE_TRIL_TRIU

#define FUNCSPEC_INSTANTIATE_LU(T)                                                                                   \
  template void launch_det<T>(const Geometry&, BatchedMatrices<const T>, LuWorkspace<T>, StridedView<T>);            \
  template void launch_slogdet<T>(const Geometry&, BatchedMatrices<const T>, LuWorkspace<T>, StridedView<T>,         \
                                  StridedView<T>);                                                                   \
  template void launch_inverse<T>(const Geometry&, BatchedMatrices<const T>, LuWorkspace<T>, BatchedMatrices<T>);    \
  template void launch_solve<T>(const Geometry&, BatchedMatrices<const T>, BatchedMatrices<const T>, LuWorkspace<T>, \
                                BatchedMatrices<T>);
FUNCSPEC_INSTANTIATE_LU(float)
FUNCSPEC_INSTANTIATE_LU(double)
#undef FUNCSPEC_INSTANTIATE_LU

}  // namespace funcspec::cuda
