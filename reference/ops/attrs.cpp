#include "reference/ops/attrs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reference/core/error.h"

namespace funcspec {

std::string attr_to_string(const AttrValue& value) {
  struct Printer {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(bool v) const { return v ? "True" : "False"; }
    std::string operator()(std::int64_t v) const { return fmt::format("{}", v); }
    std::string operator()(double v) const { return fmt::format("{}", v); }
    std::string operator()(const std::string& v) const { return fmt::format("'{}'", v); }
    std::string operator()(const std::vector<std::int64_t>& v) const { return fmt::format("[{}]", fmt::join(v, ", ")); }
    std::string operator()(DType v) const { return std::string(dtype_name(v)); }
    std::string operator()(const Scalar& v) const { return v.to_string(); }
    std::string operator()(const std::vector<double>& v) const { return fmt::format("[{}]", fmt::join(v, ", ")); }
  };
  return std::visit(Printer{}, value);
}

const AttrValue& Attrs::at(std::string_view name) const {
  auto it = values_.find(name);
  FUNCSPEC_INTERNAL_ASSERT(it != values_.end(), fmt::format("attribute '{}' was not bound", name));
  return it->second;
}

bool Attrs::is_none(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() || std::holds_alternative<std::monostate>(it->second);
}

template <typename T>
const T& Attrs::get(std::string_view name) const {
  const AttrValue& v = at(name);
  const T* p = std::get_if<T>(&v);
  FUNCSPEC_INTERNAL_ASSERT(p != nullptr, fmt::format("attribute '{}' has an unexpected type", name));
  return *p;
}

bool Attrs::get_bool(std::string_view name) const { return get<bool>(name); }
std::int64_t Attrs::get_int(std::string_view name) const { return get<std::int64_t>(name); }
double Attrs::get_float(std::string_view name) const { return get<double>(name); }
const std::string& Attrs::get_string(std::string_view name) const { return get<std::string>(name); }
const std::vector<std::int64_t>& Attrs::get_int_list(std::string_view name) const {
  return get<std::vector<std::int64_t>>(name);
}
const std::vector<double>& Attrs::get_float_list(std::string_view name) const { return get<std::vector<double>>(name); }
Scalar Attrs::get_scalar(std::string_view name) const { return get<Scalar>(name); }
DType Attrs::get_dtype(std::string_view name) const { return get<DType>(name); }

std::optional<std::int64_t> Attrs::get_optional_int(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_int(name);
}
std::optional<double> Attrs::get_optional_float(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_float(name);
}
std::optional<std::vector<std::int64_t>> Attrs::get_optional_int_list(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_int_list(name);
}
std::optional<std::vector<double>> Attrs::get_optional_float_list(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_float_list(name);
}
std::optional<Scalar> Attrs::get_optional_scalar(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_scalar(name);
}
std::optional<DType> Attrs::get_optional_dtype(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_dtype(name);
}
std::optional<std::string> Attrs::get_optional_string(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_string(name);
}

std::string Attrs::to_string() const {
  std::vector<std::string> parts;
  for (const auto& [name, value] : values_) parts.push_back(fmt::format("{}={}", name, attr_to_string(value)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace funcspec
