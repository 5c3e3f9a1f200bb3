#pragma once
// Sample matrices the linalg sample files share (defined in linalg_samples.cpp).
#include <cstdint>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

// A batch of n×n matrices that are strictly diagonally dominant by rows with margin at least 2:
// off-diagonal entries in [-1, 1), diagonal entries ±[n + 1, n + 2) with random signs. By Varah's
// bound ||A⁻¹||∞ <= 1 / margin = 1/2, and ||A||∞ <= 2n + 1, so cond∞(A) <= n + 1/2. `transposed`
// lays them out column-major (dominant by columns then: cond₁ of it is cond∞ of the rows' layout).
Tensor well_conditioned(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed = false);

}  // namespace funcspec::samples
