// CUDA kernels of the reductions. Each output is reduced along the fixed tree of NOTE: [cuda
// reduction order] (reduce_launch.h): level 0 folds chunks of kReduceChunk consecutive positions
// sequentially, further levels fold groups of kReduceGroup partials sequentially. Two kernels
// compute level 0 (they give the same bits; only their memory access differs):
//   reduce_contiguous_kernel  when each output's elements are one contiguous run (a full sum of a
//     contiguous tensor, sums over its trailing dims): a warp takes 32 chunks, loads them in
//     coalesced 32-element rows into shared memory, and each lane folds its own chunk from there.
//   reduce_strided_kernel     otherwise: one thread per chunk walks the reduced positions through
//     the strides; consecutive threads take consecutive outputs, so reducing a leading dim of a
//     contiguous tensor reads coalesced.
// combine_kernel computes the further levels, one thread per group.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/accumulator.h"
#include "reference/backends/common/scalar_math.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/reduce_launch.h"
#include "reference/backends/cuda/reduce_support.h"
#include "reference/core/cast_scalar.h"

namespace funcspec::cuda {
// Named after the file so that a unity build never merges these kernels with another file's.
namespace reduce_kernels {
namespace {

namespace math = common::math;

// ---- What each reduction folds (the cpu's reduce.cpp, element for element) ----
// A reducer has: State (what is folded), Out (the output element), identity(), fold(state, x, r)
// for the input element x at reduced position r, combine(earlier, later) for two partials of
// consecutive position ranges, and finish(state).

template <typename T>
struct SumReducer {
  using Acc = common::accumulator_t<T>;
  using State = Acc;
  using Out = T;
  __device__ State identity() const { return Acc(0); }
  __device__ State fold(State s, T x, std::int64_t) const { return accumulate_add(s, cast_scalar<Acc>(x)); }
  __device__ State combine(State a, State b) const { return accumulate_add(a, b); }
  __device__ Out finish(State s) const { return cast_scalar<T>(s); }
};

template <typename T>
struct ProdReducer {
  using Acc = common::accumulator_t<T>;
  using State = Acc;
  using Out = T;
  __device__ State identity() const { return Acc(1); }
  __device__ State fold(State s, T x, std::int64_t) const { return accumulate_mul(s, cast_scalar<Acc>(x)); }
  __device__ State combine(State a, State b) const { return accumulate_mul(a, b); }
  __device__ Out finish(State s) const { return cast_scalar<T>(s); }
};

// all (kAll) or any: every / some element is non-zero (NaN is non-zero, as cast_scalar<bool>).
template <typename T, bool kAll>
struct TruthReducer {
  using State = bool;
  using Out = bool;
  __device__ State identity() const { return kAll; }
  __device__ State fold(State s, T x, std::int64_t) const { return kAll ? (s && x != T(0)) : (s || x != T(0)); }
  __device__ State combine(State a, State b) const { return kAll ? (a && b) : (a || b); }
  __device__ Out finish(State s) const { return s; }
};

// The extreme seen so far and its position; index -1 before any element.
template <typename T>
struct Extreme {
  T value;
  std::int64_t index;
};

// The cpu's extreme_index as an associative operation on consecutive ranges (a before b): the
// first NaN wins, else the larger (kMax) or smaller value, ties going to the earlier position.
template <bool kMax, typename T>
__device__ Extreme<T> pick(const Extreme<T>& a, const Extreme<T>& b) {
  if (a.index < 0) return b;
  if (b.index < 0) return a;
  if (math::isnan(a.value)) return a;
  if (math::isnan(b.value)) return b;
  return (kMax ? b.value > a.value : b.value < a.value) ? b : a;
}

// amax/amin (value), argmax/argmin (kIndex: the position) and norm with p = +-inf (kAbs: of |x|).
template <typename T, bool kMax, bool kIndex, bool kAbs>
struct ExtremeReducer {
  using State = Extreme<T>;
  using Out = std::conditional_t<kIndex, std::int64_t, T>;
  __device__ State identity() const { return State{T(0), -1}; }
  __device__ State fold(State s, T x, std::int64_t r) const {
    if constexpr (kAbs) x = math::abs(x);
    return pick<kMax>(s, State{x, r});
  }
  __device__ State combine(State a, State b) const { return pick<kMax>(a, b); }
  __device__ Out finish(State s) const {
    if constexpr (kIndex)
      return s.index;
    else
      return s.value;
  }
};

// The finite p-norms of the cpu's norm_kernel: kOrder 0 (count of non-zeros, NaN counting), 1, 2,
// or -1 for any other positive p (through pow, whose device and host libraries may differ).
template <typename T, int kOrder>
struct NormReducer {
  using State = double;
  using Out = T;
  double p;
  __device__ State identity() const { return 0.0; }
  __device__ State fold(State s, T x, std::int64_t) const {
    const double a = static_cast<double>(math::abs(x));
    if constexpr (kOrder == 0)
      return accumulate_add(s, a != 0.0 ? 1.0 : 0.0);
    else if constexpr (kOrder == 1)
      return accumulate_add(s, a);
    else if constexpr (kOrder == 2)
      return accumulate_add(s, accumulate_mul(a, a));
    else
      return accumulate_add(s, math::pow(a, p));
  }
  __device__ State combine(State a, State b) const { return accumulate_add(a, b); }
  __device__ Out finish(State s) const {
    if constexpr (kOrder == 2)
      s = math::sqrt(s);
    else if constexpr (kOrder == -1)
      s = math::pow(s, 1.0 / p);
    return cast_scalar<T>(s);
  }
};

// ---- Level 0: one sequential fold per chunk ----

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kStagedWarpsPerBlock = 2;
constexpr int kStridedThreads = 128;
constexpr int kCombineThreads = 128;
// Below this reduced length the staged kernel would load mostly padding.
constexpr std::int64_t kStagedMinLength = 64;

// Columns of a staged tile: each step a warp loads 32 rows of this many elements (8 KiB of float32,
// int64 or float64), enough in flight to keep the memory busy with a few warps per SM.
template <typename T>
constexpr int staged_columns() {
  return sizeof(T) >= 8 ? 32 : 64;
}

__device__ inline std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }
__device__ inline std::int64_t max64(std::int64_t a, std::int64_t b) { return a > b ? a : b; }

// staged[j][q] = element `column + q * 32 + lane` of lane j's row (T() past the row's end).
template <typename T, int kPerLane>
__device__ void load_staged(T (&staged)[kWarpSize][kPerLane], const T* row, std::int64_t length, std::int64_t column,
                            int lane) {
#pragma unroll
  for (int j = 0; j < kWarpSize; ++j) {
    const auto row_j = reinterpret_cast<const T*>(__shfl_sync(kFullMask, reinterpret_cast<unsigned long long>(row), j));
    const long long length_j = __shfl_sync(kFullMask, static_cast<long long>(length), j);
#pragma unroll
    for (int q = 0; q < kPerLane; ++q) {
      const std::int64_t at = column + q * kWarpSize + lane;
      staged[j][q] = at < length_j ? row_j[at] : T();
    }
  }
}

// Level 0 when the reduced elements of every output are one contiguous run (reduced rank 1, stride
// 1). Work item = output * chunks + chunk; the 32 lanes of a warp take 32 consecutive items.
template <typename Reducer, typename T>
__global__ void __launch_bounds__(kStagedWarpsPerBlock* kWarpSize)
    reduce_contiguous_kernel(const T* in, const __grid_constant__ ReduceLayout layout, std::int64_t chunks,
                             Reducer reducer, typename Reducer::State* partials, typename Reducer::Out* out) {
  constexpr int kColumns = staged_columns<T>();
  constexpr int kPerLane = kColumns / kWarpSize;
  // One tile per warp; the padding column keeps lane i's reads of row i on distinct banks.
  __shared__ T tile[kStagedWarpsPerBlock][kWarpSize][kColumns + 1];
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
  T(*rows)[kColumns + 1] = tile[warp];
  const std::int64_t items = layout.outputs * chunks;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kStagedWarpsPerBlock * kWarpSize;
  // `first` is the same on every lane, so the whole warp runs every iteration together.
  for (std::int64_t first = (static_cast<std::int64_t>(blockIdx.x) * kStagedWarpsPerBlock + warp) * kWarpSize;
       first < items; first += stride) {
    const std::int64_t item = first + lane;
    const bool active = item < items;
    const std::int64_t output = active ? item / chunks : 0;
    const std::int64_t start = active ? (item % chunks) * kReduceChunk : 0;
    const std::int64_t length = active ? min64(layout.length - start, kReduceChunk) : 0;
    const T* row = in + (active ? offset_of(output, layout.kept, layout.kept_strides) + start : 0);
    std::int64_t longest = length;
    for (int delta = kWarpSize / 2; delta > 0; delta /= 2) {
      longest = max64(longest, __shfl_xor_sync(kFullMask, static_cast<long long>(longest), delta));
    }
    typename Reducer::State state = reducer.identity();
    T staged[kWarpSize][kPerLane];
    load_staged(staged, row, length, 0, lane);
    for (std::int64_t column = 0; column < longest; column += kColumns) {
#pragma unroll
      for (int j = 0; j < kWarpSize; ++j) {
#pragma unroll
        for (int q = 0; q < kPerLane; ++q) rows[j][q * kWarpSize + lane] = staged[j][q];
      }
      __syncwarp();
      // The next step's loads are in flight while this step is folded.
      if (column + kColumns < longest) load_staged(staged, row, length, column + kColumns, lane);
      const std::int64_t valid = min64(max64(length - column, 0), kColumns);
      for (int k = 0; k < valid; ++k) state = reducer.fold(state, rows[lane][k], start + column + k);
      __syncwarp();
    }
    if (active) {
      if (chunks == 1)
        out[output] = reducer.finish(state);
      else
        partials[item] = state;
    }
  }
}

// Folds reduced positions [begin, end) of the output whose elements start at `base`, in order.
template <typename Reducer, typename T>
__device__ typename Reducer::State fold_positions(const Reducer& reducer, typename Reducer::State state, const T* base,
                                                  const ReduceLayout& layout, std::int64_t begin, std::int64_t end) {
  const int inner_dim = layout.reduced.rank - 1;
  const std::int64_t inner_size = layout.reduced.sizes[inner_dim];
  const std::int64_t inner_stride = layout.reduced_strides[inner_dim];
  std::int64_t position = begin;
  while (position < end) {
    // The offset of `position`, then a run along the innermost reduced dim.
    std::int64_t outer = position / inner_size;
    const std::int64_t inner = position - outer * inner_size;
    std::int64_t offset = inner * inner_stride;
    for (int d = inner_dim - 1; d >= 0; --d) {
      offset += (outer % layout.reduced.sizes[d]) * layout.reduced_strides[d];
      outer /= layout.reduced.sizes[d];
    }
    const std::int64_t run = min64(inner_size - inner, end - position);
    const T* at = base + offset;
    for (std::int64_t k = 0; k < run; ++k) state = reducer.fold(state, at[k * inner_stride], position + k);
    position += run;
  }
  return state;
}

// Level 0 for any layout: work item = chunk * outputs + output, one thread each.
template <typename Reducer, typename T>
__global__ void reduce_strided_kernel(const T* in, const __grid_constant__ ReduceLayout layout, std::int64_t chunks,
                                      Reducer reducer, typename Reducer::State* partials, typename Reducer::Out* out) {
  FUNCSPEC_GRID_STRIDE_LOOP(item, layout.outputs * chunks) {
    const std::int64_t output = item % layout.outputs;
    const std::int64_t chunk = item / layout.outputs;
    const std::int64_t start = chunk * kReduceChunk;
    const std::int64_t end = min64(layout.length, start + kReduceChunk);
    const typename Reducer::State state = fold_positions(
        reducer, reducer.identity(), in + offset_of(output, layout.kept, layout.kept_strides), layout, start, end);
    if (chunks == 1)
      out[output] = reducer.finish(state);
    else
      partials[output * chunks + chunk] = state;
  }
}

// ---- Further levels: `partials` holds `count` values per output (output-major); each group of
// kReduceGroup is folded from the identity into `next` (groups per output), or into `out` when one
// group is left. ----
template <typename Reducer>
__global__ void combine_kernel(const typename Reducer::State* partials, std::int64_t outputs, std::int64_t count,
                               std::int64_t groups, Reducer reducer, typename Reducer::State* next,
                               typename Reducer::Out* out) {
  FUNCSPEC_GRID_STRIDE_LOOP(item, outputs * groups) {
    const std::int64_t output = item / groups;
    const std::int64_t begin = (item % groups) * kReduceGroup;
    const std::int64_t end = min64(count, begin + kReduceGroup);
    const typename Reducer::State* from = partials + output * count;
    typename Reducer::State state = reducer.identity();
    for (std::int64_t i = begin; i < end; ++i) state = reducer.combine(state, from[i]);
    if (groups == 1)
      out[output] = reducer.finish(state);
    else
      next[item] = state;
  }
}

template <typename Reducer, typename T>
void run_reduction(const Reducer& reducer, const T* in, void* out_data, const ReduceLayout& layout) {
  using State = typename Reducer::State;
  auto* out = static_cast<typename Reducer::Out*>(out_data);
  if (layout.outputs == 0) return;
  const std::int64_t chunks = layout.length <= kReduceChunk ? 1 : (layout.length + kReduceChunk - 1) / kReduceChunk;
  const std::int64_t groups = (chunks + kReduceGroup - 1) / kReduceGroup;
  // Level 0's partials, then room for level 1's; later levels alternate between the two.
  const DeviceScratch scratch(
      chunks == 1 ? 0 : static_cast<std::size_t>(layout.outputs * (chunks + groups)) * sizeof(State));
  State* partials = scratch.as<State>();
  State* next = chunks == 1 ? nullptr : partials + layout.outputs * chunks;
  const std::int64_t items = layout.outputs * chunks;
  if (layout.reduced.rank == 1 && layout.reduced_strides[0] == 1 && layout.length >= kStagedMinLength) {
    constexpr int kThreads = kStagedWarpsPerBlock * kWarpSize;
    FUNCSPEC_LAUNCH_WARP_COLLECTIVE(grid_for(items, kThreads), kThreads, reduce_contiguous_kernel)
    (in, layout, chunks, reducer, partials, out);
  } else {
    FUNCSPEC_LAUNCH(grid_for(items, kStridedThreads), kStridedThreads, reduce_strided_kernel)
    (in, layout, chunks, reducer, partials, out);
  }
  check_launch("reduction kernel launch");
  for (std::int64_t count = chunks; count > 1;) {
    const std::int64_t level_groups = (count + kReduceGroup - 1) / kReduceGroup;
    FUNCSPEC_LAUNCH(grid_for(layout.outputs * level_groups, kCombineThreads), kCombineThreads, combine_kernel)
    (partials, layout.outputs, count, level_groups, reducer, next, out);
    check_launch("reduction combine kernel launch");
    count = level_groups;
    State* const done = partials;
    partials = next;
    next = done;
  }
}

template <typename T>
void run_norm(const T* in, void* out, const ReduceLayout& layout, double p) {
  if (p == 0)
    run_reduction(NormReducer<T, 0>{p}, in, out, layout);
  else if (p == 1)
    run_reduction(NormReducer<T, 1>{p}, in, out, layout);
  else if (p == 2)
    run_reduction(NormReducer<T, 2>{p}, in, out, layout);
  else if (std::isinf(p) && p > 0)
    run_reduction(ExtremeReducer<T, true, false, true>{}, in, out, layout);
  else if (std::isinf(p))
    run_reduction(ExtremeReducer<T, false, false, true>{}, in, out, layout);
  else
    run_reduction(NormReducer<T, -1>{p}, in, out, layout);
}

}  // namespace
}  // namespace reduce_kernels

