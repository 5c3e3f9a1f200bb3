#pragma once
// Launchers of the unary kernels (unary.cu), called by the host glue (unary.cpp). Plain C++17.
#include "reference/backends/common/unary_fn.h"
#include "reference/backends/cuda/strided_view.h"

namespace funcspec::cuda {

// out[i] = fn(in[i]), with softplus's parameters from `params`. In is any cuda dtype; Out is In, or
// bool (logical_not's result). Returns false, launching nothing, when fn is not defined on In or
// does not give an Out (the host glue reports that as an internal error).
template <typename In, typename Out>
bool launch_unary(common::UnaryFn fn, const common::UnaryParams& params, const Geometry& geometry,
                  const StridedView<Out>& out, const StridedView<In>& in);

}  // namespace funcspec::cuda
