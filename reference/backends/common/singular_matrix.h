#pragma once
// The singular_matrix error of inverse and solve, raised by the cpu kernels and by the CUDA
// backend's host glue from the zero pivots its kernels record, so both report it in the same words.
#include <cstdint>
#include <string_view>

#include "reference/core/tensor.h"

namespace funcspec::common {

// The error for the matrix at row-major batch position `element` of `a` ([*, n, n]), whose LU
// factorization has its first zero pivot at `zero_pivot`; `op` names the op.
[[noreturn]] void raise_singular_matrix(const Tensor& a, std::int64_t element, std::int64_t zero_pivot,
                                        std::string_view op);

}  // namespace funcspec::common
