#pragma once
// Launchers of the unary kernels (unary.cu), called by the host glue (unary.cpp). Plain C++17.
#include "reference/backends/common/unary_fn.h"
#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// out[i] = fn(in[i]) for a dtype-keeping fn (T any cuda dtype) or a floating fn (T float or double);
// beta and threshold are softplus's, already converted to T. Returns false, launching nothing,
// when fn is not defined on T (the host glue reports that as an internal error).
template <typename T>
bool launch_unary(common::UnaryFn fn, const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& in,
                  T beta, T threshold);

// out[i] = (in[i] == 0).
template <typename T>
void launch_logical_not(const Geometry& geometry, const StridedView<bool>& out, const StridedView<T>& in);

}  // namespace funcspec::cuda
