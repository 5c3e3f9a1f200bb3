#include "conformance/case/json.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace funcspec::conformance {

Json float_to_json(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return value;
}

std::optional<double> float_from_json_string(const std::string& text) {
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (text == "inf" || text == "+inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  const std::string_view digits =
      text.starts_with('-') || text.starts_with('+') ? std::string_view(text).substr(1) : std::string_view(text);
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size()) return value;
  }
  return std::nullopt;
}

}  // namespace funcspec::conformance
