#pragma once
// Launcher of the copy kernel (copy.cu), called by the host glue (copy.cpp). Plain C++17.
#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// dst[i] = cast_scalar<D>(src[i]) over `geometry`; dst does not overlap src.
template <typename D, typename S>
void launch_copy(const Geometry& geometry, const StridedView<D>& dst, const StridedView<S>& src);

}  // namespace funcspec::cuda
