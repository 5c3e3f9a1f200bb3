// Host side of the CUDA backend (compiled by the C++ compiler, linked with the CUDA runtime).
#include "reference/backends/cuda/cuda_device.h"

#include <cuda_runtime.h>

#include "reference/backends/cuda/cublas_library.h"
#include "reference/backends/cuda/cuda_status.h"
#include "reference/core/error.h"

namespace funcspec::cuda {

void launch_philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* device_out, std::int64_t count);

void check_cuda_status(int status, const char* what) {
  const auto error = static_cast<cudaError_t>(status);
  FUNCSPEC_CHECK(error == cudaSuccess, ErrorKind::CudaNotAvailable, "[cuda] {} failed: {}", what,
                 cudaGetErrorString(error));
}

void check_cublas_status(int status, const char* what) {
  const auto error = static_cast<cublasStatus_t>(status);
  FUNCSPEC_CHECK(error == CUBLAS_STATUS_SUCCESS, ErrorKind::CudaNotAvailable, "[cuda] {} failed: {}", what,
                 cublas_library().status_string(error));
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error so later queries start clean
    return 0;
  }
  return count;
}

std::string device_description() {
  if (device_count() == 0) return "no CUDA device is visible (no GPU, or no driver)";
  cudaDeviceProp prop{};
  check_cuda_status(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return fmt::format("{} (compute capability {}.{}, {} SMs, {:.1f} GiB)", prop.name, prop.major, prop.minor,
                     prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024 * 1024));
}

void* allocate(std::size_t nbytes) {
  FUNCSPEC_CHECK(device_count() > 0, ErrorKind::CudaNotAvailable, "[cuda] {}", device_description());
  void* ptr = nullptr;
  check_cuda_status(cudaMalloc(&ptr, nbytes == 0 ? 1 : nbytes), "cudaMalloc");
  return ptr;
}

void release(void* ptr) {
  if (ptr != nullptr) cudaFree(ptr);
}

void copy_host_to_device(void* device_dst, const void* host_src, std::size_t nbytes) {
  if (nbytes == 0) return;
  check_cuda_status(cudaMemcpy(device_dst, host_src, nbytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void copy_device_to_host(void* host_dst, const void* device_src, std::size_t nbytes) {
  if (nbytes == 0) return;
  check_cuda_status(cudaMemcpy(host_dst, device_src, nbytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

void copy_device_to_device(void* device_dst, const void* device_src, std::size_t nbytes) {
  if (nbytes == 0) return;
  check_cuda_status(cudaMemcpy(device_dst, device_src, nbytes, cudaMemcpyDeviceToDevice), "cudaMemcpy on the device");
}

void synchronize() { check_cuda_status(cudaDeviceSynchronize(), "a kernel (reported by cudaDeviceSynchronize)"); }

void philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* host_out, std::int64_t count) {
  FUNCSPEC_CHECK(device_count() > 0, ErrorKind::CudaNotAvailable, "[cuda] {}", device_description());
  const std::size_t nbytes = static_cast<std::size_t>(count) * 4 * sizeof(std::uint32_t);
  void* device_out = allocate(nbytes);
  launch_philox_blocks(seed, offset, static_cast<std::uint32_t*>(device_out), count);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(host_out, device_out, nbytes, cudaMemcpyDeviceToHost);
  release(device_out);
  check_cuda_status(launched, "philox kernel launch");
  check_cuda_status(copied, "cudaMemcpy");
}

}  // namespace funcspec::cuda
