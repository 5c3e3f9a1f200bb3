// CUDA kernels of the binary elementwise ops: the functor of each function and comparison
// (backends/common/binary_functors.h, the cpu backend's too) mapped over the operands by the
// elementwise drivers; where and clamp call the scalar functions the cpu's call.
#include <cstdint>

#include "reference/backends/common/binary_functors.h"
#include "reference/backends/cuda/binary_launch.h"
#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/elementwise.cuh"

namespace funcspec::cuda {
namespace {

namespace m = common::elementwise_math;
using common::BinaryFn;
using common::CompareFn;
using common::IntegerOperandRule;

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
__global__ void first_invalid_kernel(std::int64_t n, Geometry geometry, StridedView<std::int64_t> b,
                                     IntegerOperandRule rule, unsigned long long* first) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) {
    if (common::rejects(rule, element_at(b, i, geometry))) atomicMin(first, static_cast<unsigned long long>(i));
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
  return common::visit_binary_fn<T>(
      fn, alpha, [&](const auto& functor) { elementwise::map2("binary kernel", geometry, out, a, b, functor); });
}

std::int64_t launch_first_invalid_integer_operand(const Geometry& geometry, const StridedView<std::int64_t>& b,
                                                  IntegerOperandRule rule, std::int64_t* value) {
  const std::int64_t n = geometry.numel;
  if (n == 0) return -1;
  const DeviceWord first;
  const auto none = static_cast<unsigned long long>(n);
  copy_host_to_device(first.ptr, &none, sizeof none);
  FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, first_invalid_kernel)
  (n, geometry, b, rule, static_cast<unsigned long long*>(first.ptr));
  check_launch("integer operand check kernel");
  unsigned long long found = none;
  copy_device_to_host(&found, first.ptr, sizeof found);
  if (found == none) return -1;
  const auto index = static_cast<std::int64_t>(found);
  copy_device_to_host(value, b.data + offset_of(index, geometry, b.strides), sizeof *value);
  return index;
}

template <typename T>
bool launch_compare(CompareFn fn, const Geometry& geometry, const StridedView<bool>& out, const StridedView<T>& a,
                    const StridedView<T>& b) {
  return common::visit_compare_fn<T>(
      fn, [&](const auto& functor) { elementwise::map2("compare kernel", geometry, out, a, b, functor); });
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
  template bool launch_compare<T>(CompareFn, const Geometry&, const StridedView<bool>&, const StridedView<T>&,        \
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
