// Host glue of the CUDA unary kernels (unary.cu): checks, views, dtype dispatch.
#include "reference/backends/cuda/unary.h"

#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/unary_launch.h"

namespace funcspec::cuda {

void unary_kernel(common::UnaryFn fn, const Tensor& in, const Tensor& out, const common::UnaryParams& params) {
  const Geometry geometry = geometry_of(out.shape(), "unary");
  if (fn == common::UnaryFn::LogicalNot) {
    visit_cuda_dtype(in.dtype(), [&]<typename T>() {
      launch_logical_not<T>(geometry, strided_view_of<bool>(out, "unary"), strided_view_of<T>(in, "unary"));
    });
    return;
  }
  FUNCSPEC_INTERNAL_ASSERT(in.dtype() == out.dtype(), "unary kernel with different input and output dtypes");
  FUNCSPEC_INTERNAL_ASSERT(common::keeps_dtype(fn) || is_floating(in.dtype()),
                           "floating unary function on a non-floating dtype");
  visit_cuda_dtype(in.dtype(), [&]<typename T>() {
    // softplus's parameters converted as the cpu kernel converts them.
    const bool launched =
        launch_unary<T>(fn, geometry, strided_view_of<T>(out, "unary"), strided_view_of<T>(in, "unary"),
                        cast_scalar<T>(params.beta), cast_scalar<T>(params.threshold));
    FUNCSPEC_INTERNAL_ASSERT(launched, "unary function not defined on this dtype");
  });
}

}  // namespace funcspec::cuda
