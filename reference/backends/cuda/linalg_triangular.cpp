// Host glue of the triangular and Cholesky CUDA kernels (linalg_triangular.cu): the matrix layouts
// turned into the launchers' batched views.
#include "reference/backends/cuda/linalg_triangular.h"

#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_triangular_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace triangular_glue {
namespace {

// `t`'s matrices (its last two dims, laid out as `m`) over its leading batch dims.
template <typename T, typename E>
BatchedMatrices<E> batched_matrices(const Tensor& t, const common::MatrixLayout& m) {
  BatchedMatrices<E> out;
  out.data = device_data<T>(t);
  for (std::size_t d = 0; d + 2 < t.shape().size(); ++d) out.batch_strides[d] = t.strides()[d];
  out.rows = m.rows;
  out.cols = m.cols;
  out.row_stride = m.row_stride;
  out.col_stride = m.col_stride;
  return out;
}

// Calls fn.template operator()<T>() for float32 and float64 (the only floating dtypes on cuda).
template <typename Fn>
void visit_floating_on_cuda(DType dtype, Fn&& fn) {
  visit_floating_dtype(dtype, [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      fn.template operator()<T>();
    }
  });
}

}  // namespace
}  // namespace triangular_glue

void solve_triangular(const Tensor& a, const Tensor& b, const Tensor& x, bool upper, bool left, bool unitriangular) {
  using namespace triangular_glue;
  const Geometry batch = geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), "solve_triangular");
  visit_floating_on_cuda(a.dtype(), [&]<typename T>() {
    // x·A = B is Aᵀ·xᵀ = Bᵀ with the other triangle, as in cpu::solve_triangular.
    const common::MatrixLayout ma = left ? common::trailing_matrix(a) : common::trailing_matrix(a).transposed();
    const common::MatrixLayout mb = left ? common::trailing_matrix(b) : common::trailing_matrix(b).transposed();
    const common::MatrixLayout mx = left ? common::trailing_matrix(x) : common::trailing_matrix(x).transposed();
    launch_solve_triangular<T>(batch, batched_matrices<T, const T>(a, ma), batched_matrices<T, const T>(b, mb),
                               batched_matrices<T, T>(x, mx), left ? upper : !upper, unitriangular);
  });
}

void cholesky(const Tensor& a, const Tensor& l, const Tensor& info, bool upper) {
  using namespace triangular_glue;
  const Geometry batch = geometry_of(info.shape(), "cholesky");
  visit_floating_on_cuda(a.dtype(), [&]<typename T>() {
    // The upper factor is the lower one of the transposed layouts, as in cpu::cholesky.
    const common::MatrixLayout ma = upper ? common::trailing_matrix(a).transposed() : common::trailing_matrix(a);
    const common::MatrixLayout ml = upper ? common::trailing_matrix(l).transposed() : common::trailing_matrix(l);
    launch_cholesky<T>(batch, batched_matrices<T, const T>(a, ma), batched_matrices<T, T>(l, ml),
                       strided_view_of<std::int64_t>(info, "cholesky"));
  });
}

}  // namespace funcspec::cuda
