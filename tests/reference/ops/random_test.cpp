#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "conformance/samples/sample_checks.h"
#include "reference/api/conversion.h"
#include "reference/api/random.h"
#include "reference/random/distributions.h"
#include "reference/random/generator.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::values;

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

TEST(Rand, SameSeedGivesTheSameBits) {
  std::vector<double> first, second;
  {
    random::GeneratorScope scope(42);
    first = ops::rand({100}, DType::Float64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(42);
    second = ops::rand({100}, DType::Float64).to_vector<double>();
  }
  EXPECT_EQ(first, second);
}

TEST(Rand, DifferentSeedsGiveDifferentBits) {
  random::GeneratorScope a(1);
  const std::vector<double> x = ops::rand({50}, DType::Float64).to_vector<double>();
  random::GeneratorScope b(2);
  const std::vector<double> y = ops::rand({50}, DType::Float64).to_vector<double>();
  EXPECT_NE(x, y);
}

TEST(Rand, ConsecutiveCallsDrawFreshBlocksAndAdvanceTheOffsetByNumel) {
  random::GeneratorScope scope(9);
  const std::vector<double> x = ops::rand({2, 3}, DType::Float64).to_vector<double>();
  EXPECT_EQ(random::current_generator().offset(), 6u);
  const std::vector<double> y = ops::rand({2, 3}, DType::Float64).to_vector<double>();
  EXPECT_EQ(random::current_generator().offset(), 12u);
  EXPECT_NE(x, y);
}

TEST(Rand, ElementIUsesBlockIOfTheStream) {
  random::GeneratorScope scope(5);
  const std::vector<float> got = ops::rand({4}).to_vector<float>();
  for (std::uint64_t i = 0; i < 4; ++i) {
    const std::uint32_t word0 = random::philox4x32_10(5, i)[0];
    EXPECT_EQ(got[i], static_cast<float>(word0 >> 8) / 16777216.0f) << i;
  }
}

TEST(Rand, NarrowerDtypesAreTheOracleDrawTruncated) {
  std::vector<oracle_t> wide;
  std::vector<double> f64;
  std::vector<float> f32;
  {
    random::GeneratorScope scope(11);
    wide = ops::rand({200}, DType::Oracle).to_vector<oracle_t>();
  }
  {
    random::GeneratorScope scope(11);
    f64 = ops::rand({200}, DType::Float64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(11);
    f32 = ops::rand({200}, DType::Float32).to_vector<float>();
  }
  for (std::size_t i = 0; i < wide.size(); ++i) {
    const oracle_t truncated = boost::multiprecision::floor(boost::multiprecision::ldexp(wide[i], 53));
    EXPECT_EQ(f64[i], std::ldexp(truncated.convert_to<double>(), -53)) << i;
    EXPECT_EQ(f32[i], static_cast<float>(std::ldexp(std::floor(std::ldexp(f64[i], 24)), -24))) << i;
  }
}

TEST(Rand, OnMetaGivesShapeAndAdvancesTheOffset) {
  random::GeneratorScope scope(1);
  const Tensor t = ops::rand({3, 4}, DType::Float64, "meta");
  EXPECT_EQ(t.device(), Device::Meta);
  EXPECT_EQ(t.shape(), (Shape{3, 4}));
  EXPECT_EQ(random::current_generator().offset(), 12u);
}

TEST(Randn, OnMetaGivesShapeAndDtype) {
  const Tensor t = ops::randn({0, 2}, DType::Oracle, "meta");
  EXPECT_EQ(t.device(), Device::Meta);
  EXPECT_EQ(t.shape(), (Shape{0, 2}));
  EXPECT_EQ(t.dtype(), DType::Oracle);
}

TEST(Randint, OnMetaChecksItsArguments) {
  EXPECT_EQ(ops::randint(0, 5, {3}, DType::Int64, "meta").device(), Device::Meta);
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::randint(5, 0, {3}, DType::Int64, "meta"); });
}

TEST(Rand, RejectsIntegerDtype) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::rand({2}, DType::Int64); });
}

TEST(Rand, RejectsNegativeSize) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::rand({2, -1}); });
}

TEST(Rand, EmptyShapeDrawsNothing) {
  random::GeneratorScope scope(1);
  EXPECT_EQ(ops::rand({0, 3}).numel(), 0);
  EXPECT_EQ(random::current_generator().offset(), 0u);
}

// Hoeffding: for n i.i.d. values in [a, b], P(|mean - E| >= t) <= 2 exp(-2 n t^2 / (b - a)^2).
// With n = 100000 and the right side 1e-9: t = (b - a) * sqrt(ln(2e9) / (2n)) = (b - a) * 0.01035.
constexpr double kHoeffding100k = 0.01035;

