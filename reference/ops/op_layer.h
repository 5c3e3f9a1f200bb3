#pragma once
// Helpers for the op layer (canonicalize and infer functions): the work done before a primitive
// proper, so that kernels and transform rules see inputs of one dtype and one shape.
#include <initializer_list>
#include <span>
#include <string_view>

#include "reference/core/promotion.h"
#include "reference/ops/op_def.h"

namespace funcspec {

// `t` converted to `dtype` through the to_dtype op (no call when it already has that dtype).
Tensor cast_to(const Tensor& t, DType dtype);
// `t` broadcast to `shape` through the expand op (no call when it already has that shape).
Tensor expand_to(const Tensor& t, const Shape& shape);
// Casts every defined input to `dtype` and broadcasts them to their common shape.
TensorList cast_and_broadcast(const TensorList& inputs, DType dtype, std::string_view op);

// Which dtypes an op accepts, for its infer function.
enum class DTypeSet { All, NoBool, Floating, Integral, BoolOnly };
void check_dtype(std::string_view op, std::string_view arg, DType dtype, DTypeSet allowed);

// The common float dtype for "int to float" ops: the input's dtype if floating, else float32.
DType to_floating(DType dtype);

// Requires `t` to have exactly `rank` dims (a clear shape_mismatch naming the op and argument).
void check_rank(std::string_view op, std::string_view arg, const Tensor& t, std::initializer_list<std::int64_t> ranks);

}  // namespace funcspec
