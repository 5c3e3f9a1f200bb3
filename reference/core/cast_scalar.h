#pragma once
// The element conversion of the reference, shared by both backends: plain C++17 and host+device, so
// the CUDA kernels (nvcc) convert with the very code the cpu kernels run.
#include <cstdint>
#include <limits>
#include <type_traits>

#include "reference/core/dtype.h"
#include "reference/core/host_device.h"

namespace funcspec {

// Converts between element types with the reference's defined semantics. Float to int64 truncates
// toward zero; NaN and values outside int64's range give INT64_MIN (what x86 PyTorch produces),
// defined here so the conversion is never undefined behaviour. Anything to bool is `x != 0`.
// (The oracle branches are host-only; device code never instantiates them.)
template <typename To, typename From>
FUNCSPEC_HOST_DEVICE To cast_scalar(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (std::is_same_v<To, std::int64_t> && is_floating_v<From>) {
    // 2^63 is exactly representable in every floating type; the range check excludes NaN too.
    const From limit = From(9223372036854775808.0);
    if (!(x >= -limit && x < limit)) return std::numeric_limits<std::int64_t>::min();
    if constexpr (is_oracle_v<From>)
      return x.template convert_to<std::int64_t>();
    else
      return static_cast<std::int64_t>(x);
  } else if constexpr (is_oracle_v<From>) {
    return x.template convert_to<To>();
  } else if constexpr (is_oracle_v<To>) {
    return To(x);
  } else {
    return static_cast<To>(x);
  }
}

}  // namespace funcspec
