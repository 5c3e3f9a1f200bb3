#pragma once
// CPU kernels of the reductions (NOTE: [reduction order] in reduce.cpp). Each kernel gets its input
// already cast by the op layer and an output allocated with the inferred shape; `dims` are wrapped,
// distinct reduced dims (an empty list reduces nothing, which the op layer never passes for
// "all dims": it expands None and [] to every dim first).
#include <cstdint>
#include <optional>
#include <span>

#include "reference/core/tensor.h"

namespace funcspec::cpu {

void sum_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void prod_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void amax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void amin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void all_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void any_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
// Index (int64) of the first maximum / minimum along the reduced dims, counted in row-major order
// of the reduced index; NaN counts as both the largest and the smallest value.
void argmax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void argmin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
// The vector p-norm; p is 0, inf, -inf or a positive number (checked by the op layer).
void norm_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, double p);

}  // namespace funcspec::cpu
