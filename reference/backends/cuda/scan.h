#pragma once
// CUDA kernels of the scans and reorderings: the cpu's scan.h, with the same semantics (and the same
// orders: scan_launch.h), on cuda tensors.
#include <cstdint>
#include <span>

#include "reference/core/tensor.h"

namespace funcspec::cuda {

void cumsum_kernel(const Tensor& in, const Tensor& out, std::int64_t dim);
void cumprod_kernel(const Tensor& in, const Tensor& out, std::int64_t dim);
void flip_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> dims);
void roll_kernel(const Tensor& in, const Tensor& out, std::span<const std::int64_t> shifts,
                 std::span<const std::int64_t> dims);
void sort_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool descending);
void topk_kernel(const Tensor& in, const Tensor& values, const Tensor& indices, std::int64_t dim, bool largest);

}  // namespace funcspec::cuda
