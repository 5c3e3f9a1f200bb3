#include "reference/backends/cpu/binary.h"

#include "reference/backends/common/binary_functors.h"
#include "reference/backends/common/integer_operand_error.h"
#include "reference/backends/cpu/elementwise.h"

namespace funcspec::cpu {

using common::BinaryFn;
using common::CompareFn;

namespace {

namespace m = common::elementwise_math;

// The int64 operand b is checked in full before the kernel writes anything.
void check_integer_operand(std::string_view op, BinaryFn fn, const Tensor& b) {
  const common::IntegerOperandRule rule = common::integer_operand_rule(fn);
  if (rule == common::IntegerOperandRule::Any) return;
  const std::int64_t* pb = b.data<std::int64_t>();
  for_each_offset<1>(b.shape(), {b.strides()}, [&](const std::array<std::int64_t, 1>& at) {
    if (common::rejects(rule, pb[at[0]])) common::raise_invalid_integer_operand(op, rule, pb[at[0]]);
  });
}

}  // namespace

void binary_kernel(std::string_view op, BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& out,
                   const Scalar& alpha) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && a.dtype() == out.dtype(), "binary kernel with mixed dtypes");
  if (a.dtype() == DType::Int64) check_integer_operand(op, fn, b);
  visit_dtype(a.dtype(), [&]<typename T>() {
    const bool defined =
        common::visit_binary_fn<T>(fn, alpha.to<T>(), [&](const auto& functor) { map2<T, T>(a, b, out, functor); });
    FUNCSPEC_INTERNAL_ASSERT(defined, "binary function not defined on this dtype");
  });
}

void compare_kernel(CompareFn fn, const Tensor& a, const Tensor& b, const Tensor& out) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && out.dtype() == DType::Bool, "compare kernel dtypes");
  visit_dtype(a.dtype(), [&]<typename T>() {
    const bool defined =
        common::visit_compare_fn<T>(fn, [&](const auto& functor) { map2<bool, T>(a, b, out, functor); });
    FUNCSPEC_INTERNAL_ASSERT(defined, "comparison not defined on this dtype");
  });
}

void where_kernel(const Tensor& condition, const Tensor& a, const Tensor& b, const Tensor& out) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    map3<T, bool, T>(condition, a, b, out, [](bool c, const T& x, const T& y) { return c ? x : y; });
  });
}

void clamp_kernel(const Tensor& self, const Tensor& low, const Tensor& high, const Tensor& out) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    if (low.defined() && high.defined()) {
      map3<T, T, T>(self, low, high, out,
                    [](const T& x, const T& lo, const T& hi) { return m::clamp_value(x, &lo, &hi); });
    } else if (low.defined()) {
      map2<T, T>(self, low, out, [](const T& x, const T& lo) { return m::clamp_value<T>(x, &lo, nullptr); });
    } else {
      map2<T, T>(self, high, out, [](const T& x, const T& hi) { return m::clamp_value<T>(x, nullptr, &hi); });
    }
  });
}

}  // namespace funcspec::cpu
