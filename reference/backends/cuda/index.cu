// CUDA kernels of the index family (NOTE: [cuda index kernels] in index_launch.h): one thread per
// output element, grid-stride loops, no atomics on results.
#include <cstdint>
#include <limits>

#include "reference/backends/common/index_update.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/index_launch.h"
#include "reference/backends/cuda/kernel_launch.h"

namespace funcspec::cuda {
namespace {

// The coordinate at `dim` of row-major position `linear` of `geometry` (0 when dim is -1).
__device__ std::int64_t coordinate_at(std::int64_t linear, const Geometry& geometry, int dim) {
  if (dim < 0) return 0;
  for (int d = geometry.rank - 1; d > dim; --d) linear /= geometry.sizes[d];
  return linear % geometry.sizes[dim];
}

__global__ void first_index_out_of_range_kernel(Geometry geometry, StridedView<std::int64_t> index, std::int64_t size,
                                                unsigned long long* first) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    const std::int64_t value = element_at(index, i, geometry);
    if (value < 0 || value >= size) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

template <typename T>
__global__ void strided_copy_kernel(Geometry geometry, StridedView<T> src, StridedView<T> dst) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) { element_at(dst, i, geometry) = element_at(src, i, geometry); }
}

template <typename T>
__global__ void index_select_kernel(Geometry geometry, int dim, StridedView<T> out, StridedView<T> self,
                                    std::int64_t self_step, const std::int64_t* index_data, std::int64_t index_stride) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    const std::int64_t pick = index_data[coordinate_at(i, geometry, dim) * index_stride];
    element_at(out, i, geometry) = self.data[offset_of(i, geometry, self.strides) + pick * self_step];
  }
}

template <typename T>
__global__ void gather_kernel(Geometry geometry, StridedView<T> out, StridedView<std::int64_t> index,
                              StridedView<T> self, std::int64_t self_step) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    const std::int64_t pick = element_at(index, i, geometry);
    element_at(out, i, geometry) = self.data[offset_of(i, geometry, self.strides) + pick * self_step];
  }
}

template <typename T>
__global__ void scatter_add_kernel(Geometry geometry, int dim, StridedView<T> out, StridedView<T> self,
                                   Geometry index_geometry, StridedView<std::int64_t> index, StridedView<T> src) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    T total = element_at(self, i, geometry);
    // q = the coordinates of i; the candidates p share q outside dim, which must lie inside index.
    std::int64_t rest = i, target = 0, index_base = 0, src_base = 0;
    bool reached = true;
    for (int d = geometry.rank - 1; d >= 0; --d) {
      const std::int64_t q = rest % geometry.sizes[d];
      rest /= geometry.sizes[d];
      if (d == dim) {
        target = q;
        continue;
      }
      if (q >= index_geometry.sizes[d]) reached = false;
      index_base += q * index.strides[d];
      src_base += q * src.strides[d];
    }
    if (reached) {
      const std::int64_t count = dim < 0 ? 1 : index_geometry.sizes[dim];
      const std::int64_t index_step = dim < 0 ? 0 : index.strides[dim];
      const std::int64_t src_step = dim < 0 ? 0 : src.strides[dim];
      for (std::int64_t j = 0; j < count; ++j) {
        if (index.data[index_base + j * index_step] == target)
          total = common::scatter_add_update(total, src.data[src_base + j * src_step]);
      }
    }
    element_at(out, i, geometry) = total;
  }
}

template <typename T>
__global__ void scatter_reduce_kernel(Geometry geometry, int dim, StridedView<T> out, StridedView<T> self,
                                      Geometry index_geometry, StridedView<std::int64_t> index, StridedView<T> src,
                                      int mode_code, bool include_self) {
  const auto mode = static_cast<common::ScatterMode>(mode_code);
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    const T own = element_at(self, i, geometry);
    T acc = own;
    std::int64_t count = include_self ? 1 : 0;
    std::int64_t rest = i, target = 0, index_base = 0, src_base = 0;
    bool reached = true;
    for (int d = geometry.rank - 1; d >= 0; --d) {
      const std::int64_t q = rest % geometry.sizes[d];
      rest /= geometry.sizes[d];
      if (d == dim) {
        target = q;
        continue;
      }
      if (q >= index_geometry.sizes[d]) reached = false;
      index_base += q * index.strides[d];
      src_base += q * src.strides[d];
    }
    const std::int64_t own_count = count;
    if (reached) {
      const std::int64_t candidates = dim < 0 ? 1 : index_geometry.sizes[dim];
      const std::int64_t index_step = dim < 0 ? 0 : index.strides[dim];
      const std::int64_t src_step = dim < 0 ? 0 : src.strides[dim];
      for (std::int64_t j = 0; j < candidates; ++j) {
        if (index.data[index_base + j * index_step] != target) continue;
        const T v = src.data[src_base + j * src_step];
        acc = count == 0 ? v : common::scatter_combine(mode, acc, v);
        ++count;
      }
    }
    element_at(out, i, geometry) = count > own_count ? common::scatter_finish(mode, acc, count) : own;
  }
}

template <typename T>
__global__ void index_add_kernel(Geometry geometry, int dim, StridedView<T> out, StridedView<T> self,
                                 StridedView<T> source, std::int64_t source_step, const std::int64_t* index_data,
                                 std::int64_t index_stride, std::int64_t index_count, T alpha) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    T total = element_at(self, i, geometry);
    const std::int64_t target = coordinate_at(i, geometry, dim);
    const std::int64_t source_base = offset_of(i, geometry, source.strides);
    for (std::int64_t j = 0; j < index_count; ++j) {
      if (index_data[j * index_stride] == target) {
        total = common::index_add_update(total, alpha, source.data[source_base + j * source_step]);
      }
    }
    element_at(out, i, geometry) = total;
  }
}

