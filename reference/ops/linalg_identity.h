#pragma once
// The identity matrix as ops, for the linalg composites and rules that need one (defined in
// linalg_inverse.cpp, its first user).
#include <cstdint>

#include "reference/core/tensor.h"

namespace funcspec {

// The rows×cols matrix with ones on its diagonal (arange(rows)ᵀ == arange(cols)), of `dtype`, on
// `device`. Written in ops, so it is a constant of every transform.
Tensor identity_matrix(std::int64_t rows, std::int64_t cols, DType dtype, Device device);

}  // namespace funcspec
