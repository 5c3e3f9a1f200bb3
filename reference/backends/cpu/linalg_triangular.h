#pragma once
// cpu kernels of the triangular and Cholesky ops of the linalg family. Inputs arrive canonical:
// batch dims already broadcast by the op layer, one floating dtype.
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// x solves tri(a)·x = b (left) or x·tri(a) = b (!left), tri(a) the lower or upper triangle of `a`
// (with a unit diagonal when `unitriangular`): NOTE: [triangular substitution]. `a` is [*, n, n];
// b and x are [*, n, k] (left) or [*, k, n] (!left), all three with the same batch dims [*].
void solve_triangular(const Tensor& a, const Tensor& b, const Tensor& x, bool upper, bool left, bool unitriangular);

// l = the Cholesky factor of each matrix of `a` ([*, n, n]) from its lower triangle, or with `upper`
// the upper factor from its upper triangle (NOTE: [Cholesky factorization]); info ([*], int64) = 0,
// or the order of the first leading minor that is not positive-definite.
void cholesky(const Tensor& a, const Tensor& l, const Tensor& info, bool upper);

}  // namespace funcspec::cpu
