// CUDA kernels of the scans (cumsum, cumprod) and reorderings (flip, roll, sort, topk). Orders and
// what makes them equal the cpu's: scan_launch.h.
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "reference/backends/common/accumulator.h"
#include "reference/backends/common/scalar_math.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/reduce_support.h"
#include "reference/backends/cuda/scan_launch.h"
#include "reference/core/cast_scalar.h"

namespace funcspec::cuda {
// Named after the file so that a unity build never merges these kernels with another file's.
namespace scan_kernels {
namespace {

namespace math = common::math;

constexpr int kThreads = 128;

__device__ inline std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

// ---- cumsum / cumprod: one thread per lane, sequential along the dim ----
template <typename T, bool kProduct>
__global__ void scan_kernel(const T* in, T* out, const __grid_constant__ LaneLayout layout, std::int64_t length) {
  using Acc = common::accumulator_t<T>;
  FUNCSPEC_GRID_STRIDE_LOOP(lane, layout.lanes.numel) {
    const T* src = in + offset_of(lane, layout.lanes, layout.strides[0]);
    T* dst = out + offset_of(lane, layout.lanes, layout.strides[1]);
    Acc running = Acc(kProduct ? 1 : 0);
    for (std::int64_t i = 0; i < length; ++i) {
      const Acc x = cast_scalar<Acc>(src[i * layout.steps[0]]);
      running = kProduct ? accumulate_mul(running, x) : accumulate_add(running, x);
      dst[i * layout.steps[1]] = cast_scalar<T>(running);
    }
  }
}

// ---- roll / flip: one thread per output element ----
template <typename T>
__global__ void roll_kernel(StridedView<const T> in, StridedView<T> out, const __grid_constant__ RollLayout layout) {
  const Geometry& geometry = layout.geometry;
  FUNCSPEC_GRID_STRIDE_LOOP(l, geometry.numel) {
    std::int64_t source = 0;
    if (layout.flat) {
      std::int64_t position = l - layout.flat_shift;
      if (position < 0) position += geometry.numel;
      source = in.contiguous ? position : offset_of(position, geometry, in.strides);
    } else {
      std::int64_t rest = l;
      for (int d = geometry.rank - 1; d >= 0; --d) {
        const std::int64_t size = geometry.sizes[d];
        std::int64_t index = rest % size - layout.shifts[d];
        rest /= size;
        if (index < 0) index += size;
        source += index * in.strides[d];
      }
    }
    element_at(out, l, geometry) = in.data[source];
  }
}

// ---- sort / topk: a bottom-up merge sort of every lane ----

// The cpu's strict weak orders: ascending with NaN last, descending with NaN first (NaNs equivalent).
template <bool kDescending, typename T>
__device__ bool sorts_before(const T& a, const T& b) {
  if constexpr (kDescending)
    return !math::isnan(b) && (math::isnan(a) || a > b);
  else
    return !math::isnan(a) && (math::isnan(b) || a < b);
}

// keys[lane * length + i] = the lane's element i, positions[...] = i.
template <typename T>
__global__ void sort_gather_kernel(const T* in, const __grid_constant__ LaneLayout layout, std::int64_t length, T* keys,
                                   std::int64_t* positions) {
  FUNCSPEC_GRID_STRIDE_LOOP(item, layout.lanes.numel * length) {
    const std::int64_t lane = item / length;
    const std::int64_t i = item % length;
    keys[item] = in[offset_of(lane, layout.lanes, layout.strides[0]) + i * layout.steps[0]];
    positions[item] = i;
  }
}

// One pass: in every lane, the sorted runs [lo, lo + width) and [lo + width, lo + 2 width) (cut at
// the lane's end) are merged into one, taking from the left run unless the right one's head sorts
// strictly before (stability). One thread per pair of runs.
template <bool kDescending, typename T>
__global__ void merge_pass_kernel(const T* keys, const std::int64_t* positions, T* merged_keys,
                                  std::int64_t* merged_positions, std::int64_t lanes, std::int64_t length,
                                  std::int64_t width) {
  const std::int64_t pairs = (length + 2 * width - 1) / (2 * width);
  FUNCSPEC_GRID_STRIDE_LOOP(item, lanes * pairs) {
    const std::int64_t base = (item / pairs) * length;
    const std::int64_t lo = base + (item % pairs) * 2 * width;
    const std::int64_t end = base + length;
    const std::int64_t mid = min64(lo + width, end);
    const std::int64_t hi = min64(lo + 2 * width, end);
    std::int64_t a = lo;
    std::int64_t b = mid;
    for (std::int64_t o = lo; o < hi; ++o) {
      const bool take_right = a >= mid || (b < hi && sorts_before<kDescending>(keys[b], keys[a]));
      const std::int64_t from = take_right ? b++ : a++;
      merged_keys[o] = keys[from];
      merged_positions[o] = positions[from];
    }
  }
}

// The first `count` sorted elements of every lane to values (operand 1) and indices (operand 2).
template <typename T>
__global__ void sort_scatter_kernel(const T* keys, const std::int64_t* positions,
                                    const __grid_constant__ LaneLayout layout, std::int64_t length, std::int64_t count,
                                    T* values, std::int64_t* indices) {
  FUNCSPEC_GRID_STRIDE_LOOP(item, layout.lanes.numel * count) {
    const std::int64_t lane = item / count;
    const std::int64_t i = item % count;
    const std::int64_t from = lane * length + i;
    values[offset_of(lane, layout.lanes, layout.strides[1]) + i * layout.steps[1]] = keys[from];
    indices[offset_of(lane, layout.lanes, layout.strides[2]) + i * layout.steps[2]] = positions[from];
  }
}

template <bool kDescending, typename T>
void merge_sort_lanes(T*& keys, std::int64_t*& positions, T*& spare_keys, std::int64_t*& spare_positions,
                      std::int64_t lanes, std::int64_t length) {
  for (std::int64_t width = 1; width < length; width *= 2) {
    const std::int64_t pairs = (length + 2 * width - 1) / (2 * width);
    FUNCSPEC_LAUNCH(grid_for(lanes * pairs, kThreads), kThreads, merge_pass_kernel<kDescending>)
    (keys, positions, spare_keys, spare_positions, lanes, length, width);
    check_launch("sort merge kernel launch");
    std::swap(keys, spare_keys);
    std::swap(positions, spare_positions);
  }
}

}  // namespace
}  // namespace scan_kernels

using scan_kernels::kThreads;

template <typename T>
void launch_scan(bool product, const T* in, T* out, const LaneLayout& layout, std::int64_t length) {
  if (layout.lanes.numel == 0 || length == 0) return;
  const unsigned blocks = grid_for(layout.lanes.numel, kThreads);
  if (product)
    FUNCSPEC_LAUNCH(blocks, kThreads, scan_kernels::scan_kernel<T, true>)(in, out, layout, length);
  else
    FUNCSPEC_LAUNCH(blocks, kThreads, scan_kernels::scan_kernel<T, false>)(in, out, layout, length);
  check_launch("scan kernel launch");
}

template <typename T>
void launch_roll(const StridedView<const T>& in, const StridedView<T>& out, const RollLayout& layout) {
  if (layout.geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(grid_for(layout.geometry.numel, kThreads), kThreads, scan_kernels::roll_kernel<T>)(in, out, layout);
  check_launch("roll kernel launch");
}

template <typename T>
void launch_sort(const T* in, T* values, std::int64_t* indices, const LaneLayout& layout, std::int64_t length,
                 std::int64_t count, bool descending) {
  const std::int64_t lanes = layout.lanes.numel;
  const std::int64_t total = lanes * length;
  if (total == 0 || count == 0) return;
  // Positions first (8-byte aligned), then the keys: two buffers of each, merged back and forth.
  const DeviceScratch scratch(static_cast<std::size_t>(total) * 2 * (sizeof(std::int64_t) + sizeof(T)));
  std::int64_t* positions = scratch.as<std::int64_t>();
  std::int64_t* spare_positions = positions + total;
  T* keys = reinterpret_cast<T*>(spare_positions + total);
  T* spare_keys = keys + total;
  FUNCSPEC_LAUNCH(grid_for(total, kThreads), kThreads, scan_kernels::sort_gather_kernel<T>)
  (in, layout, length, keys, positions);
  check_launch("sort gather kernel launch");
  if (descending)
    scan_kernels::merge_sort_lanes<true>(keys, positions, spare_keys, spare_positions, lanes, length);
  else
    scan_kernels::merge_sort_lanes<false>(keys, positions, spare_keys, spare_positions, lanes, length);
  FUNCSPEC_LAUNCH(grid_for(lanes * count, kThreads), kThreads, scan_kernels::sort_scatter_kernel<T>)
  (keys, positions, layout, length, count, values, indices);
  check_launch("sort scatter kernel launch");
}

#define FUNCSPEC_INSTANTIATE_SCAN(T)                                                                   \
  template void launch_scan<T>(bool, const T*, T*, const LaneLayout&, std::int64_t);                   \
  template void launch_roll<T>(const StridedView<const T>&, const StridedView<T>&, const RollLayout&); \
  template void launch_sort<T>(const T*, T*, std::int64_t*, const LaneLayout&, std::int64_t, std::int64_t, bool);
FUNCSPEC_INSTANTIATE_SCAN(bool)
FUNCSPEC_INSTANTIATE_SCAN(std::int64_t)
FUNCSPEC_INSTANTIATE_SCAN(float)
FUNCSPEC_INSTANTIATE_SCAN(double)
#undef FUNCSPEC_INSTANTIATE_SCAN

}  // namespace funcspec::cuda
