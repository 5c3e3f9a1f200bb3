#pragma once
// CPU kernels of the unary elementwise ops (reference/ops/unary.cpp declares the ops).
#include "reference/core/tensor.h"

namespace funcspec::cpu {

enum class UnaryFn {
  // Keep the input's dtype (bool only where the op layer allows it).
  Neg,
  Abs,
  Sign,
  Square,
  Relu,
  Floor,
  Ceil,
  Round,
  // Floating only: the op layer has converted integer inputs or rejected them.
  Exp,
  Expm1,
  Log,
  Log1p,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Sin,
  Cos,
  Tan,
  Tanh,
  Sigmoid,
  Erf,
  Gelu,
  GeluTanh,
  Softplus,
  // Any input dtype, bool result.
  LogicalNot,
};

struct UnaryParams {
  double beta = 1.0;        // softplus
  double threshold = 20.0;  // softplus
};

// out[i] = fn(in[i]); `in` and `out` have one shape, and one dtype except for LogicalNot (bool out).
void unary_kernel(UnaryFn fn, const Tensor& in, const Tensor& out, const UnaryParams& params = {});

}  // namespace funcspec::cpu
