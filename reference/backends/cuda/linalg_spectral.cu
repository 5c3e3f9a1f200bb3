// CUDA kernels of the spectral linalg ops: eigh runs the cpu's per-matrix Jacobi routine
// (reference/backends/common/linalg_jacobi.h), one thread per matrix, so both backends perform the
// same operations in the same order. Compiled with --fmad=false (reference/CMakeLists.txt), so the
// rotations round as the cpu's do.
#include <cstdint>

#include "reference/backends/common/linalg_jacobi.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_spectral_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__global__ void eigh_kernel(Geometry batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> eigenvalues,
                            BatchedMatrices<T> eigenvectors, bool lower) {
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    const std::int64_t n = a.rows;
    T* work = workspace + b * (2 * n * n + n);
    T* v = work + n * n;
    T* w = v + n * n;
    common::gather_symmetric(a.data + offset_of(b, batch, a.batch_strides), n, a.row_stride, a.col_stride, lower, work);
    common::symmetric_eigen_in_place(work, n, v, w);
    T* values = eigenvalues.data + offset_of(b, batch, eigenvalues.batch_strides);
    T* vectors = eigenvectors.data + offset_of(b, batch, eigenvectors.batch_strides);
    for (std::int64_t i = 0; i < n; ++i) {
      values[i * eigenvalues.row_stride] = w[i];
      for (std::int64_t j = 0; j < n; ++j) {
        vectors[i * eigenvectors.row_stride + j * eigenvectors.col_stride] = v[i * n + j];
      }
    }
  }
}

// One thread per matrix: blocks of 64 threads so that small batches still spread over the SMs.
constexpr int kThreadsPerSpectralBlock = 64;

unsigned spectral_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerSpectralBlock - 1) / kThreadsPerSpectralBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_eigh(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> eigenvalues,
                 BatchedMatrices<T> eigenvectors, bool lower) {
  if (batch.numel == 0 || a.rows == 0) return;
  FUNCSPEC_LAUNCH(spectral_blocks(batch.numel), kThreadsPerSpectralBlock, eigh_kernel<T>)
  (batch, a, workspace, eigenvalues, eigenvectors, lower);
  check_launch("eigh kernel launch");
}

template void launch_eigh<float>(const Geometry&, BatchedMatrices<const float>, float*, BatchedMatrices<float>,
                                 BatchedMatrices<float>, bool);
template void launch_eigh<double>(const Geometry&, BatchedMatrices<const double>, double*, BatchedMatrices<double>,
                                  BatchedMatrices<double>, bool);

}  // namespace funcspec::cuda
