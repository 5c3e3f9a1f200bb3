#pragma once
// The unary elementwise functions and their parameters, shared by the cpu and CUDA backends (plain
// C++17, so the CUDA launchers take them too).

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

// Neg to Round keep the input's dtype; the rest compute in a floating dtype (LogicalNot aside).
constexpr bool keeps_dtype(UnaryFn fn) { return fn <= UnaryFn::Round; }

struct UnaryParams {
  double beta = 1.0;        // softplus
  double threshold = 20.0;  // softplus
};

}  // namespace funcspec::common
