#pragma once
// The permutation matrix of LAPACK-style LU pivots, shared by the composites lu and lu_solve
// (linalg_lu_ops.cpp) and by lu_factor's derivative (reference/rules/linalg_lu.cpp).
#include <cstdint>

#include "reference/core/tensor.h"

namespace funcspec {

// P ([*, rows, rows], `dtype`, on the pivots' device) with A = P·L·U for pivots ([*, k], int64,
// 1-based: step j swapped rows j and pivots[j] - 1) as lu_factor returns them: the product
// T_0·T_1·...·T_(k-1) of the row transpositions, each I - d·dᵀ with d = e_j - e_(pivots[j]-1)
// (I when the row was not swapped), so every entry is an exact 0 or 1. Written in ops, so it batches
// and is a constant of every derivative (the pivots are integers).
Tensor lu_permutation_matrix(const Tensor& pivots, std::int64_t rows, DType dtype);

}  // namespace funcspec