using reduce_kernels::ExtremeReducer;
using reduce_kernels::ProdReducer;
using reduce_kernels::run_norm;
using reduce_kernels::run_reduction;
using reduce_kernels::SumReducer;
using reduce_kernels::TruthReducer;

template <typename T>
void launch_reduce(ReduceKind kind, const T* in, void* out, const ReduceLayout& layout, double p) {
  switch (kind) {
    case ReduceKind::Sum: return run_reduction(SumReducer<T>{}, in, out, layout);
    case ReduceKind::Prod: return run_reduction(ProdReducer<T>{}, in, out, layout);
    case ReduceKind::Amax: return run_reduction(ExtremeReducer<T, true, false, false>{}, in, out, layout);
    case ReduceKind::Amin: return run_reduction(ExtremeReducer<T, false, false, false>{}, in, out, layout);
    case ReduceKind::Argmax: return run_reduction(ExtremeReducer<T, true, true, false>{}, in, out, layout);
    case ReduceKind::Argmin: return run_reduction(ExtremeReducer<T, false, true, false>{}, in, out, layout);
    case ReduceKind::All: return run_reduction(TruthReducer<T, true>{}, in, out, layout);
    case ReduceKind::Any: return run_reduction(TruthReducer<T, false>{}, in, out, layout);
    case ReduceKind::Norm:
      if constexpr (std::is_floating_point_v<T>) return run_norm(in, out, layout, p);
      break;
  }
  // The host glue never asks for this (norm is floating only).
  check_cuda_status(static_cast<int>(cudaErrorInvalidValue), "launch_reduce (a reduction this dtype does not have)");
}

template void launch_reduce<bool>(ReduceKind, const bool*, void*, const ReduceLayout&, double);
template void launch_reduce<std::int64_t>(ReduceKind, const std::int64_t*, void*, const ReduceLayout&, double);
template void launch_reduce<float>(ReduceKind, const float*, void*, const ReduceLayout&, double);
template void launch_reduce<double>(ReduceKind, const double*, void*, const ReduceLayout&, double);

}  // namespace funcspec::cuda
