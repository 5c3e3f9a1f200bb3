// CUDA kernel of the QR decomposition: qr runs the cpu's per-matrix Householder routines
// (reference/backends/common/linalg_qr.h), one thread per matrix, so both backends perform the same
// operations in the same order. Compiled with --fmad=false (reference/CMakeLists.txt), so the
// reflections round as the cpu's do.
#include <cstdint>

#include "reference/backends/common/linalg_qr.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_qr_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__global__ void qr_kernel(Geometry batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> q,
                          BatchedMatrices<T> r, bool compute_q) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t m = a.rows;
    const std::int64_t n = a.cols;
    const std::int64_t k = m < n ? m : n;
    const std::int64_t q_cols = compute_q ? q.cols : 0;
    T* work = workspace + b * (m * n + k + m * q_cols);
    T* tau = work + m * n;
    T* q_work = tau + k;
    const T* in = a.data + offset_of(b, batch, a.batch_strides);
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) work[i * n + j] = in[i * a.row_stride + j * a.col_stride];
    }
    common::householder_qr_in_place(work, m, n, tau);
    common::scatter_r(work, n, r.rows, r.data + offset_of(b, batch, r.batch_strides), r.row_stride, r.col_stride);
    if (!compute_q) continue;
    common::householder_q(work, m, n, tau, q_work, q_cols);
    T* q_out = q.data + offset_of(b, batch, q.batch_strides);
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < q_cols; ++j) q_out[i * q.row_stride + j * q.col_stride] = q_work[i * q_cols + j];
    }
  }
}

// One thread per matrix: blocks of 64 threads so that small batches still spread over the SMs.
constexpr int kThreadsPerQrBlock = 64;

unsigned qr_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerQrBlock - 1) / kThreadsPerQrBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_qr(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> q,
               BatchedMatrices<T> r, bool compute_q) {
  if (batch.numel == 0 || a.rows == 0) return;  // an m×0 input still has Q = I in mode 'complete'
  FUNCSPEC_LAUNCH(qr_blocks(batch.numel), kThreadsPerQrBlock, qr_kernel<T>)(batch, a, workspace, q, r, compute_q);
  check_launch("qr kernel launch");
}

template void launch_qr<float>(const Geometry&, BatchedMatrices<const float>, float*, BatchedMatrices<float>,
                               BatchedMatrices<float>, bool);
template void launch_qr<double>(const Geometry&, BatchedMatrices<const double>, double*, BatchedMatrices<double>,
                                BatchedMatrices<double>, bool);

}  // namespace funcspec::cuda
