#pragma once
// Helpers shared by the unit tests: capturing error kinds, reading values, and the special values
// and small tensors the hand-worked op tests write their inputs and expectations with.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "reference/core/error.h"
#include "reference/core/tensor.h"
#include "reference/ops/dispatch.h"

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

// Expects the call op(inputs, attrs) to throw a funcspec::Error of `kind` whose message contains
// `fragment` (the op's own wording, so an error raised by a part of a composite is told apart).
inline void expect_op_error(const std::string& op, const TensorList& inputs, const Attrs& attrs, ErrorKind kind,
                            const std::string& fragment) {
  try {
    call(op, inputs, attrs);
    ADD_FAILURE() << "expected a " << error_kind_name(kind) << " error from " << op;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "the message '" << e.what() << "' lacks '" << fragment << "'";
  }
}

// A float64 tensor of `shape` with values uniform in [-2, 2) from `rng`.
inline Tensor uniform_tensor(const Shape& shape, std::mt19937_64& rng) {
  std::int64_t count = 1;
  for (std::int64_t s : shape) count *= s;
  std::uniform_real_distribution<double> uniform(-2, 2);
  std::vector<double> data(static_cast<std::size_t>(count));
  for (double& v : data) v = uniform(rng);
  return from_vector(data, shape, DType::Float64);
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

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// One-dimensional tensors of the listed values, in float64, float32, int64 and bool.
inline Tensor f64(std::initializer_list<double> v) { return from_values(v, {static_cast<std::int64_t>(v.size())}); }
inline Tensor f32(std::initializer_list<double> v) {
  return from_values(v, {static_cast<std::int64_t>(v.size())}, DType::Float32);
}
inline Tensor i64(std::initializer_list<double> v) {
  return from_values(v, {static_cast<std::int64_t>(v.size())}, DType::Int64);
}
inline Tensor bools(std::initializer_list<double> v) {
  return from_values(v, {static_cast<std::int64_t>(v.size())}, DType::Bool);
}

// [[1, 2, 3], [4, 5, 6]] in float64, contiguous.
inline Tensor matrix23() { return from_values({1, 2, 3, 4, 5, 6}, {2, 3}); }

// [[1, 2, 3], [4, 5, 6]] stored column by column.
inline Tensor transposed_matrix23() {
  return Tensor::view_of(from_values({1, 4, 2, 5, 3, 6}, {3, 2}), {2, 3}, {1, 2}, 0);
}

}  // namespace funcspec::testing_support