TEST(Rand, MeanAndVarianceOfUniformWithinHoeffdingBounds) {
  random::GeneratorScope scope(2024);
  const std::vector<double> u = ops::rand({100000}, DType::Float64).to_vector<double>();
  EXPECT_NEAR(mean_of(u), 0.5, kHoeffding100k);
  std::vector<double> squared;
  for (double x : u) squared.push_back((x - 0.5) * (x - 0.5));  // in [0, 1/4], mean 1/12
  EXPECT_NEAR(mean_of(squared), 1.0 / 12, 0.25 * kHoeffding100k);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), 0.0);
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 1.0);
}

TEST(Randn, MeanAndVarianceWithinBoundsFailingWithProbabilityBelow1e9) {
  random::GeneratorScope scope(77);
  const std::vector<double> z = ops::randn({100000}, DType::Float64).to_vector<double>();
  // The mean of n standard normals is N(0, 1/n): P(|mean| > 6.11 / sqrt(n)) < 1e-9; 6.11/316.2 = 0.0193.
  EXPECT_NEAR(mean_of(z), 0.0, 0.0195);
  // Sum of squares X ~ chi^2(n). Laurent-Massart: P(X - n >= 2 sqrt(n x) + 2x) <= e^-x and
  // P(n - X >= 2 sqrt(n x)) <= e^-x; x = ln(2e9) = 21.4 gives |X/n - 1| <= 0.0297.
  std::vector<double> squared;
  for (double x : z) squared.push_back(x * x);
  EXPECT_NEAR(mean_of(squared), 1.0, 0.03);
}

TEST(Randn, Float32IsTheFloat64NormalRounded) {
  std::vector<double> f64;
  std::vector<float> f32;
  {
    random::GeneratorScope scope(3);
    f64 = ops::randn({500}, DType::Float64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(3);
    f32 = ops::randn({500}, DType::Float32).to_vector<float>();
  }
  for (std::size_t i = 0; i < f64.size(); ++i) EXPECT_EQ(f32[i], static_cast<float>(f64[i])) << i;
}

TEST(Randn, Float64IsWithinFourUlpsOfTheOracleNormal) {
  std::vector<double> f64;
  std::vector<oracle_t> wide;
  {
    random::GeneratorScope scope(8);
    f64 = ops::randn({2000}, DType::Float64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(8);
    wide = ops::randn({2000}, DType::Oracle).to_vector<oracle_t>();
  }
  for (std::size_t i = 0; i < f64.size(); ++i) {
    const double error = boost::multiprecision::abs(oracle_t(f64[i]) - wide[i]).convert_to<double>();
    // Absolute error in ulps of max(|z|, 1): near a zero of cos the radius's error dominates.
    EXPECT_LE(error, 4 * 0x1p-52 * std::max(std::abs(f64[i]), 1.0)) << i;
  }
}

TEST(Randint, ValuesCoverTheHalfOpenRangeWithTheRightMean) {
  random::GeneratorScope scope(4);
  const std::vector<double> v = ops::randint(0, 10, {100000}).to_vector<double>();
  std::set<double> seen(v.begin(), v.end());
  EXPECT_EQ(seen, (std::set<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_NEAR(mean_of(v), 4.5, 9 * kHoeffding100k);
}

TEST(Randint, IsLowPlusTheWordPairModuloTheRange) {
  random::GeneratorScope scope(6);
  const std::vector<std::int64_t> v = ops::randint(-5, 8, {3}).to_vector<std::int64_t>();
  for (std::uint64_t i = 0; i < 3; ++i) {
    const random::PhiloxBlock b = random::philox4x32_10(6, i);
    const std::uint64_t pair = (std::uint64_t{b[0]} << 32) | b[1];
    EXPECT_EQ(v[i], -5 + static_cast<std::int64_t>(pair % 13)) << i;
  }
}

TEST(Randint, RejectsAnEmptyRange) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::randint(3, 3, {2}); });
}

TEST(Randint, BoolResultNeedsARangeWithinZeroAndTwo) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::randint(0, 3, {2}, DType::Bool); });
  EXPECT_EQ(ops::randint(1, 2, {3}, DType::Bool).to_vector<bool>(), (std::vector<bool>{true, true, true}));
}

TEST(Bernoulli, ProbabilitiesZeroAndOneAreDeterministic) {
  const Tensor p = from_values({0, 1, 0, 1}, {2, 2});
  EXPECT_EQ(ops::bernoulli(p).to_vector<double>(), (std::vector<double>{0, 1, 0, 1}));
}

TEST(Bernoulli, KeepsShapeAndDtypeOfP) {
  const Tensor out = ops::bernoulli(from_values({0.5, 0.5, 0.5}, {3, 1}, DType::Float32));
  EXPECT_EQ(out.shape(), (Shape{3, 1}));
  EXPECT_EQ(out.dtype(), DType::Float32);
}

