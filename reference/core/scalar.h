#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "reference/core/cast_scalar.h"
#include "reference/core/dtype.h"

namespace funcspec {

// A number given where a tensor may stand (a fill value, an alpha, a Python literal operand). Its
// alternative records its category for type promotion: a bool, an integer or a float literal.
class Scalar {
 public:
  Scalar() : value_(std::int64_t{0}) {}
  Scalar(bool v) : value_(v) {}               // NOLINT(google-explicit-constructor)
  Scalar(int v) : value_(std::int64_t{v}) {}  // NOLINT(google-explicit-constructor)
  Scalar(std::int64_t v) : value_(v) {}       // NOLINT(google-explicit-constructor)
  Scalar(double v) : value_(v) {}             // NOLINT(google-explicit-constructor)

  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_integral() const { return std::holds_alternative<std::int64_t>(value_); }
  bool is_floating() const { return std::holds_alternative<double>(value_); }

  // The dtype a literal of this category is stored in (a float literal keeps double precision; its
  // promotion category is handled by the wrapped-number rule, see promotion.h).
  DType dtype() const { return is_bool() ? DType::Bool : is_integral() ? DType::Int64 : DType::Float64; }

  template <typename T>
  T to() const {
    return std::visit([](auto v) { return cast_scalar<T>(v); }, value_);
  }

  std::string to_string() const;
  bool operator==(const Scalar& other) const = default;

 private:
  std::variant<bool, std::int64_t, double> value_;
};

}  // namespace funcspec
