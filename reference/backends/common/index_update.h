#pragma once
// The element updates of scatter_add and index_add, shared by their cpu and CUDA kernels so that
// both accumulate alike: || for bool, a two's-complement wrapping sum for int64 (as every int64 sum
// of the reference), and for floats one rounding per operation (the product and the sum of
// index_add round separately: the cpu build never contracts them into an fma, and the CUDA
// backend is compiled with --fmad=false for the same reason).
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/unary_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// scatter_add's `target + value`.
template <typename T>
FUNCSPEC_HOST_DEVICE T scatter_add_update(const T& target, const T& value) {
  if constexpr (std::is_same_v<T, bool>)
    return target || value;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return elementwise_math::wrapping_add(target, value);
  else
    return target + value;
}

// index_add's `target + alpha * value`.
template <typename T>
FUNCSPEC_HOST_DEVICE T index_add_update(const T& target, const T& alpha, const T& value) {
  if constexpr (std::is_same_v<T, bool>)
    return target || (alpha && value);
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return elementwise_math::wrapping_add(target, elementwise_math::wrapping_mul(alpha, value));
  else
    return target + alpha * value;
}

}  // namespace funcspec::common
