#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "reference/core/dtype.h"

namespace funcspec {

// Converts between element types with the reference's defined semantics. Float to int64 truncates
// toward zero; NaN and values outside int64's range give INT64_MIN (what x86 PyTorch produces),
// defined here so the conversion is never undefined behaviour. Anything to bool is `x != 0`.
template <typename To, typename From>
To cast_scalar(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (std::is_same_v<To, std::int64_t> && is_floating_v<From>) {
    // 2^63 is exactly representable in every floating type; the range check excludes NaN too.
    const From limit = From(9223372036854775808.0);
    if (!(x >= -limit && x < limit)) return std::numeric_limits<std::int64_t>::min();
    if constexpr (is_oracle_v<From>)
      return x.template convert_to<std::int64_t>();
    else
      return static_cast<std::int64_t>(x);
  } else if constexpr (is_oracle_v<From>) {
    return x.template convert_to<To>();
  } else if constexpr (is_oracle_v<To>) {
    return To(x);
  } else {
    return static_cast<To>(x);
  }
}

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
