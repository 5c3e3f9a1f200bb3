#pragma once
// The engine's rule tests against the loop-and-stack oracle (NOTE: [loop-and-stack oracle]): an op
// as the function vmap maps, an example on meta for an empty batch's shapes, and the check that
// vmap's answer is the loop's by the one tolerance policy (NOTE: [vmap oracle tolerance]).
#include <functional>
#include <string>

#include "conformance/oracles/loop_and_stack.h"
#include "conformance/oracles/vmap_tolerance.h"
#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"
#include "reference/transforms/pytree.h"
#include "reference/transforms/vmap.h"

namespace funcspec::testing_support {

// The op as a function of one argument per input (None for an absent one), returning its one
// result as a tensor, several as a tuple.
transforms::PyFunction op_function(const std::string& op, const Attrs& attrs);

// The tensors of a function's result, in leaf order.
TensorList tensors_of(const transforms::PyTree& tree);

// `inputs` on meta, values dropped (wrapped numbers and absent inputs kept): an example whose
// results give an empty batch its shapes.
TensorList on_meta(const TensorList& inputs);

// Expects `vmapped` (vmap's answer) to be the loop's: the loop's error kind, or its results within
// the policy's bound for `comparison`. `what` names the check in a failure.
void expect_vmap_equals_loop(const std::string& what, const std::function<TensorList()>& vmapped,
                             const oracles::LoopAndStack& loop, const oracles::VmapComparison& comparison);

}  // namespace funcspec::testing_support
