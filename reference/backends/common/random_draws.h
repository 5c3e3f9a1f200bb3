#pragma once
// Per-dtype draws of the random kernels of both backends: float32 and float64 use the portable
// definitions of reference/random/distributions.h (the bits every backend must reproduce); the
// oracle dtype (cpu only) draws the same quantities at its own precision from the full 64-bit words
// (NOTE: [portable distributions]). Host+device: the CUDA kernels draw with this very code.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/dtype.h"
#include "reference/core/host_device.h"
#include "reference/random/distributions.h"

namespace funcspec::common {

template <typename T>
FUNCSPEC_HOST_DEVICE T uniform_draw(const random::PhiloxBlock& block) {
  if constexpr (std::is_same_v<T, float>) {
    return random::uniform_float32(block);
  } else if constexpr (std::is_same_v<T, double>) {
    return random::uniform_float64(block);
  } else {
    static_assert(is_oracle_v<T>, "uniform draws are floating");
    return boost::multiprecision::ldexp(T(random::word_pair(block, 0)), -64);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T normal_draw(const random::PhiloxBlock& block) {
  if constexpr (std::is_same_v<T, float>) {
    return random::normal_float32(block);
  } else if constexpr (std::is_same_v<T, double>) {
    return random::normal_float64(block);
  } else {
    static_assert(is_oracle_v<T>, "normal draws are floating");
    const T u1 = boost::multiprecision::ldexp(T(random::word_pair(block, 0)) + T(0.5), -64);
    const T turns = boost::multiprecision::ldexp(T(random::word_pair(block, 2)), -64);
    return math::sqrt(T(-2) * math::log(u1)) * math::cos(T(2) * math::pi<T>() * turns);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T exponential_draw(const random::PhiloxBlock& block) {
  if constexpr (std::is_same_v<T, float>) {
    return random::exponential_float32(block);
  } else if constexpr (std::is_same_v<T, double>) {
    return random::exponential_float64(block);
  } else {
    static_assert(is_oracle_v<T>, "exponential draws are floating");
    return -math::log(boost::multiprecision::ldexp(T(random::word_pair(block, 0)) + T(0.5), -64));
  }
}

// Bernoulli(p) for p in [0, 1] of any floating type: U(0,1) * 2^-64 < p, decided exactly.
template <typename T>
FUNCSPEC_HOST_DEVICE bool bernoulli_draw(const random::PhiloxBlock& block, const T& p) {
  if constexpr (is_oracle_v<T>) {
    const T scaled = boost::multiprecision::ldexp(p, 64);
    if (!(scaled < boost::multiprecision::ldexp(T(1), 64))) return true;
    return random::word_pair(block, 0) < math::ceil(scaled).template convert_to<std::uint64_t>();
  } else {
    return random::bernoulli_from_double(block, static_cast<double>(p));
  }
}

// a + b * c with one rounding for float and double (the same on every backend); the oracle's
// precision makes the distinction immaterial there.
template <typename T>
FUNCSPEC_HOST_DEVICE T multiply_add(const T& b, const T& c, const T& a) {
  if constexpr (is_oracle_v<T>)
    return a + b * c;
  else
    return std::fma(b, c, a);
}

}  // namespace funcspec::common
