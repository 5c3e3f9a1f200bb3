#pragma once
// Launchers of the creation kernels (creation.cu), called by the host glue (creation.cpp). Plain C++17.
#include <cstdint>

#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// Every element of out set to value.
template <typename T>
void launch_fill(const Geometry& geometry, const StridedView<T>& out, T value);

// out[i * stride] for i in [0, n): cast_scalar<T>(start_int + i * step_int) when `integral`, else
// cast_scalar<T>(start + double(i) * step) with each operation rounded in double, as the cpu
// kernel computes it.
template <typename T>
void launch_arange(T* out, std::int64_t n, std::int64_t stride, bool integral, std::int64_t start_int,
                   std::int64_t step_int, double start, double step);

}  // namespace funcspec::cuda
