#pragma once
// CUDA kernels of the reductions: the cpu's reduce.h, with the same semantics, on cuda tensors. The
// order each output is reduced in is NOTE: [cuda reduction order] (reduce_launch.h): the cpu's own
// sequential order up to 4096 reduced elements, a fixed chunked tree beyond.
#include <cstdint>
#include <span>

#include "reference/core/tensor.h"

namespace funcspec::cuda {

void sum_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void prod_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void amax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void amin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void all_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void any_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void argmax_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void argmin_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void norm_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims, double p);

}  // namespace funcspec::cuda
