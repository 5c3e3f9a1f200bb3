#pragma once
#include <cstdint>
#include <memory>

#include "reference/core/device.h"
#include "reference/core/dtype.h"

namespace funcspec {

// A typed buffer shared by a tensor and all of its views. Typed (rather than raw bytes) because the
// oracle element type has constructors; every element is value-initialised (zero) on allocation.
class Storage {
 public:
  static std::shared_ptr<Storage> allocate(DType dtype, std::int64_t numel, Device device);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  DType dtype() const { return dtype_; }
  std::int64_t numel() const { return numel_; }
  Device device() const { return device_; }
  std::size_t nbytes() const { return static_cast<std::size_t>(numel_) * itemsize(dtype_); }
  void* data() const { return data_; }

  // How many times an op has written into this storage. A value saved for a later call (a vjp_fn's
  // primal) records the version it was saved at, so that a write in between is an error rather than
  // a silently different derivative (docs/SPEC.md, AD-2.5), as PyTorch's version counters do.
  std::uint64_t version() const { return version_; }
  void bump_version() { ++version_; }

 private:
  Storage(DType dtype, std::int64_t numel, Device device, void* data)
      : dtype_(dtype), numel_(numel), device_(device), data_(data) {}
  DType dtype_;
  std::int64_t numel_;
  Device device_;
  void* data_;
  std::uint64_t version_ = 0;
};

// Counts what the engine allocates, so tests can show memory claims (one copy of parameters, no
// storage on meta) rather than assert them.
struct AllocationStats {
  std::int64_t allocations = 0;  // storages ever allocated
  std::int64_t live_bytes = 0;   // bytes held by storages alive now
  std::int64_t peak_bytes = 0;   // the most live_bytes ever reached
};

AllocationStats allocation_stats(Device device);
void reset_peak_bytes(Device device);

}  // namespace funcspec
