#pragma once
// CUDA kernels of the triangular and Cholesky ops, with the cpu's signatures and semantics
// (reference/backends/cpu/linalg_triangular.h): inputs arrive canonical, on cuda.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void solve_triangular(const Tensor& a, const Tensor& b, const Tensor& x, bool upper, bool left, bool unitriangular);
void cholesky(const Tensor& a, const Tensor& l, const Tensor& info, bool upper);

}  // namespace funcspec::cuda
