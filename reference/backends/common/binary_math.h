#pragma once
// Scalar functions of the binary elementwise ops, templated on the element type (see
// unary_math.h for the conventions). Integer functions whose divisor may be zero or whose exponent
// may be negative assume the kernel has rejected those values already.
#include <cstdint>

#include "reference/backends/common/unary_math.h"

namespace funcspec::common::elementwise_math {

// IEEE fmod, atan2 and pow. Boost's versions differ on special values: fmod(0, 0) and fmod(0, NaN)
// give 0 and fmod(x, inf) NaN; atan2(y, NaN) is not NaN; pow(-inf, NaN) is inf. The IEEE cases
// are settled here so that the oracle agrees with the C library. (Calls inside this namespace are
// qualified: unqualified, argument-dependent lookup would pick Boost's overloads for the oracle.)
template <typename T>
FUNCSPEC_HOST_DEVICE T fmod(const T& x, const T& y) {
  if (math::isnan(x) || math::isnan(y) || math::isinf(x) || y == T(0)) return math::quiet_nan<T>();
  if (math::isinf(y)) return x;
  return math::fmod(x, y);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T atan2(const T& y, const T& x) {
  if (math::isnan(x) || math::isnan(y)) return math::quiet_nan<T>();
  return math::atan2(y, x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T float_pow(const T& x, const T& y) {
  if (y == T(0) || x == T(1)) return T(1);
  if (math::isnan(x) || math::isnan(y)) return math::quiet_nan<T>();
  return math::pow(x, y);
}

// The oracle's x + y given its computed `sum` with IEEE's sign of a zero sum (round to nearest):
// -0 only for (-0) + (-0), +0 for an exact cancellation. Boost.Multiprecision's cpp_bin_float can
// give -0 for 1 - 1 * 1, which the float types give as +0; a derivative 1/(1 - x) at x = 1 would
// then be -inf in the oracle and +inf in float64.
template <typename T>
T oracle_signed_zero_sum(const T& x, const T& y, const T& sum) {
  if (sum != T(0)) return sum;
  const bool both_negative_zeros =
      x == T(0) && y == T(0) && boost::multiprecision::signbit(x) && boost::multiprecision::signbit(y);
  return both_negative_zeros ? -T(0) : T(0);
}

// self +- alpha * other with a single rounding for floating types (fma), so the result is
// correctly rounded; the oracle's working precision makes its two roundings negligible.
template <typename T>
FUNCSPEC_HOST_DEVICE T add(const T& x, const T& y, const T& alpha) {
  if constexpr (is_bool_v<T>)
    return x || (alpha && y);
  else if constexpr (is_int64_v<T>)
    return wrapping_add(x, wrapping_mul(alpha, y));
  else if constexpr (is_oracle_v<T>)
    return oracle_signed_zero_sum(x, alpha * y, x + alpha * y);
  else
    return std::fma(alpha, y, x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T sub(const T& x, const T& y, const T& alpha) {
  if constexpr (is_int64_v<T>)
    return wrapping_sub(x, wrapping_mul(alpha, y));
  else if constexpr (is_oracle_v<T>)
    return oracle_signed_zero_sum(x, -(alpha * y), x - alpha * y);
  else
    return std::fma(-alpha, y, x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T mul(const T& x, const T& y) {
  if constexpr (is_bool_v<T>)
    return x && y;
  else if constexpr (is_int64_v<T>)
    return wrapping_mul(x, y);
  else
    return x * y;
}

// Division rounded toward zero. Integers: C++ division, INT64_MIN / -1 wrapping to INT64_MIN.
// Floats: the truncation of the exact quotient, found as (x - elementwise_math::fmod(x, y)) / y, which is within a
// rounding of an integer; PyTorch truncates the rounded quotient x / y instead, which differs when
// that rounding crosses an integer.
template <typename T>
FUNCSPEC_HOST_DEVICE T div_trunc(const T& x, const T& y) {
  if constexpr (is_int64_v<T>) {
    return y == -1 ? wrapping_neg(x) : x / y;
  } else {
    if (y == T(0) || math::isinf(x) || math::isinf(y) || math::isnan(x) || math::isnan(y))
      return elementwise_math::trunc(x / y);
    const T quotient = math::round_half_even((x - elementwise_math::fmod(x, y)) / y);
    if (quotient == T(0)) return (x < T(0)) != (y < T(0)) ? negative_zero<T>() : T(0);
    return quotient;
  }
}

// Division rounded toward -inf, Python's //. Floats follow PyTorch (and CPython): the truncated
// quotient from fmod, stepped down when the remainder and the divisor differ in sign.
template <typename T>
FUNCSPEC_HOST_DEVICE T div_floor(const T& x, const T& y) {
  if constexpr (is_int64_v<T>) {
    if (y == -1) return wrapping_neg(x);
    const T quotient = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? quotient - 1 : quotient;
  } else {
    if (y == T(0)) return x / y;
    const T mod = elementwise_math::fmod(x, y);
    T quotient = (x - mod) / y;
    if (mod != T(0) && (y < T(0)) != (mod < T(0))) quotient -= T(1);
    if (quotient == T(0)) return (x < T(0)) != (y < T(0)) ? negative_zero<T>() : T(0);
    T floored = math::floor(quotient);
    if (quotient - floored > T(0.5)) floored += T(1);
    return floored;
  }
}

// Python's %: the result has the sign of the divisor. Floats: fmod (exact) plus at most one
// addition of y, so the result is correctly rounded; a zero divisor gives NaN.
template <typename T>
FUNCSPEC_HOST_DEVICE T remainder(const T& x, const T& y) {
  if constexpr (is_int64_v<T>) {
    if (y == -1) return 0;
    const T r = x % y;
    return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
  } else {
    const T r = elementwise_math::fmod(x, y);
    return (r != T(0) && ((r < T(0)) != (y < T(0)))) ? r + y : r;
  }
}

// Integer power by squaring, wrapping on overflow; the exponent is >= 0.
FUNCSPEC_HOST_DEVICE inline std::int64_t int_pow(std::int64_t base, std::int64_t exponent) {
  std::int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = wrapping_mul(result, base);
    base = wrapping_mul(base, base);
    exponent >>= 1;
  }
  return result;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T pow(const T& x, const T& y) {
  if constexpr (is_int64_v<T>)
    return int_pow(x, y);
  else
    return float_pow(x, y);
}

// maximum/minimum propagate NaN from either side; on bool they are `or` / `and`.
template <typename T>
FUNCSPEC_HOST_DEVICE T maximum(const T& x, const T& y) {
  if constexpr (is_bool_v<T>) {
    return x || y;
  } else {
    if (math::isnan(x)) return x;
    if (math::isnan(y)) return y;
    return x < y ? y : x;
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE T minimum(const T& x, const T& y) {
  if constexpr (is_bool_v<T>) {
    return x && y;
  } else {
    if (math::isnan(x)) return x;
    if (math::isnan(y)) return y;
    return y < x ? y : x;
  }
}

// clamp: x limited to [*low, *high], either bound absent (nullptr); NaN in any operand gives NaN.
template <typename T>
FUNCSPEC_HOST_DEVICE T clamp_value(const T& x, const T* low, const T* high) {
  if (math::isnan(x)) return x;
  if (low != nullptr && math::isnan(*low)) return *low;
  if (high != nullptr && math::isnan(*high)) return *high;
  T result = x;
  if (low != nullptr && result < *low) result = *low;
  // Applied last, so that low > high gives high, as PyTorch's min(max(x, low), high) does.
  if (high != nullptr && *high < result) result = *high;
  return result;
}

// --- the special-function family (docs/ops/special.md).

// x * log(y), PyTorch's: NaN where y is NaN, else 0 where x is 0 (whatever y is: 0 * log 0 and
// 0 * log(-1) are 0), else the product.
template <typename T>
FUNCSPEC_HOST_DEVICE T xlogy(const T& x, const T& y) {
  if (math::isnan(y)) return y;
  if (x == T(0)) return T(0);
  return x * math::log(y);
}

// x * log1p(y), the same way.
template <typename T>
FUNCSPEC_HOST_DEVICE T xlog1py(const T& x, const T& y) {
  if (math::isnan(y)) return y;
  if (x == T(0)) return T(0);
  return x * elementwise_math::log1p(y);
}

// sqrt(x^2 + y^2) without intermediate overflow; an infinity wins over NaN (IEEE, C99). The oracle's
// exponent range holds the squares of every float64.
template <typename T>
FUNCSPEC_HOST_DEVICE T hypot(const T& x, const T& y) {
  if (math::isinf(x) || math::isinf(y)) return math::infinity<T>();
  if (math::isnan(x) || math::isnan(y)) return math::quiet_nan<T>();
  if constexpr (is_oracle_v<T>)
    return math::sqrt(x * x + y * y);
  else
    return std::hypot(x, y);
}

// |x| with the sign bit of y (-0 and NaNs with their sign bit set count as negative).
template <typename T>
FUNCSPEC_HOST_DEVICE T copysign(const T& x, const T& y) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::signbit(y) ? -math::abs(x) : math::abs(x);
  else
    return std::copysign(x, y);
}

// log(exp(x) + exp(y)) as PyTorch computes it: max + log1p(exp(-|x - y|)), which neither overflows
// nor loses the smaller term; equal infinities give themselves (their difference would be NaN), and
// NaN propagates (SPEC OPS-23.9).
template <typename T>
FUNCSPEC_HOST_DEVICE T logaddexp(const T& x, const T& y) {
  if (math::isnan(x) || math::isnan(y)) return math::quiet_nan<T>();
  const T m = x < y ? y : x;
  if (math::isinf(x) || math::isinf(y)) return m;  // equal infinities give themselves, not inf - inf
  return m + math::log1p(math::exp(-math::abs(x - y)));
}

// log2(2^x + 2^y), the same way: max + log1p(2^-|x - y|) / log(2).
template <typename T>
FUNCSPEC_HOST_DEVICE T logaddexp2(const T& x, const T& y) {
  if (math::isnan(x) || math::isnan(y)) return math::quiet_nan<T>();
  const T m = x < y ? y : x;
  if (math::isinf(x) || math::isinf(y)) return m;
  return m + math::log1p(math::pow(T(2), -math::abs(x - y))) / math::log(T(2));
}

}  // namespace funcspec::common::elementwise_math