TEST(Bernoulli, MeanWithinHoeffdingBound) {
  random::GeneratorScope scope(12);
  const Tensor p = ops::to_dtype(ops::lit(0.3), DType::Float64);
  const Tensor draws = ops::bernoulli(Tensor::view_of(p, {100000}, {0}, 0));
  EXPECT_NEAR(mean_of(draws.to_vector<double>()), 0.3, kHoeffding100k);
}

TEST(Bernoulli, RejectsProbabilityOutsideUnitIntervalBeforeWriting) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::bernoulli(from_values({0.5, 1.5}, {2})); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::bernoulli(from_values({NAN}, {1})); });
}

TEST(Bernoulli, RejectsIntegerP) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::bernoulli(from_values({0, 1}, {2}, DType::Int64)); });
}

TEST(Bernoulli, SameBitsForEveryDtypeOfP) {
  const Tensor p64 = from_values({0.1, 0.25, 0.5, 0.75, 0.9, 0.3}, {6});
  std::vector<double> a, b;
  {
    random::GeneratorScope scope(13);
    a = ops::bernoulli(p64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(13);
    b = ops::bernoulli(ops::to_dtype(p64, DType::Oracle)).to_vector<double>();
  }
  EXPECT_EQ(a, b);
}

TEST(Normal, BroadcastsMeanAndStdAndPromotes) {
  const Tensor out = ops::normal(from_values({0, 10}, {2, 1}, DType::Float32), from_values({1, 1, 1}, {3}));
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(out.dtype(), DType::Float64);
}

TEST(Normal, ZeroStdGivesTheMean) {
  const Tensor out = ops::normal(from_values({1.5, -2}, {2}), from_values({0}, {}));
  EXPECT_EQ(out.to_vector<double>(), (std::vector<double>{1.5, -2}));
}

TEST(Normal, IsMeanPlusStdTimesTheStandardNormal) {
  std::vector<double> z, shifted;
  {
    random::GeneratorScope scope(21);
    z = ops::randn({4}, DType::Float64).to_vector<double>();
  }
  {
    random::GeneratorScope scope(21);
    shifted = ops::normal(from_values({3, 3, 3, 3}, {4}), from_values({2}, {})).to_vector<double>();
  }
  // std = 2 scales exactly, so mean + 2z has a single rounding in both computations.
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(shifted[i], 3 + 2 * z[i]);
}

TEST(Normal, RejectsNegativeStd) {
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    ops::normal(from_values({0, 0}, {2}), from_values({1, -1}, {2}));
  });
}

TEST(Normal, RejectsIntegerMeanAndStd) {
  expect_error_kind(ErrorKind::DtypeNotSupported,
                    [] { ops::normal(from_values({0}, {1}, DType::Int64), from_values({1}, {1}, DType::Int64)); });
}

TEST(Uniform, ValuesLieInFromTo) {
  random::GeneratorScope scope(31);
  const std::vector<double> v = ops::uniform(Tensor::empty({1000}, DType::Float64), -3, -1).to_vector<double>();
  EXPECT_GE(*std::min_element(v.begin(), v.end()), -3.0);
  EXPECT_LT(*std::max_element(v.begin(), v.end()), -1.0);
}

TEST(Uniform, RejectsFromAboveTo) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::uniform(Tensor::empty({2}, DType::Float64), 1, 0); });
}

TEST(UniformInPlace, WritesIntoSelfAndReturnsIt) {
  const Tensor self = from_values({7, 7, 7, 7}, {2, 2});
  const Tensor out = ops::uniform_(self, 2, 3);
  EXPECT_TRUE(out.is_same(self));
  for (double v : self.to_vector<double>()) {
    EXPECT_GE(v, 2.0);
    EXPECT_LT(v, 3.0);
  }
}

TEST(UniformInPlace, WritesThroughAStridedView) {
  const Tensor base = from_values({9, 9, 9, 9, 9, 9}, {6});
  const Tensor every_other = Tensor::view_of(base, {3}, {2}, 0);
  ops::uniform_(every_other);
  const std::vector<double> v = base.to_vector<double>();
  EXPECT_EQ(v[1], 9.0);
  EXPECT_EQ(v[3], 9.0);
  EXPECT_LT(v[0], 1.0);
  EXPECT_LT(v[4], 1.0);
}

TEST(UniformInPlace, RejectsIntegerSelf) {
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::uniform_(from_values({1, 2}, {2}, DType::Int64)); });
}

TEST(NormalInPlace, ZeroStdFillsWithTheMean) {
  const Tensor self = from_values({1, 2, 3}, {3}, DType::Float32);
  ops::normal_(self, -0.25, 0);
  EXPECT_EQ(self.to_vector<double>(), (std::vector<double>{-0.25, -0.25, -0.25}));
}

