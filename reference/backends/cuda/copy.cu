// CUDA kernel of copies and dtype conversions: every element converted by cast_scalar, the very
// function the cpu backend converts with (reference/core/cast_scalar.h, host+device).
#include <cstdint>
#include <type_traits>

#include "reference/backends/cuda/copy_launch.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/elementwise.cuh"
#include "reference/core/cast_scalar.h"

namespace funcspec::cuda {
namespace {

template <typename D>
struct Cast {
  template <typename S>
  __device__ D operator()(const S& x) const {
    return cast_scalar<D>(x);
  }
};

}  // namespace

template <typename D, typename S>
void launch_copy(const Geometry& geometry, const StridedView<D>& dst, const StridedView<S>& src) {
  if constexpr (std::is_same_v<D, S>) {
    // Contiguous to contiguous of one dtype: the bytes as they are.
    if (dst.contiguous && src.contiguous) {
      copy_device_to_device(dst.data, src.data, static_cast<std::size_t>(geometry.numel) * sizeof(D));
      return;
    }
  }
  elementwise::map1("copy kernel", geometry, dst, src, Cast<D>{});
}

#define FUNCSPEC_INSTANTIATE_FROM(D)                                                                      \
  template void launch_copy<D, bool>(const Geometry&, const StridedView<D>&, const StridedView<bool>&);   \
  template void launch_copy<D, std::int64_t>(const Geometry&, const StridedView<D>&,                      \
                                             const StridedView<std::int64_t>&);                           \
  template void launch_copy<D, float>(const Geometry&, const StridedView<D>&, const StridedView<float>&); \
  template void launch_copy<D, double>(const Geometry&, const StridedView<D>&, const StridedView<double>&);
FUNCSPEC_INSTANTIATE_FROM(bool)
FUNCSPEC_INSTANTIATE_FROM(std::int64_t)
FUNCSPEC_INSTANTIATE_FROM(float)
FUNCSPEC_INSTANTIATE_FROM(double)
#undef FUNCSPEC_INSTANTIATE_FROM

}  // namespace funcspec::cuda
