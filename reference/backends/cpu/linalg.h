#pragma once
// cpu kernels of the linalg family (einsum has its own header, linalg_einsum.h). Inputs arrive
// canonical: batch dims already broadcast by the op layer, dtype floating where the op requires it.
#include <string_view>

#include "reference/core/tensor.h"

namespace funcspec::cpu {

// out = self with the entries above (tril) or below (triu) the given diagonal of the last two dims
// set to zero: tril keeps (i, j) with j - i <= diagonal, triu keeps j - i >= diagonal.
void tril_triu(const Tensor& self, const Tensor& out, std::int64_t diagonal, bool lower);

// Over the batch dims of `a` ([*, n, n]); out has shape [*].
void det(const Tensor& a, const Tensor& out);
void slogdet(const Tensor& a, const Tensor& sign, const Tensor& logabsdet);

// A singular matrix is a `singular_matrix` error naming `op` and the batch element.
void inverse(const Tensor& a, const Tensor& out, std::string_view op);

// x solves a·x = b (left) or x·a = b (!left). `a` is [*, n, n]; b and x are [*, n, k] (left) or
// [*, k, n] (!left), or [*, n] when `vector_rhs`; all three share the batch dims [*].
void solve(const Tensor& a, const Tensor& b, const Tensor& x, bool left, bool vector_rhs, std::string_view op);

}  // namespace funcspec::cpu
