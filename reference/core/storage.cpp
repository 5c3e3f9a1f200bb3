#include "reference/core/storage.h"

#include <algorithm>
#include <array>
#include <mutex>

#include "reference/core/cuda_memory.h"
#include "reference/core/error.h"

namespace funcspec {
namespace {

std::mutex stats_mutex;
std::array<AllocationStats, 3> stats_by_device;

AllocationStats& stats_for(Device device) { return stats_by_device[static_cast<std::size_t>(device)]; }

void record(Device device, std::int64_t bytes, bool is_allocation) {
  std::lock_guard lock(stats_mutex);
  AllocationStats& s = stats_for(device);
  if (is_allocation) ++s.allocations;
  s.live_bytes += bytes;
  s.peak_bytes = std::max(s.peak_bytes, s.live_bytes);
}

}  // namespace

std::shared_ptr<Storage> Storage::allocate(DType dtype, std::int64_t numel, Device device) {
  FUNCSPEC_INTERNAL_ASSERT(numel >= 0, "negative storage size");
  FUNCSPEC_INTERNAL_ASSERT(device != Device::Meta, "meta tensors have no storage");
  void* data = nullptr;
  if (device == Device::Cpu) {
    data = visit_dtype(dtype, [&]<typename T>() -> void* { return new T[static_cast<std::size_t>(numel)](); });
  } else {
    FUNCSPEC_CHECK(dtype != DType::Oracle, ErrorKind::DtypeNotSupported,
                   "[storage] the oracle dtype exists on the cpu device only");
    data = cuda_memory::allocate(static_cast<std::size_t>(numel) * itemsize(dtype));
  }
  std::shared_ptr<Storage> storage(new Storage(dtype, numel, device, data));
  record(device, static_cast<std::int64_t>(storage->nbytes()), true);
  return storage;
}

Storage::~Storage() {
  record(device_, -static_cast<std::int64_t>(nbytes()), false);
  if (device_ == Device::Cpu) {
    visit_dtype(dtype_, [&]<typename T>() { delete[] static_cast<T*>(data_); });
  } else {
    cuda_memory::release(data_);
  }
}

AllocationStats allocation_stats(Device device) {
  std::lock_guard lock(stats_mutex);
  return stats_for(device);
}

void reset_peak_bytes(Device device) {
  std::lock_guard lock(stats_mutex);
  stats_for(device).peak_bytes = stats_for(device).live_bytes;
}

}  // namespace funcspec
