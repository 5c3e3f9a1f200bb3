#pragma once
// cpu kernels of the spectral linalg ops (eigh). Inputs arrive canonical: floating, [*, n, n].
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// The eigen-decomposition of each symmetric matrix rebuilt from the lower (else upper) triangle of
// `a` ([*, n, n]): eigenvalues [*, n] ascending, eigenvectors [*, n, n] in the columns
// (NOTE: [cyclic Jacobi eigenvalue algorithm]).
void eigh(const Tensor& a, const Tensor& eigenvalues, const Tensor& eigenvectors, bool lower);

}  // namespace funcspec::cpu
