#pragma once
// Where a linalg op's derivative is a convention of PyTorch's and not the derivative of the
// function it computes (OpSampleSpec::derivative_convention, NOTE: [derivative conventions in
// generated programs]). Each returns why for the call `op(inputs, attrs) = results`, or "".
#include <string>

#include "reference/core/tensor.h"
#include "reference/ops/attrs.h"

namespace funcspec::samples {

// svd with full_matrices of a non-square matrix: the completion's tangent is zero (SPEC OPS-8.2).
std::string svd_completion_convention(const TensorList& inputs, const Attrs& attrs, const TensorList& results);

// cholesky_ex and inv_ex where info is not 0: the factor past the failed pivot, or the inverse of
// a singular matrix, has no derivative the spec states (SPEC ERR-2.8, OPS-11.2).
std::string failed_factorization_convention(const TensorList& inputs, const Attrs& attrs, const TensorList& results);

// pinv where the threshold drops a singular value (the rank is below full): PyTorch's constant-rank
// derivative, whose second derivative is not symmetric there (SPEC OPS-9.3).
std::string pinv_threshold_convention(const TensorList& inputs, const Attrs& attrs, const TensorList& results);

// lstsq, through pinv(A, atol=0, rtol=rcond): as pinv's (SPEC OPS-9.4).
std::string lstsq_threshold_convention(const TensorList& inputs, const Attrs& attrs, const TensorList& results);

}  // namespace funcspec::samples
