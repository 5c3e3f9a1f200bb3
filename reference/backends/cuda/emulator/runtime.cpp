// The CUDA host emulator's runtime API: the device it reports, errors, and copies. Copies check
// what the CUDA runtime checks under unified addressing: the side named by the copy's kind must be
// device memory, and the whole range must lie inside one allocation.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "reference/backends/cuda/emulator/emulator_state.h"

namespace funcspec::cuda::emulator {
namespace {

// Per host thread, as the CUDA runtime keeps its last error.
struct PendingError {
  cudaError_t error = cudaSuccess;
  // The explanation of the latest recorded error, kept after the error is taken so that
  // cudaGetErrorString(taken error) can still give it.
  cudaError_t detailed_error = cudaSuccess;
  std::string detail;
};

PendingError& pending() {
  thread_local PendingError instance;
  return instance;
}

const char* base_text(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
  }
  return "unrecognized error code";
}

cudaError_t take_pending() {
  PendingError& p = pending();
  const cudaError_t error = p.error;
  p.error = cudaSuccess;
  return error;
}

}  // namespace

void record_error(cudaError_t error, std::string detail) {
  PendingError& p = pending();
  p.error = error;
  p.detailed_error = error;
  p.detail = std::move(detail);
}

}  // namespace funcspec::cuda::emulator

using funcspec::cuda::emulator::is_device_range;
using funcspec::cuda::emulator::record_error;

const char* cudaGetErrorString(cudaError_t error) {
  // The text of the latest recorded error carries its detail; it stays valid until this thread asks again.
  thread_local std::string text;
  const auto& p = funcspec::cuda::emulator::pending();
  text = funcspec::cuda::emulator::base_text(error);
  if (error != cudaSuccess && error == p.detailed_error) text += " (cuda emulator: " + p.detail + ")";
  return text.c_str();
}

cudaError_t cudaGetLastError() { return funcspec::cuda::emulator::take_pending(); }

cudaError_t cudaDeviceSynchronize() { return funcspec::cuda::emulator::take_pending(); }

cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (device != 0) return cudaErrorInvalidValue;
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "%s", "funcspec CUDA host emulator (no GPU: kernels run on the cpu)");
  prop->totalGlobalMem = std::size_t{16} << 30;  // nominal: allocations come from the host heap
  prop->major = 9;                               // the architecture the real build targets (sm_90)
  prop->minor = 0;
  prop->multiProcessorCount = 1;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t nbytes, cudaMemcpyKind kind) {
  const bool dst_on_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_on_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  const auto wrong_side = [nbytes](const void* pointer, bool on_device) {
    return on_device ? !is_device_range(pointer, nbytes) : is_device_range(pointer, 0);
  };
  if (nbytes != 0 && (wrong_side(dst, dst_on_device) || wrong_side(src, src_on_device))) {
    record_error(
        cudaErrorInvalidValue,
        "cudaMemcpy of " + std::to_string(nbytes) + " bytes whose " +
            (wrong_side(dst, dst_on_device) ? "destination" : "source") +
            " is not the kind of memory (host or device) its cudaMemcpyKind names, or overruns its allocation");
    return cudaErrorInvalidValue;
  }
  if (nbytes != 0) std::memmove(dst, src, nbytes);
  return cudaSuccess;
}
