#pragma once
// CUDA kernels of the QR decomposition, with the cpu's signatures and semantics
// (reference/backends/cpu/linalg_qr.h): inputs arrive canonical, on cuda.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void qr(const Tensor& a, const Tensor& q, const Tensor& r, bool compute_q);

}  // namespace funcspec::cuda
