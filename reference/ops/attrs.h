#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "reference/core/dtype.h"
#include "reference/core/scalar.h"

namespace funcspec {

// The value of a non-tensor argument of an op (a dim, a flag, a mode string, an alpha). monostate
// stands for None.
using AttrValue = std::variant<std::monostate, bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                               DType, Scalar, std::vector<double>>;

std::string attr_to_string(const AttrValue& value);

// The attributes of one op call, by name. The dispatcher binds them against the op's schema (fills
// defaults, coerces ints to floats or lists where the schema says so, rejects unknown names), so
// getters can assume the declared type and fail only on an internal mistake.
class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<const std::string, AttrValue>> values) : values_(values) {}

  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  bool is_none(std::string_view name) const;
  const AttrValue& at(std::string_view name) const;
  void set(const std::string& name, AttrValue value) { values_[name] = std::move(value); }

  bool get_bool(std::string_view name) const;
  std::int64_t get_int(std::string_view name) const;
  double get_float(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;
  const std::vector<std::int64_t>& get_int_list(std::string_view name) const;
  const std::vector<double>& get_float_list(std::string_view name) const;
  Scalar get_scalar(std::string_view name) const;
  DType get_dtype(std::string_view name) const;

  std::optional<std::int64_t> get_optional_int(std::string_view name) const;
  std::optional<double> get_optional_float(std::string_view name) const;
  std::optional<std::vector<std::int64_t>> get_optional_int_list(std::string_view name) const;
  std::optional<std::vector<double>> get_optional_float_list(std::string_view name) const;
  std::optional<Scalar> get_optional_scalar(std::string_view name) const;
  std::optional<DType> get_optional_dtype(std::string_view name) const;
  std::optional<std::string> get_optional_string(std::string_view name) const;

  const std::map<std::string, AttrValue, std::less<>>& values() const { return values_; }
  std::string to_string() const;

 private:
  template <typename T>
  const T& get(std::string_view name) const;
  std::map<std::string, AttrValue, std::less<>> values_;
};

}  // namespace funcspec
