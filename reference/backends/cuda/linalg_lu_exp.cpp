// Host glue of lu_factor's and matrix_exp's CUDA kernels (linalg_lu_exp.cu): the matrix layouts
// turned into the launchers' batched views, and device scratch for the per-matrix routines.
#include "reference/backends/cuda/linalg_lu_exp.h"

#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_lu_exp_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace lu_exp_glue {
namespace {

using common::MatrixLayout;
using common::trailing_matrix;

// `t`'s matrices (laid out as `m`) over its leading dims, all but the last `matrix_rank`.
template <typename T, typename E>
BatchedMatrices<E> batched_matrices(const Tensor& t, std::size_t matrix_rank, const MatrixLayout& m) {
  BatchedMatrices<E> out;
  out.data = device_data<T>(t);
  for (std::size_t d = 0; d + matrix_rank < t.shape().size(); ++d) out.batch_strides[d] = t.strides()[d];
  out.rows = m.rows;
  out.cols = m.cols;
  out.row_stride = m.row_stride;
  out.col_stride = m.col_stride;
  return out;
}

Geometry matrix_batch(const Tensor& a, std::string_view op) {
  return geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), op);
}

// Calls fn.template operator()<T>() for float32 and float64 (the only floating dtypes on cuda).
template <typename Fn>
void visit_cuda_floating_dtype(DType dtype, Fn&& fn) {
  visit_floating_dtype(dtype, [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      fn.template operator()<T>();
    }
  });
}

template <typename T>
void exponential(const Tensor& a, const Tensor* e, const Tensor& out, std::string_view op) {
  const Geometry batch = matrix_batch(a, op);
  const std::int64_t size = e != nullptr ? 2 * a.size(-1) : a.size(-1);
  const Tensor scratch = Tensor::empty({batch.numel * 4 * size * size}, dtype_of<T>(), Device::Cuda);
  BatchedMatrices<const T> direction;
  if (e != nullptr) direction = batched_matrices<T, const T>(*e, 2, trailing_matrix(*e));
  launch_matrix_exp<T>(batch, batched_matrices<T, const T>(a, 2, trailing_matrix(a)), direction,
                       device_data<T>(scratch), batched_matrices<T, T>(out, 2, trailing_matrix(out)));
}

}  // namespace
}  // namespace lu_exp_glue

void lu_factor(const Tensor& a, const Tensor& lu, const Tensor& pivots, bool pivot) {
  using namespace lu_exp_glue;
  const Geometry batch = matrix_batch(a, "lu_factor");
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  const std::int64_t steps = m < n ? m : n;
  visit_cuda_floating_dtype(a.dtype(), [&]<typename T>() {
    const Tensor scratch = Tensor::empty({batch.numel * m * n}, dtype_of<T>(), Device::Cuda);
    const Tensor index_scratch = Tensor::empty({batch.numel * (m + steps)}, DType::Int64, Device::Cuda);
    // The pivots [*, k] as one row per batch element.
    const MatrixLayout pivot_row{1, steps, 0, pivots.strides().back()};
    launch_lu_factor<T>(batch, batched_matrices<T, const T>(a, 2, trailing_matrix(a)), device_data<T>(scratch),
                        device_data<std::int64_t>(index_scratch), batched_matrices<T, T>(lu, 2, trailing_matrix(lu)),
                        batched_matrices<std::int64_t, std::int64_t>(pivots, 1, pivot_row), pivot);
  });
}

void matrix_exp(const Tensor& a, const Tensor& out) {
  using namespace lu_exp_glue;
  visit_cuda_floating_dtype(a.dtype(), [&]<typename T>() { exponential<T>(a, nullptr, out, "matrix_exp"); });
}

void matrix_exp_frechet(const Tensor& a, const Tensor& e, const Tensor& out) {
  using namespace lu_exp_glue;
  visit_cuda_floating_dtype(a.dtype(), [&]<typename T>() { exponential<T>(a, &e, out, "matrix_exp_frechet"); });
}

}  // namespace funcspec::cuda
