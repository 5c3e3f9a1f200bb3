#pragma once
// NOTE: [derivative rules]
// Automatic differentiation needs two rules per op, attached by op family beside the batching
// rules (reference/rules/<family>.cpp; NOTE: [op rules]):
//
//  - A *jvp rule* for every differentiable primitive: given the primal inputs, their tangents and
//    the primal results, it returns a tangent per result. A tangent that is an undefined Tensor is
//    a symbolic zero: rules receive zeros that way and return them that way (never a zeros tensor
//    they made, which would be a constant rather than a tangent). A rule must compute its tangents
//    with *linear* ops applied to the input tangents (primal-derived values are constants), because
//    reverse mode transposes what the rules compute (NOTE: [reverse mode]).
//  - A *transpose rule* for every op that jvp rules apply to tangents (add, mul by a constant,
//    views, sum, expand, index ops, einsum, ...): given the cotangents of its results, it returns
//    the cotangent of each linear input. vjp is then linearize-and-transpose, as in JAX, so no op
//    needs a hand-written vjp.
//
// Ops whose results carry no derivative (comparisons, argmax, integer results, random draws,
// floor and round, whose derivative is zero almost everywhere) are marked non-differentiable:
// their results get no tangent. An op that meets a tangent and has neither rule is a bug in the
// catalogue, reported as an internal error naming the op.
//
// Rules run below their transform's level (the interpreter lowers first), so the ops they call are
// seen by outer transforms: vmap batches them, an outer jvp differentiates them (higher order).
#include <functional>
#include <string>
#include <vector>

#include "reference/ops/attrs.h"
#include "reference/ops/op_def.h"

namespace funcspec::transforms {

struct JvpCall {
  const TensorList& primals;   // the op's canonical inputs (undefined where an optional input is absent)
  const TensorList& tangents;  // one per primal; undefined: zero
  const TensorList& outputs;   // the primal results
  const Attrs& attrs;
};
// Returns one tangent per result; undefined for zero. Integer and bool results may get anything:
// the interpreter drops their tangents.
using JvpRule = std::function<TensorList(const JvpCall& call)>;

struct TransposeCall {
  const TensorList& inputs;                // the constant inputs; undefined at linear positions
  const std::vector<bool>& linear;         // which inputs are linear (tangent) operands
  const std::vector<TensorMeta>& metas;    // shape and dtype of every input (linear ones included)
  const std::vector<TensorMeta>& results;  // shape and dtype of every result
  const TensorList& cotangents;            // one per result; undefined: zero (never all undefined)
  const Attrs& attrs;
};
// Returns one cotangent per input: of the input's shape and dtype at linear positions (undefined
// for zero), anything (ignored) at constant ones.
using TransposeRule = std::function<TensorList(const TransposeCall& call)>;

// Helpers for rules.
// The sum of `t` down to `shape` (undoing a broadcast): the transpose of expand.
Tensor sum_to_shape(const Tensor& t, const Shape& shape);
// a + b where either may be undefined (zero).
Tensor add_tangents(const Tensor& a, const Tensor& b);
// Zeros of a result's shape and dtype, for transposes that must materialize a cotangent.
Tensor zeros_of(const TensorMeta& meta, Device device);

}  // namespace funcspec::transforms
