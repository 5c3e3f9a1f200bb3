#include "reference/core/dtype.h"

namespace funcspec {

std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int64: return "int64";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Oracle: return "oracle";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (DType d : kAllDTypes) {
    if (dtype_name(d) == name) return d;
  }
  return std::nullopt;
}

std::size_t itemsize(DType dtype) {
  return visit_dtype(dtype, []<typename T>() { return sizeof(T); });
}

}  // namespace funcspec
