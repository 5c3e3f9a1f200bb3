#pragma once
// cpu kernels of lu_factor and matrix_exp (reference/ops/linalg_lu_ops.cpp): the per-matrix routines
// of reference/backends/common/linalg_lu.h and matrix_exp.h over the batch dims. Inputs arrive
// canonical: floating, of any strides.
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// a is [*, m, n]; lu is [*, m, n] (U on and above the diagonal, L's multipliers below) and pivots
// [*, min(m, n)] int64 (LAPACK's 1-based getrf pivots), NOTE: [LU with partial pivoting]; without
// `pivot` no row is swapped.
void lu_factor(const Tensor& a, const Tensor& lu, const Tensor& pivots, bool pivot);

// out = exp(a) for each [n, n] matrix of a ([*, n, n]), NOTE: [matrix exponential].
void matrix_exp(const Tensor& a, const Tensor& out);

// out = the Fréchet derivative of exp at a in the direction e: the upper-right n×n block of the
// exponential of the 2n×2n block matrix [[a, e], [0, a]] (a and e [*, n, n], same batch dims).
void matrix_exp_frechet(const Tensor& a, const Tensor& e, const Tensor& out);

}  // namespace funcspec::cpu
