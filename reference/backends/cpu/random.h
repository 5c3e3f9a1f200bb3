#pragma once
// Per-dtype draws for the cpu random kernels: float32 and float64 use the portable definitions of
// reference/random/distributions.h (the bits every backend must reproduce); the oracle dtype draws
// the same quantities at its own precision from the full 64-bit words (NOTE: [portable distributions]).
#include <cstdint>

#include "reference/backends/cpu/scalar_math.h"
#include "reference/core/tensor.h"
#include "reference/random/distributions.h"

namespace funcspec::cpu {

template <typename T>
T uniform_draw(const random::PhiloxBlock& block) {
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
T normal_draw(const random::PhiloxBlock& block) {
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

// Bernoulli(p) for p in [0, 1] of any floating type: U(0,1) * 2^-64 < p, decided exactly.
template <typename T>
bool bernoulli_draw(const random::PhiloxBlock& block, const T& p) {
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
T multiply_add(const T& b, const T& c, const T& a) {
  if constexpr (is_oracle_v<T>)
    return a + b * c;
  else
    return std::fma(b, c, a);
}

// The kernels (random.cpp). Element i of every output uses block stream.block(i), i in row-major
// order of the output, except multinomial (see its comment).
void fill_uniform(const Tensor& out, const random::PhiloxStream& stream, double from, double to);
void fill_normal(const Tensor& out, const random::PhiloxStream& stream, double mean, double std);
void fill_randint(const Tensor& out, const random::PhiloxStream& stream, std::int64_t low, std::int64_t high);
void fill_bernoulli_scalar(const Tensor& out, const random::PhiloxStream& stream, double p);
void bernoulli_tensor(const Tensor& p, const Tensor& out, const random::PhiloxStream& stream);
void normal_tensor(const Tensor& mean, const Tensor& std, const Tensor& out, const random::PhiloxStream& stream);
void multinomial(const Tensor& weights, const Tensor& out, std::int64_t num_samples, bool replacement,
                 const random::PhiloxStream& stream);

}  // namespace funcspec::cpu
