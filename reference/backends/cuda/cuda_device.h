#pragma once
// The CUDA backend's host interface. In a build without nvcc these functions come from
// cuda_unavailable.cpp and report `cuda_not_available`; callers never need an #ifdef.
// Every kernel runs on the default stream, so work is ordered and each copy to the host waits for
// the kernels before it.
#include <cstddef>
#include <cstdint>
#include <string>

namespace funcspec::cuda {

// Number of usable CUDA devices: 0 without nvcc, without a driver or without a GPU.
int device_count();
// A line naming the device (or why there is none), for reports and test skip reasons.
std::string device_description();

void* allocate(std::size_t nbytes);
void release(void* ptr);

// Byte copies between host memory and device memory (`device_*` pointers come from allocate).
void copy_host_to_device(void* device_dst, const void* host_src, std::size_t nbytes);
void copy_device_to_host(void* host_dst, const void* device_src, std::size_t nbytes);
void copy_device_to_device(void* device_dst, const void* device_src, std::size_t nbytes);
// Waits for every launched kernel; raises `cuda_not_available` when one of them failed.
void synchronize();

// Fills `count` Philox blocks (4 words each) of the stream (seed, offset) on the GPU and copies
// them to `host_out`; used to prove the generator gives the same bits on both sides.
void philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* host_out, std::int64_t count);

}  // namespace funcspec::cuda
