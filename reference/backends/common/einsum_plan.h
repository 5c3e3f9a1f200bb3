#pragma once
// The plan of an einsum equation: shared by the op layer's infer (which must not read data), its
// transpose rule and the cpu and CUDA kernels.
#include <string_view>
#include <vector>

#include "reference/core/tensor.h"

namespace funcspec::common {

// NOTE: [einsum plan]
// An equation names every dim of every operand by a label (a letter, or a position inside the
// ellipsis). The plan turns it into one iteration space: the output's dims first, in output order,
// then the summed dims. Each operand reads element
//   operand[sum over its dims d of index[label(d)] * stride(d)]
// so a label repeated inside one operand (`ii`) walks its diagonal, and an operand whose dim has
// size 1 while the label has a larger size gets stride 0 there (broadcasting). The ellipsis dims of
// all operands are right-aligned and broadcast like the batch dims of any other op.
struct EinsumPlan {
  // Size of each iteration dim: output dims first, then summed dims.
  std::vector<std::int64_t> sizes;
  std::size_t output_rank = 0;
  // For each operand and each of its dims, the iteration dim it is indexed by.
  std::vector<std::vector<std::size_t>> operand_dims;
  Shape output_shape() const { return Shape(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(output_rank)); }
};

// Parses `equation` against the operands' shapes and checks it: the number of terms must equal the
// number of operands (invalid_argument), each term must name as many dims as its operand has
// (shape_mismatch), a label repeated inside one operand must have one size there and sizes of one
// label across operands must be equal or 1 (shape_mismatch); unknown characters, a misplaced '.',
// output labels that are repeated or appear in no operand are invalid_argument.
EinsumPlan plan_einsum(std::string_view equation, const std::vector<Shape>& operand_shapes);

}  // namespace funcspec::common
