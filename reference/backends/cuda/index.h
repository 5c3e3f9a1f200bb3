#pragma once
// The index family's CUDA kernels (host side): the signatures and semantics of
// reference/backends/cpu/index.h, for tensors on cuda. Index values are checked on the device
// before anything is written; one out of range raises the cpu's index_out_of_range error.
// NOTE: [cuda index kernels] (index_launch.h) gives the order of every accumulation.
#include <string_view>

#include "reference/backends/common/index_update.h"
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void check_index_values(std::string_view op, const Tensor& index, std::int64_t dim, std::int64_t size);
void cat(const TensorList& inputs, std::int64_t dim, const Tensor& out);
void index_select(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out);
void gather(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out);
void scatter_add(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim, const Tensor& out);
void scatter_reduce(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim,
                    common::ScatterMode mode, bool include_self, const Tensor& out);
void index_add(const Tensor& self, const Tensor& index, const Tensor& source, std::int64_t dim, const Scalar& alpha,
               const Tensor& out);
// value: a 0-dim tensor of out's dtype, on the host or on cuda.
void masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value, const Tensor& out);

}  // namespace funcspec::cuda
