// Host glue of the QR decomposition's CUDA kernel (linalg_qr.cu): the matrix layouts turned into
// the launcher's batched views, and the device scratch of the factorization.
#include "reference/backends/cuda/linalg_qr.h"

#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_qr_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace qr_glue {
namespace {

// `t`'s matrices (its last two dims) over its leading batch dims.
template <typename T, typename E>
BatchedMatrices<E> batched_matrices(const Tensor& t) {
  const common::MatrixLayout m = common::trailing_matrix(t);
  BatchedMatrices<E> out;
  out.data = device_data<T>(t);
  for (std::size_t d = 0; d + 2 < t.shape().size(); ++d) out.batch_strides[d] = t.strides()[d];
  out.rows = m.rows;
  out.cols = m.cols;
  out.row_stride = m.row_stride;
  out.col_stride = m.col_stride;
  return out;
}

}  // namespace
}  // namespace qr_glue

void qr(const Tensor& a, const Tensor& q, const Tensor& r, bool compute_q) {
  using namespace qr_glue;
  const Geometry batch = geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), "qr");
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      const std::int64_t m = a.size(-2);
      const std::int64_t n = a.size(-1);
      const std::int64_t k = m < n ? m : n;
      const std::int64_t q_cols = compute_q ? q.size(-1) : 0;
      const Tensor workspace = Tensor::empty({batch.numel * (m * n + k + m * q_cols)}, dtype_of<T>(), Device::Cuda);
      // Mode 'r''s Q ([0]) is never written: an empty view stands for it.
      const BatchedMatrices<T> q_view = compute_q ? batched_matrices<T, T>(q) : BatchedMatrices<T>{};
      launch_qr<T>(batch, batched_matrices<T, const T>(a), device_data<T>(workspace), q_view, batched_matrices<T, T>(r),
                   compute_q);
    }
  });
}

}  // namespace funcspec::cuda
