// Host glue of the CUDA scans and reorderings: lanes along a dim become a LaneLayout, rolls and
// flips a RollLayout, and the kernels of scan.cu run on them.
#include "reference/backends/cuda/scan.h"

#include <array>
#include <string_view>

#include "reference/backends/common/reversed_view.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/scan_launch.h"

namespace funcspec::cuda {
// Named after the file so that unity builds never merge these helpers with another file's.
namespace scan_glue {
namespace {

// A rank-0 tensor is one lane of length 1 (as on the cpu).
std::int64_t lane_length(const Tensor& t, std::int64_t dim) {
  return t.dim() == 0 ? 1 : t.shape()[static_cast<std::size_t>(dim)];
}

// The lanes along `dim` of tensors that agree in every other dim (operand k is tensors[k]).
template <std::size_t N>
LaneLayout lane_layout(const std::array<Tensor, N>& tensors, std::int64_t dim, std::string_view op) {
  static_assert(N <= 3);
  Shape lanes = tensors[0].shape();
  if (!lanes.empty()) lanes[static_cast<std::size_t>(dim)] = 1;
  LaneLayout layout;
  layout.lanes = geometry_of(lanes, op);
  for (std::size_t k = 0; k < N; ++k) {
    const Strides& strides = tensors[k].strides();
    for (std::size_t d = 0; d < strides.size(); ++d) layout.strides[k][d] = strides[d];
    layout.steps[k] = tensors[k].dim() == 0 ? 0 : strides[static_cast<std::size_t>(dim)];
  }
  return layout;
}

template <typename Fn>
void visit_cuda_dtype(DType dtype, Fn&& fn) {
  visit_dtype(dtype, [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      FUNCSPEC_INTERNAL_ASSERT(false, "the oracle dtype reached a CUDA kernel");
    } else {
      fn.template operator()<T>();
    }
  });
}

void scan_on_cuda(bool product, const Tensor& in, const Tensor& out, std::int64_t dim, std::string_view op) {
  FUNCSPEC_INTERNAL_ASSERT(in.dtype() == out.dtype(), "scan of mismatched dtypes");
  if (in.numel() == 0) return;
  const LaneLayout layout = lane_layout<2>({in, out}, dim, op);
  visit_cuda_dtype(in.dtype(), [&]<typename T>() {
    launch_scan<T>(product, device_data<T>(in), device_data<T>(out), layout, lane_length(in, dim));
  });
}

// out = in gathered through `layout` (whose geometry is in's shape).
void roll_on_cuda(const Tensor& in, const Tensor& out, const RollLayout& layout, std::string_view op) {
  FUNCSPEC_INTERNAL_ASSERT(in.dtype() == out.dtype() && in.shape() == out.shape(), "roll output layout");
  if (in.numel() == 0) return;
  visit_cuda_dtype(in.dtype(), [&]<typename T>() {
    StridedView<const T> source;
    const StridedView<T> view = strided_view_of<T>(in, op);
    source.data = view.data;
    for (int d = 0; d < kMaxDims; ++d) source.strides[d] = view.strides[d];
    source.contiguous = view.contiguous;
    launch_roll<T>(source, strided_view_of<T>(out, op), layout);
  });
}

void sort_on_cuda(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool descending,
                  std::string_view op) {
  FUNCSPEC_INTERNAL_ASSERT(indices.dtype() == DType::Int64 && values.dtype() == in.dtype(), "sort output dtypes");
  if (in.numel() == 0 || values.numel() == 0) return;
  const LaneLayout layout = lane_layout<3>({in, values, indices}, dim, op);
  visit_cuda_dtype(in.dtype(), [&]<typename T>() {
    launch_sort<T>(device_data<T>(in), device_data<T>(values), device_data<std::int64_t>(indices), layout,
                   lane_length(in, dim), lane_length(values, dim), descending);
  });
}

}  // namespace
}  // namespace scan_glue

using scan_glue::roll_on_cuda;
using scan_glue::scan_on_cuda;
using scan_glue::sort_on_cuda;

void cumsum_kernel(const Tensor& in, const Tensor& out, std::int64_t dim) {
  scan_on_cuda(false, in, out, dim, "cumsum");
}

void cumprod_kernel(const Tensor& in, const Tensor& out, std::int64_t dim) {
  scan_on_cuda(true, in, out, dim, "cumprod");
}

void flip_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  // The cpu's reversed view; the gather then copies it with no shift.
  RollLayout layout;
  layout.geometry = geometry_of(in.shape(), "flip");
  roll_on_cuda(common::reversed_view(in, dims), out, layout, "flip");
}

void roll_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> shifts,
                 std::span<const std::int64_t> dims) {
  RollLayout layout;
  layout.geometry = geometry_of(in.shape(), "roll");
  if (in.numel() == 0) return;
  // The net shift of each dim in [0, size): rolls along one dim add up, rolls along different dims
  // commute, so this is the cpu's one-dim-after-the-other roll.
  const auto wrap = [](std::int64_t shift, std::int64_t n) { return ((shift % n) + n) % n; };
  if (dims.empty() || in.dim() == 0) {
    layout.flat = true;
    layout.flat_shift = wrap(dims.empty() ? shifts[0] : 0, in.numel());
  } else {
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const auto d = static_cast<std::size_t>(dims[i]);
      const std::int64_t n = in.shape()[d];
      layout.shifts[d] = (layout.shifts[d] + wrap(shifts[i], n)) % n;
    }
  }
  roll_on_cuda(in, out, layout, "roll");
}

void sort_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool descending) {
  sort_on_cuda(in, values, indices, dim, descending, "sort");
}

void topk_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool largest) {
  sort_on_cuda(in, values, indices, dim, largest, "topk");
}

}  // namespace funcspec::cuda
