#pragma once
// NOTE: [vmap oracle tolerance]
// How far vmap's answer may lie from the loop-and-stack oracle's (NOTE: [loop-and-stack oracle]).
// One policy for every check that compares the two, decided by what was vmapped and by whose loop
// it is compared with:
//   1. Exact: bool and integer results, and every result of an op whose stated accuracy is exact
//      (NOTE: [op samples]: it moves, compares, counts or converts values, or rounds once, as cat,
//      sort, argmax, tril, add do), whoever computed either side; and every result of one op that
//      the reference both vmapped and looped over (the engine's rule tests, in every dtype, the
//      oracle's included). The reference's batching rules run each example's elements through the
//      op's own kernels in the op's documented order (NOTE: [reduction order]; einsum's order in
//      docs/ops/linalg.md), so batching changes no bit: a rule that does is a rule that computes
//      something else.
//   2. One op, vmapped by any backend, against the reference's loop (VMAP-ORACLE): the op's stated
//      accuracy (value_tolerance, NOTE: [op sample cases]). The backend's op rounds as the
//      catalogue lets it, batched or not, so vmap of the op is held to what the op is held to.
//   3. A generated program (several ops, maybe under grad, jvp, vjp or more vmaps), against the loop
//      run by the same backend (the property laws): |vmap - loop| <= atol * max(1, max|loop|) +
//      rtol * |loop|, atol 1e-12 and rtol 1e-10 in float64, 1e-5 and 1e-4 in float32. A backend may
//      batch a step with other kernels than it runs on one example (a batched matmul, a reduction's
//      transpose summing over the batch) and roundings compound over the steps; the bound stays
//      orders of magnitude below what a law exists to find (examples mixed up, a batch dim dropped
//      or misplaced, a wrong rule).
// Exact means equal values, NaN equal to NaN. Where the engine compares tensors in process
// (vmap_difference), a NaN or an infinity equals only itself under every bound, and exact also
// tells the zeros apart by their sign; a case's comparison (judge) equates the zeros.
#include <optional>
#include <string>
#include <variant>

#include "conformance/case/case.h"
#include "conformance/samples/op_samples.h"
#include "reference/core/tensor.h"

namespace funcspec::oracles {

// What vmap's answer is compared with, one alternative per item of the NOTE above (the first item
// also cuts across the others).
struct ReferenceAgainstItsLoop {};  // 1: one op, vmapped and looped over by the reference
struct OpAgainstReferenceLoop {     // 2
  samples::OracleTolerance stated;  // the op's stated accuracy
  TensorList inputs;                // one example's inputs, which a stated input_scale scales with
};
struct ProgramAgainstOwnLoop {};  // 3
using VmapComparison = std::variant<ReferenceAgainstItsLoop, OpAgainstReferenceLoop, ProgramAgainstOwnLoop>;

// The bound for a result whose oracle value (the loop's, stacked) is `truth`.
conformance::Tolerance vmap_oracle_tolerance(const VmapComparison& comparison, const Tensor& truth);
conformance::Tolerance vmap_oracle_tolerance(const VmapComparison& comparison, const conformance::TensorData& truth);

// Where vmap's `got` differs from the oracle's `want` beyond `tolerance` (a bound of the policy:
// atol and rtol, no ulps), in words: dtype, shape, or the first element out of bounds; nothing
// when they agree. Oracle-dtype tensors (the Tensor overload) are compared exactly.
std::optional<std::string> vmap_difference(const conformance::TensorData& got, const conformance::TensorData& want,
                                           const conformance::Tolerance& tolerance);
std::optional<std::string> vmap_difference(const Tensor& got, const Tensor& want,
                                           const conformance::Tolerance& tolerance);

}  // namespace funcspec::oracles
