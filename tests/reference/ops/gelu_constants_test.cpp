// The gelu constants are literals (so device code can use them); each must be its exact value
// rounded once to the dtype, as the oracle computes it.
#include <gtest/gtest.h>

#include "reference/backends/common/unary_math.h"

namespace funcspec::gelu_constants_test {

template <typename T>
void expect_rounded_from_the_oracle() {
  using C = common::elementwise_math::GeluConstants<T>;
  const oracle_t sqrt_half = boost::multiprecision::sqrt(oracle_t(0.5));
  const oracle_t pi = boost::math::constants::pi<oracle_t>();
  const oracle_t tanh_scale = boost::multiprecision::sqrt(2 / pi);
  EXPECT_EQ(C::sqrt_half, static_cast<T>(sqrt_half));
  EXPECT_EQ(C::sqrt_half_tail, static_cast<T>(sqrt_half - oracle_t(C::sqrt_half)));
  EXPECT_EQ(C::two_over_sqrt_pi, static_cast<T>(2 / boost::multiprecision::sqrt(pi)));
  EXPECT_EQ(C::tanh_scale, static_cast<T>(tanh_scale));
  EXPECT_EQ(C::tanh_cubic_scale, static_cast<T>(tanh_scale * oracle_t("0.044715")));
}

TEST(GeluConstants, Float32LiteralsAreTheExactValuesRoundedOnce) { expect_rounded_from_the_oracle<float>(); }
TEST(GeluConstants, Float64LiteralsAreTheExactValuesRoundedOnce) { expect_rounded_from_the_oracle<double>(); }

}  // namespace funcspec::gelu_constants_test
