#pragma once
// Launchers of the index family's CUDA kernels (index.cu), called by the host glue (index.cpp).
// Plain C++17: every tensor arrives as a Geometry plus StridedView<T> (strided_view.h).
//
// NOTE: [cuda index kernels]
// Every kernel computes one OUTPUT element per thread (grid-stride loop), so no two threads write
// the same element and no atomics touch the results. scatter_add and index_add are accumulations:
// the thread of output element q starts from self[q] and adds, one after another, the sources that
// land on q in the order the cpu kernel visits them (scatter_add: index positions in row-major
// order; index_add: j = 0, 1, ...). That costs a scan over the candidate sources per output
// element (O(numel(out) * index.size(dim)) for scatter_add, O(numel(out) * numel(index)) for
// index_add), acceptable for a reference, and gives the cpu's bits exactly: the same operations in
// the same order, each rounded separately (no contraction into fma).
// Index values are checked by a first pass before anything is written: it reports the row-major
// position of the first value out of range (an integer atomicMin, so the answer does not depend on
// the schedule), and the host glue raises the cpu's error for it.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// The row-major position (over `geometry`) of the first value of the int64 tensor `index` outside
// [0, size), or -1 when every value lies inside.
std::int64_t first_index_out_of_range(const Geometry& geometry, const StridedView<std::int64_t>& index,
                                      std::int64_t size);

// dst[p] = src[p] for every position p of `geometry` (same dtype; any strides, dst not overlapping).
template <typename T>
void launch_strided_copy(const Geometry& geometry, const StridedView<T>& src, const StridedView<T>& dst);

// In the launchers below, `dim` is the indexed dim of the output geometry, or -1 when that
// geometry has rank 0 (no dim: the indexed coordinate is always 0, its strides 0).

// index_select: out[p] = self[p with p[dim] = index[p[dim]]], p over out's geometry. `self` has
// its stride of dim set to 0 (the kernel adds index * self_step); index is 0-d or 1-d: element j at
// index_data[j * index_stride].
template <typename T>
void launch_index_select(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                         std::int64_t self_step, const std::int64_t* index_data, std::int64_t index_stride);

// gather: out[p] = self[p with p[dim] = index[p]], p over index's geometry (= out's). `self` has its
// stride of dim set to 0 (the kernel adds index[p] * self_step).
template <typename T>
void launch_gather(const Geometry& geometry, const StridedView<T>& out, const StridedView<std::int64_t>& index,
                   const StridedView<T>& self, std::int64_t self_step);

// scatter_add: out[q] = self[q] + the src[p] with p[d] = q[d] for d != dim and index[p] = q[dim], in
// increasing p[dim] (the cpu's row-major order restricted to those p). out, self: out_geometry;
// index and src: `index_geometry` (index's shape), with their own strides.
template <typename T>
void launch_scatter_add(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                        const Geometry& index_geometry, const StridedView<std::int64_t>& index,
                        const StridedView<T>& src);

// scatter and scatter_reduce: out[q] folds self[q] (when include_self) and then the src[p] that
// land on q, in increasing p[dim] (the cpu's row-major order restricted to those p), with the
// combination of `mode` (a common::ScatterMode; NOTE: [scatter modes]); an element nothing reaches
// is self[q]. Geometries as for launch_scatter_add.
template <typename T>
void launch_scatter_reduce(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                           const Geometry& index_geometry, const StridedView<std::int64_t>& index,
                           const StridedView<T>& src, int mode, bool include_self);

// index_add: out[q] = self[q] + alpha * source[q with q[dim] = j] for each j with index[j] = q[dim],
// in increasing j. `source` has its stride of dim set to 0 (the kernel adds j * source_step);
// index (0-d or 1-d, `index_count` elements) at index_data[j * index_stride].
template <typename T>
void launch_index_add(const Geometry& out_geometry, int dim, const StridedView<T>& out, const StridedView<T>& self,
                      const StridedView<T>& source, std::int64_t source_step, const std::int64_t* index_data,
                      std::int64_t index_stride, std::int64_t index_count, T alpha);

// masked_fill: out[p] = mask[p] ? value : self[p].
template <typename T>
void launch_masked_fill(const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& self,
                        const StridedView<bool>& mask, T value);

}  // namespace funcspec::cuda
