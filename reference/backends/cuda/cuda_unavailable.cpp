// The stand-in linked when the build has no nvcc: every entry point reports that CUDA is absent.
// Nothing reaches a CUDA kernel without first allocating on the device, so allocation (and the
// copies and queries here) is where a build without the backend says so.
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/cuda_status.h"
#include "reference/core/error.h"

namespace funcspec::cuda {
namespace {

constexpr const char* kNoBackend =
    "this build has no CUDA backend (configured without nvcc, or with FUNCSPEC_ENABLE_CUDA=OFF)";

[[noreturn]] void no_backend(const char* what) { fail(ErrorKind::CudaNotAvailable, "[cuda] {}: {}", what, kNoBackend); }

}  // namespace

int device_count() { return 0; }
std::string device_description() { return kNoBackend; }

void* allocate(std::size_t) { no_backend("allocate"); }
void release(void*) {}
void copy_host_to_device(void*, const void*, std::size_t) { no_backend("copy to the device"); }
void copy_device_to_host(void*, const void*, std::size_t) { no_backend("copy to the host"); }
void copy_device_to_device(void*, const void*, std::size_t) { no_backend("copy on the device"); }
void synchronize() {}
void check_cuda_status(int status, const char* what) {
  if (status != 0) no_backend(what);
}
void check_cublas_status(int status, const char* what) {
  if (status != 0) no_backend(what);
}

void philox_blocks(std::uint64_t, std::uint64_t, std::uint32_t*, std::int64_t) { no_backend("philox_blocks"); }

}  // namespace funcspec::cuda
