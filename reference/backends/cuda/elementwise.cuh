#pragma once
// Elementwise drivers of the CUDA backend (nvcc only; the counterpart of cpu/elementwise.h): the
// operands share one geometry, and a functor computes one output element from the input elements
// at the same index. Every output element is written by exactly one thread, from values read by
// that thread alone, so results never depend on scheduling.
//
// Two kernels per arity:
//   - linear: the output is contiguous and each input is contiguous or a broadcast scalar (every
//     dim of size > 1 has stride 0). Element i is out[i] and in[i * step] (step 1 or 0). Each
//     thread computes kUnroll elements of a tile, blockDim.x apart (coalesced), loading all of
//     them before storing any, so that several loads are in flight per thread.
//   - strided: any strides (0 and negative included). The row-major linear index is decomposed
//     once per element, and each operand's offset accumulated from it.
#include <cstdint>

#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda::elementwise {

inline constexpr int kUnroll = 4;

// An input of the linear kernel: element i is data[i * step].
template <typename T>
struct LinearInput {
  const T* data;
  std::int64_t step;  // 1: contiguous; 0: a broadcast scalar
  __device__ T operator[](std::int64_t i) const { return data[i * step]; }
};

// The step of `view` as a linear input over `geometry`: 1 when contiguous, 0 when every dim of size
// > 1 has stride 0 (a broadcast scalar), -1 when neither.
template <typename T>
std::int64_t linear_step(const StridedView<T>& view, const Geometry& geometry) {
  if (view.contiguous) return 1;
  for (int d = 0; d < geometry.rank; ++d) {
    if (geometry.sizes[d] != 1 && view.strides[d] != 0) return -1;
  }
  return 0;
}

// Sizes and the strides of N operands (operand 0 is the output).
template <int N>
struct StridedOperands {
  int rank = 0;
  std::int64_t sizes[kMaxDims] = {};
  std::int64_t strides[N][kMaxDims] = {};
};

// offsets[k] = sum over d of index[d] * strides[k][d], where index is the row-major
// decomposition of `linear` (the last dim varies fastest, as in offset_of).
template <int N>
__device__ inline void offsets_at(std::int64_t linear, const StridedOperands<N>& operands, std::int64_t (&offsets)[N]) {
  for (int k = 0; k < N; ++k) offsets[k] = 0;
  for (int d = operands.rank - 1; d >= 0; --d) {
    const std::int64_t size = operands.sizes[d];
    const std::int64_t index = linear % size;
    linear /= size;
    for (int k = 0; k < N; ++k) offsets[k] += index * operands.strides[k][d];
  }
}

template <int N>
StridedOperands<N> strided_operands(const Geometry& geometry, const std::int64_t* const (&strides)[N]) {
  StridedOperands<N> operands;
  operands.rank = geometry.rank;
  for (int d = 0; d < geometry.rank; ++d) {
    operands.sizes[d] = geometry.sizes[d];
    for (int k = 0; k < N; ++k) operands.strides[k][d] = strides[k][d];
  }
  return operands;
}

// --- kernels

// The tile loop of the linear kernels: this thread's elements are base + k * blockDim.x.
#define FUNCSPEC_TILE_LOOP(base, n)                                                                                \
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x * kUnroll + threadIdx.x; base < (n); \
       base += static_cast<std::int64_t>(gridDim.x) * blockDim.x * kUnroll)

template <typename Out, typename A, typename Fn>
__global__ void map1_linear(std::int64_t n, Fn fn, Out* out, LinearInput<A> a) {
  FUNCSPEC_TILE_LOOP(base, n) {
    Out results[kUnroll] = {};
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) results[k] = fn(a[i]);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) out[i] = results[k];
    }
  }
}

template <typename Out, typename A, typename B, typename Fn>
__global__ void map2_linear(std::int64_t n, Fn fn, Out* out, LinearInput<A> a, LinearInput<B> b) {
  FUNCSPEC_TILE_LOOP(base, n) {
    Out results[kUnroll] = {};
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) results[k] = fn(a[i], b[i]);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) out[i] = results[k];
    }
  }
}

template <typename Out, typename A, typename B, typename C, typename Fn>
__global__ void map3_linear(std::int64_t n, Fn fn, Out* out, LinearInput<A> a, LinearInput<B> b, LinearInput<C> c) {
  FUNCSPEC_TILE_LOOP(base, n) {
    Out results[kUnroll] = {};
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) results[k] = fn(a[i], b[i], c[i]);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::int64_t i = base + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n) out[i] = results[k];
    }
  }
}

