#include <gtest/gtest.h>

#include <cmath>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/oracle.h"
#include "reference/random/distributions.h"
#include "reference/random/generator.h"

namespace funcspec::random {
namespace {

// Random123's known-answer vectors (kat_vectors, "philox4x32 10" lines): counter words c0..c3,
// key words k0, k1, expected words. philox4x32_10 takes the counter as (c1:c0, c3:c2) and the
// key as k1:k0.
struct KnownAnswer {
  std::uint32_t counter[4];
  std::uint32_t key[2];
  std::uint32_t expected[4];
};

PhiloxBlock run(const KnownAnswer& kat) {
  const std::uint64_t counter_lo = (std::uint64_t{kat.counter[1]} << 32) | kat.counter[0];
  const std::uint64_t counter_hi = (std::uint64_t{kat.counter[3]} << 32) | kat.counter[2];
  const std::uint64_t key = (std::uint64_t{kat.key[1]} << 32) | kat.key[0];
  return philox4x32_10(key, counter_lo, counter_hi);
}

void expect_words(const PhiloxBlock& got, const std::uint32_t (&expected)[4]) {
  for (int w = 0; w < 4; ++w) EXPECT_EQ(got[w], expected[w]) << "word " << w;
}

TEST(Philox, KnownAnswerZeroCounterZeroKey) {
  const KnownAnswer kat{{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}};
  expect_words(run(kat), kat.expected);
}

TEST(Philox, KnownAnswerAllOnes) {
  const KnownAnswer kat{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                        {0xffffffff, 0xffffffff},
                        {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}};
  expect_words(run(kat), kat.expected);
}

TEST(Philox, KnownAnswerPiDigits) {
  const KnownAnswer kat{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                        {0xa4093822, 0x299f31d0},
                        {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};
  expect_words(run(kat), kat.expected);
}

TEST(PhiloxStream, BlockIsKeyedBySeedAndCountedFromOffset) {
  const PhiloxStream stream{7, 100};
  const PhiloxBlock a = stream.block(5), b = philox4x32_10(7, 105);
  for (int w = 0; w < 4; ++w) EXPECT_EQ(a[w], b[w]);
}

TEST(PortableDistributions, Float32UniformIsTheTop24BitsOfWordZero) {
  const PhiloxBlock block{{0xffffff80u, 0, 0, 0}};
  EXPECT_EQ(uniform_float32(block), 1.0f - 0x1p-24f);
  const PhiloxBlock half{{0x80000000u, 0xffffffffu, 0, 0}};
  EXPECT_EQ(uniform_float32(half), 0.5f);
}

TEST(PortableDistributions, Float64UniformIsTheTop53BitsOfWordsZeroAndOne) {
  const PhiloxBlock block{{0xffffffffu, 0xfffff800u, 0, 0}};
  EXPECT_EQ(uniform_float64(block), 1.0 - 0x1p-53);
  const PhiloxBlock low_bits_only{{0, 0x7ffu, 0, 0}};  // below the 53 kept bits
  EXPECT_EQ(uniform_float64(low_bits_only), 0.0);
}

TEST(PortableDistributions, OpenUnitIntervalNeverReachesZero) {
  EXPECT_EQ(open_unit_interval(0), 0x1p-65);
  EXPECT_EQ(open_unit_interval(std::uint64_t{1} << 63), 0.5 + 0x1p-65);
  EXPECT_EQ(open_unit_interval(~std::uint64_t{0}), 1.0);  // 2^64 - 1 rounds to 2^64
}

TEST(PortableDistributions, LogOfPowersOfTwoAndOne) {
  EXPECT_EQ(portable_log(1.0), 0.0);
  for (int k = 1; k <= 65; ++k) {
    const double want = -k * 0.693147180559945309417232121458;
    EXPECT_NEAR(portable_log(std::ldexp(1.0, -k)), want, std::abs(want) * 0x1p-52) << "2^-" << k;
  }
}

// The error of a double against the oracle value, in ulps of the oracle value.
double ulps(double got, const oracle_t& want) {
  const double w = want.convert_to<double>();
  if (w == 0) return got == 0 ? 0 : INFINITY;
  const double ulp = std::ldexp(1.0, std::ilogb(w) - 52);
  return boost::multiprecision::abs(oracle_t(got) - want).convert_to<double>() / ulp;
}

TEST(PortableDistributions, LogIsWithinTwoUlpsAcrossTheUnitInterval) {
  double worst = 0;
  std::uint64_t x = 0x0123456789abcdefull;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  // an LCG spreads the points
    const double u = open_unit_interval(x >> (i % 60));       // down to 2^-65
    worst = std::max(worst, ulps(portable_log(u), common::math::log(oracle_t(u))));
  }
  EXPECT_LE(worst, 2.0);
}

TEST(PortableDistributions, CosineOfQuarterTurnsIsExact) {
  EXPECT_EQ(portable_cos_turns(0), 1.0);
  EXPECT_EQ(portable_cos_turns(std::uint64_t{1} << 62), 0.0);  // a quarter turn: -sin(0)
  EXPECT_EQ(portable_cos_turns(std::uint64_t{1} << 63), -1.0);
  EXPECT_EQ(portable_cos_turns(std::uint64_t{3} << 62), 0.0);
}

TEST(PortableDistributions, CosineIsWithinTwoUlpsOfTheOracle) {
  double worst_abs = 0;
  std::uint64_t t = 0x9e3779b97f4a7c15ull;
  const oracle_t two_pi = 2 * common::math::pi<oracle_t>();
  for (int i = 0; i < 20000; ++i) {
    t = t * 6364136223846793005ull + 1442695040888963407ull;
    const oracle_t want = common::math::cos(two_pi * boost::multiprecision::ldexp(oracle_t(t), -64));
    // Relative to max(|cos|, 2^-20): near a zero of cos the oracle's own argument 2 pi t is a
    // product whose last-bit effects are not the portable function's error.
    const double w = want.convert_to<double>();
    const double scale = std::max(std::abs(w), 0x1p-20);
    const double err =
        boost::multiprecision::abs(oracle_t(portable_cos_turns(t)) - want).convert_to<double>() / (scale * 0x1p-52);
    worst_abs = std::max(worst_abs, err);
  }
  EXPECT_LE(worst_abs, 2.0);
}

TEST(PortableDistributions, RandintWrapsThroughTheFullInt64Range) {
  const PhiloxBlock block{{0xffffffffu, 0xffffffffu, 0, 0}};
  const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  const std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  // (2^64 - 1) mod (2^64 - 1) = 0.
  EXPECT_EQ(randint_value(block, lowest, highest), lowest);
  EXPECT_EQ(randint_value(block, -3, 4), -3 + static_cast<std::int64_t>(~std::uint64_t{0} % 7));
}

TEST(PortableDistributions, BernoulliComparesThe64BitUniformExactly) {
  const PhiloxBlock half{{0x80000000u, 0, 0, 0}};  // u = 1/2 exactly
  EXPECT_FALSE(bernoulli_from_double(half, 0.5));
  EXPECT_TRUE(bernoulli_from_double(half, std::nextafter(0.5, 1.0)));
  const PhiloxBlock zero{{0, 0, 0, 0}};
  EXPECT_FALSE(bernoulli_from_double(zero, 0.0));
  EXPECT_TRUE(bernoulli_from_double(zero, 0x1p-70));  // u = 0 < any positive p
  const PhiloxBlock top{{0xffffffffu, 0xffffffffu, 0, 0}};
  EXPECT_TRUE(bernoulli_from_double(top, 1.0));
}

}  // namespace
}  // namespace funcspec::random
