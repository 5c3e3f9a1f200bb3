#pragma once
// NOTE: [loop-and-stack oracle]
// VMAP-1.1's oracle, which every check of vmap is judged by: the function called on each example
// on its own, with no batching rule involved, and the results stacked at the out dims. The
// engine's rule tests (tests/reference/transforms/: reduce_scan_rules_test, index_linalg_rules_test,
// vmap_oracle_dtype_test), the conformance families VMAP-ORACLE and AD-VMAP-GRAD, and the property
// laws (PROP-VMAP/*, PROP-AD/vmap-grad-equals-loop, PROP-MOD/*, the values of
// PROP-INPLACE/vmap-raises-as-specified, the vmap levels of PROP-RANDOM/same-and-different-draws)
// build their batches and their truth here. All but two compare vmap's answer with it by one
// tolerance policy (NOTE: [vmap oracle tolerance]): AD-VMAP-GRAD's truth is the exact gradient
// (grad in the oracle dtype), held to the AD tolerance table as every gradient is, and
// PROP-RANDOM's mixes vmap and jacfwd levels, held to the property table.
//
// A batch is a list of levels, outermost first: one for vmap(f), two for vmap(vmap(f)). Each level
// has its size and the dim where it keeps its batch, counted as vmap counts in_dims and out_dims:
// in the rank that level sees (the example's rank plus one per level from that one inwards),
// negative from its end. Examples are numbered row-major over the levels: example (i, j) of a
// [2, 3] batch is number i * 3 + j.
//
// The loop's answer is the results stacked, or the error of the first example that raises (in
// example order): vmap must raise the same kind. A batch of size 0 runs no example; the caller's
// stand-in for one (an example on meta, or the first example where no other exists) gives the
// results' shapes and dtypes, and its error is the loop's answer.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "reference/core/error.h"
#include "reference/core/tensor.h"

namespace funcspec::oracles {

struct BatchLevel {
  std::int64_t size = 0;
  std::int64_t dim = 0;  // the level's in_dim (for a batched argument) or out_dim (for a result)
};

// `stacked`, whose leading levels.size() dims are the batch (outermost level first), with each
// level's dim moved to where that level keeps it. A view when any dim moves.
Tensor place_batch_dims(const Tensor& stacked, const std::vector<BatchLevel>& levels);

// A batched argument: `examples` (row-major over the levels) stacked, reshaped to the levels'
// sizes and placed at their dims. An empty batch is a size-0 slice of `like`, an example's
// geometry. A view when any dim moves: a caller that needs contiguous memory asks for it.
Tensor batch_of(const TensorList& examples, const Tensor& like, const std::vector<BatchLevel>& levels);

// What the loop concluded.
struct LoopAndStack {
  TensorList results;          // result k of every example, stacked and placed at the levels' out dims
  std::optional<Error> error;  // the error of the first example that raised (then no results)
};

// Example e's results (e in [0, the batch's example count)). A funcspec::Error it throws is the
// loop's answer; anything else it throws ends the loop and propagates (a caller's way to give up
// when an example cannot run at all).
using ExampleResults = std::function<TensorList(std::int64_t example)>;
// One example's results for their shapes and dtypes alone (meta tensors will do), when the batch
// is empty. A caller whose batches are never empty passes none.
using ExampleShapes = std::function<TensorList()>;

LoopAndStack loop_and_stack(const std::vector<BatchLevel>& levels, const ExampleResults& example,
                            const ExampleShapes& shapes_of_an_example = {});

}  // namespace funcspec::oracles
