#pragma once
// The memory of device `cuda` as the core uses it: Storage allocates and frees it, to_device copies
// bytes in and out. The core declares these functions and the CUDA backend defines them
// (backends/cuda/cuda_memory.cpp, in every build: without the backend, each call but release
// raises cuda_not_available), so the core includes no backend header.
#include <cstddef>

namespace funcspec::cuda_memory {

void* allocate(std::size_t nbytes);
void release(void* ptr);
void copy_to_device(void* device_dst, const void* host_src, std::size_t nbytes);
void copy_to_host(void* host_dst, const void* device_src, std::size_t nbytes);

}  // namespace funcspec::cuda_memory
