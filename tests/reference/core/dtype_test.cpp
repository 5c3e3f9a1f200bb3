#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "reference/core/dtype.h"
#include "reference/core/error.h"
#include "reference/core/scalar.h"

namespace funcspec {
namespace {

TEST(DType, NamesRoundTrip) {
  for (DType d : kAllDTypes) EXPECT_EQ(parse_dtype(dtype_name(d)), d);
  EXPECT_FALSE(parse_dtype("float16").has_value());
}

TEST(DType, OracleCarriesAboutFiftyDigits) {
  // 1 + 1e-45 is distinguishable from 1 only with more than 45 significant digits.
  const oracle_t one(1);
  const oracle_t tiny = oracle_t(1) / boost::multiprecision::pow(oracle_t(10), 45);
  EXPECT_NE(one + tiny, one);
  EXPECT_GE(std::numeric_limits<oracle_t>::digits10, 49);
}

TEST(CastScalar, FloatToInt64TruncatesTowardZero) {
  EXPECT_EQ(cast_scalar<std::int64_t>(2.9), 2);
  EXPECT_EQ(cast_scalar<std::int64_t>(-2.9), -2);
  EXPECT_EQ(cast_scalar<std::int64_t>(oracle_t(-7.5)), -7);
}

TEST(CastScalar, NanAndOutOfRangeToInt64GiveInt64Min) {
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(cast_scalar<std::int64_t>(std::nan("")), kMin);
  EXPECT_EQ(cast_scalar<std::int64_t>(1e300), kMin);
  EXPECT_EQ(cast_scalar<std::int64_t>(-std::numeric_limits<float>::infinity()), kMin);
  EXPECT_EQ(cast_scalar<std::int64_t>(-9223372036854775808.0), kMin);  // in range: exactly INT64_MIN
}

TEST(CastScalar, AnythingToBoolIsNonZero) {
  EXPECT_FALSE(cast_scalar<bool>(0.0));
  EXPECT_FALSE(cast_scalar<bool>(-0.0));
  EXPECT_TRUE(cast_scalar<bool>(std::nan("")));
  EXPECT_TRUE(cast_scalar<bool>(std::int64_t{-3}));
  EXPECT_TRUE(cast_scalar<bool>(oracle_t("1e-40")));
}

TEST(CastScalar, OracleToFloatRoundsToNearest) {
  // 1 + 2^-24 lies exactly between two floats; round-to-nearest-even keeps 1.
  const oracle_t halfway = oracle_t(1) + boost::multiprecision::ldexp(oracle_t(1), -24);
  EXPECT_EQ(cast_scalar<float>(halfway), 1.0f);
  const oracle_t above = halfway + boost::multiprecision::ldexp(oracle_t(1), -60);
  EXPECT_EQ(cast_scalar<float>(above), 1.0f + std::numeric_limits<float>::epsilon());
}

TEST(Scalar, RecordsItsCategory) {
  EXPECT_EQ(Scalar(true).dtype(), DType::Bool);
  EXPECT_EQ(Scalar(3).dtype(), DType::Int64);
  EXPECT_EQ(Scalar(2.5).dtype(), DType::Float64);
  EXPECT_EQ(Scalar(2.5).to<std::int64_t>(), 2);
}

}  // namespace
}  // namespace funcspec

namespace funcspec {
namespace {

TEST(ErrorKinds, EveryKindHasAUniqueNameThatParsesBack) {
  std::set<std::string_view> names;
  for (int k = 0; k <= static_cast<int>(kLastErrorKind); ++k) {
    const auto kind = static_cast<ErrorKind>(k);
    EXPECT_TRUE(names.insert(error_kind_name(kind)).second) << error_kind_name(kind);
    EXPECT_EQ(parse_error_kind(error_kind_name(kind)), kind);
  }
  EXPECT_FALSE(parse_error_kind("no_such_kind").has_value());
}

}  // namespace
}  // namespace funcspec