template <typename T>
__global__ void masked_fill_kernel(Geometry geometry, StridedView<T> out, StridedView<T> self, StridedView<bool> mask,
                                   T value) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) {
    element_at(out, i, geometry) = element_at(mask, i, geometry) ? value : element_at(self, i, geometry);
  }
}

// A device word released when the launcher returns or throws.
struct DeviceWord {
  void* pointer = allocate(sizeof(unsigned long long));
  DeviceWord() = default;
  DeviceWord(const DeviceWord&) = delete;
  DeviceWord& operator=(const DeviceWord&) = delete;
  ~DeviceWord() { release(pointer); }
  unsigned long long* get() const { return static_cast<unsigned long long*>(pointer); }
};

}  // namespace

std::int64_t first_index_out_of_range(const Geometry& geometry, const StridedView<std::int64_t>& index,
                                      std::int64_t size) {
  if (geometry.numel == 0) return -1;
  constexpr unsigned long long kNone = std::numeric_limits<unsigned long long>::max();
  const DeviceWord first;
  copy_host_to_device(first.get(), &kNone, sizeof kNone);
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, first_index_out_of_range_kernel)
  (geometry, index, size, first.get());
  check_launch("the index range check kernel");
  unsigned long long position = kNone;
  copy_device_to_host(&position, first.get(), sizeof position);
  return position == kNone ? -1 : static_cast<std::int64_t>(position);
}

template <typename T>
void launch_strided_copy(const Geometry& geometry, const StridedView<T>& src, const StridedView<T>& dst) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, strided_copy_kernel<T>)(geometry, src, dst);
  check_launch("the cat copy kernel");
}

template <typename T>
void launch_index_select(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                         std::int64_t self_step, const std::int64_t* index_data, std::int64_t index_stride) {
  if (out_geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(out_geometry.numel), kThreadsPerBlock, index_select_kernel<T>)
  (out_geometry, dim, out, self, self_step, index_data, index_stride);
  check_launch("the index_select kernel");
}

template <typename T>
void launch_gather(const Geometry& geometry, const StridedView<T>& out, const StridedView<std::int64_t>& index,
                   const StridedView<T>& self, std::int64_t self_step) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, gather_kernel<T>)
  (geometry, out, index, self, self_step);
  check_launch("the gather kernel");
}

template <typename T>
void launch_scatter_add(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                        const Geometry& index_geometry, const StridedView<std::int64_t>& index,
                        const StridedView<T>& src) {
  if (out_geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(out_geometry.numel), kThreadsPerBlock, scatter_add_kernel<T>)
  (out_geometry, dim, out, self, index_geometry, index, src);
  check_launch("the scatter_add kernel");
}

template <typename T>
void launch_scatter_reduce(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                           const Geometry& index_geometry, const StridedView<std::int64_t>& index,
                           const StridedView<T>& src, int mode, bool include_self) {
  if (out_geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(out_geometry.numel), kThreadsPerBlock, scatter_reduce_kernel<T>)
  (out_geometry, dim, out, self, index_geometry, index, src, mode, include_self);
  check_launch("the scatter_reduce kernel");
}

template <typename T>
void launch_index_add(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                      const StridedView<T>& source, std::int64_t source_step, const std::int64_t* index_data,
                      std::int64_t index_stride, std::int64_t index_count, T alpha) {
  if (out_geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(out_geometry.numel), kThreadsPerBlock, index_add_kernel<T>)
  (out_geometry, dim, out, self, source, source_step, index_data, index_stride, index_count, alpha);
  check_launch("the index_add kernel");
}

template <typename T>
void launch_masked_fill(const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& self,
                        const StridedView<bool>& mask, T value) {
  if (geometry.numel == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(geometry.numel), kThreadsPerBlock, masked_fill_kernel<T>)
  (geometry, out, self, mask, value);
  check_launch("the masked_fill kernel");
}

#define FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS(T)                                                                    \
  template void launch_strided_copy<T>(const Geometry&, const StridedView<T>&, const StridedView<T>&);             \
  template void launch_index_select<T>(const Geometry&, int, const StridedView<T>&, const StridedView<T>&,         \
                                       std::int64_t, const std::int64_t*, std::int64_t);                           \
  template void launch_gather<T>(const Geometry&, const StridedView<T>&, const StridedView<std::int64_t>&,         \
                                 const StridedView<T>&, std::int64_t);                                             \
  template void launch_scatter_add<T>(const Geometry&, int, const StridedView<T>&, const StridedView<T>&,          \
                                      const Geometry&, const StridedView<std::int64_t>&, const StridedView<T>&);   \
  template void launch_scatter_reduce<T>(const Geometry&, int, const StridedView<T>&, const StridedView<T>&,       \
                                         const Geometry&, const StridedView<std::int64_t>&, const StridedView<T>&, \
                                         int, bool);                                                               \
  template void launch_index_add<T>(const Geometry&, int, const StridedView<T>&, const StridedView<T>&,            \
                                    const StridedView<T>&, std::int64_t, const std::int64_t*, std::int64_t,        \
                                    std::int64_t, T);                                                              \
  template void launch_masked_fill<T>(const Geometry&, const StridedView<T>&, const StridedView<T>&,               \
                                      const StridedView<bool>&, T);
FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS(bool)
FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS(std::int64_t)
FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS(float)
FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS(double)
#undef FUNCSPEC_INSTANTIATE_INDEX_LAUNCHERS

}  // namespace funcspec::cuda
