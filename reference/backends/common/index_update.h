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

namespace funcspec::common {

// NOTE: [scatter modes]
// scatter and scatter_reduce share one kernel per backend. Each output element q starts empty; the
// sources that land on q (with include_self, self[q] first) are folded into it one after another
// in the order of their index positions (row-major): Replace keeps the last, Sum adds, Prod
// multiplies, Amax/Amin keep the larger/smaller (NaN propagates), Mean adds and divides by the count
// at the end (int64: rounding toward -inf, as PyTorch's floor division). An element no source
// reaches keeps self[q] whatever the mode and include_self (SPEC OPS-22.1, OPS-22.2).
enum class ScatterMode : int { Replace = 0, Sum = 1, Prod = 2, Mean = 3, Amax = 4, Amin = 5 };

// `acc` (which already holds at least one value) combined with the next value `v`.
template <typename T>
FUNCSPEC_HOST_DEVICE T scatter_combine(ScatterMode mode, const T& acc, const T& v) {
  switch (mode) {
    case ScatterMode::Replace: return v;
    case ScatterMode::Sum:
    case ScatterMode::Mean: return scatter_add_update(acc, v);
    case ScatterMode::Prod:
      if constexpr (std::is_same_v<T, bool>)
        return acc && v;
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return elementwise_math::wrapping_mul(acc, v);
      else
        return acc * v;
    case ScatterMode::Amax:
      if constexpr (std::is_same_v<T, bool>) {
        return acc || v;
      } else {
        if (math::isnan(acc)) return acc;
        if (math::isnan(v)) return v;
        return acc < v ? v : acc;
      }
    case ScatterMode::Amin:
      if constexpr (std::is_same_v<T, bool>) {
        return acc && v;
      } else {
        if (math::isnan(acc)) return acc;
        if (math::isnan(v)) return v;
        return v < acc ? v : acc;
      }
  }
  return v;
}

// The finished value of an element that `count` values (self included where it was) reached.
template <typename T>
FUNCSPEC_HOST_DEVICE T scatter_finish(ScatterMode mode, const T& acc, std::int64_t count) {
  if (mode != ScatterMode::Mean) return acc;
  if constexpr (std::is_same_v<T, bool>) {
    return acc;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    std::int64_t q = acc / count;
    if (acc % count != 0 && acc < 0) q -= 1;
    return q;
  } else {
    return acc / T(static_cast<double>(count));
  }
}

}  // namespace funcspec::common
