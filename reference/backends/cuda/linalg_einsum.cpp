// Host glue of einsum on cuda: the GEMM plan (NOTE: [einsum through cuBLAS]) and its execution
// (gathers, widening float32 to float64; one strided-batched cuBLAS call; the sums stored as the
// cpu's, by a scatter that rounds float32 back or in place), and the generic kernel's operand
// descriptors for every other contraction.
#include "reference/backends/cuda/linalg_einsum.h"

#include <algorithm>
#include <type_traits>

#include "reference/backends/cuda/cublas_handle.h"
#include "reference/backends/cuda/cublas_library.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/cuda_status.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/linalg_launch.h"

namespace funcspec::cuda {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// other families' host glue.
namespace einsum_glue {
namespace {

// Operand k's stride along each iteration dim of the plan (output dims, then summed dims), as
// cpu::einsum computes it: the sum of its strides over its dims labelled by that iteration dim,
// skipping dims of size 1 (they stand for any index of a broadcast label).
std::vector<std::int64_t> iteration_strides(const common::EinsumPlan& plan, std::size_t k, const Shape& shape,
                                            const Strides& strides) {
  std::vector<std::int64_t> out(plan.sizes.size(), 0);
  for (std::size_t d = 0; d < plan.operand_dims[k].size(); ++d) {
    if (shape[d] == 1) continue;
    out[plan.operand_dims[k][d]] += strides[d];
  }
  return out;
}

// A run of dims read as one dim: its size, and its stride when each dim nests in the one before
// (stride(d) = stride(d + 1) * size(d + 1)). An empty run has size 1 (its stride is never used).
struct Collapsed {
  std::int64_t size = 1;
  std::int64_t stride = 0;
};

std::optional<Collapsed> collapse(const std::vector<std::size_t>& dims, const std::vector<std::int64_t>& sizes,
                                  const std::vector<std::int64_t>& strides) {
  Collapsed c;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    c.size *= sizes[dims[i]];
    if (i + 1 < dims.size() && strides[dims[i]] != strides[dims[i + 1]] * sizes[dims[i + 1]]) return std::nullopt;
  }
  if (!dims.empty()) c.stride = strides[dims.back()];
  return c;
}

struct CublasLayout {
  bool transposed = false;
  std::int64_t ld = 1;
};

// A row-major rows×cols matrix (element (r, c) at r * row_stride + c * col_stride) as the cuBLAS
// operand op(Z) equal to its transpose (cols×rows), when its layout allows one.
std::optional<CublasLayout> cublas_layout(std::int64_t rows, std::int64_t cols, std::int64_t row_stride,
                                          std::int64_t col_stride) {
  // Z is that transpose itself, column-major: element (c, r) at c + r * ld, so ld = row_stride
  // (any valid value when there is one row); cuBLAS needs ld >= max(1, cols).
  if (cols == 1 || col_stride == 1) {
    const std::int64_t ld = rows == 1 ? std::max<std::int64_t>(cols, 1) : row_stride;
    if (ld >= std::max<std::int64_t>(cols, 1)) return CublasLayout{false, ld};
  }
  // Z is the matrix, column-major: element (r, c) at r + c * ld, so ld = col_stride (any valid
  // value when there is one column), transposed by cuBLAS; ld >= max(1, rows).
  if (rows == 1 || row_stride == 1) {
    const std::int64_t ld = cols == 1 ? std::max<std::int64_t>(rows, 1) : col_stride;
    if (ld >= std::max<std::int64_t>(rows, 1)) return CublasLayout{true, ld};
  }
  return std::nullopt;
}

// The contiguous row-major strides of `sizes`.
std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> strides(sizes.size(), 1);
  for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

// A copy over `sizes` from strides `from` to strides `to`, with each dim merged into the one before
// it when both sides walk the pair as one dim (stride(d - 1) = stride(d) * size(d) in each): the
// same elements in the same row-major order, over fewer dims (a contiguous copy becomes one dim).
struct Copy {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> from;
  std::vector<std::int64_t> to;
};

Copy merged_copy(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& from,
                 const std::vector<std::int64_t>& to) {
  Copy c;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (!c.sizes.empty() && c.from.back() == from[d] * sizes[d] && c.to.back() == to[d] * sizes[d]) {
      c.sizes.back() *= sizes[d];
      c.from.back() = from[d];
      c.to.back() = to[d];
      continue;
    }
    c.sizes.push_back(sizes[d]);
    c.from.push_back(from[d]);
    c.to.push_back(to[d]);
  }
  return c;
}

std::vector<std::size_t> concat(std::initializer_list<const std::vector<std::size_t>*> parts) {
  std::vector<std::size_t> out;
  for (const auto* part : parts) out.insert(out.end(), part->begin(), part->end());
  return out;
}

// The GEMM operand for matrices [batch][rows][cols] read through `strides` (over the iteration
// dims): in place when its layout allows (and it need not be widened), else gathered into a
// contiguous scratch.
EinsumGemmOperand gemm_operand(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& strides,
                               const std::vector<std::size_t>& batch_dims, const std::vector<std::size_t>& row_dims,
                               const std::vector<std::size_t>& col_dims, bool widened) {
  EinsumGemmOperand op;
  const auto batch = collapse(batch_dims, sizes, strides);
  const auto rows = collapse(row_dims, sizes, strides);
  const auto cols = collapse(col_dims, sizes, strides);
  if (!widened && batch && rows && cols && (batch->size == 1 || batch->stride >= 0)) {
    if (const auto layout = cublas_layout(rows->size, cols->size, rows->stride, cols->stride)) {
      op.transposed = layout->transposed;
      op.ld = layout->ld;
      op.batch_stride = batch->size == 1 ? 0 : batch->stride;
      return op;
    }
  }
  op.gathered = true;
  std::int64_t row_count = 1;
  std::int64_t col_count = 1;
  for (std::size_t d : row_dims) row_count *= sizes[d];
  for (std::size_t d : col_dims) col_count *= sizes[d];
  std::vector<std::int64_t> gather_sizes, gather_strides;
  for (std::size_t d : concat({&batch_dims, &row_dims, &col_dims})) {
    gather_sizes.push_back(sizes[d]);
    gather_strides.push_back(strides[d]);
  }
  Copy gather = merged_copy(gather_sizes, gather_strides, contiguous_strides(gather_sizes));
  op.gather_sizes = std::move(gather.sizes);
  op.gather_strides = std::move(gather.from);
  // The scratch is row-major: Z is its transpose stored column-major with ld = cols.
  op.transposed = false;
  op.ld = col_count;
  op.batch_stride = row_count * col_count;
  return op;
}

// The plan with operand `left` as X and `right` as Y (NOTE: [einsum through cuBLAS]).
EinsumGemmPlan plan_with(const common::EinsumPlan& plan, const std::vector<std::vector<std::int64_t>>& strides,
                         const std::vector<std::int64_t>& out_strides, std::size_t left, std::size_t right,
                         bool widened) {
  const std::vector<std::int64_t>& sizes = plan.sizes;
  std::vector<std::size_t> batch_dims, m_dims, n_dims, k_dims;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    if (d >= plan.output_rank) {
      k_dims.push_back(d);
      continue;
    }
    const bool in_x = strides[left][d] != 0;
    const bool in_y = strides[right][d] != 0;
    if (in_x == in_y) {
      batch_dims.push_back(d);
    } else {
      (in_x ? m_dims : n_dims).push_back(d);
    }
  }
  auto product = [&](const std::vector<std::size_t>& dims) {
    std::int64_t p = 1;
    for (std::size_t d : dims) p *= sizes[d];
    return p;
  };
  EinsumGemmPlan g;
  g.widened = widened;
  g.left = left;
  g.right = right;
  g.batch = product(batch_dims);
  g.m = product(m_dims);
  g.n = product(n_dims);
  g.k = product(k_dims);
  g.x = gemm_operand(sizes, strides[left], batch_dims, m_dims, k_dims, widened);
  g.y = gemm_operand(sizes, strides[right], batch_dims, k_dims, n_dims, widened);

