#pragma once
// Launchers of the CUDA scans and reorderings (scan.cu), called by the host glue (scan.cpp). Plain
// C++17: nvcc compiles this header too.
//
// Orders: cumsum/cumprod run one thread per lane, sequentially along the dim in the cpu's
// accumulation type (backends/common/accumulator.h), so they equal the cpu bit for bit.
// sort/topk are a bottom-up merge sort per lane that takes from the left run on ties: a stable
// sort, whose result is unique, so values and indices equal the cpu's std::stable_sort.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// The lanes along one dim of up to three operands that agree in every other dim. Lane l (row-major
// over `lanes`: the shape with the dim's size set to 1; rank 0 for a rank-0 tensor, one lane of
// length 1) starts at offset_of(l, lanes, strides[k]) in operand k and steps by steps[k] along the
// dim (0 for a rank-0 tensor).
struct LaneLayout {
  Geometry lanes;
  std::int64_t strides[3][kMaxDims] = {};
  std::int64_t steps[3] = {};
};

// Running sums (or products) of each lane of `length` elements: operand 0 is `in`, 1 is `out`.
template <typename T>
void launch_scan(bool product, const T* in, T* out, const LaneLayout& layout, std::int64_t length);

// What roll (and flip) gather: out's element at index j (row-major position l over `geometry`) is
// in's element at index (j_d - shifts[d]) mod size_d in every dim d, shifts[d] in [0, size_d); with
// `flat`, in's element at row-major position (l - flat_shift) mod numel, flat_shift in [0, numel).
// flip is a view with negated strides and no shift.
struct RollLayout {
  Geometry geometry;
  std::int64_t shifts[kMaxDims] = {};
  bool flat = false;
  std::int64_t flat_shift = 0;
};

template <typename T>
void launch_roll(const StridedView<const T>& in, const StridedView<T>& out, const RollLayout& layout);

// Sorts every lane of `in` (operand 0, `length` elements) stably, ascending with NaN last or
// descending with NaN first, and writes its first `count` elements to `values` (operand 1) and
// their positions in the lane to `indices` (operand 2).
template <typename T>
void launch_sort(const T* in, T* values, std::int64_t* indices, const LaneLayout& layout, std::int64_t length,
                 std::int64_t count, bool descending);

}  // namespace funcspec::cuda
