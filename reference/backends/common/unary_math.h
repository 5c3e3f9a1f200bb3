#pragma once
// Scalar functions of the unary elementwise ops (and the int64 helpers the binary ones share),
// templated on the element type so that the oracle dtype runs the very code float32/float64 run.
//
// Boost.Math's special functions raise on NaN, infinities and poles under their default policy,
// where the C library returns IEEE special values; the oracle must produce what float and double
// produce, so those inputs are settled here before Boost is called.
#include <boost/math/special_functions/acosh.hpp>
#include <boost/math/special_functions/asinh.hpp>
#include <boost/math/special_functions/atanh.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/scalar_math.h"

namespace funcspec::common::elementwise_math {

template <typename T>
inline constexpr bool is_int64_v = std::is_same_v<T, std::int64_t>;
template <typename T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;

// int64 arithmetic with two's-complement wraparound. C++ leaves signed overflow undefined and
// PyTorch's kernels wrap in practice; the reference defines the wrap, so neg(INT64_MIN) or an
// overflowing product has one specified answer (and sanitizer builds stay clean).
FUNCSPEC_HOST_DEVICE inline std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
FUNCSPEC_HOST_DEVICE inline std::int64_t wrapping_sub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
FUNCSPEC_HOST_DEVICE inline std::int64_t wrapping_mul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
FUNCSPEC_HOST_DEVICE inline std::int64_t wrapping_neg(std::int64_t a) { return wrapping_sub(0, a); }

template <typename T>
FUNCSPEC_HOST_DEVICE T negative_zero() {
  return -T(0);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T trunc(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::trunc(x);
  else
    return std::trunc(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T erfc(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::math::erfc(x);
  else
    return std::erfc(x);
}

// --- the ops that keep their dtype (bool never reaches neg, abs, relu, floor, ceil, round: the op
// layer rejects it; the bool branches only keep the templates instantiable).

template <typename T>
FUNCSPEC_HOST_DEVICE T neg(const T& x) {
  if constexpr (is_bool_v<T>)
    return x;
  else if constexpr (is_int64_v<T>)
    return wrapping_neg(x);
  else
    return -x;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T abs(const T& x) {
  if constexpr (is_bool_v<T>)
    return x;
  else if constexpr (is_int64_v<T>)
    return x < 0 ? wrapping_neg(x) : x;
  else
    return math::abs(x);
}

// PyTorch's (0 < x) - (x < 0): NaN and both zeros give +0.
template <typename T>
FUNCSPEC_HOST_DEVICE T sign(const T& x) {
  if constexpr (is_bool_v<T>)
    return x;
  else
    return static_cast<T>(static_cast<int>(T(0) < x) - static_cast<int>(x < T(0)));
}

template <typename T>
FUNCSPEC_HOST_DEVICE T square(const T& x) {
  if constexpr (is_bool_v<T>)
    return x;
  else if constexpr (is_int64_v<T>)
    return wrapping_mul(x, x);
  else
    return x * x;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T relu(const T& x) {
  if constexpr (is_bool_v<T>)
    return x;
  else if (x > T(0) || math::isnan(x))
    return x;
  else
    return T(0);
}

// floor, ceil and round are the identity on integers.
template <typename T>
FUNCSPEC_HOST_DEVICE T floor(const T& x) {
  if constexpr (is_floating_v<T>)
    return math::floor(x);
  else
    return x;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T ceil(const T& x) {
  if constexpr (is_floating_v<T>)
    return math::ceil(x);
  else
    return x;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T round(const T& x) {
  if constexpr (is_floating_v<T>)
    return math::round_half_even(x);
  else
    return x;
}

// --- floating-only functions.

template <typename T>
FUNCSPEC_HOST_DEVICE T reciprocal(const T& x) {
  return T(1) / x;
}

// Two roundings (sqrt, then the division): within about 1 ulp, not correctly rounded.
template <typename T>
FUNCSPEC_HOST_DEVICE T rsqrt(const T& x) {
  return T(1) / math::sqrt(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T expm1(const T& x) {
  if (math::isnan(x)) return x;
  if (math::isinf(x)) return x > T(0) ? x : T(-1);
  return math::expm1(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T log1p(const T& x) {
  if (math::isnan(x) || x < T(-1)) return math::quiet_nan<T>();
  if (x == T(-1)) return -math::infinity<T>();
  if (math::isinf(x)) return x;
  return math::log1p(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T erf(const T& x) {
  return math::erf(x);
}

// The exp argument is never positive, so neither branch overflows, and the tails keep their
// relative accuracy (1 / (1 + e^-x) would round a tiny e^x to 0 only below the subnormal range).
template <typename T>
FUNCSPEC_HOST_DEVICE T sigmoid(const T& x) {
  if (x >= T(0)) return T(1) / (T(1) + math::exp(-x));
  const T e = math::exp(x);
  return e / (T(1) + e);
}

// log(sigmoid(x)) as PyTorch's log_sigmoid kernel: min(x, 0) - log1p(e^-|x|). The exp argument is
// never positive, so nothing overflows; for large positive x the result is -e^-x to full relative
// accuracy, and for large negative x it is x (the log1p term below an ulp of it).
template <typename T>
FUNCSPEC_HOST_DEVICE T log_sigmoid(const T& x) {
  const T negative_part = x < T(0) ? x : T(0);
  const T magnitude = x < T(0) ? -x : x;
  return negative_part - elementwise_math::log1p(math::exp(-magnitude));
}

// The constants of gelu and gelu_tanh for float and double, each the exact value rounded once to T:
// sqrt(1/2) and the rounding error of that (sqrt(1/2) - sqrt_half, rounded), 2/sqrt(pi), sqrt(2/pi)
// and sqrt(2/pi) * 0.044715. Literals rather than statics computed from the oracle so that device
// code can use them; tests/reference/ops/gelu_constants_test.cpp recomputes them in the oracle.
template <typename T>
struct GeluConstants;
template <>
struct GeluConstants<float> {
  static constexpr float sqrt_half = 0x1.6a09e6p-1f;
  static constexpr float sqrt_half_tail = 0x1.9fcef4p-27f;
  static constexpr float two_over_sqrt_pi = 0x1.20dd76p+0f;
  static constexpr float tanh_scale = 0x1.988454p-1f;
  static constexpr float tanh_cubic_scale = 0x1.2444f2p-5f;
};
template <>
struct GeluConstants<double> {
  static constexpr double sqrt_half = 0x1.6a09e667f3bcdp-1;
  static constexpr double sqrt_half_tail = -0x1.bdd3413b26456p-55;
  static constexpr double two_over_sqrt_pi = 0x1.20dd750429b6dp+0;
  static constexpr double tanh_scale = 0x1.9884533d43651p-1;
  static constexpr double tanh_cubic_scale = 0x1.2444f2a4d8b4bp-5;
};

// x * Phi(x) = x/2 * erfc(-x/sqrt 2). PyTorch writes x/2 * (1 + erf(x/sqrt 2)), which is the same
// function but cancels for negative x (1 + erf is 0.05 at x = -2); erfc keeps the relative
// accuracy. In the negative tail gelu's condition number is about 1 + x^2, so the rounding of
// the argument -x/sqrt 2 alone would cost x^2/2 ulps; that rounding (of the product, and of the
// constant 1/sqrt 2 itself) is carried as dz and applied to first order:
// erfc(z + dz) = erfc(z) - dz * 2/sqrt(pi) * e^(-z^2). The oracle's argument needs no correction.
// The limit at -inf is (-)0, where the product form would give -inf * 0 = NaN.
template <typename T>
FUNCSPEC_HOST_DEVICE T gelu(const T& x) {
  if (math::isnan(x)) return x;
  if (math::isinf(x)) return x > T(0) ? x : negative_zero<T>();
  if constexpr (is_oracle_v<T>) {
    return x / T(2) * elementwise_math::erfc(-x / math::sqrt(T(2)));
  } else {
    const T sqrt_half = GeluConstants<T>::sqrt_half;
    const T sqrt_half_tail = GeluConstants<T>::sqrt_half_tail;
    const T two_over_sqrt_pi = GeluConstants<T>::two_over_sqrt_pi;
    const T z = -x * sqrt_half;
    const T dz = std::fma(-x, sqrt_half, -z) - x * sqrt_half_tail;
    const T erfc_z = elementwise_math::erfc(z) - dz * two_over_sqrt_pi * math::exp(-z * z);
    return x / T(2) * erfc_z;
  }
}

// The tanh approximation x/2 * (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as
// x * sigmoid(2u) (the same function: 1 + tanh(u) = 2 sigmoid(2u)) so that it does not cancel for
// negative x. The constants are rounded once from the oracle (0.044715 is the definition's
// decimal, exact only in the oracle). In the negative tail the condition number of sigmoid(2u)
// with respect to u is |2u| (about 11 at x = -4), and it multiplies the few roundings of u; that,
// not the evaluation, is what the stated tolerance of this op covers.
template <typename T>
FUNCSPEC_HOST_DEVICE T gelu_tanh(const T& x) {
  if (math::isinf(x) && x < T(0)) return negative_zero<T>();
  T scale, cubic_scale;
  if constexpr (is_oracle_v<T>) {
    scale = math::sqrt(2 / math::pi<T>());
    cubic_scale = scale * T("0.044715");
  } else {
    scale = GeluConstants<T>::tanh_scale;
    cubic_scale = GeluConstants<T>::tanh_cubic_scale;
  }
  const T u = scale * x + cubic_scale * (x * x * x);
  return x * elementwise_math::sigmoid(T(2) * u);
}

// PyTorch's definition: x where beta * x exceeds the threshold (log1p(exp(y)) = y to working
// precision there), else log1p(exp(beta x)) / beta.
template <typename T>
FUNCSPEC_HOST_DEVICE T softplus(const T& x, const T& beta, const T& threshold) {
  const T scaled = x * beta;
  if (scaled > threshold) return x;
  return elementwise_math::log1p(math::exp(scaled)) / beta;
}

// -x log x, PyTorch's special_entr: NaN stays NaN, 0 at 0 (the limit), -inf for negative x.
template <typename T>
FUNCSPEC_HOST_DEVICE T special_entr(const T& x) {
  if (math::isnan(x)) return x;
  if (x > T(0)) return -x * math::log(x);
  if (x == T(0)) return T(0);
  return -math::infinity<T>();
}

// --- inverse trigonometric and hyperbolic functions, base-2 and base-10 exp and log, erfc, frac and
// trunc (docs/ops/unary.md). float and double call the C library (CUDA's device library on the
// GPU); the oracle calls Boost.Multiprecision and Boost.Math after settling the inputs where Boost
// would raise (NaN, infinities, outside the domain, the poles), as IEEE does.

template <typename T>
FUNCSPEC_HOST_DEVICE T asin(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x > T(1) || x < T(-1)) return math::quiet_nan<T>();
    return boost::multiprecision::asin(x);
  } else {
    return std::asin(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T acos(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x > T(1) || x < T(-1)) return math::quiet_nan<T>();
    return boost::multiprecision::acos(x);
  } else {
    return std::acos(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T atan(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x)) return x;
    if (math::isinf(x)) return x > T(0) ? math::pi<T>() / 2 : -math::pi<T>() / 2;
    return boost::multiprecision::atan(x);
  } else {
    return std::atan(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T sinh(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || math::isinf(x)) return x;
    return boost::multiprecision::sinh(x);
  } else {
    return std::sinh(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T cosh(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x)) return x;
    if (math::isinf(x)) return math::infinity<T>();
    return boost::multiprecision::cosh(x);
  } else {
    return std::cosh(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T asinh(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || math::isinf(x)) return x;
    return boost::math::asinh(x);
  } else {
    return std::asinh(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T acosh(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x < T(1)) return math::quiet_nan<T>();
    if (math::isinf(x)) return x;
    return boost::math::acosh(x);
  } else {
    return std::acosh(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T atanh(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x > T(1) || x < T(-1)) return math::quiet_nan<T>();
    if (x == T(1)) return math::infinity<T>();
    if (x == T(-1)) return -math::infinity<T>();
    return boost::math::atanh(x);
  } else {
    return std::atanh(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T exp2(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x)) return x;
    if (math::isinf(x)) return x > T(0) ? x : T(0);
    return boost::multiprecision::pow(T(2), x);
  } else {
    return std::exp2(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T log2(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x < T(0)) return math::quiet_nan<T>();
    if (x == T(0)) return -math::infinity<T>();
    if (math::isinf(x)) return x;
    return boost::multiprecision::log(x) / boost::multiprecision::log(T(2));
  } else {
    return std::log2(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T log10(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x) || x < T(0)) return math::quiet_nan<T>();
    if (x == T(0)) return -math::infinity<T>();
    if (math::isinf(x)) return x;
    return boost::multiprecision::log10(x);
  } else {
    return std::log10(x);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T erfc_value(const T& x) {
  if constexpr (is_oracle_v<T>) {
    if (math::isnan(x)) return x;
    if (math::isinf(x)) return x > T(0) ? T(0) : T(2);
  }
  return elementwise_math::erfc(x);
}

// self - trunc(self), PyTorch's: NaN for infinities (inf - inf).
template <typename T>
FUNCSPEC_HOST_DEVICE T frac(const T& x) {
  return x - elementwise_math::trunc(x);
}

// trunc is the identity on integers.
template <typename T>
FUNCSPEC_HOST_DEVICE T trunc_value(const T& x) {
  if constexpr (is_floating_v<T>)
    return elementwise_math::trunc(x);
  else
    return x;
}

}  // namespace funcspec::common::elementwise_math
