#pragma once
// Helpers shared by the unit tests: capturing error kinds and reading values.
#include <gtest/gtest.h>

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

}  // namespace funcspec::testing_support
