// CUDA kernels of the dynamic family (NOTE: [cuda dynamic kernels] in dynamic_launch.h): one
// thread per chunk of consecutive row-major positions, counting, then writing in order.
#include <cstdint>

#include "reference/backends/cuda/dynamic_launch.h"
#include "reference/backends/cuda/kernel_launch.h"

namespace funcspec::cuda {
namespace {

__device__ std::int64_t chunk_end(std::int64_t chunk, std::int64_t numel) {
  const std::int64_t end = (chunk + 1) * kDynamicChunk;
  return end < numel ? end : numel;
}

template <typename T>
__global__ void count_nonzero_kernel(Geometry geometry, StridedView<T> self, std::int64_t chunks,
                                     std::int64_t* counts) {
  FUNCSPEC_GRID_STRIDE_LOOP(c, chunks) {
    std::int64_t count = 0;
    for (std::int64_t i = c * kDynamicChunk; i < chunk_end(c, geometry.numel); ++i) {
      if (element_at(self, i, geometry) != T(0)) ++count;
    }
    counts[c] = count;
  }
}

template <typename T>
__global__ void write_nonzero_kernel(Geometry geometry, StridedView<T> self, std::int64_t chunks,
                                     const std::int64_t* starts, std::int64_t* out) {
  FUNCSPEC_GRID_STRIDE_LOOP(c, chunks) {
    std::int64_t row = starts[c];
    for (std::int64_t i = c * kDynamicChunk; i < chunk_end(c, geometry.numel); ++i) {
      if (element_at(self, i, geometry) == T(0)) continue;
      std::int64_t rest = i;
      for (int d = geometry.rank - 1; d >= 0; --d) {
        out[row * geometry.rank + d] = rest % geometry.sizes[d];
        rest /= geometry.sizes[d];
      }
      ++row;
    }
  }
}

__global__ void count_selected_kernel(Geometry geometry, StridedView<bool> mask, std::int64_t chunks,
                                      std::int64_t* counts) {
  FUNCSPEC_GRID_STRIDE_LOOP(c, chunks) {
    std::int64_t count = 0;
    for (std::int64_t i = c * kDynamicChunk; i < chunk_end(c, geometry.numel); ++i) {
      if (element_at(mask, i, geometry)) ++count;
    }
    counts[c] = count;
  }
}

template <typename T>
__global__ void write_selected_kernel(Geometry geometry, StridedView<T> self, StridedView<bool> mask,
                                      std::int64_t chunks, const std::int64_t* starts, T* out) {
  FUNCSPEC_GRID_STRIDE_LOOP(c, chunks) {
    std::int64_t position = starts[c];
    for (std::int64_t i = c * kDynamicChunk; i < chunk_end(c, geometry.numel); ++i) {
      if (element_at(mask, i, geometry)) out[position++] = element_at(self, i, geometry);
    }
  }
}

}  // namespace

template <typename T>
void launch_count_nonzero(const Geometry& geometry, const StridedView<T>& self, std::int64_t* counts) {
  const std::int64_t chunks = dynamic_chunks(geometry.numel);
  if (chunks == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(chunks), kThreadsPerBlock, count_nonzero_kernel<T>)(geometry, self, chunks, counts);
  check_launch("the nonzero count kernel");
}

template <typename T>
void launch_write_nonzero(const Geometry& geometry, const StridedView<T>& self, const std::int64_t* starts,
                          std::int64_t* out) {
  const std::int64_t chunks = dynamic_chunks(geometry.numel);
  if (chunks == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(chunks), kThreadsPerBlock, write_nonzero_kernel<T>)(geometry, self, chunks, starts, out);
  check_launch("the nonzero kernel");
}

void launch_count_selected(const Geometry& geometry, const StridedView<bool>& mask, std::int64_t* counts) {
  const std::int64_t chunks = dynamic_chunks(geometry.numel);
  if (chunks == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(chunks), kThreadsPerBlock, count_selected_kernel)(geometry, mask, chunks, counts);
  check_launch("the masked_select count kernel");
}

template <typename T>
void launch_write_selected(const Geometry& geometry, const StridedView<T>& self, const StridedView<bool>& mask,
                           const std::int64_t* starts, T* out) {
  const std::int64_t chunks = dynamic_chunks(geometry.numel);
  if (chunks == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(chunks), kThreadsPerBlock, write_selected_kernel<T>)
  (geometry, self, mask, chunks, starts, out);
  check_launch("the masked_select kernel");
}

#define FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS(T)                                                                    \
  template void launch_count_nonzero<T>(const Geometry&, const StridedView<T>&, std::int64_t*);                      \
  template void launch_write_nonzero<T>(const Geometry&, const StridedView<T>&, const std::int64_t*, std::int64_t*); \
  template void launch_write_selected<T>(const Geometry&, const StridedView<T>&, const StridedView<bool>&,           \
                                         const std::int64_t*, T*);
FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS(bool)
FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS(std::int64_t)
FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS(float)
FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS(double)
#undef FUNCSPEC_INSTANTIATE_DYNAMIC_LAUNCHERS

}  // namespace funcspec::cuda
