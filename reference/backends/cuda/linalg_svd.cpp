// Host glue of svd's CUDA kernel (linalg_svd.cu): the matrix layouts turned into the launcher's
// batched views, and the device scratch of the Jacobi sweeps.
#include "reference/backends/cuda/linalg_svd.h"

#include "reference/backends/common/linalg_svd.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_svd_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace svd_glue {
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
}  // namespace svd_glue

void svd(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices) {
  using namespace svd_glue;
  const Geometry batch = geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), "svd");
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      const common::SvdDimensions d = common::svd_dimensions(a.size(-2), a.size(-1), full_matrices);
      const Tensor workspace = Tensor::empty({batch.numel * d.workspace()}, dtype_of<T>(), Device::Cuda);
      launch_svd<T>(batch, batched_matrices<T, const T>(a, 2, common::trailing_matrix(a)), device_data<T>(workspace),
                    batched_matrices<T, T>(u, 2, common::trailing_matrix(u)),
                    batched_matrices<T, T>(s, 1, common::trailing_vector(s)),
                    batched_matrices<T, T>(vh, 2, common::trailing_matrix(vh)), full_matrices);
    }
  });
}

}  // namespace funcspec::cuda
