// Transform rules of pinv_with_tolerances, the custom op that carries pinv's derivative (NOTE: [pinv
// derivative] in reference/ops/linalg_pinv.cpp); pinv, lstsq and matrix_rank are composites of it.
#include <algorithm>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace pinv_rules {
namespace {

Tensor matrix_product(const Tensor& x, const Tensor& y) { return ops::einsum("...ij,...jk->...ik", {x, y}); }
Tensor transposed(const Tensor& x) { return ops::einsum("...ij->...ji", {x}); }

// The symmetric matrix eigh reads from x (its lower triangle, reflected). Linear in x.
Tensor lower_symmetric(const Tensor& x) { return ops::add(ops::tril(x), transposed(ops::tril(x, -1))); }

// The derivative of the pseudo-inverse P of A at constant rank along dA (NOTE: [pinv derivative]):
//   dP = −P dA P + P Pᵀ dAᵀ (I − A P) + (I − P A) dAᵀ Pᵀ P,
// PyTorch's pinv_jvp with its products regrouped (the identity never formed). Linear in dA.
Tensor constant_rank_derivative(const Tensor& a, const Tensor& p, const Tensor& da) {
  const Tensor pt = transposed(p);
  const Tensor dat = transposed(da);
  const Tensor left = matrix_product(matrix_product(p, pt), dat);   // P Pᵀ dAᵀ
  const Tensor right = matrix_product(dat, matrix_product(pt, p));  // dAᵀ Pᵀ P
  const Tensor first = ops::neg(matrix_product(matrix_product(p, da), p));
  const Tensor second = ops::sub(left, matrix_product(matrix_product(left, a), p));
  const Tensor third = ops::sub(right, matrix_product(matrix_product(p, a), right));
  return ops::add(ops::add(first, second), third);
}

}  // namespace
}  // namespace pinv_rules

void register_linalg_pinv_rules(RuleAttacher& attach) {
  using namespace pinv_rules;
  // A [*a, m, n] and the tolerances [*t], [*r] broadcast their batch dims from the right: each
  // batched input goes to the front, padded with size-1 dims to the longest example batch, so the
  // op runs once and its batch dims broadcast as the examples' would.
  attach.batch("pinv_with_tolerances",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
                 rules::check_examples("pinv_with_tolerances", in, attrs);
                 const std::int64_t batch_rank =
                     std::max({in[0].logical_rank() - 2, in[1].logical_rank(), in[2].logical_rank()});
                 TensorList values;
                 for (std::size_t i = 0; i < 3; ++i) {
                   const std::int64_t matrix_dims = i == 0 ? 2 : 0;
                   values.push_back(rules::align_example_rank(rules::batch_to_front(in[i]), in[i].batched(),
                                                              in[i].logical_rank(), batch_rank + matrix_dims));
                 }
                 return rules::batched_at_front(call("pinv_with_tolerances", values, attrs));
               });
  // Only A's tangent moves P (the tolerances' are dropped: P is locally constant in them). Where
  // hermitian, A enters as the symmetric matrix of its lower triangle, and so does its tangent.
  attach.jvp("pinv_with_tolerances", [](const JvpCall& c) -> TensorList {
    if (!c.tangents[0].defined()) return {Tensor()};
    const bool hermitian = c.attrs.get_bool("hermitian");
    const Tensor a = hermitian ? lower_symmetric(c.primals[0]) : c.primals[0];
    const Tensor da = hermitian ? lower_symmetric(c.tangents[0]) : c.tangents[0];
    return {constant_rank_derivative(a, c.outputs[0], da)};
  });
}

}  // namespace funcspec::transforms