  // C straight into the output: its rows must be contiguous (or single entries) and lie ldc apart,
  // and it must not need rounding.
  const auto c_batch = collapse(batch_dims, sizes, out_strides);
  const auto c_rows = collapse(m_dims, sizes, out_strides);
  const auto c_cols = collapse(n_dims, sizes, out_strides);
  if (!widened && c_batch && c_rows && c_cols && (g.n == 1 || c_cols->stride == 1)) {
    const std::int64_t ldc = g.m == 1 ? std::max<std::int64_t>(g.n, 1) : c_rows->stride;
    const std::int64_t batch_stride = g.batch == 1 ? 0 : c_batch->stride;
    if (ldc >= std::max<std::int64_t>(g.n, 1) && (g.batch == 1 || batch_stride >= (g.m - 1) * ldc + g.n)) {
      g.direct_output = true;
      g.ldc = ldc;
      g.c_batch_stride = batch_stride;
      return g;
    }
  }
  g.ldc = g.n;
  g.c_batch_stride = g.m * g.n;
  // The scratch's strides: contiguous over (batch dims, m dims, n dims).
  std::vector<std::int64_t> scratch_strides(sizes.size(), 0);
  std::int64_t stride = 1;
  const std::vector<std::size_t> c_dims = concat({&batch_dims, &m_dims, &n_dims});
  for (auto it = c_dims.rbegin(); it != c_dims.rend(); ++it) {
    scratch_strides[*it] = stride;
    stride *= sizes[*it];
  }
  std::vector<std::int64_t> scatter_sizes, from, to;
  for (std::size_t d = 0; d < plan.output_rank; ++d) {
    if (sizes[d] == 1) continue;
    scatter_sizes.push_back(sizes[d]);
    from.push_back(scratch_strides[d]);
    to.push_back(out_strides[d]);
  }
  Copy scatter = merged_copy(scatter_sizes, from, to);
  g.scatter_sizes = std::move(scatter.sizes);
  g.scatter_from_strides = std::move(scatter.from);
  g.scatter_to_strides = std::move(scatter.to);
  return g;
}

