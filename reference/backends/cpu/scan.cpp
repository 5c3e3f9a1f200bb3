#include "reference/backends/cpu/scan.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "reference/backends/common/accumulator.h"
#include "reference/backends/common/reversed_view.h"
#include "reference/backends/common/scalar_math.h"
#include "reference/backends/cpu/copy.h"

namespace funcspec::cpu {
namespace {

namespace math = common::math;

// A rank-0 tensor is one lane of length 1.
std::int64_t lane_length(const Tensor& t, std::int64_t dim) { return t.dim() == 0 ? 1 : t.shape()[dim]; }
std::int64_t lane_stride(const Tensor& t, std::int64_t dim) { return t.dim() == 0 ? 0 : t.strides()[dim]; }

// Calls fn(offsets) once per lane along dim: offsets[k] is where the lane starts in tensors[k].
// The tensors agree in every dim but dim.
template <std::size_t N, typename Fn>
void for_each_lane(const std::array<Tensor, N>& tensors, std::int64_t dim, Fn&& fn) {
  Shape lanes = tensors[0].shape();
  if (!lanes.empty()) lanes[static_cast<std::size_t>(dim)] = 1;
  std::array<std::span<const std::int64_t>, N> strides;
  for (std::size_t k = 0; k < N; ++k) strides[k] = tensors[k].strides();
  for_each_offset<N>(lanes, strides, fn);
}

template <typename Combine>
void scan_kernel(const Tensor& in, const Tensor& out, std::int64_t dim, int identity, Combine&& combine) {
  FUNCSPEC_INTERNAL_ASSERT(in.dtype() == out.dtype(), "scan of mismatched dtypes");
  visit_dtype(in.dtype(), [&]<typename T>() {
    using Acc = common::accumulator_t<T>;
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    const std::int64_t n = lane_length(in, dim), in_step = lane_stride(in, dim), out_step = lane_stride(out, dim);
    for_each_lane<2>({in, out}, dim, [&](const std::array<std::int64_t, 2>& at) {
      Acc running = Acc(identity);
      for (std::int64_t i = 0; i < n; ++i) {
        running = combine(running, cast_scalar<Acc>(src[at[0] + i * in_step]));
        dst[at[1] + i * out_step] = cast_scalar<T>(running);
      }
    });
  });
}

// `t` restricted to [start, start + length) along dim, sharing its storage.
Tensor narrow_view(const Tensor& t, std::int64_t dim, std::int64_t start, std::int64_t length) {
  Shape shape = t.shape();
  shape[static_cast<std::size_t>(dim)] = length;
  return Tensor::view_of(t, shape, t.strides(),
                         t.storage_offset() + start * t.strides()[static_cast<std::size_t>(dim)]);
}

// dst = src rolled by shift along dim: dst[(i + shift) mod n] = src[i].
void roll_along(const Tensor& src, const Tensor& dst, std::int64_t shift, std::int64_t dim) {
  const std::int64_t n = src.shape()[static_cast<std::size_t>(dim)];
  if (n == 0) return;
  const std::int64_t s = ((shift % n) + n) % n;
  copy_elements(narrow_view(src, dim, 0, n - s), narrow_view(dst, dim, s, n - s));
  copy_elements(narrow_view(src, dim, n - s, s), narrow_view(dst, dim, 0, s));
}

// Strict weak orders in which NaN is the largest value (all NaNs equivalent), so that a stable sort
// is well defined on any input.
struct AscendingNanLast {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return !math::isnan(a) && (math::isnan(b) || a < b);
  }
};

struct DescendingNanFirst {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return !math::isnan(b) && (math::isnan(a) || a > b);
  }
};

// Sorts each lane of `in` stably and writes its first values.size(dim) elements.
void sorted_prefix_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim,
                          bool descending) {
  FUNCSPEC_INTERNAL_ASSERT(indices.dtype() == DType::Int64 && values.dtype() == in.dtype(), "sort output dtypes");
  visit_dtype(in.dtype(), [&]<typename T>() {
    const T* src = in.data<T>();
    T* value_out = values.data<T>();
    std::int64_t* index_out = indices.data<std::int64_t>();
    const std::int64_t n = lane_length(in, dim), k = lane_length(values, dim);
    const std::int64_t in_step = lane_stride(in, dim), value_step = lane_stride(values, dim),
                       index_step = lane_stride(indices, dim);
    std::vector<std::pair<T, std::int64_t>> lane;
    for_each_lane<3>({in, values, indices}, dim, [&](const std::array<std::int64_t, 3>& at) {
      lane.clear();
      for (std::int64_t i = 0; i < n; ++i) lane.emplace_back(src[at[0] + i * in_step], i);
      auto by_value = [&](const auto& a, const auto& b) {
        return descending ? DescendingNanFirst{}(a.first, b.first) : AscendingNanLast{}(a.first, b.first);
      };
      std::stable_sort(lane.begin(), lane.end(), by_value);
      for (std::int64_t i = 0; i < k; ++i) {
        value_out[at[1] + i * value_step] = lane[static_cast<std::size_t>(i)].first;
        index_out[at[2] + i * index_step] = lane[static_cast<std::size_t>(i)].second;
      }
    });
  });
}

}  // namespace

void cumsum_kernel(const Tensor& in, const Tensor& out, std::int64_t dim) {
  scan_kernel(in, out, dim, 0, [](const auto& running, const auto& x) { return running + x; });
}

void cumprod_kernel(const Tensor& in, const Tensor& out, std::int64_t dim) {
  scan_kernel(in, out, dim, 1, [](const auto& running, const auto& x) { return running * x; });
}

void flip_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims) {
  copy_elements(common::reversed_view(in, dims), out);
}

void roll_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> shifts,
                 std::span<const std::int64_t> dims) {
  if (dims.empty() || in.dim() == 0) {
    // Flatten, roll, restore: out is contiguous, so its storage is the row-major flattening.
    const Tensor flat = Tensor::empty(in.shape(), in.dtype());
    copy_elements(in, flat);
    const Shape numel{in.numel()};
    roll_along(Tensor::view_of(flat, numel, {1}, 0), Tensor::view_of(out, numel, {1}, out.storage_offset()),
               dims.empty() ? shifts[0] : 0, 0);
    return;
  }
  Tensor current = in;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const Tensor next = i + 1 == dims.size() ? out : Tensor::empty(in.shape(), in.dtype());
    roll_along(current, next, shifts[i], dims[i]);
    current = next;
  }
}

void sort_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool descending) {
  sorted_prefix_kernel(in, values, indices, dim, descending);
}

void topk_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool largest) {
  sorted_prefix_kernel(in, values, indices, dim, largest);
}

}  // namespace funcspec::cpu
