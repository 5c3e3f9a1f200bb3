// Host glue of the linalg family's CUDA kernels (linalg.cu): the matrix layouts
// (reference/backends/common/matrix_layout.h) turned into the launchers' batched views, scratch on the
// device for the LU kernels, and the singular_matrix error raised from the zero pivots they record.
#include "reference/backends/cuda/linalg.h"

#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/common/singular_matrix.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace linalg_glue {
namespace {

using common::MatrixLayout;
using common::trailing_matrix;
using common::trailing_vector;

// The batch dims of `a` ([*, n, n]), shared by every operand of an LU op.
Geometry batch_geometry(const Tensor& a, std::string_view op) {
  return geometry_of(Shape(a.shape().begin(), a.shape().end() - 2), op);
}

// `t`'s matrices (`matrix_rank` trailing dims, laid out as `m`) over its leading batch dims.
template <typename T, typename E>
BatchedMatrices<E> batched(const Tensor& t, std::size_t matrix_rank, const MatrixLayout& m) {
  BatchedMatrices<E> out;
  out.data = device_data<T>(t);
  for (std::size_t d = 0; d + matrix_rank < t.shape().size(); ++d) out.batch_strides[d] = t.strides()[d];
  out.rows = m.rows;
  out.cols = m.cols;
  out.row_stride = m.row_stride;
  out.col_stride = m.col_stride;
  return out;
}

template <typename T>
StridedView<const T> as_const(const StridedView<T>& view) {
  StridedView<const T> out;
  out.data = view.data;
  for (int d = 0; d < kMaxDims; ++d) out.strides[d] = view.strides[d];
  out.contiguous = view.contiguous;
  return out;
}

// Device scratch of the LU kernels (LuWorkspace), owned by tensors on cuda.
template <typename T>
struct Workspace {
  Tensor lu;
  Tensor row_of;
  Tensor vectors;
  Tensor zero_pivot;

  Workspace(std::int64_t batch, std::int64_t n)
      : lu(Tensor::empty({batch * n * n}, dtype_of<T>(), Device::Cuda)),
        row_of(Tensor::empty({batch * n}, DType::Int64, Device::Cuda)),
        vectors(Tensor::empty({batch * 2 * n}, dtype_of<T>(), Device::Cuda)),
        zero_pivot(Tensor::empty({batch}, DType::Int64, Device::Cuda)) {}

  LuWorkspace<T> view() const {
    return {device_data<T>(lu), device_data<std::int64_t>(row_of), device_data<T>(vectors),
            device_data<std::int64_t>(zero_pivot)};
  }
};

// Raises the cpu's error for the first batch element (row-major) whose matrix had a zero pivot.
template <typename T>
void check_invertible(const Workspace<T>& workspace, const Tensor& a, std::string_view op) {
  const std::vector<std::int64_t> zero_pivots = workspace.zero_pivot.template to_vector<std::int64_t>();
  for (std::size_t element = 0; element < zero_pivots.size(); ++element) {
    if (zero_pivots[element] >= 0) {
      common::raise_singular_matrix(a, static_cast<std::int64_t>(element), zero_pivots[element], op);
    }
  }
}

// Calls fn.template operator()<T>() for float32 and float64 (the only floating dtypes on cuda).
template <typename Fn>
void visit_cuda_floating(DType dtype, Fn&& fn) {
  visit_floating_dtype(dtype, [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      fn.template operator()<T>();
    }
  });
}

}  // namespace
}  // namespace linalg_glue

void tril_triu(const Tensor& self, const Tensor& out, std::int64_t diagonal, bool lower) {
  using namespace linalg_glue;
  const std::string_view op = lower ? "tril" : "triu";
  const Geometry geometry = geometry_of(self.shape(), op);
  visit_dtype(self.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_UNREACHABLE("an oracle tensor on cuda");
    } else {
      launch_tril_triu<T>(geometry, as_const(strided_view_of<T>(self, op)), strided_view_of<T>(out, op), diagonal,
                          lower);
    }
  });
}

void det(const Tensor& a, const Tensor& out) {
  using namespace linalg_glue;
  const Geometry batch = batch_geometry(a, "det");
  visit_cuda_floating(a.dtype(), [&]<typename T>() {
    const Workspace<T> workspace(batch.numel, a.size(-1));
    launch_det<T>(batch, batched<T, const T>(a, 2, trailing_matrix(a)), workspace.view(),
                  strided_view_of<T>(out, "det"));
  });
}

void slogdet(const Tensor& a, const Tensor& sign, const Tensor& logabsdet) {
  using namespace linalg_glue;
  const Geometry batch = batch_geometry(a, "slogdet");
  visit_cuda_floating(a.dtype(), [&]<typename T>() {
    const Workspace<T> workspace(batch.numel, a.size(-1));
    launch_slogdet<T>(batch, batched<T, const T>(a, 2, trailing_matrix(a)), workspace.view(),
                      strided_view_of<T>(sign, "slogdet"), strided_view_of<T>(logabsdet, "slogdet"));
  });
}

void inverse(const Tensor& a, const Tensor& out, std::string_view op) {
  using namespace linalg_glue;
  const Geometry batch = batch_geometry(a, op);
  visit_cuda_floating(a.dtype(), [&]<typename T>() {
    const Workspace<T> workspace(batch.numel, a.size(-1));
    launch_inverse<T>(batch, batched<T, const T>(a, 2, trailing_matrix(a)), workspace.view(),
                      batched<T, T>(out, 2, trailing_matrix(out)));
    check_invertible(workspace, a, op);
  });
}

void solve(const Tensor& a, const Tensor& b, const Tensor& x, bool left, bool vector_rhs, std::string_view op) {
  using namespace linalg_glue;
  const Geometry batch = batch_geometry(a, op);
  visit_cuda_floating(a.dtype(), [&]<typename T>() {
    // x·A = B is Aᵀ·xᵀ = Bᵀ: solving from the left with transposed layouts covers both sides.
    const MatrixLayout ma = left ? trailing_matrix(a) : trailing_matrix(a).transposed();
    MatrixLayout mb = vector_rhs ? trailing_vector(b) : trailing_matrix(b);
    MatrixLayout mx = vector_rhs ? trailing_vector(x) : trailing_matrix(x);
    if (!left && !vector_rhs) {
      mb = mb.transposed();
      mx = mx.transposed();
    }
    const std::size_t rhs_rank = vector_rhs ? 1 : 2;
    const Workspace<T> workspace(batch.numel, a.size(-1));
    launch_solve<T>(batch, batched<T, const T>(a, 2, ma), batched<T, const T>(b, rhs_rank, mb), workspace.view(),
                    batched<T, T>(x, rhs_rank, mx));
    check_invertible(workspace, a, op);
  });
}

}  // namespace funcspec::cuda
