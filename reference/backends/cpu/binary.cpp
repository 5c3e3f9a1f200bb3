#include "reference/backends/cpu/binary.h"

#include "reference/backends/common/binary_math.h"
#include "reference/backends/cpu/elementwise.h"

namespace funcspec::cpu {

using common::BinaryFn;
using common::CompareFn;

namespace {

namespace m = common::elementwise_math;

// The data-dependent errors of integer ops, checked over all of b before the kernel writes.
void check_integer_operand(std::string_view op, BinaryFn fn, const Tensor& b) {
  const bool divides = fn == BinaryFn::DivTrunc || fn == BinaryFn::DivFloor || fn == BinaryFn::Remainder;
  if (!divides && fn != BinaryFn::Pow) return;
  const std::int64_t* pb = b.data<std::int64_t>();
  for_each_offset<1>(b.shape(), {b.strides()}, [&](const std::array<std::int64_t, 1>& at) {
    const std::int64_t v = pb[at[0]];
    FUNCSPEC_CHECK(!divides || v != 0, ErrorKind::InvalidArgument, "[{}] integer division by zero", op);
    FUNCSPEC_CHECK(divides || v >= 0, ErrorKind::InvalidArgument,
                   "[{}] integers to negative integer powers are not allowed (exponent {})", op, v);
  });
}

template <typename T>
void typed_binary_kernel(BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& out, const Scalar& alpha) {
  auto run = [&](auto scalar_fn) { map2<T, T>(a, b, out, scalar_fn); };
  if constexpr (std::is_same_v<T, bool>) {
    // The op layer lets bool through only where the op is defined on it.
    switch (fn) {
      case BinaryFn::Add: {
        const bool scale = alpha.to<bool>();
        return run([=](bool x, bool y) { return m::add(x, y, scale); });
      }
      case BinaryFn::Mul: return run([](bool x, bool y) { return x && y; });
      case BinaryFn::Maximum: return run([](bool x, bool y) { return x || y; });
      case BinaryFn::Minimum: return run([](bool x, bool y) { return x && y; });
      default: FUNCSPEC_UNREACHABLE("binary function not defined on bool");
    }
  } else {
    switch (fn) {
      case BinaryFn::Add: {
        const T scale = alpha.to<T>();
        return run([&](const T& x, const T& y) { return m::add(x, y, scale); });
      }
      case BinaryFn::Sub: {
        const T scale = alpha.to<T>();
        return run([&](const T& x, const T& y) { return m::sub(x, y, scale); });
      }
      case BinaryFn::Mul: return run([](const T& x, const T& y) { return m::mul(x, y); });
      case BinaryFn::DivTrunc: return run([](const T& x, const T& y) { return m::div_trunc(x, y); });
      case BinaryFn::DivFloor: return run([](const T& x, const T& y) { return m::div_floor(x, y); });
      case BinaryFn::Pow: return run([](const T& x, const T& y) { return m::pow(x, y); });
      case BinaryFn::Maximum: return run([](const T& x, const T& y) { return m::maximum(x, y); });
      case BinaryFn::Minimum: return run([](const T& x, const T& y) { return m::minimum(x, y); });
      case BinaryFn::Remainder: return run([](const T& x, const T& y) { return m::remainder(x, y); });
      default: break;
    }
    if constexpr (is_floating_v<T>) {
      switch (fn) {
        case BinaryFn::Div: return run([](const T& x, const T& y) { return x / y; });
        case BinaryFn::Atan2: return run([](const T& x, const T& y) { return m::atan2(x, y); });
        default: break;
      }
    }
    FUNCSPEC_UNREACHABLE("binary function not defined on this dtype");
  }
}

template <typename T>
void typed_compare_kernel(CompareFn fn, const Tensor& a, const Tensor& b, const Tensor& out) {
  auto run = [&](auto scalar_fn) { map2<bool, T>(a, b, out, scalar_fn); };
  switch (fn) {
    case CompareFn::Eq: return run([](const T& x, const T& y) { return x == y; });
    case CompareFn::Ne: return run([](const T& x, const T& y) { return x != y; });
    case CompareFn::Lt: return run([](const T& x, const T& y) { return x < y; });
    case CompareFn::Le: return run([](const T& x, const T& y) { return x <= y; });
    case CompareFn::Gt: return run([](const T& x, const T& y) { return x > y; });
    case CompareFn::Ge: return run([](const T& x, const T& y) { return x >= y; });
    case CompareFn::LogicalAnd: return run([](const T& x, const T& y) { return x != T(0) && y != T(0); });
    case CompareFn::LogicalOr: return run([](const T& x, const T& y) { return x != T(0) || y != T(0); });
  }
}

}  // namespace

void binary_kernel(std::string_view op, BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& out,
                   const Scalar& alpha) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && a.dtype() == out.dtype(), "binary kernel with mixed dtypes");
  if (a.dtype() == DType::Int64) check_integer_operand(op, fn, b);
  visit_dtype(a.dtype(), [&]<typename T>() { typed_binary_kernel<T>(fn, a, b, out, alpha); });
}

void compare_kernel(CompareFn fn, const Tensor& a, const Tensor& b, const Tensor& out) {
  FUNCSPEC_INTERNAL_ASSERT(a.dtype() == b.dtype() && out.dtype() == DType::Bool, "compare kernel dtypes");
  visit_dtype(a.dtype(), [&]<typename T>() { typed_compare_kernel<T>(fn, a, b, out); });
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
