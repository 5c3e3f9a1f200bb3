// Host glue of the spectral linalg ops' CUDA kernels (linalg_spectral.cu): the matrix layouts
// turned into the launchers' batched views, and the device scratch of the Jacobi sweeps.
#include "reference/backends/cuda/linalg_spectral.h"

#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_spectral_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace spectral_glue {
namespace {

// `t`'s matrices (`matrix_rank` trailing dims, laid out as `m`) over its leading batch dims.
template <typename T, typename E>
BatchedMatrices<E> batched_matrices(const Tensor& t, std::size_t matrix_rank, const common::MatrixLayout& m) {
  BatchedMatrices<E> out;
  out.data = device_data<T>(t);
  for (std::size_t d = 0; d + matrix_rank < t.shape().size(); ++d) out.batch_strides[d] = t.strides()[d];
  out.rows = m.rows;
  out.cols = m.cols;
  out.row_stride = m.row_stride;
  out.col_stride = m.col_stride;
  return out;
}

}  // namespace
}  // namespace spectral_glue

void eigh(const Tensor& a, const Tensor& eigenvalues, const Tensor& eigenvectors, bool lower) {
  using namespace spectral_glue;
  const Geometry batch = geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), "eigh");
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      const std::int64_t n = a.size(-1);
      const Tensor workspace = Tensor::empty({batch.numel * (2 * n * n + n)}, dtype_of<T>(), Device::Cuda);
      launch_eigh<T>(batch, batched_matrices<T, const T>(a, 2, common::trailing_matrix(a)), device_data<T>(workspace),
                     batched_matrices<T, T>(eigenvalues, 1, common::trailing_vector(eigenvalues)),
                     batched_matrices<T, T>(eigenvectors, 2, common::trailing_matrix(eigenvectors)), lower);
    }
  });
}

}  // namespace funcspec::cuda
