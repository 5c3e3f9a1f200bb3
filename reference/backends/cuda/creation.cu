// CUDA kernels of the creation ops: one thread per output element, each writing a value that
// depends only on its index.
#include <cstdint>

#include "reference/backends/cuda/creation_launch.h"
#include "reference/backends/cuda/kernel_launch.h"
#include "reference/core/cast_scalar.h"

namespace funcspec::cuda {
namespace {

template <typename T>
__global__ void fill_contiguous_kernel(std::int64_t n, T* out, T value) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) out[i] = value;
}

template <typename T>
__global__ void fill_strided_kernel(Geometry geometry, StridedView<T> out, T value) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, geometry.numel) out.data[offset_of(i, geometry, out.strides)] = value;
}

// The cpu kernel's expressions. The floating one is written with explicit round-to-nearest
// operations (never contracted into an fma), so it rounds the product and the sum separately, as
// the cpu does.
template <typename T>
__global__ void arange_kernel(T* out, std::int64_t n, std::int64_t stride, bool integral, std::int64_t start_int,
                              std::int64_t step_int, double start, double step) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    if (integral) {
      out[i * stride] = cast_scalar<T>(start_int + i * step_int);
    } else {
      out[i * stride] = cast_scalar<T>(__dadd_rn(start, __dmul_rn(static_cast<double>(i), step)));
    }
  }
}

}  // namespace

template <typename T>
void launch_fill(const Geometry& geometry, const StridedView<T>& out, T value) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return;
  if (out.contiguous) {
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, fill_contiguous_kernel)(n, out.data, value);
  } else {
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, fill_strided_kernel)(geometry, out, value);
  }
  check_launch("fill kernel");
}

template <typename T>
void launch_arange(T* out, std::int64_t n, std::int64_t stride, bool integral, std::int64_t start_int,
                   std::int64_t step_int, double start, double step) {
  if (n == 0) return;
  FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, arange_kernel)
  (out, n, stride, integral, start_int, step_int, start, step);
  check_launch("arange kernel");
}

#define FUNCSPEC_INSTANTIATE(T)                                            \
  template void launch_fill<T>(const Geometry&, const StridedView<T>&, T); \
  template void launch_arange<T>(T*, std::int64_t, std::int64_t, bool, std::int64_t, std::int64_t, double, double);
FUNCSPEC_INSTANTIATE(bool)
FUNCSPEC_INSTANTIATE(std::int64_t)
FUNCSPEC_INSTANTIATE(float)
FUNCSPEC_INSTANTIATE(double)
#undef FUNCSPEC_INSTANTIATE

}  // namespace funcspec::cuda
