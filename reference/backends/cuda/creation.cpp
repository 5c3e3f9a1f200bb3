// Host glue of the CUDA creation kernels (creation.cu).
#include "reference/backends/cuda/creation.h"

#include "reference/backends/cuda/creation_launch.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"

namespace funcspec::cuda {

void fill(const Tensor& out, const Scalar& value) {
  const Geometry geometry = geometry_of(out.shape(), "fill");
  visit_cuda_dtype(out.dtype(),
                   [&]<typename T>() { launch_fill<T>(geometry, strided_view_of<T>(out, "fill"), value.to<T>()); });
}

void arange(const Tensor& out, const Scalar& start, const Scalar& step, bool integral) {
  FUNCSPEC_INTERNAL_ASSERT(out.dim() == 1, "arange of a tensor that is not 1-d");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    // The cpu kernel's operands: start.to<int64>() and step.to<int64>() when integral, else
    // start.to<double>() and step.to<double>() (its Wide is double for every dtype cuda holds).
    const std::int64_t stride = out.strides().empty() ? 1 : out.strides()[0];
    launch_arange<T>(device_data<T>(out), out.numel(), stride, integral, integral ? start.to<std::int64_t>() : 0,
                     integral ? step.to<std::int64_t>() : 0, start.to<double>(), step.to<double>());
  });
}

}  // namespace funcspec::cuda
