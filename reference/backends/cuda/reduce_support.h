#pragma once
// What the reduction and scan kernels (reduce.cu, scan.cu) share: the cpu's accumulating
// arithmetic, and stream-ordered scratch memory. nvcc only (device code and the CUDA runtime).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "reference/backends/cuda/cuda_status.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/backends/cuda/reduce_launch.h"

namespace funcspec::cuda {

// Accumulating arithmetic in common::accumulator_t (backends/common/accumulator.h): elements
// convert to it and back with cast_scalar (core/cast_scalar.h), as on the cpu. Double adds and
// multiplies are the IEEE round-to-nearest ones and are never contracted into fused multiply-adds
// (the cpu's g++ build, without FMA instructions, never fuses either), so a sequential fold gives
// the cpu's bits.
template <typename Acc>
__device__ inline Acc accumulate_add(Acc a, Acc b) {
  if constexpr (std::is_same_v<Acc, double>)
    return __dadd_rn(a, b);
  else
    return a + b;  // uint64: wraps modulo 2^64
}

template <typename Acc>
__device__ inline Acc accumulate_mul(Acc a, Acc b) {
  if constexpr (std::is_same_v<Acc, double>)
    return __dmul_rn(a, b);
  else
    return a * b;
}

// Device memory for one operation's intermediate values, allocated and freed in stream order on
// the default stream (no device-wide synchronisation), so it lives exactly as long as the kernels
// of that operation that are queued before the free.
class DeviceScratch {
 public:
  explicit DeviceScratch(std::size_t nbytes) {
    if (nbytes == 0) return;
    // The pool keeps what is freed instead of handing it back to the driver at each synchronisation,
    // so a reduction run in a loop does not map new memory every time.
    static const bool pool_keeps_memory = [] {
      int device = 0;
      cudaMemPool_t pool = nullptr;
      if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) {
        cudaGetLastError();  // not fatal: allocations still work, only slower
        return false;
      }
      std::uint64_t threshold = UINT64_MAX;
      return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess;
    }();
    static_cast<void>(pool_keeps_memory);
    check_cuda_status(static_cast<int>(cudaMallocAsync(&data_, nbytes, 0)), "cudaMallocAsync");
  }
  ~DeviceScratch() {
    if (data_ != nullptr) cudaFreeAsync(data_, 0);
  }
  DeviceScratch(const DeviceScratch&) = delete;
  DeviceScratch& operator=(const DeviceScratch&) = delete;

  template <typename U>
  U* as() const {
    return static_cast<U*>(data_);
  }

 private:
  void* data_ = nullptr;
};

// Blocks for `items` work items at `threads` per block, for a grid-stride loop.
inline unsigned grid_for(std::int64_t items, int threads) {
  const std::int64_t blocks = (items + threads - 1) / threads;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

}  // namespace funcspec::cuda
