#pragma once
// Launchers of the dynamic family's CUDA kernels (dynamic.cu), called by the host glue
// (dynamic.cpp). Plain C++17.
//
// NOTE: [cuda dynamic kernels]
// nonzero and masked_select select elements in row-major order. The elements are cut into chunks
// of kDynamicChunk consecutive row-major positions, one thread per chunk: a first kernel counts the
// selected elements of each chunk, the host turns the counts into each chunk's first output row
// (an exclusive prefix sum, in order) and allocates the output, and a second kernel has each
// thread walk its chunk again and write its selections from that row on. The output is therefore
// the cpu's, row for row, whatever the schedule; the host waits for the counts (PyTorch
// synchronises there too).
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

inline constexpr std::int64_t kDynamicChunk = 1024;

inline std::int64_t dynamic_chunks(std::int64_t numel) { return (numel + kDynamicChunk - 1) / kDynamicChunk; }

// counts[c] = the number of non-zero elements (NaN counts; -0.0 does not) among positions
// [c * kDynamicChunk, (c + 1) * kDynamicChunk) of self.
template <typename T>
void launch_count_nonzero(const Geometry& geometry, const StridedView<T>& self, std::int64_t* counts);

// Writes the coordinates of chunk c's non-zero elements to rows starts[c], starts[c] + 1, ... of
// the contiguous int64 [n, rank] `out`.
template <typename T>
void launch_write_nonzero(const Geometry& geometry, const StridedView<T>& self, const std::int64_t* starts,
                          std::int64_t* out);

// counts[c] = the number of true mask elements in chunk c.
void launch_count_selected(const Geometry& geometry, const StridedView<bool>& mask, std::int64_t* counts);

// Writes self's elements where mask is true, chunk c's from out[starts[c]] on (out contiguous 1-D).
template <typename T>
void launch_write_selected(const Geometry& geometry, const StridedView<T>& self, const StridedView<bool>& mask,
                           const std::int64_t* starts, T* out);

}  // namespace funcspec::cuda
