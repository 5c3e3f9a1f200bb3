// Host glue of the CUDA binary kernels (binary.cu): checks, views, dtype dispatch, and the
// data-dependent errors of integer operands.
#include "reference/backends/cuda/binary.h"

#include "reference/backends/common/integer_operand_error.h"
#include "reference/backends/cuda/binary_launch.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"

namespace funcspec::cuda {
namespace {

using common::BinaryFn;

// As the cpu kernel's: the first element of b that the function's rule rejects, found on the
// device, raised with the cpu's error before anything is written.
void check_integer_operand(std::string_view op, BinaryFn fn, const Tensor& b) {
  const common::IntegerOperandRule rule = common::integer_operand_rule(fn);
  if (rule == common::IntegerOperandRule::Any) return;
  std::int64_t value = 0;
  const std::int64_t index = launch_first_invalid_integer_operand(geometry_of(b.shape(), op),
                                                                  strided_view_of<std::int64_t>(b, op), rule, &value);
  if (index >= 0) common::raise_invalid_integer_operand(op, rule, value);
}

}  // namespace

void binary_kernel(std::string_view op, BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& out,
                   const Scalar& alpha) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && a.dtype() == out.dtype(), "binary kernel with mixed dtypes");
  if (a.dtype() == DType::Int64) check_integer_operand(op, fn, b);
  const Geometry geometry = geometry_of(out.shape(), op);
  visit_cuda_dtype(a.dtype(), [&]<typename T>() {
    const bool launched = launch_binary<T>(fn, geometry, strided_view_of<T>(out, op), strided_view_of<T>(a, op),
                                           strided_view_of<T>(b, op), alpha.to<T>());
    FUNCSPEC_INTERNAL_ASSERT(launched, "binary function not defined on this dtype");
  });
}

void compare_kernel(common::CompareFn fn, const Tensor& a, const Tensor& b, const Tensor& out) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && out.dtype() == DType::Bool, "compare kernel dtypes");
  const Geometry geometry = geometry_of(out.shape(), "compare");
  visit_cuda_dtype(a.dtype(), [&]<typename T>() {
    const bool launched = launch_compare<T>(fn, geometry, strided_view_of<bool>(out, "compare"),
                                            strided_view_of<T>(a, "compare"), strided_view_of<T>(b, "compare"));
    FUNCSPEC_INTERNAL_ASSERT(launched, "comparison not defined on this dtype");
  });
}

void where_kernel(const Tensor& condition, const Tensor& a, const Tensor& b, const Tensor& out) {
  const Geometry geometry = geometry_of(out.shape(), "where");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_where<T>(geometry, strided_view_of<T>(out, "where"), strided_view_of<bool>(condition, "where"),
                    strided_view_of<T>(a, "where"), strided_view_of<T>(b, "where"));
  });
}

void clamp_kernel(const Tensor& self, const Tensor& low, const Tensor& high, const Tensor& out) {
  FUNCSPEC_INTERNAL_ASSERT(low.defined() || high.defined(), "clamp kernel without bounds");
  const Geometry geometry = geometry_of(out.shape(), "clamp");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    const StridedView<T> low_view = low.defined() ? strided_view_of<T>(low, "clamp") : StridedView<T>{};
    const StridedView<T> high_view = high.defined() ? strided_view_of<T>(high, "clamp") : StridedView<T>{};
    launch_clamp<T>(geometry, strided_view_of<T>(out, "clamp"), strided_view_of<T>(self, "clamp"), low_view,
                    low.defined(), high_view, high.defined());
  });
}

}  // namespace funcspec::cuda