TEST(NormalInPlace, RejectsNegativeStdWithoutWriting) {
  const Tensor self = from_values({1, 2}, {2});
  expect_error_kind(ErrorKind::InvalidArgument, [&] { ops::normal_(self, 0, -1); });
  EXPECT_EQ(self.to_vector<double>(), (std::vector<double>{1, 2}));
}

TEST(BernoulliInPlace, WorksOnIntegerAndBoolSelf) {
  const Tensor ints = from_values({5, 5, 5}, {3}, DType::Int64);
  ops::bernoulli_(ints, 1.0);
  EXPECT_EQ(ints.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 1}));
  const Tensor flags = from_values({1, 1}, {2}, DType::Bool);
  ops::bernoulli_(flags, 0.0);
  EXPECT_EQ(flags.to_vector<bool>(), (std::vector<bool>{false, false}));
}

TEST(BernoulliInPlace, RejectsPOutsideUnitInterval) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::bernoulli_(from_values({0}, {1}), -0.1); });
}

TEST(Multinomial, WithoutReplacementDrawsDistinctPositiveWeightCategories) {
  random::GeneratorScope scope(41);
  const Tensor w = from_values({0, 1, 0, 2, 3}, {5});
  const std::vector<std::int64_t> got = ops::multinomial(w, 3).to_vector<std::int64_t>();
  EXPECT_EQ(std::set<std::int64_t>(got.begin(), got.end()), (std::set<std::int64_t>{1, 3, 4}));
}

TEST(Multinomial, FirstDrawFrequenciesMatchTheWeights) {
  random::GeneratorScope scope(43);
  // 40000 identical rows: the first draw of each is category c with probability w_c / 8.
  const Tensor row = from_values({1, 3, 0, 4}, {1, 4});
  const Tensor w = Tensor::view_of(row, {40000, 4}, {0, 1}, 0);
  const Tensor out = ops::multinomial(w, 2);
  ASSERT_EQ(out.shape(), (Shape{40000, 2}));
  const std::vector<std::int64_t> v = out.to_vector<std::int64_t>();
  std::vector<double> first(4, 0);
  for (std::size_t r = 0; r < 40000; ++r) {
    first[static_cast<std::size_t>(v[2 * r])] += 1;
    EXPECT_NE(v[2 * r], v[2 * r + 1]);
    EXPECT_NE(v[2 * r + 1], 2);
  }
  // Hoeffding with n = 40000: t = sqrt(ln(2e9) / (2n)) = 0.0164 per frequency.
  const double expected[4] = {1.0 / 8, 3.0 / 8, 0, 4.0 / 8};
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(first[c] / 40000, expected[c], 0.0164) << c;
}

TEST(Multinomial, WithReplacementFrequenciesMatchTheWeights) {
  random::GeneratorScope scope(47);
  const std::vector<std::int64_t> v =
      ops::multinomial(from_values({1, 2, 0, 5}, {4}), 100000, true).to_vector<std::int64_t>();
  std::vector<double> count(4, 0);
  for (std::int64_t c : v) count[static_cast<std::size_t>(c)] += 1;
  const double expected[4] = {1.0 / 8, 2.0 / 8, 0, 5.0 / 8};
  for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(count[c] / 100000, expected[c], kHoeffding100k) << c;
}

TEST(Multinomial, DrawsAllCategoriesWhenAskedForAll) {
  const std::vector<std::int64_t> v = ops::multinomial(from_values({2, 2, 2}, {3}), 3).to_vector<std::int64_t>();
  EXPECT_EQ(std::set<std::int64_t>(v.begin(), v.end()), (std::set<std::int64_t>{0, 1, 2}));
}

TEST(Multinomial, TooFewNonZeroCategoriesIsAnError) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({0, 1, 0}, {3}), 2); });
}

TEST(Multinomial, MoreSamplesThanCategoriesWithoutReplacementIsAnError) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({1, 1}, {2}), 3); });
}

TEST(Multinomial, RejectsNegativeOrNonFiniteWeightsAndZeroRows) {
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({1, -1}, {2}), 1); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({1, INFINITY}, {2}), 1); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({0, 0}, {2}), 1, true); });
}

TEST(Multinomial, RejectsBadRankDtypeAndCount) {
  expect_error_kind(ErrorKind::ShapeMismatch, [] { ops::multinomial(from_values({1}, {1, 1, 1}), 1); });
  expect_error_kind(ErrorKind::DtypeNotSupported, [] { ops::multinomial(from_values({1, 1}, {2}, DType::Int64), 1); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { ops::multinomial(from_values({1, 1}, {2}), 0); });
}

TEST(Multinomial, SizeZeroRowsGiveAnEmptyResult) {
  const Tensor out = ops::multinomial(Tensor::empty({0, 3}, DType::Float64), 2);
  EXPECT_EQ(out.shape(), (Shape{0, 2}));
}

}  // namespace
}  // namespace funcspec
