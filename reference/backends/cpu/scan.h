#pragma once
// CPU kernels of the scans and reorderings. Dims are wrapped by the op layer; outputs are allocated
// with the inferred shapes and, for cumsum/cumprod, the input already has the output's dtype.
#include <cstdint>
#include <span>

#include "reference/core/tensor.h"

namespace funcspec::cpu {

// Prefix sums / products along dim, accumulated sequentially in common::accumulator_t
// (backends/common/accumulator.h).
void cumsum_kernel(const Tensor& in, const Tensor& out, std::int64_t dim);
void cumprod_kernel(const Tensor& in, const Tensor& out, std::int64_t dim);
void flip_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
// Rolls by shifts[i] along dims[i], one dim after the other; with no dims, rolls the row-major
// flattening of `in` by shifts[0].
void roll_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> shifts,
                 std::span<const std::int64_t> dims);
// A stable sort along dim, NaN ordered as the largest value; indices are positions along dim.
void sort_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool descending);
// The first values.size(dim) elements of the stable sort (descending when largest).
void topk_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool largest);

}  // namespace funcspec::cpu
