// Transform rules of the dynamic family (item, is_nonzero, nonzero, masked_select): batching is
// refused by the vmap interpreter itself (NOTE: [batching rules]); here are the derivative rules.
// item and is_nonzero return host values, which the jvp interpreter passes through untouched.
#include <numeric>
#include <string>

#include "reference/api/ops.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace {

// The constant [n, *shape] one-hot selector of masked_select: entry [k, j...] is 1 where j is
// true element number k of `mask` (from 0, in row-major order).
Tensor selection_one_hot(const Tensor& mask, std::int64_t selected, DType dtype) {
  // rank_in_mask[j]: how many true elements there are up to j, j included.
  const Tensor flat = ops::reshape(ops::to_dtype(mask, DType::Int64), {mask.numel()});
  const Tensor rank_in_mask = ops::reshape(ops::cumsum(flat, 0), mask.shape());
  std::vector<std::int64_t> column(static_cast<std::size_t>(mask.dim()) + 1, 1);
  column[0] = selected;
  const Tensor k = ops::reshape(ops::arange(std::int64_t{1}, selected + 1, std::int64_t{1}, DType::Int64,
                                            std::string(device_name(mask.device()))),
                                column);
  return ops::to_dtype(ops::logical_and(ops::eq(k, rank_in_mask), mask), dtype);
}

}  // namespace

void register_dynamic_rules(RuleAttacher& attach) {
  // Derivatives.
  attach.non_differentiable("nonzero");
  // Linear in self. masked_select itself cannot be applied to a tangent: reverse mode records
  // tangent ops on meta placeholders, where an output shape that depends on values is refused.
  // The same selection with a static shape is a contraction with a constant one-hot selector
  // (expand, mul, sum), whose transpose scatters each cotangent element back to its position
  // exactly: every position receives one product with 1 and zeros.
  attach.jvp("masked_select", [](const JvpCall& c) -> TensorList {
    const Tensor& tangent = c.tangents[0];
    const Tensor& mask = c.primals[1];
    const std::int64_t selected = c.outputs[0].numel();
    std::vector<std::int64_t> expanded{selected};
    expanded.insert(expanded.end(), mask.shape().begin(), mask.shape().end());
    const Tensor products =
        ops::mul(ops::expand(tangent, expanded), selection_one_hot(mask, selected, tangent.dtype()));
    if (mask.dim() == 0) return {products};
    std::vector<std::int64_t> example_dims(static_cast<std::size_t>(mask.dim()));
    std::iota(example_dims.begin(), example_dims.end(), std::int64_t{1});
    return {ops::sum(products, example_dims)};
  });
}

}  // namespace funcspec::transforms
