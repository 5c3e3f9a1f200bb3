// The core's access to cuda memory (core/cuda_memory.h), through the backend's device interface:
// the CUDA runtime, or in a build without the backend the stand-in, which raises
// cuda_not_available. Compiled in every build.
#include "reference/core/cuda_memory.h"

#include "reference/backends/cuda/cuda_device.h"

namespace funcspec::cuda_memory {

void* allocate(std::size_t nbytes) { return cuda::allocate(nbytes); }
void release(void* ptr) { cuda::release(ptr); }
void copy_to_device(void* device_dst, const void* host_src, std::size_t nbytes) {
  cuda::copy_host_to_device(device_dst, host_src, nbytes);
}
void copy_to_host(void* host_dst, const void* device_src, std::size_t nbytes) {
  cuda::copy_device_to_host(host_dst, device_src, nbytes);
}

}  // namespace funcspec::cuda_memory
