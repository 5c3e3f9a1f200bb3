#pragma once
// Scalar math for kernels templated on the element type. float and double use the C library; the
// oracle dtype uses Boost.Multiprecision / Boost.Math at its full precision, so a kernel written
// once computes its ground truth too.
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <cmath>
#include <limits>

#include "reference/core/dtype.h"
#include "reference/core/host_device.h"

namespace funcspec::common::math {

#define FUNCSPEC_UNARY_MATH(name)            \
  template <typename T>                      \
  FUNCSPEC_HOST_DEVICE T name(const T& x) {  \
    if constexpr (is_oracle_v<T>)            \
      return boost::multiprecision::name(x); \
    else                                     \
      return std::name(x);                   \
  }
FUNCSPEC_UNARY_MATH(exp)
FUNCSPEC_UNARY_MATH(log)
FUNCSPEC_UNARY_MATH(sqrt)
FUNCSPEC_UNARY_MATH(sin)
FUNCSPEC_UNARY_MATH(cos)
FUNCSPEC_UNARY_MATH(tan)
FUNCSPEC_UNARY_MATH(tanh)
FUNCSPEC_UNARY_MATH(floor)
FUNCSPEC_UNARY_MATH(ceil)
FUNCSPEC_UNARY_MATH(abs)
#undef FUNCSPEC_UNARY_MATH

template <typename T>
FUNCSPEC_HOST_DEVICE T expm1(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::math::expm1(x);
  else
    return std::expm1(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T log1p(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::math::log1p(x);
  else
    return std::log1p(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T erf(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::math::erf(x);
  else
    return std::erf(x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T pow(const T& x, const T& y) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::pow(x, y);
  else
    return std::pow(x, y);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T atan2(const T& y, const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::atan2(y, x);
  else
    return std::atan2(y, x);
}

template <typename T>
FUNCSPEC_HOST_DEVICE T fmod(const T& x, const T& y) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::fmod(x, y);
  else
    return std::fmod(x, y);
}

template <typename T>
FUNCSPEC_HOST_DEVICE bool isnan(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::isnan(x);
  else if constexpr (std::is_floating_point_v<T>)
    return std::isnan(x);
  else
    return false;
}

template <typename T>
FUNCSPEC_HOST_DEVICE bool isinf(const T& x) {
  if constexpr (is_oracle_v<T>)
    return boost::multiprecision::isinf(x);
  else if constexpr (std::is_floating_point_v<T>)
    return std::isinf(x);
  else
    return false;
}

template <typename T>
FUNCSPEC_HOST_DEVICE T quiet_nan() {
  return std::numeric_limits<T>::quiet_NaN();
}

template <typename T>
FUNCSPEC_HOST_DEVICE T infinity() {
  return std::numeric_limits<T>::infinity();
}

// Round half to even, the rounding of torch.round (and of the default IEEE rounding mode).
template <typename T>
FUNCSPEC_HOST_DEVICE T round_half_even(const T& x) {
  if constexpr (is_oracle_v<T>) {
    T r = boost::multiprecision::floor(x + T(0.5));
    if (r - x == T(0.5) && boost::multiprecision::fmod(r, T(2)) != 0) r -= 1;
    return r;
  } else {
    return std::nearbyint(x);
  }
}

// pi to the precision of T.
template <typename T>
FUNCSPEC_HOST_DEVICE T pi() {
  if constexpr (is_oracle_v<T>)
    return boost::math::constants::pi<T>();
  else
    return static_cast<T>(3.14159265358979323846264338327950288L);
}

}  // namespace funcspec::common::math
