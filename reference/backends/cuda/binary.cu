// CUDA kernels of the binary elementwise ops: each function is the scalar function the cpu backend
// calls (backends/common/binary_math.h, host+device) or its one-line expression from cpu/binary.cpp,
// mapped over the operands by the elementwise drivers.
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/binary_math.h"
#include "reference/backends/cuda/binary_launch.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/elementwise.cuh"

namespace funcspec::cuda {
namespace {

namespace m = common::elementwise_math;
using common::BinaryFn;
using common::CompareFn;

#define FUNCSPEC_BINARY_FUNCTOR(Name, expression)           \
  struct Name {                                             \
    template <typename T>                                   \
    __device__ T operator()(const T& x, const T& y) const { \
      return expression;                                    \
    }                                                       \
  };
FUNCSPEC_BINARY_FUNCTOR(Mul, m::mul(x, y))
FUNCSPEC_BINARY_FUNCTOR(Div, x / y)
FUNCSPEC_BINARY_FUNCTOR(DivTrunc, m::div_trunc(x, y))
FUNCSPEC_BINARY_FUNCTOR(DivFloor, m::div_floor(x, y))
FUNCSPEC_BINARY_FUNCTOR(Pow, m::pow(x, y))
FUNCSPEC_BINARY_FUNCTOR(Maximum, m::maximum(x, y))
FUNCSPEC_BINARY_FUNCTOR(Minimum, m::minimum(x, y))
FUNCSPEC_BINARY_FUNCTOR(Atan2, m::atan2(x, y))
FUNCSPEC_BINARY_FUNCTOR(Remainder, m::remainder(x, y))
// bool: mul and minimum are `and`, maximum is `or` (cpu/binary.cpp).
FUNCSPEC_BINARY_FUNCTOR(And, x&& y)
FUNCSPEC_BINARY_FUNCTOR(Or, x || y)
#undef FUNCSPEC_BINARY_FUNCTOR

template <typename T>
struct Add {
  T alpha;
  __device__ T operator()(const T& x, const T& y) const { return m::add(x, y, alpha); }
};

template <typename T>
struct Sub {
  T alpha;
  __device__ T operator()(const T& x, const T& y) const { return m::sub(x, y, alpha); }
};

#define FUNCSPEC_COMPARE_FUNCTOR(Name, expression)             \
  struct Name {                                                \
    template <typename T>                                      \
    __device__ bool operator()(const T& x, const T& y) const { \
      return expression;                                       \
    }                                                          \
  };
FUNCSPEC_COMPARE_FUNCTOR(Eq, x == y)
FUNCSPEC_COMPARE_FUNCTOR(Ne, x != y)
FUNCSPEC_COMPARE_FUNCTOR(Lt, x < y)
FUNCSPEC_COMPARE_FUNCTOR(Le, x <= y)
FUNCSPEC_COMPARE_FUNCTOR(Gt, x > y)
FUNCSPEC_COMPARE_FUNCTOR(Ge, x >= y)
FUNCSPEC_COMPARE_FUNCTOR(LogicalAnd, x != T(0) && y != T(0))
FUNCSPEC_COMPARE_FUNCTOR(LogicalOr, x != T(0) || y != T(0))
#undef FUNCSPEC_COMPARE_FUNCTOR

struct Where {
  template <typename T>
  __device__ T operator()(bool c, const T& x, const T& y) const {
    return c ? x : y;
  }
};

struct ClampBoth {
  template <typename T>
  __device__ T operator()(const T& x, const T& lo, const T& hi) const {
    return m::clamp_value(x, &lo, &hi);
  }
};

struct ClampLow {
  template <typename T>
  __device__ T operator()(const T& x, const T& lo) const {
    return m::clamp_value<T>(x, &lo, nullptr);
  }
};

struct ClampHigh {
  template <typename T>
  __device__ T operator()(const T& x, const T& hi) const {
    return m::clamp_value<T>(x, nullptr, &hi);
  }
};

// Lowers *first to the linear index of every rejected element: the minimum, whatever the order in
// which threads get there.
__global__ void first_invalid_kernel(std::int64_t n, Geometry geometry, StridedView<std::int64_t> b, bool divides,
                                     unsigned long long* first) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    const std::int64_t v = element_at(b, i, geometry);
    const bool rejected = divides ? v == 0 : v < 0;
    if (rejected) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

// One device word, released on every path.
struct DeviceWord {
  void* ptr = allocate(sizeof(unsigned long long));
  DeviceWord() = default;
  DeviceWord(const DeviceWord&) = delete;
  DeviceWord& operator=(const DeviceWord&) = delete;
  ~DeviceWord() { release(ptr); }
};

}  // namespace

template <typename T>
bool launch_binary(BinaryFn fn, const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& a,
                   const StridedView<T>& b, T alpha) {
  auto run = [&](auto functor) {
    elementwise::map2("binary kernel", geometry, out, a, b, functor);
    return true;
  };
  if constexpr (std::is_same_v<T, bool>) {
    switch (fn) {
      case BinaryFn::Add: return run(Add<bool>{alpha});
      case BinaryFn::Mul: return run(And{});
      case BinaryFn::Maximum: return run(Or{});
      case BinaryFn::Minimum: return run(And{});
      default: return false;
    }
  } else {
    switch (fn) {
      case BinaryFn::Add: return run(Add<T>{alpha});
      case BinaryFn::Sub: return run(Sub<T>{alpha});
      case BinaryFn::Mul: return run(Mul{});
      case BinaryFn::DivTrunc: return run(DivTrunc{});
      case BinaryFn::DivFloor: return run(DivFloor{});
      case BinaryFn::Pow: return run(Pow{});
      case BinaryFn::Maximum: return run(Maximum{});
      case BinaryFn::Minimum: return run(Minimum{});
      case BinaryFn::Remainder: return run(Remainder{});
      default: break;
    }
    if constexpr (std::is_floating_point_v<T>) {
      switch (fn) {
        case BinaryFn::Div: return run(Div{});
        case BinaryFn::Atan2: return run(Atan2{});
        default: break;
      }
    }
    return false;
  }
}

std::int64_t launch_first_invalid_integer_operand(const Geometry& geometry, const StridedView<std::int64_t>& b,
                                                  bool divides, std::int64_t* value) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return -1;
  const DeviceWord first;
  const auto none = static_cast<unsigned long long>(n);
  copy_host_to_device(first.ptr, &none, sizeof none);
  FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, first_invalid_kernel)
  (n, geometry, b, divides, static_cast<unsigned long long*>(first.ptr));
  check_launch("integer operand check kernel");
  unsigned long long found = none;
  copy_device_to_host(&found, first.ptr, sizeof found);
  if (found == none) return -1;
  const auto index = static_cast<std::int64_t>(found);
  copy_device_to_host(value, b.data + offset_of(index, geometry, b.strides), sizeof *value);
  return index;
}