Geometry geometry_over(const std::vector<std::int64_t>& sizes) { return geometry_of(Shape(sizes), "einsum"); }

// A view with these strides over the row-major positions of `sizes` (contiguous when they are
// the row-major strides, so that the kernels skip the index arithmetic).
template <typename T>
StridedView<T> view_over(T* data, const std::vector<std::int64_t>& strides, const std::vector<std::int64_t>& sizes) {
  StridedView<T> view;
  view.data = data;
  for (std::size_t d = 0; d < strides.size(); ++d) view.strides[d] = strides[d];
  view.contiguous = strides == contiguous_strides(sizes);
  return view;
}

// The operand's matrices where cuBLAS reads them, as `Compute` (T itself, or double for float):
// the tensor itself, or a gathered (and widened) scratch.
template <typename T, typename Compute>
const Compute* gemm_input(const EinsumGemmOperand& op, const Tensor& t, Tensor& scratch) {
  if (!op.gathered) {
    if constexpr (std::is_same_v<T, Compute>) {
      return device_data<T>(t);
    } else {
      FUNCSPEC_UNREACHABLE("a widened einsum GEMM operand that is not gathered");
    }
  }
  const Geometry geometry = geometry_over(op.gather_sizes);
  scratch = Tensor::empty({geometry.numel}, dtype_of<Compute>(), Device::Cuda);
  const StridedView<Compute> dst =
      view_over(device_data<Compute>(scratch), contiguous_strides(op.gather_sizes), op.gather_sizes);
  launch_einsum_copy<T, Compute>(
      geometry, view_over(static_cast<const T*>(device_data<T>(t)), op.gather_strides, op.gather_sizes), dst);
  return dst.data;
}

