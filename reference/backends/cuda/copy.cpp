// Host glue of the CUDA copy kernel (copy.cu).
#include "reference/backends/cuda/copy.h"

#include "reference/backends/cuda/copy_launch.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"

namespace funcspec::cuda {

void copy_elements(const Tensor& src, const Tensor& dst) {
  FUNCSPEC_INTERNAL_ASSERT(src.shape() == dst.shape(), "copy_elements of different shapes");
  const Geometry geometry = geometry_of(dst.shape(), "copy");
  visit_cuda_dtype(src.dtype(), [&]<typename S>() {
    visit_cuda_dtype(dst.dtype(), [&]<typename D>() {
      launch_copy<D, S>(geometry, strided_view_of<D>(dst, "copy"), strided_view_of<S>(src, "copy"));
    });
  });
}

}  // namespace funcspec::cuda
