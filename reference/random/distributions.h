#pragma once
// NOTE: [portable distributions]
// How one Philox block (NOTE: [random streams]) becomes one value of a distribution, defined so
// that every backend (the reference's cpu and CUDA backends, and any other) produces the same bits.
// Everything here is host+device code built only from integer operations and from floating
// operations that IEEE 754 requires to be correctly rounded on every device: + - * / sqrt, explicit
// fma, and conversions between integers and doubles (round to nearest). No libm call appears: log
// and cos are written out below as range reductions and polynomials evaluated with explicit fma,
// because libm results differ between platforms in the last bit. A CUDA build must compile this
// header with contraction off (`--fmad=false`) or keep the explicit fma form, so no a*b+c is fused
// differently on the device.
//
// Bits used by each value (U(a,b) = the 64-bit integer (words[a] << 32) | words[b]):
//   uniform float32    top 24 bits of word 0, times 2^-24                     (in [0, 1))
//   uniform float64    top 53 bits of U(0,1), times 2^-53                     (in [0, 1))
//   uniform oracle     U(0,1) times 2^-64, exactly                            (in [0, 1))
//   so each narrower uniform is the wider one truncated.
//   normal float64     Box-Muller: sqrt(-2 log(u1)) * cos(2 pi u2) with
//                        u1 = double(U(0,1)) * 2^-64 + 2^-65   (in (0, 1]: never log(0))
//                        u2 = U(2,3) * 2^-64 turns, reduced to a quarter turn in integer arithmetic
//                      and the portable log/cos below (each within 2 ulps of the true value).
//   normal float32     the float64 normal rounded to float32.
//   normal oracle      the same formula at oracle precision on u1 = (U(0,1) + 1/2) * 2^-64 and
//                      u2 = U(2,3) * 2^-64 (cpu only; backends/common/random_draws.h).
//   bernoulli(p)       1 when U(0,1) * 2^-64 < p, decided exactly (the same for every dtype of p).
//   randint(lo, hi)    lo + U(0,1) mod (hi - lo). The modulo bias: with n = hi - lo, each value has
//                      probability floor(2^64/n)/2^64 or ceil(2^64/n)/2^64, which differ from 1/n
//                      by less than 2^-64, a relative bias below n * 2^-64 (< 5.5e-11 for n < 1e9).
//   exponential        -log(u1) with u1 and the portable log as for the normal when u1 <= 1/2, else
//                      -log1p(-v) with v = open_unit_interval(~U(0,1)) = 1 - u1 (Goldberg's form,
//                      see exponential_float64); for multinomial's race and the exponential op;
//                      float32 = the float64 one rounded; oracle = -log((U(0,1) + 1/2) * 2^-64) at
//                      oracle precision.
#include <cstdint>
#include <cstring>

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#include "reference/random/philox.h"

