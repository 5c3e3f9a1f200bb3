#pragma once
// cpu kernel of svd. Inputs arrive canonical: floating, [*, m, n].
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// The singular value decomposition A = U·diag(S)·Vh of each matrix of `a` ([*, m, n], k = min(m, n)):
// U [*, m, m or k], S [*, k] descending, Vh [*, n or k, n] (NOTE: [one-sided Jacobi singular value
// decomposition]).
void svd(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices);

}  // namespace funcspec::cpu
