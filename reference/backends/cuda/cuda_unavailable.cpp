// The stand-in linked when the build has no nvcc: every entry point reports that CUDA is absent.
#include "reference/backends/cuda/cuda_device.h"
#include "reference/core/error.h"

namespace funcspec {

void* cuda_allocate(std::size_t nbytes) { return cuda::allocate(nbytes); }
void cuda_free(void* ptr) { cuda::release(ptr); }

namespace cuda {

int device_count() { return 0; }
std::string device_description() {
  return "this build has no CUDA backend (configured without nvcc, or with FUNCSPEC_ENABLE_CUDA=OFF)";
}

void* allocate(std::size_t) {
  fail(ErrorKind::CudaNotAvailable,
       "[cuda] this build has no CUDA backend (configured without nvcc, or with FUNCSPEC_ENABLE_CUDA=OFF)");
}
void release(void*) {}

void philox_blocks(std::uint64_t, std::uint64_t, std::uint32_t*, std::int64_t) {
  fail(ErrorKind::CudaNotAvailable,
       "[cuda] this build has no CUDA backend (configured without nvcc, or with FUNCSPEC_ENABLE_CUDA=OFF)");
}

}  // namespace cuda
}  // namespace funcspec
