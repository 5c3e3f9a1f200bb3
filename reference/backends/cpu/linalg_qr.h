#pragma once
// cpu kernels of the QR decomposition. Inputs arrive canonical: floating, [*, m, n].
#include "reference/core/tensor.h"

namespace funcspec::cpu {

// The Householder QR of each matrix of `a` ([*, m, n]; NOTE: [Householder QR]): R's first
// r.size(-2) rows into `r` ([*, k or m, n]) and, where `compute_q`, Q's first q.size(-1) columns
// into `q` ([*, m, k or m]; otherwise `q` is the empty [0] tensor mode 'r' returns).
void qr(const Tensor& a, const Tensor& q, const Tensor& r, bool compute_q);

}  // namespace funcspec::cpu
