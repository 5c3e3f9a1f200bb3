#include "reference/ops/op_layer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "reference/ops/dispatch.h"

namespace funcspec {

Tensor cast_to(const Tensor& t, DType dtype) {
  if (!t.defined() || t.dtype() == dtype) return t;
  return call_one("to_dtype", {t}, {{"dtype", dtype}});
}

Tensor expand_to(const Tensor& t, const Shape& shape) {
  if (!t.defined() || t.shape() == shape) return t;
  return call_one("expand", {t}, {{"size", shape}});
}

TensorList cast_and_broadcast(const TensorList& inputs, DType dtype, std::string_view op) {
  std::vector<Shape> shapes;
  for (const Tensor& t : inputs) {
    if (t.defined()) shapes.push_back(t.shape());
  }
  const Shape shape = broadcast_shapes(shapes, op);
  TensorList out;
  out.reserve(inputs.size());
  for (const Tensor& t : inputs) out.push_back(expand_to(cast_to(t, dtype), shape));
  return out;
}

void check_dtype(std::string_view op, std::string_view arg, DType dtype, DTypeSet allowed) {
  bool ok = true;
  std::string_view expected;
  switch (allowed) {
    case DTypeSet::All: break;
    case DTypeSet::NoBool:
      ok = dtype != DType::Bool;
      expected = "a numeric dtype (not bool)";
      break;
    case DTypeSet::Floating:
      ok = is_floating(dtype);
      expected = "a floating dtype";
      break;
    case DTypeSet::Integral:
      ok = dtype == DType::Int64;
      expected = "int64";
      break;
    case DTypeSet::BoolOnly:
      ok = dtype == DType::Bool;
      expected = "bool";
      break;
  }
  FUNCSPEC_CHECK(ok, ErrorKind::DtypeNotSupported, "[{}] '{}' has dtype {} but the op expects {}", op, arg,
                 dtype_name(dtype), expected);
}

DType to_floating(DType dtype) { return is_floating(dtype) ? dtype : kDefaultFloat; }

void check_rank(std::string_view op, std::string_view arg, const Tensor& t, std::initializer_list<std::int64_t> ranks) {
  FUNCSPEC_CHECK(std::find(ranks.begin(), ranks.end(), t.dim()) != ranks.end(), ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to have {} dims but got shape {}", op, arg, fmt::join(ranks, " or "),
                 shape_to_string(t.shape()));
}

}  // namespace funcspec
