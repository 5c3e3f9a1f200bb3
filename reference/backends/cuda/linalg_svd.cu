// CUDA kernel of svd: the cpu's per-matrix one-sided Jacobi routine
// (reference/backends/common/linalg_svd.h), one thread per matrix, so both backends perform the same
// operations in the same order. Compiled with --fmad=false (reference/CMakeLists.txt), so the
// rotations round as the cpu's do.
#include <cstdint>

#include "reference/backends/common/linalg_svd.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/linalg_svd_launch.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__global__ void svd_kernel(Geometry batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> u,
                           BatchedMatrices<T> s, BatchedMatrices<T> vh, bool full_matrices) {
  const common::SvdDimensions d = common::svd_dimensions(a.rows, a.cols, full_matrices);
  const common::SvdFactorShapes shapes = common::svd_factor_shapes(d);
  FUNCSPEC_GRID_STRIDE_LOOP(b, batch.numel) {
    T* work_u = workspace + b * d.workspace();
    T* work_v = work_u + d.r * d.u_cols;
    T* sigma = work_v + d.c * d.c;
    common::gather_tall(a.data + offset_of(b, batch, a.batch_strides), d, a.row_stride, a.col_stride, work_u);
    common::svd_in_place(work_u, d, work_v, sigma);
    T* u_out = u.data + offset_of(b, batch, u.batch_strides);
    T* s_out = s.data + offset_of(b, batch, s.batch_strides);
    T* vh_out = vh.data + offset_of(b, batch, vh.batch_strides);
    for (std::int64_t i = 0; i < shapes.u_rows; ++i) {
      for (std::int64_t j = 0; j < shapes.u_cols; ++j) {
        u_out[i * u.row_stride + j * u.col_stride] = common::svd_u_entry(d, work_u, work_v, i, j);
      }
    }
    for (std::int64_t j = 0; j < d.c; ++j) s_out[j * s.row_stride] = sigma[j];
    for (std::int64_t i = 0; i < shapes.vh_rows; ++i) {
      for (std::int64_t j = 0; j < shapes.vh_cols; ++j) {
        vh_out[i * vh.row_stride + j * vh.col_stride] = common::svd_vh_entry(d, work_u, work_v, i, j);
      }
    }
  }
}

// One thread per matrix: blocks of 64 threads so that small batches still spread over the SMs.
constexpr int kThreadsPerSvdBlock = 64;

unsigned svd_blocks(std::int64_t batch) {
  const std::int64_t blocks = (batch + kThreadsPerSvdBlock - 1) / kThreadsPerSvdBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace

template <typename T>
void launch_svd(const Geometry& batch, BatchedMatrices<const T> a, T* workspace, BatchedMatrices<T> u,
                BatchedMatrices<T> s, BatchedMatrices<T> vh, bool full_matrices) {
  // An empty A still has factors where full_matrices asks for them (identities, from the completion).
  if (batch.numel == 0) return;
  FUNCSPEC_LAUNCH(svd_blocks(batch.numel), kThreadsPerSvdBlock, svd_kernel<T>)
  (batch, a, workspace, u, s, vh, full_matrices);
  check_launch("svd kernel launch");
}

template void launch_svd<float>(const Geometry&, BatchedMatrices<const float>, float*, BatchedMatrices<float>,
                                BatchedMatrices<float>, BatchedMatrices<float>, bool);
template void launch_svd<double>(const Geometry&, BatchedMatrices<const double>, double*, BatchedMatrices<double>,
                                 BatchedMatrices<double>, BatchedMatrices<double>, bool);

}  // namespace funcspec::cuda
