#pragma once
// The unary elementwise functions and their parameters, shared by the cpu and CUDA backends (plain
// C++17, so the CUDA launchers take them too).
//
// Adding a function: its value here, and its functor and its case (which names its domain) in
// visit_unary_fn (unary_functors.h), with its scalar math in unary_math.h if it is new. Both
// backends' kernels dispatch through visit_unary_fn, so nothing in cpu/ or cuda/ changes; a value
// without its case does not compile. The op that uses it is declared in reference/ops/unary.cpp.

namespace funcspec::common {

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
  Trunc,
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
  LogSigmoid,
  Erf,
  Gelu,
  GeluTanh,
  Softplus,
  SpecialEntr,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Exp2,
  Log2,
  Log10,
  Erfc,
  Frac,
  // Any input dtype, bool result.
  LogicalNot,
  Isnan,
  Isinf,
  Isfinite,
};

struct UnaryParams {
  double beta = 1.0;        // softplus
  double threshold = 20.0;  // softplus
};

}  // namespace funcspec::common
