// The derivative tolerance sees small values (docs/conformance.md, "Derivative tolerances"): a
// tiny derivative computed as 0 fails, honest relative rounding passes, and the bound of ordinary
// derivatives is the table's as before.
#include "conformance/suite/derivative_tolerance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace funcspec::conformance::ad {
namespace {

Tensor values_of(const std::vector<double>& v) {
  return from_vector(v, {static_cast<std::int64_t>(v.size())}, DType::Float64);
}

// The judge's rule for one element (Tolerance in conformance/case/case.h); the derivative
// tolerances set no ulps.
bool passes(const Tolerance& t, double expected, double got) {
  EXPECT_EQ(t.ulps, 0);
  return std::abs(got - expected) <= t.atol + t.rtol * std::abs(expected);
}

const double tanh_slope_at_half = 0.7864477329659274;    // 1 - tanh(0.5)^2
const double tanh_slope_at_20 = 1.6993417021166355e-17;  // 1 - tanh(20)^2 = sech(20)^2

TEST(DerivativeTolerance, ASaturatedDerivativeComputedAsZeroFails) {
  const Tolerance saturated = derivative_tolerance("jvp_fd", "tanh", DType::Float64,
                                                   values_of({tanh_slope_at_20, tanh_slope_at_20 / 2}), false);
  EXPECT_FALSE(passes(saturated, tanh_slope_at_20, 0.0));
  EXPECT_FALSE(passes(saturated, tanh_slope_at_20, 4e-18));
  // Mixed with an ordinary slope, at a special point of tanh.
  const Tolerance t =
      derivative_tolerance("jvp_fd", "tanh", DType::Float64, values_of({tanh_slope_at_half, tanh_slope_at_20}), true);
  EXPECT_TRUE(passes(t, tanh_slope_at_half, tanh_slope_at_half));
  EXPECT_FALSE(passes(t, tanh_slope_at_20, 0.0));
  EXPECT_FALSE(passes(t, tanh_slope_at_20, 4e-18));
}

TEST(DerivativeTolerance, HonestRoundingOfSmallDerivativesPasses) {
  const Tolerance t =
      derivative_tolerance("jvp_fd", "tanh", DType::Float64, values_of({tanh_slope_at_half, tanh_slope_at_20}), true);
  const double eps = 2.220446049250313e-16;
  EXPECT_TRUE(passes(t, tanh_slope_at_half, tanh_slope_at_half * (1 + 8 * eps)));
  EXPECT_TRUE(passes(t, tanh_slope_at_20, tanh_slope_at_20 * (1 + 8 * eps)));
  EXPECT_TRUE(passes(t, tanh_slope_at_20, tanh_slope_at_20 * (1 - 8 * eps)));
}

TEST(DerivativeTolerance, BelowTheOraclesNoiseADerivativeIsNotToldFromZero) {
  // Finite differences leave ~1e-40 where the truth is 0 (a product with two zero factors), so
  // 1e-40 beside elements of size 1 counts as zero, at a special point too.
  const Tolerance t = derivative_tolerance("jvp_fd", "prod", DType::Float64, values_of({1.0, 1.3e-40}), true);
  EXPECT_DOUBLE_EQ(t.atol, 1e-9);  // prod's entry of the table, unscaled
  EXPECT_TRUE(passes(t, 1.3e-40, 0.0));
}

TEST(DerivativeTolerance, AtASpecialPointTheBoundIsRelative) {
  const double sigmoid_slope_at_minus_10 = 4.5395807735907655e-05;
  const Tensor expected = values_of({sigmoid_slope_at_minus_10});
  const double off_by_1e12 = sigmoid_slope_at_minus_10 + 1e-12;  // relative error 2e-8
  EXPECT_FALSE(passes(derivative_tolerance("jvp_fd", "sigmoid", DType::Float64, expected, true),
                      sigmoid_slope_at_minus_10, off_by_1e12));
  // Away from a special point the absolute bound of 1e-10 admits it, as before.
  EXPECT_TRUE(passes(derivative_tolerance("jvp_fd", "sigmoid", DType::Float64, expected, false),
                     sigmoid_slope_at_minus_10, off_by_1e12));
}

TEST(DerivativeTolerance, OrdinaryDerivativesKeepTheScaledAbsoluteBound) {
  // A derivative that is zero by cancellation of terms of size 3 may come out as rounding noise.
  const Tolerance t = derivative_tolerance("jacobian", "matmul", DType::Float64, values_of({3.0, 0.0, -2.5}), false);
  EXPECT_DOUBLE_EQ(t.atol, 1e-10 * 3.0);
  EXPECT_EQ(t.ulps, 0);
  EXPECT_TRUE(passes(t, 0.0, 4e-16));
}

TEST(DerivativeTolerance, AwayFromASpecialPointAMixedTensorKeepsTheOrdinaryBound) {
  // A float32 second derivative: ordinary elements that cancel, beside a tiny one.
  const Tolerance t =
      derivative_tolerance("hessian", "logsumexp", DType::Float32, values_of({0.25, 4.297e-5, 7e-23}), false);
  EXPECT_DOUBLE_EQ(t.atol, 1e-3);
  EXPECT_TRUE(passes(t, 4.297e-5, 4.2915e-5));
}

TEST(DerivativeTolerance, TheOraclesNoiseAroundAnExactZeroIsZero) {
  const Tolerance t = derivative_tolerance("jacobian", "matmul", DType::Float64, values_of({2.0, 1e-49}), false);
  EXPECT_TRUE(passes(t, 1e-49, 4e-16));
}

}  // namespace
}  // namespace funcspec::conformance::ad
