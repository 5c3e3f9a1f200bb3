#pragma once
// The CUDA host emulator's <cuda_runtime.h> (build option FUNCSPEC_CUDA_EMULATOR, docs/cuda.md): the
// part of the runtime API and of the device built-ins that the CUDA backend uses, implemented on the
// cpu. With it the backend's .cu files compile as C++ and their kernels run, under the sanitizers,
// on machines without a GPU, so that index arithmetic, launch shapes, device-pointer discipline and
// the cuBLAS calls are tested in every CI run. It is not a GPU: the memory model is the host's,
// threads run one at a time, and nothing here is fast.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "reference/backends/cuda/emulator/thread_indices.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __grid_constant__
#define __launch_bounds__(...)
// One copy per instantiation: the emulator runs one launch at a time and its blocks one after
// another, so every block sees the same, exclusively owned array.
#define __shared__ static

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorNoDevice = 100,
  cudaErrorIllegalAddress = 700,
};

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
};

enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };

struct CUstream_st;
using cudaStream_t = CUstream_st*;
struct CUmemPoolHandle_st;
using cudaMemPool_t = CUmemPoolHandle_st*;

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  int major;
  int minor;
  int multiProcessorCount;
  int warpSize;
  int maxThreadsPerBlock;
};

const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceSynchronize();

cudaError_t cudaMalloc(void** ptr, std::size_t nbytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMallocAsync(void** ptr, std::size_t nbytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t nbytes, cudaMemcpyKind kind);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);

// Device built-ins. Warp collectives exist only in kernels launched with
// FUNCSPEC_LAUNCH_WARP_COLLECTIVE, whose warps the emulator runs in lockstep (warp_lockstep.h).
namespace funcspec::cuda::emulator {
std::uint64_t warp_shuffle(unsigned mask, std::uint64_t bits, int source_lane);
void warp_barrier(unsigned mask);
int lane_id();
}  // namespace funcspec::cuda::emulator

template <typename T>
T __shfl_sync(unsigned mask, T value, int source_lane) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t), "a shuffle moves at most 64 bits");
  std::uint64_t bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  bits = funcspec::cuda::emulator::warp_shuffle(mask, bits, source_lane);
  T out;
  __builtin_memcpy(&out, &bits, sizeof(T));
  return out;
}

template <typename T>
T __shfl_xor_sync(unsigned mask, T value, int lane_mask) {
  return __shfl_sync(mask, value, funcspec::cuda::emulator::lane_id() ^ lane_mask);
}

inline void __syncwarp(unsigned mask = 0xffffffffU) { funcspec::cuda::emulator::warp_barrier(mask); }

// CUDA's math headers declare the C math functions in the global namespace for device code.
using std::isfinite;

// The IEEE round-to-nearest operations nvcc never contracts; the host's + and * are exactly these
// (x86-64 without -march never fuses a multiply and an add).
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }

// Threads never run concurrently in the emulator (a warp's lanes switch only at warp collectives),
// so a read-modify-write is atomic as written.
inline unsigned long long atomicMin(unsigned long long* address, unsigned long long value) {
  const unsigned long long old = *address;
  if (value < old) *address = value;
  return old;
}
