#pragma once
// The resampling family's piece that another family's op uses: pad's reflect, replicate and circular
// modes (pad itself is declared with the index ops, reference/ops/index.cpp; docs/ops/resampling.md).
#include <cstdint>
#include <string>
#include <vector>

#include "reference/core/scalar.h"
#include "reference/core/tensor.h"

namespace funcspec {

// F.pad with mode 'reflect', 'replicate' or 'circular' (SPEC OPS-19.1): every argument check
// PyTorch's _pad_enum and its kernels make, then one index_select per padded dim, so the derivative
// accumulates onto the source elements. `pad` has an even length of at most 2 * self.dim(), as pad
// checked already.
Tensor pad_with_mode(const Tensor& self, const std::vector<std::int64_t>& pad, const std::string& mode,
                     const Scalar& value);

}  // namespace funcspec