template <typename T>
void launch_compare(CompareFn fn, const Geometry& geometry, const StridedView<bool>& out, const StridedView<T>& a,
                    const StridedView<T>& b) {
  auto run = [&](auto functor) { elementwise::map2("compare kernel", geometry, out, a, b, functor); };
  switch (fn) {
    case CompareFn::Eq: return run(Eq{});
    case CompareFn::Ne: return run(Ne{});
    case CompareFn::Lt: return run(Lt{});
    case CompareFn::Le: return run(Le{});
    case CompareFn::Gt: return run(Gt{});
    case CompareFn::Ge: return run(Ge{});
    case CompareFn::LogicalAnd: return run(LogicalAnd{});
    case CompareFn::LogicalOr: return run(LogicalOr{});
  }
}

template <typename T>
void launch_where(const Geometry& geometry, const StridedView<T>& out, const StridedView<bool>& condition,
                  const StridedView<T>& a, const StridedView<T>& b) {
  elementwise::map3("where kernel", geometry, out, condition, a, b, Where{});
}

template <typename T>
void launch_clamp(const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& self,
                  const StridedView<T>& low, bool has_low, const StridedView<T>& high, bool has_high) {
  if (has_low && has_high) {
    elementwise::map3("clamp kernel", geometry, out, self, low, high, ClampBoth{});
  } else if (has_low) {
    elementwise::map2("clamp kernel", geometry, out, self, low, ClampLow{});
  } else {
    elementwise::map2("clamp kernel", geometry, out, self, high, ClampHigh{});
  }
}

#define FUNCSPEC_INSTANTIATE(T)                                                                                       \
  template bool launch_binary<T>(BinaryFn, const Geometry&, const StridedView<T>&, const StridedView<T>&,             \
                                 const StridedView<T>&, T);                                                           \
  template void launch_compare<T>(CompareFn, const Geometry&, const StridedView<bool>&, const StridedView<T>&,        \
                                  const StridedView<T>&);                                                             \
  template void launch_where<T>(const Geometry&, const StridedView<T>&, const StridedView<bool>&,                     \
                                const StridedView<T>&, const StridedView<T>&);                                        \
  template void launch_clamp<T>(const Geometry&, const StridedView<T>&, const StridedView<T>&, const StridedView<T>&, \
                                bool, const StridedView<T>&, bool);
FUNCSPEC_INSTANTIATE(bool)
FUNCSPEC_INSTANTIATE(std::int64_t)
FUNCSPEC_INSTANTIATE(float)
FUNCSPEC_INSTANTIATE(double)
#undef FUNCSPEC_INSTANTIATE

}  // namespace funcspec::cuda
