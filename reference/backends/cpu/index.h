#pragma once
// Kernels of the joining and indexing ops. Index tensors are int64 and are validated in full
// before anything is written, so an out-of-range index never leaves a half-written output.
#include <string_view>

#include "reference/backends/common/index_update.h"
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// Every element of the int64 tensor `index` must lie in [0, size); otherwise index_out_of_range
// naming `op`, the value and the dim.
void check_index_values(std::string_view op, const Tensor& index, std::int64_t dim, std::int64_t size);

// Writes the inputs (all of out's dtype) one after another along `dim` of out. Inputs with no
// elements are skipped, which also covers the legacy shape-[0] inputs of any rank mismatch.
void cat(const TensorList& inputs, std::int64_t dim, const Tensor& out);

// out.select(dim, j) = self.select(dim, index[j]) for each j (index is 0-d or 1-d).
void index_select(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out);

// out[p] = self[p with p[dim] replaced by index[p]] for each position p of index (= out's shape).
void gather(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out);

// out = self, then out[p with p[dim] replaced by index[p]] += src[p] for each position p of index,
// in row-major order of p (a fixed order, so float results are reproducible).
void scatter_add(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim, const Tensor& out);

// scatter and scatter_reduce (NOTE: [scatter modes]): out[q] folds, in row-major order of the
// index positions p with p[dim] = index[p] = q[dim] (self[q] first when include_self), the values
// src[p]; an element no p reaches is self[q]. self, out: one shape; src at least index's.
void scatter_reduce(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim,
                    common::ScatterMode mode, bool include_self, const Tensor& out);

// out = self, then out.select(dim, index[j]) += alpha * source.select(dim, j) for j = 0, 1, ...
void index_add(const Tensor& self, const Tensor& index, const Tensor& source, std::int64_t dim, const Scalar& alpha,
               const Tensor& out);

// out = mask ? value : self, with self, mask and out of one shape and value 0-dim of out's dtype.
void masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value, const Tensor& out);

}  // namespace funcspec::cpu
