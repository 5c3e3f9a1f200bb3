// Host glue of the CUDA unary kernels (unary.cu): checks, views, dtype dispatch.
#include "reference/backends/cuda/unary.h"

#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/unary_launch.h"

namespace funcspec::cuda {

void unary_kernel(common::UnaryFn fn, const Tensor& in, const Tensor& out, const common::UnaryParams& params) {
  FUNCSPEC_INTERNAL_ASSERT(out.dtype() == in.dtype() || out.dtype() == DType::Bool, "unary kernel output dtype");
  const Geometry geometry = geometry_of(out.shape(), "unary");
  visit_cuda_dtype(in.dtype(), [&]<typename T>() {
    const StridedView<T> in_view = strided_view_of<T>(in, "unary");
    // The launcher of the output's element type: the input's, or bool (logical_not).
    const bool launched =
        out.dtype() == in.dtype()
            ? launch_unary<T, T>(fn, params, geometry, strided_view_of<T>(out, "unary"), in_view)
            : launch_unary<T, bool>(fn, params, geometry, strided_view_of<bool>(out, "unary"), in_view);
    FUNCSPEC_INTERNAL_ASSERT(launched, "unary function not defined on this dtype");
  });
}

}  // namespace funcspec::cuda
