#pragma once
// Helpers shared by the unit tests: capturing error kinds and reading values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "reference/core/error.h"
#include "reference/core/tensor.h"

namespace funcspec::testing_support {

// The kind of the funcspec::Error that `fn` throws; a test failure (and `internal`) when it throws none.
template <typename Fn>
ErrorKind error_kind_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "expected a funcspec::Error, but nothing was thrown";
  return ErrorKind::Internal;
}

// Expects `fn` to throw a funcspec::Error of `kind`, printing the message when the kind differs.
template <typename Fn>
void expect_error_kind(ErrorKind kind, Fn&& fn) {
  try {
    fn();
    ADD_FAILURE() << "expected an error of kind " << error_kind_name(kind) << ", but nothing was thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
  }
}

// The elements of `t` in logical order, as doubles.
inline std::vector<double> values(const Tensor& t) { return t.to_vector<double>(); }

// Elementwise comparison that treats NaN as equal to NaN and checks the sign of zeros.
inline void expect_same(const std::vector<double>& got, const std::vector<double>& want, double tolerance = 0.0) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i] << ", expected NaN";
    } else if (tolerance == 0.0 || std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
      if (want[i] == 0.0) {
        EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << "sign of zero, element " << i;
      }
    } else {
      EXPECT_NEAR(got[i], want[i], tolerance * std::max(1.0, std::abs(want[i]))) << "element " << i;
    }
  }
}

}  // namespace funcspec::testing_support