#undef FUNCSPEC_TILE_LOOP

template <typename Out, typename A, typename Fn>
__global__ void map1_strided(std::int64_t n, Fn fn, StridedOperands<2> operands, Out* out, const A* a) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    std::int64_t at[2];
    offsets_at(i, operands, at);
    out[at[0]] = fn(a[at[1]]);
  }
}

template <typename Out, typename A, typename B, typename Fn>
__global__ void map2_strided(std::int64_t n, Fn fn, StridedOperands<3> operands, Out* out, const A* a, const B* b) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    std::int64_t at[3];
    offsets_at(i, operands, at);
    out[at[0]] = fn(a[at[1]], b[at[2]]);
  }
}

template <typename Out, typename A, typename B, typename C, typename Fn>
__global__ void map3_strided(std::int64_t n, Fn fn, StridedOperands<4> operands, Out* out, const A* a, const B* b,
                             const C* c) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    std::int64_t at[4];
    offsets_at(i, operands, at);
    out[at[0]] = fn(a[at[1]], b[at[2]], c[at[3]]);
  }
}

// --- launchers: out[i] = fn(a[i], ...) over `geometry`; nothing is launched for zero elements.
// `what` names the kernel in a launch failure.

inline unsigned linear_blocks(std::int64_t n) { return blocks_for((n + kUnroll - 1) / kUnroll); }

template <typename Out, typename A, typename Fn>
void map1(const char* what, const Geometry& geometry, const StridedView<Out>& out, const StridedView<A>& a, Fn fn) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return;
  const std::int64_t step_a = linear_step(a, geometry);
  if (out.contiguous && step_a >= 0) {
    FUNCSPEC_LAUNCH(linear_blocks(n), kThreadsPerBlock, map1_linear)(n, fn, out.data, LinearInput<A>{a.data, step_a});
  } else {
    const std::int64_t* const strides[2] = {out.strides, a.strides};
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, map1_strided)
    (n, fn, strided_operands<2>(geometry, strides), out.data, static_cast<const A*>(a.data));
  }
  check_launch(what);
}

template <typename Out, typename A, typename B, typename Fn>
void map2(const char* what, const Geometry& geometry, const StridedView<Out>& out, const StridedView<A>& a,
          const StridedView<B>& b, Fn fn) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return;
  const std::int64_t step_a = linear_step(a, geometry);
  const std::int64_t step_b = linear_step(b, geometry);
  if (out.contiguous && step_a >= 0 && step_b >= 0) {
    FUNCSPEC_LAUNCH(linear_blocks(n), kThreadsPerBlock, map2_linear)
    (n, fn, out.data, LinearInput<A>{a.data, step_a}, LinearInput<B>{b.data, step_b});
  } else {
    const std::int64_t* const strides[3] = {out.strides, a.strides, b.strides};
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, map2_strided)
    (n, fn, strided_operands<3>(geometry, strides), out.data, static_cast<const A*>(a.data),
     static_cast<const B*>(b.data));
  }
  check_launch(what);
}

template <typename Out, typename A, typename B, typename C, typename Fn>
void map3(const char* what, const Geometry& geometry, const StridedView<Out>& out, const StridedView<A>& a,
          const StridedView<B>& b, const StridedView<C>& c, Fn fn) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return;
  const std::int64_t step_a = linear_step(a, geometry);
  const std::int64_t step_b = linear_step(b, geometry);
  const std::int64_t step_c = linear_step(c, geometry);
  if (out.contiguous && step_a >= 0 && step_b >= 0 && step_c >= 0) {
    FUNCSPEC_LAUNCH(linear_blocks(n), kThreadsPerBlock, map3_linear)
    (n, fn, out.data, LinearInput<A>{a.data, step_a}, LinearInput<B>{b.data, step_b}, LinearInput<C>{c.data, step_c});
  } else {
    const std::int64_t* const strides[4] = {out.strides, a.strides, b.strides, c.strides};
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, map3_strided)
    (n, fn, strided_operands<4>(geometry, strides), out.data, static_cast<const A*>(a.data),
     static_cast<const B*>(b.data), static_cast<const C*>(c.data));
  }
  check_launch(what);
}

}  // namespace funcspec::cuda::elementwise
