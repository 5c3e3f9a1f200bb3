// The CUDA host emulator's device memory: cpu heap blocks of exactly the requested size (so that
// AddressSanitizer reports a kernel reading one element past an allocation), registered so that
// copies and kernel arguments can be checked against them.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#include "reference/backends/cuda/emulator/emulator_state.h"

namespace funcspec::cuda::emulator {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, std::size_t> sizes;  // start -> size
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: static destructors may still free memory
  return *instance;
}

// The allocation holding `address` (its end included, as a view of an empty tail points there).
const std::pair<const std::uintptr_t, std::size_t>* allocation_holding(const Registry& r, std::uintptr_t address) {
  auto it = r.sizes.upper_bound(address);
  if (it == r.sizes.begin()) return nullptr;
  --it;
  return address <= it->first + it->second ? &*it : nullptr;
}

}  // namespace

void* allocate_device_memory(std::size_t nbytes) {
  void* pointer = std::malloc(nbytes == 0 ? 1 : nbytes);
  if (pointer == nullptr) return nullptr;
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.sizes[reinterpret_cast<std::uintptr_t>(pointer)] = nbytes == 0 ? 1 : nbytes;
  return pointer;
}

bool release_device_memory(void* pointer) {
  Registry& r = registry();
  {
    const std::lock_guard lock(r.mutex);
    if (r.sizes.erase(reinterpret_cast<std::uintptr_t>(pointer)) == 0) return false;
  }
  std::free(pointer);
  return true;
}

bool is_device_range(const void* pointer, std::size_t nbytes) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  const auto* allocation = allocation_holding(r, address);
  return allocation != nullptr && address + nbytes <= allocation->first + allocation->second;
}

bool points_to_device_memory(const void* pointer) { return pointer == nullptr || is_device_range(pointer, 0); }

}  // namespace funcspec::cuda::emulator

cudaError_t cudaMalloc(void** ptr, std::size_t nbytes) {
  *ptr = funcspec::cuda::emulator::allocate_device_memory(nbytes);
  return *ptr == nullptr ? cudaErrorMemoryAllocation : cudaSuccess;
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t nbytes, cudaStream_t) { return cudaMalloc(ptr, nbytes); }

cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  if (funcspec::cuda::emulator::release_device_memory(ptr)) return cudaSuccess;
  funcspec::cuda::emulator::record_error(cudaErrorInvalidValue, "cudaFree of a pointer cudaMalloc did not return");
  return cudaErrorInvalidValue;
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t) { return cudaFree(ptr); }

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int) {
  static int the_pool = 0;  // a distinct non-null handle; the emulator has no pools
  *pool = reinterpret_cast<cudaMemPool_t>(&the_pool);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void*) { return cudaSuccess; }
