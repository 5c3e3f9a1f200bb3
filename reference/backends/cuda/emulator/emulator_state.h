#pragma once
// State the CUDA host emulator's runtime functions share (emulator .cpp files only).
#include <cstddef>
#include <string>

#include "reference/backends/cuda/emulator/cuda_runtime.h"

namespace funcspec::cuda::emulator {

// Makes `error` the pending error that cudaGetLastError and cudaDeviceSynchronize return (and
// clear), with `detail` added to its cudaGetErrorString text. Unlike a GPU's illegal address, no
// error is sticky: one bad kernel fails its own operation, not every later one in the process.
void record_error(cudaError_t error, std::string detail);

// Allocations made by cudaMalloc and cudaMallocAsync.
void* allocate_device_memory(std::size_t nbytes);
bool release_device_memory(void* pointer);
// [pointer, pointer + nbytes) lies inside one live allocation.
bool is_device_range(const void* pointer, std::size_t nbytes);

// Prints `message` naming the running kernel and aborts: device code broke a rule the emulator
// cannot turn into an error code (a GPU would hang or compute garbage).
[[noreturn]] void device_fault(const std::string& message);

}  // namespace funcspec::cuda::emulator