cublasOperation_t cublas_op(const EinsumGemmOperand& op) { return op.transposed ? CUBLAS_OP_T : CUBLAS_OP_N; }

// C (column-major n×m per batch element) = op(P)·op(Q) with P = Y and Q = X, in float64 (float32
// operands arrive widened).
void strided_batched_gemm(const EinsumGemmPlan& g, const double* x, const double* y, double* c) {
  const double one = 1.0;
  const double zero = 0.0;
  check_cublas_status(cublas_library().dgemm_strided_batched(
                          cublas_handle(), cublas_op(g.y), cublas_op(g.x), g.n, g.m, g.k, &one, y, g.y.ld,
                          g.y.batch_stride, x, g.x.ld, g.x.batch_stride, &zero, c, g.ldc, g.c_batch_stride, g.batch),
                      "cublasDgemmStridedBatched_64");
}

// Adds +0 to each element of a float64 output that the GEMM wrote itself (launch_einsum_store, in
// place), walked as one copy over its dims of size other than 1, neighbours merged.
void store_in_place(const Tensor& out) {
  std::vector<std::int64_t> sizes, strides;
  for (std::size_t d = 0; d < out.shape().size(); ++d) {
    if (out.shape()[d] == 1) continue;
    sizes.push_back(out.shape()[d]);
    strides.push_back(out.strides()[d]);
  }
  const Copy walk = merged_copy(sizes, strides, strides);
  double* data = device_data<double>(out);
  launch_einsum_store<double>(geometry_over(walk.sizes),
                              view_over(static_cast<const double*>(data), walk.from, walk.sizes),
                              view_over(data, walk.to, walk.sizes));
}

// float64 throughout; float32 (a widened plan) gathered into float64, multiplied and summed there,
// and rounded once by the scatter, as cpu::einsum does. Either way each sum is stored after adding
// +0, as the cpu's sum starts at +0 (NOTE: [einsum through cuBLAS]).
template <typename T>
void run_gemm(const EinsumGemmPlan& g, const TensorList& operands, const Tensor& out) {
  using Compute = double;
  FUNCSPEC_INTERNAL_ASSERT((g.widened == std::is_same_v<T, float>), "an einsum GEMM plan for the wrong dtype");
  Tensor x_scratch, y_scratch, c_scratch;
  const Compute* x = gemm_input<T, Compute>(g.x, operands[g.left], x_scratch);
  const Compute* y = gemm_input<T, Compute>(g.y, operands[g.right], y_scratch);
  if (g.direct_output) {
    if constexpr (std::is_same_v<T, Compute>) {
      strided_batched_gemm(g, x, y, device_data<T>(out));
      store_in_place(out);
      return;
    } else {
      FUNCSPEC_UNREACHABLE("a widened einsum GEMM plan that writes the output directly");
    }
  }
  c_scratch = Tensor::empty({g.batch * g.m * g.n}, dtype_of<Compute>(), Device::Cuda);
  strided_batched_gemm(g, x, y, device_data<Compute>(c_scratch));
  const Geometry geometry = geometry_over(g.scatter_sizes);
  const StridedView<const Compute> from =
      view_over(static_cast<const Compute*>(device_data<Compute>(c_scratch)), g.scatter_from_strides, g.scatter_sizes);
  launch_einsum_store<T>(geometry, from, view_over(device_data<T>(out), g.scatter_to_strides, g.scatter_sizes));
}