namespace funcspec::random {

FUNCSPEC_HOST_DEVICE inline std::uint64_t word_pair(const PhiloxBlock& block, int high) {
  return (static_cast<std::uint64_t>(block[high]) << 32) | block[high + 1];
}

FUNCSPEC_HOST_DEVICE inline double fused_multiply_add(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

FUNCSPEC_HOST_DEVICE inline double square_root(double x) {
#if defined(__CUDA_ARCH__)
  return ::sqrt(x);
#else
  return std::sqrt(x);
#endif
}

FUNCSPEC_HOST_DEVICE inline float uniform_float32(const PhiloxBlock& block) {
  return static_cast<float>(block[0] >> 8) * 0x1p-24f;
}

FUNCSPEC_HOST_DEVICE inline double uniform_float64(const PhiloxBlock& block) {
  return static_cast<double>(word_pair(block, 0) >> 11) * 0x1p-53;
}

// A uniform in (0, 1] with full relative precision near 0, for logarithms: the 64-bit integer is
// rounded once to a double and scaled exactly; the half step keeps it away from 0.
FUNCSPEC_HOST_DEVICE inline double open_unit_interval(std::uint64_t bits) {
  return static_cast<double>(bits) * 0x1p-64 + 0x1p-65;
}

namespace detail {

FUNCSPEC_HOST_DEVICE constexpr double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

// The series coefficients are local constexpr arrays of the functions that use them: device code
// cannot read a namespace-scope array (that lives in host memory). Every factorial up to 20! is
// exact in double, so each coefficient is one correctly rounded division, the same whichever
// compiler (g++ or nvcc) evaluates it.

// Horner's rule with explicit fma, highest coefficient last in the array.
template <int N>
FUNCSPEC_HOST_DEVICE inline double horner(const double (&coefficients)[N], double t) {
  double p = coefficients[N - 1];
  for (int k = N - 2; k >= 0; --k) p = fused_multiply_add(p, t, coefficients[k]);
  return p;
}

// sin and cos of |x| <= pi/4; the series tails are below 2^-60 relative there.
FUNCSPEC_HOST_DEVICE inline double sine_kernel(double x) {
  // 1/(2k+1)! with alternating sign, k = 1..9: the sine series after its leading x.
  constexpr double kSineCoefficients[9] = {-1.0 / factorial(3),  1.0 / factorial(5),   -1.0 / factorial(7),
                                           1.0 / factorial(9),   -1.0 / factorial(11), 1.0 / factorial(13),
                                           -1.0 / factorial(15), 1.0 / factorial(17),  -1.0 / factorial(19)};
  const double x2 = x * x;
  return fused_multiply_add(x * x2, horner(kSineCoefficients, x2), x);
}

FUNCSPEC_HOST_DEVICE inline double cosine_kernel(double x) {
  // (-1)^k/(2k)!, k = 1..10: the cosine series after its leading 1.
  constexpr double kCosineCoefficients[10] = {
      -1.0 / factorial(2), 1.0 / factorial(4),   -1.0 / factorial(6), 1.0 / factorial(8),   -1.0 / factorial(10),
      1.0 / factorial(12), -1.0 / factorial(14), 1.0 / factorial(16), -1.0 / factorial(18), 1.0 / factorial(20)};
  const double x2 = x * x;
  return fused_multiply_add(x2, horner(kCosineCoefficients, x2), 1.0);
}

FUNCSPEC_HOST_DEVICE inline std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

FUNCSPEC_HOST_DEVICE inline double double_of(std::uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace detail

// Natural log of a positive normal double. x = m * 2^e with m in [sqrt(1/2), sqrt(2)), read from
// the bits exactly; log(m) = 2 atanh((m-1)/(m+1)) by its series (|s| < 0.172, 12 terms); e*log(2)
// in two parts (Cody-Waite) so that e*ln2_hi is exact.
FUNCSPEC_HOST_DEVICE inline double portable_log(double x) {
  constexpr double kLn2High = 0x1.62e42feep-1;       // 6.93147180369123816490e-01, low 32 bits zero
  constexpr double kLn2Low = 0x1.a39ef35793c76p-33;  // ln 2 - kLn2High
  constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;
  const std::uint64_t bits = detail::bits_of(x);
  int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  // The significand scaled into [1/2, 1): exponent field of 2^-1.
  double m = detail::double_of((bits & 0x000fffffffffffffull) | (std::uint64_t{1022} << 52));
  exponent += 1;
  if (m < kSqrtHalf) {
    m = m * 2.0;
    exponent -= 1;
  }
  // 2/(2k+1), k = 1..11: 2 atanh(s) = 2s + s^3 * (2/3 + s^2 (2/5 + ...)).
  constexpr double kAtanhCoefficients[11] = {2.0 / 3,  2.0 / 5,  2.0 / 7,  2.0 / 9,  2.0 / 11, 2.0 / 13,
                                             2.0 / 15, 2.0 / 17, 2.0 / 19, 2.0 / 21, 2.0 / 23};
  const double s = (m - 1.0) / (m + 1.0);  // m - 1 is exact (Sterbenz)
  const double s2 = s * s;
  const double log_m = fused_multiply_add(s * s2, detail::horner(kAtanhCoefficients, s2), 2.0 * s);
  const double e = static_cast<double>(exponent);
  return fused_multiply_add(e, kLn2High, fused_multiply_add(e, kLn2Low, log_m));
}

// cos(2 pi t) for t = turns * 2^-64. The nearest quarter turn k is taken from the integer (exact),
// leaving a remainder r in [-1/8, 1/8) turn, so only |x| = |2 pi r| <= pi/4 reaches the series.
FUNCSPEC_HOST_DEVICE inline double portable_cos_turns(std::uint64_t turns) {
  constexpr double kTwoPiPerUnit = 6.283185307179586476925286766559 * 0x1p-64;
  const std::uint64_t shifted = turns + (std::uint64_t{1} << 61);
  const unsigned quarter = static_cast<unsigned>(shifted >> 62);
  const std::int64_t remainder =
      static_cast<std::int64_t>(shifted & ((std::uint64_t{1} << 62) - 1)) - (std::int64_t{1} << 61);
  const double x = static_cast<double>(remainder) * kTwoPiPerUnit;
  switch (quarter) {
    case 0: return detail::cosine_kernel(x);
    case 1: return -detail::sine_kernel(x);
    case 2: return -detail::cosine_kernel(x);
    default: return detail::sine_kernel(x);
  }
}

FUNCSPEC_HOST_DEVICE inline double normal_float64(const PhiloxBlock& block) {
  const double u1 = open_unit_interval(word_pair(block, 0));
  const double radius = square_root(-2.0 * portable_log(u1));
  return radius * portable_cos_turns(word_pair(block, 2));
}

FUNCSPEC_HOST_DEVICE inline float normal_float32(const PhiloxBlock& block) {
  return static_cast<float>(normal_float64(block));
}

// A standard exponential draw, -log(u1), for the exponential race of multinomial without
// replacement and for the exponential op, within a few ulps of the oracle's relatively. Above 1/2,
// rounding u1 is an absolute error of up to 2^-54, which is large against -log(u1) ~ 1 - u1 (and
// gumbel_softmax takes the log of the draw), so there the draw uses v = 1 - u1, which the
// complemented bits give exactly before one rounding, and -log1p(-v) in Goldberg's form
// log(w) v / (w - 1) with w = 1 - v rounded (w - 1 is exact).
FUNCSPEC_HOST_DEVICE inline double exponential_float64(const PhiloxBlock& block) {
  const std::uint64_t bits = word_pair(block, 0);
  const double u1 = open_unit_interval(bits);
  if (u1 <= 0.5) return -portable_log(u1);
  const double v = open_unit_interval(~bits);
  const double w = 1.0 - v;
  if (w == 1.0) return v;  // v < 2^-53: -log1p(-v) = v to double precision
  return portable_log(w) * v / (w - 1.0);
}

FUNCSPEC_HOST_DEVICE inline float exponential_float32(const PhiloxBlock& block) {
  return static_cast<float>(exponential_float64(block));
}

// lo + U(0,1) mod (hi - lo), for lo < hi; wraps through uint64 so any int64 range works.
FUNCSPEC_HOST_DEVICE inline std::int64_t randint_value(const PhiloxBlock& block, std::int64_t low, std::int64_t high) {
  const std::uint64_t range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + word_pair(block, 0) % range);
}

// Whether U(0,1) * 2^-64 < p, for p in [0, 1], exactly: U < p * 2^64 (an exact scaling) holds for
// an integer U exactly when U < ceil(p * 2^64).
FUNCSPEC_HOST_DEVICE inline bool bernoulli_from_double(const PhiloxBlock& block, double p) {
  const double scaled = p * 0x1p64;
  if (!(scaled < 0x1p64)) return true;
#if defined(__CUDA_ARCH__)
  const double threshold = ::ceil(scaled);
#else
  const double threshold = std::ceil(scaled);
#endif
  return word_pair(block, 0) < static_cast<std::uint64_t>(threshold);
}

}  // namespace funcspec::random
