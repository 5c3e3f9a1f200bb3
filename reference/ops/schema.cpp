#include "reference/ops/schema.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <charconv>

#include "reference/core/error.h"

namespace funcspec {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on commas that are not inside brackets or parentheses.
std::vector<std::string_view> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(') ++depth;
    if (s[i] == ']' || s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

[[noreturn]] void bad_schema(std::string_view text, std::string_view why) {
  fail(ErrorKind::Internal, "malformed op schema '{}': {}", text, why);
}

std::int64_t parse_int(std::string_view s, std::string_view text) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) bad_schema(text, fmt::format("bad integer '{}'", s));
  return v;
}

// Parses "Tensor(a!)?" / "int[]?" / "ScalarType" into an ArgSpec's type fields.
void parse_type(std::string_view type, ArgSpec& arg, std::string_view text) {
  if (type.ends_with("?")) {
    arg.optional = true;
    type.remove_suffix(1);
  }
  if (type.starts_with("Tensor(")) {
    const std::size_t close = type.find(')');
    std::string_view annotation = type.substr(7, close - 7);
    if (annotation.ends_with("!")) {
      arg.mutated = true;
      annotation.remove_suffix(1);
    }
    arg.alias = std::string(annotation);
    type = "Tensor";
  }
  if (type == "Tensor")
    arg.type = ArgType::TensorArg;
  else if (type == "Tensor[]")
    arg.type = ArgType::TensorListArg;
  else if (type == "bool")
    arg.type = ArgType::BoolArg;
  else if (type == "int")
    arg.type = ArgType::IntArg;
  else if (type == "float")
    arg.type = ArgType::FloatArg;
  else if (type == "str")
    arg.type = ArgType::StringArg;
  else if (type == "int[]")
    arg.type = ArgType::IntListArg;
  else if (type == "float[]")
    arg.type = ArgType::FloatListArg;
  else if (type == "Scalar")
    arg.type = ArgType::ScalarArg;
  else if (type == "ScalarType")
    arg.type = ArgType::DTypeArg;
  else
    bad_schema(text, fmt::format("unknown type '{}'", type));
}

AttrValue parse_default(std::string_view s, ArgType type, std::string_view text) {
  if (s == "None") return std::monostate{};
  if (s == "True") return true;
  if (s == "False") return false;
  if (s.starts_with("'")) return std::string(s.substr(1, s.size() - 2));
  if (s.starts_with("[") && type == ArgType::FloatListArg) {
    std::vector<double> values;
    for (std::string_view part : split_top_level(s.substr(1, s.size() - 2)))
      values.push_back(std::stod(std::string(part)));
    return values;
  }
  if (s.starts_with("[")) {
    std::vector<std::int64_t> values;
    for (std::string_view part : split_top_level(s.substr(1, s.size() - 2))) values.push_back(parse_int(part, text));
    return values;
  }
  if (type == ArgType::DTypeArg) {
    auto d = parse_dtype(s);
    if (!d) bad_schema(text, fmt::format("bad dtype '{}'", s));
    return *d;
  }
  const bool looks_float = s.find_first_of(".e") != std::string_view::npos || s == "inf" || s == "-inf";
  if (type == ArgType::FloatArg || (type == ArgType::ScalarArg && looks_float)) {
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    return std::stod(std::string(s));
  }
  return parse_int(s, text);
}

std::string type_to_string(const ArgSpec& a) {
  std::string t;
  switch (a.type) {
    case ArgType::TensorArg: t = "Tensor"; break;
    case ArgType::TensorListArg: t = "Tensor[]"; break;
    case ArgType::BoolArg: t = "bool"; break;
    case ArgType::IntArg: t = "int"; break;
    case ArgType::FloatArg: t = "float"; break;
    case ArgType::StringArg: t = "str"; break;
    case ArgType::IntListArg: t = "int[]"; break;
    case ArgType::FloatListArg: t = "float[]"; break;
    case ArgType::ScalarArg: t = "Scalar"; break;
    case ArgType::DTypeArg: t = "ScalarType"; break;
  }
  if (!a.alias.empty()) t += fmt::format("({}{})", a.alias, a.mutated ? "!" : "");
  if (a.optional) t += "?";
  return t;
}

// Coerces a given attribute value to the declared type, or returns nothing when it cannot be.
std::optional<AttrValue> coerce(const AttrValue& v, const ArgSpec& spec) {
  if (std::holds_alternative<std::monostate>(v)) {
    if (spec.optional) return v;
    return std::nullopt;
  }
  switch (spec.type) {
    case ArgType::BoolArg:
      if (std::holds_alternative<bool>(v)) return v;
      break;
    case ArgType::IntArg:
      if (std::holds_alternative<std::int64_t>(v)) return v;
      break;
    case ArgType::FloatArg:
      if (std::holds_alternative<double>(v)) return v;
      if (auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
      break;
    case ArgType::StringArg:
      if (std::holds_alternative<std::string>(v)) return v;
      break;
    case ArgType::IntListArg:
      if (std::holds_alternative<std::vector<std::int64_t>>(v)) return v;
      if (auto* i = std::get_if<std::int64_t>(&v)) return std::vector<std::int64_t>{*i};
      break;
    case ArgType::FloatListArg:
      if (std::holds_alternative<std::vector<double>>(v)) return v;
      if (auto* list = std::get_if<std::vector<std::int64_t>>(&v))
        return std::vector<double>(list->begin(), list->end());
      if (auto* d = std::get_if<double>(&v)) return std::vector<double>{*d};
      if (auto* i = std::get_if<std::int64_t>(&v)) return std::vector<double>{static_cast<double>(*i)};
      break;
    case ArgType::ScalarArg:
      if (std::holds_alternative<Scalar>(v)) return v;
      if (auto* b = std::get_if<bool>(&v)) return Scalar(*b);
      if (auto* i = std::get_if<std::int64_t>(&v)) return Scalar(*i);
      if (auto* d = std::get_if<double>(&v)) return Scalar(*d);
      break;
    case ArgType::DTypeArg:
      if (std::holds_alternative<DType>(v)) return v;
      if (auto* s = std::get_if<std::string>(&v)) {
        if (auto d = parse_dtype(*s)) return AttrValue(*d);
      }
      break;
    case ArgType::TensorArg:
    case ArgType::TensorListArg: break;
  }
  return std::nullopt;
}

}  // namespace

std::vector<const ArgSpec*> OpSchema::tensor_args() const {
  std::vector<const ArgSpec*> out;
  for (const ArgSpec& a : args) {
    if (a.is_tensor()) out.push_back(&a);
  }
  return out;
}

std::vector<const ArgSpec*> OpSchema::attr_args() const {
  std::vector<const ArgSpec*> out;
  for (const ArgSpec& a : args) {
    if (!a.is_tensor()) out.push_back(&a);
  }
  return out;
}

const ArgSpec* OpSchema::find_arg(std::string_view arg_name) const {
  for (const ArgSpec& a : args) {
    if (a.name == arg_name) return &a;
  }
  return nullptr;
}

std::string OpSchema::to_string() const {
  std::vector<std::string> parts;
  bool keyword_marker_written = false;
  for (const ArgSpec& a : args) {
    if (a.keyword_only && !keyword_marker_written) {
      parts.emplace_back("*");
      keyword_marker_written = true;
    }
    std::string part = type_to_string(a) + " " + a.name;
    if (a.default_value) part += "=" + attr_to_string(*a.default_value);
    parts.push_back(std::move(part));
  }
  std::vector<std::string> rets;
  for (const ReturnSpec& r : returns) {
    ArgSpec as_arg;
    as_arg.type = r.type;
    as_arg.alias = r.alias;
    std::string text = type_to_string(as_arg);
    if (r.type == ArgType::BoolArg) text = "bool";
    if (r.type == ArgType::ScalarArg) text = "Scalar";
    if (!r.name.empty()) text += " " + r.name;
    rets.push_back(std::move(text));
  }
  const std::string ret_text =
      rets.size() == 1 && returns[0].name.empty() ? rets[0] : fmt::format("({})", fmt::join(rets, ", "));
  return fmt::format("{}({}) -> {}", name, fmt::join(parts, ", "), ret_text);
}

OpSchema parse_schema(std::string_view text) {
  OpSchema schema;
  const std::size_t open = text.find('(');
  const std::size_t arrow = text.rfind("->");
  if (open == std::string_view::npos || arrow == std::string_view::npos) bad_schema(text, "expected name(args) -> ret");
  const std::size_t close = text.rfind(')', arrow);
  schema.name = std::string(trim(text.substr(0, open)));
  bool keyword_only = false;
  for (std::string_view part : split_top_level(text.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      keyword_only = true;
      continue;
    }
    ArgSpec arg;
    arg.keyword_only = keyword_only;
    std::string_view decl = part;
    std::string_view default_text;
    if (const std::size_t eq = part.find('='); eq != std::string_view::npos) {
      decl = trim(part.substr(0, eq));
      default_text = trim(part.substr(eq + 1));
    }
    const std::size_t space = decl.rfind(' ');
    if (space == std::string_view::npos) bad_schema(text, fmt::format("argument '{}' needs a type and a name", part));
    parse_type(trim(decl.substr(0, space)), arg, text);
    arg.name = std::string(trim(decl.substr(space + 1)));
    if (!default_text.empty()) arg.default_value = parse_default(default_text, arg.type, text);
    schema.args.push_back(std::move(arg));
  }
  std::string_view ret = trim(text.substr(arrow + 2));
  if (ret.starts_with("(")) ret = ret.substr(1, ret.size() - 2);
  for (std::string_view part : split_top_level(ret)) {
    ArgSpec as_arg;
    std::string_view type = part;
    std::string name;
    if (const std::size_t space = part.rfind(' '); space != std::string_view::npos) {
      type = trim(part.substr(0, space));
      name = std::string(trim(part.substr(space + 1)));
    }
    ReturnSpec r;
    if (type == "Scalar") {
      r.type = ArgType::ScalarArg;
    } else if (type == "bool") {
      r.type = ArgType::BoolArg;
    } else {
      parse_type(type, as_arg, text);
      r.type = as_arg.type;
      r.alias = as_arg.alias;
    }
    r.name = std::move(name);
    schema.returns.push_back(std::move(r));
  }
  return schema;
}

Attrs bind_attrs(const OpSchema& schema, const Attrs& given) {
  Attrs bound;
  for (const auto& [name, value] : given.values()) {
    const ArgSpec* spec = schema.find_arg(name);
    if (spec == nullptr || spec->is_tensor()) {
      std::vector<std::string> known;
      for (const ArgSpec* a : schema.attr_args()) known.push_back(a->name);
      fail(ErrorKind::InvalidArgument, "[{}] unknown attribute '{}' (the op takes: {})", schema.name, name,
           known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
    }
    std::optional<AttrValue> coerced = coerce(value, *spec);
    FUNCSPEC_CHECK(coerced.has_value(), ErrorKind::InvalidArgument, "[{}] attribute '{}' expects {} but got {}",
                   schema.name, name, type_to_string(*spec), attr_to_string(value));
    bound.set(name, std::move(*coerced));
  }
  for (const ArgSpec* spec : schema.attr_args()) {
    if (bound.has(spec->name)) continue;
    FUNCSPEC_CHECK(spec->default_value.has_value(), ErrorKind::InvalidArgument, "[{}] missing required attribute '{}'",
                   schema.name, spec->name);
    bound.set(spec->name, *coerce(*spec->default_value, *spec));
  }
  return bound;
}

}  // namespace funcspec
