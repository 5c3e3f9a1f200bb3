// Host glue of the CUDA reductions: the input's kept and reduced dims become a ReduceLayout and the
// kernels of reduce.cu run on it. Which order each output is reduced in: NOTE: [cuda reduction
// order] (reduce_launch.h).
#include "reference/backends/cuda/reduce.h"

#include <string_view>
#include <vector>

#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/reduce_launch.h"

namespace funcspec::cuda {

// Named after the file so that unity builds never merge these helpers with another file's.
namespace reduce_glue {
namespace {

// Sizes and strides of a list of dims, outermost first.
struct DimList {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
};

// Appends a dim inside the ones already listed. Size-1 dims are dropped and a dim that continues
// the previous one in memory is merged into it: neither changes the row-major order of the listed
// dims' index nor the offset any index maps to.
void append_dim(DimList& list, std::int64_t size, std::int64_t stride) {
  if (size == 1) return;
  if (!list.sizes.empty() && list.strides.back() == size * stride) {
    list.sizes.back() *= size;
    list.strides.back() = stride;
    return;
  }
  list.sizes.push_back(size);
  list.strides.push_back(stride);
}

void fill(Geometry& geometry, std::int64_t* strides, const DimList& list) {
  geometry.rank = static_cast<int>(list.sizes.size());
  geometry.numel = 1;
  for (int d = 0; d < geometry.rank; ++d) {
    geometry.sizes[d] = list.sizes[static_cast<std::size_t>(d)];
    strides[d] = list.strides[static_cast<std::size_t>(d)];
    geometry.numel *= geometry.sizes[d];
  }
}

// The kept dims (the outputs, row-major) and the reduced dims (each output's elements, row-major
// over the reduced dims in increasing order, whatever order `dims` lists them in: the cpu's order).
ReduceLayout layout_of(const Tensor& in, std::span<const std::int64_t> dims, std::string_view op) {
  geometry_of(in.shape(), op);  // rejects ranks the CUDA backend does not handle
  const std::size_t rank = in.shape().size();
  std::vector<bool> reduced(rank, false);
  for (std::int64_t d : dims) reduced[static_cast<std::size_t>(d)] = true;
  DimList kept, reduced_dims;
  for (std::size_t d = 0; d < rank; ++d) append_dim(reduced[d] ? reduced_dims : kept, in.shape()[d], in.strides()[d]);
  if (reduced_dims.sizes.empty()) {
    // Nothing (or only size-1 dims) reduced: one element per output.
    reduced_dims.sizes.push_back(1);
    reduced_dims.strides.push_back(0);
  }
  ReduceLayout layout;
  fill(layout.kept, layout.kept_strides, kept);
  fill(layout.reduced, layout.reduced_strides, reduced_dims);
  layout.outputs = layout.kept.numel;
  layout.length = layout.reduced.numel;
  return layout;
}

void* device_pointer(const Tensor& t) {
  return visit_dtype(t.dtype(), [&]<typename U>() -> void* { return device_data<U>(t); });
}

void reduce_on_cuda(ReduceKind kind, const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims,
                    std::string_view op, double p = 0) {
  FUNCSPEC_INTERNAL_ASSERT(out.is_contiguous(), "reduction output layout");
  const ReduceLayout layout = layout_of(in, dims, op);
  if (layout.outputs == 0) return;
  void* const out_data = device_pointer(out);
  visit_dtype(in.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_INTERNAL_ASSERT(false, "the oracle dtype reached a CUDA kernel");
    } else {
      launch_reduce<T>(kind, device_data<T>(in), out_data, layout, p);
    }
  });
}

void check_same_dtype(const Tensor& in, const Tensor& out) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == in.dtype(), "reduction output dtype");
}

}  // namespace
}  // namespace reduce_glue

using reduce_glue::check_same_dtype;
using reduce_glue::reduce_on_cuda;

void sum_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  check_same_dtype(in, out);
  reduce_on_cuda(ReduceKind::Sum, in, out, dims, "sum");
}

void prod_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  check_same_dtype(in, out);
  reduce_on_cuda(ReduceKind::Prod, in, out, dims, "prod");
}

void amax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  check_same_dtype(in, out);
  reduce_on_cuda(ReduceKind::Amax, in, out, dims, "amax");
}

void amin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  check_same_dtype(in, out);
  reduce_on_cuda(ReduceKind::Amin, in, out, dims, "amin");
}

void all_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == DType::Bool, "bool reduction output dtype");
  reduce_on_cuda(ReduceKind::All, in, out, dims, "all");
}

void any_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == DType::Bool, "bool reduction output dtype");
  reduce_on_cuda(ReduceKind::Any, in, out, dims, "any");
}

void argmax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == DType::Int64, "arg reduction output dtype");
  reduce_on_cuda(ReduceKind::Argmax, in, out, dims, "argmax");
}

void argmin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == DType::Int64, "arg reduction output dtype");
  reduce_on_cuda(ReduceKind::Argmin, in, out, dims, "argmin");
}

void norm_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, double p) {
  FUNCSPEC_INTERNAL_ASSERT(is_floating(in.dtype()), "norm of a non-floating dtype");
  check_same_dtype(in, out);
  reduce_on_cuda(ReduceKind::Norm, in, out, dims, "norm", p);
}

}  // namespace funcspec::cuda
