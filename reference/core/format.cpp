#include <fmt/format.h>

#include <sstream>

#include "reference/core/tensor.h"

namespace funcspec {
namespace {

template <typename T>
std::string element_to_string(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return v ? "True" : "False";
  else if constexpr (is_oracle_v<T>)
    return v.str(20, std::ios_base::fmtflags{});
  else if constexpr (std::is_floating_point_v<T>)
    return fmt::format("{:.6g}", v);
  else
    return fmt::format("{}", v);
}

template <typename T>
void print_nested(std::ostringstream& out, const std::vector<T>& values, const Shape& shape, const Strides& positions,
                  std::size_t d, std::int64_t start) {
  if (d == shape.size()) {
    out << element_to_string(values[static_cast<std::size_t>(start)]);
    return;
  }
  out << "[";
  for (std::int64_t i = 0; i < shape[d]; ++i) {
    if (i > 0) out << ", ";
    print_nested(out, values, shape, positions, d + 1, start + i * positions[d]);
  }
  out << "]";
}

}  // namespace

std::string Scalar::to_string() const {
  return std::visit([](auto v) { return element_to_string(v); }, value_);
}

std::string Tensor::to_string() const {
  if (!defined()) return "Tensor(undefined)";
  std::ostringstream out;
  out << "tensor(";
  if (device() == Device::Meta) {
    out << "..., size=" << shape_to_string(shape());
  } else {
    visit_dtype(dtype(), [&]<typename T>() {
      const std::vector<T> values = to_vector<T>();
      const Strides positions = contiguous_strides(shape());
      print_nested(out, values, shape(), positions, 0, 0);
    });
  }
  out << ", dtype=" << dtype_name(dtype());
  if (device() != Device::Cpu) out << ", device=" << device_name(device());
  out << ")";
  return out.str();
}

}  // namespace funcspec
