#pragma once
// CUDA kernels of the linalg family (einsum has its own header, linalg_einsum.h), with the cpu's
// signatures and semantics (reference/backends/cpu/linalg.h): inputs arrive canonical, on cuda.
#include <string_view>

#include "reference/core/tensor.h"

namespace funcspec::cuda {

void tril_triu(const Tensor& self, const Tensor& out, std::int64_t diagonal, bool lower);

void det(const Tensor& a, const Tensor& out);
void slogdet(const Tensor& a, const Tensor& sign, const Tensor& logabsdet);

// A singular matrix is the cpu's `singular_matrix` error, naming the first singular batch element.
void inverse(const Tensor& a, const Tensor& out, std::string_view op);
void solve(const Tensor& a, const Tensor& b, const Tensor& x, bool left, bool vector_rhs, std::string_view op);

}  // namespace funcspec::cuda
