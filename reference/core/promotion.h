#pragma once
#include <span>
#include <string_view>

#include "reference/core/dtype.h"
#include "reference/core/tensor.h"

namespace funcspec {

// The smallest dtype of the lattice bool < int64 < float32 < float64 < oracle that holds both.
DType promote_types(DType a, DType b);

// NOTE: [type promotion]
// PyTorch's rule, for the dtypes of the reference. Operands fall in three priority classes: tensors
// with at least one dim, 0-dim tensors, and wrapped numbers (literals). Within a class dtypes
// promote on the lattice. A lower class changes the result only when it is of a higher *category*
// (bool < integer < floating) than every higher class, and then only up to what that category
// needs: a 0-dim tensor brings its own dtype, a float literal brings the default float (float32),
// an int literal int64. So int64[3] + 2.5 -> float32, float32[3] + float64[] -> float32,
// int64[3] + float64[] -> float64, bool[3] + 1 -> int64.
DType result_type(std::span<const Tensor> operands);

// Whether a result of dtype `from` may be written into a tensor of dtype `to` by an in-place op or
// out=: never into a lower category (float into int64, int64 into bool).
bool can_cast(DType from, DType to);

}  // namespace funcspec
