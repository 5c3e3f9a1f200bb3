#pragma once
// CUDA kernels of the binary elementwise ops: the same interface and semantics as cpu/binary.h.
#include <string_view>

#include "reference/backends/common/binary_fn.h"
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// out[i] = fn(a[i], b[i]) in the operands' dtype; `alpha` scales b for Add and Sub. Integer division or
// remainder by zero and integer powers with a negative exponent are invalid_argument errors,
// raised before anything is written; `op` names the op in the message.
void binary_kernel(std::string_view op, common::BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& out,
                   const Scalar& alpha = Scalar(std::int64_t{1}));

// out[i] = fn(a[i], b[i]) as bool; a and b share a dtype.
void compare_kernel(common::CompareFn fn, const Tensor& a, const Tensor& b, const Tensor& out);

// out[i] = condition[i] ? a[i] : b[i]; condition is bool, a, b and out share a dtype.
void where_kernel(const Tensor& condition, const Tensor& a, const Tensor& b, const Tensor& out);

// out[i] = min(max(self[i], low[i]), high[i]) with either bound possibly undefined (absent); NaN in
// any operand gives NaN.
void clamp_kernel(const Tensor& self, const Tensor& low, const Tensor& high, const Tensor& out);

}  // namespace funcspec::cuda
