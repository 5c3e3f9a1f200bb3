#pragma once
// Sample matrices the linalg sample files share (defined in linalg_samples.cpp).
#include <cstdint>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

// A batch of n×n matrices that are strictly diagonally dominant by rows with margin at least 2:
// off-diagonal entries in [-1, 1), diagonal entries ±[n + 1, n + 2) with random signs. By Varah's
// bound ||A⁻¹||∞ <= 1 / margin = 1/2, and ||A||∞ <= 2n + 1, so cond∞(A) <= n + 1/2. `transposed`
// lays them out column-major (dominant by columns then: cond₁ of it is cond∞ of the rows' layout).
Tensor well_conditioned(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed = false);

// A random n×n orthogonal matrix (row-major, float64): the product of n Householder reflections
// of vectors drawn uniformly from [-1, 1)ⁿ (one whose squared norm is below 1e-3 is skipped).
std::vector<double> random_orthogonal(SampleRng& rng, std::int64_t n);

}  // namespace funcspec::samples
