#pragma once
// CUDA kernels of lu_factor, matrix_exp and matrix_exp_frechet, with the cpu's signatures and
// semantics (reference/backends/cpu/linalg_lu_exp.h): inputs arrive canonical, on cuda.
#include "reference/core/tensor.h"

namespace funcspec::cuda {

void lu_factor(const Tensor& a, const Tensor& lu, const Tensor& pivots, bool pivot);
void matrix_exp(const Tensor& a, const Tensor& out);
void matrix_exp_frechet(const Tensor& a, const Tensor& e, const Tensor& out);

}  // namespace funcspec::cuda