template <typename T>
void run_generic(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out) {
  // Dims of size 1 index nothing; dropping them keeps the row-major order of the rest.
  std::vector<std::size_t> output_dims, summed_dims;
  std::vector<std::int64_t> output_sizes, summed_sizes;
  for (std::size_t d = 0; d < plan.sizes.size(); ++d) {
    if (plan.sizes[d] == 1) continue;
    (d < plan.output_rank ? output_dims : summed_dims).push_back(d);
    (d < plan.output_rank ? output_sizes : summed_sizes).push_back(plan.sizes[d]);
  }
  const Geometry output = geometry_over(output_sizes);
  const Geometry summed = geometry_over(summed_sizes);
  std::vector<EinsumOperand<T>> descriptors(operands.size());
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const std::vector<std::int64_t> strides = iteration_strides(plan, k, operands[k].shape(), operands[k].strides());
    descriptors[k].data = device_data<T>(operands[k]);
    for (std::size_t i = 0; i < output_dims.size(); ++i) descriptors[k].output_strides[i] = strides[output_dims[i]];
    for (std::size_t i = 0; i < summed_dims.size(); ++i) descriptors[k].summed_strides[i] = strides[summed_dims[i]];
  }
  // The descriptors go to the device in a scratch tensor of int64 words.
  static_assert(sizeof(EinsumOperand<T>) % sizeof(std::int64_t) == 0);
  const std::size_t nbytes = descriptors.size() * sizeof(EinsumOperand<T>);
  const Tensor on_device =
      Tensor::empty({static_cast<std::int64_t>(nbytes / sizeof(std::int64_t))}, DType::Int64, Device::Cuda);
  copy_host_to_device(device_data<std::int64_t>(on_device), descriptors.data(), nbytes);
  std::vector<std::int64_t> out_strides;
  for (std::size_t d : output_dims) out_strides.push_back(out.strides()[d]);
  StridedView<T> out_view = view_over(device_data<T>(out), out_strides, output_sizes);
  out_view.contiguous = out.is_contiguous();
  launch_einsum_generic<T>(output, summed,
                           reinterpret_cast<const EinsumOperand<T>*>(device_data<std::int64_t>(on_device)),
                           static_cast<int>(operands.size()), out_view);
}

}  // namespace
}  // namespace einsum_glue

std::optional<EinsumGemmPlan> plan_einsum_gemm(const common::EinsumPlan& plan, const std::vector<Shape>& shapes,
                                               const std::vector<Strides>& strides, const Strides& out_strides,
                                               DType dtype) {
  using namespace einsum_glue;
  FUNCSPEC_INTERNAL_ASSERT(dtype == DType::Float32 || dtype == DType::Float64,
                           "an einsum GEMM plan for a dtype other than float32 and float64");
  if (shapes.size() != 2) return std::nullopt;
  for (std::size_t d = plan.output_rank; d < plan.sizes.size(); ++d) {
    if (plan.sizes[d] == 0) return std::nullopt;
  }
  std::vector<std::vector<std::int64_t>> operand_strides;
  for (std::size_t k = 0; k < 2; ++k) operand_strides.push_back(iteration_strides(plan, k, shapes[k], strides[k]));
  std::vector<std::int64_t> out_iteration_strides(plan.sizes.size(), 0);
  std::copy(out_strides.begin(), out_strides.end(), out_iteration_strides.begin());
  const bool widened = dtype == DType::Float32;
  EinsumGemmPlan g = plan_with(plan, operand_strides, out_iteration_strides, 0, 1, widened);
  if (g.direct_output || widened) return g;
  EinsumGemmPlan swapped = plan_with(plan, operand_strides, out_iteration_strides, 1, 0, widened);
  if (swapped.direct_output) return swapped;
  return g;
}

void einsum(const common::EinsumPlan& plan, const TensorList& operands, const Tensor& out) {
  using namespace einsum_glue;
  if (out.numel() == 0) return;
  visit_dtype(out.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      std::vector<Shape> shapes;
      std::vector<Strides> strides;
      for (const Tensor& t : operands) {
        shapes.push_back(t.shape());
        strides.push_back(t.strides());
      }
      if (const auto g = plan_einsum_gemm(plan, shapes, strides, out.strides(), dtype_of<T>())) {
        run_gemm<T>(*g, operands, out);
      } else {
        run_generic<T>(plan, operands, out);
      }
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      run_generic<T>(plan, operands, out);
    } else {
      FUNCSPEC_UNREACHABLE("einsum on cuda takes int64, float32 and float64 (the op layer rejects bool)");
    }
  });
}

}  // namespace funcspec::cuda
