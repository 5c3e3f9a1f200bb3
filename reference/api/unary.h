#pragma once
// Typed wrappers of the unary elementwise ops: `op(x)`, in-place `op_(x)` and `op_out(x, out)`.
#include <string>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

#define FUNCSPEC_UNARY_WRAPPERS(name)                                               \
  inline Tensor name(const Tensor& self) { return call_one(#name, {self}); }        \
  inline Tensor name##_(const Tensor& self) { return call_one(#name "_", {self}); } \
  inline Tensor name##_out(const Tensor& self, const Tensor& out) { return call_one(#name ".out", {self, out}); }

FUNCSPEC_UNARY_WRAPPERS(neg)
FUNCSPEC_UNARY_WRAPPERS(abs)
FUNCSPEC_UNARY_WRAPPERS(sign)
FUNCSPEC_UNARY_WRAPPERS(square)
FUNCSPEC_UNARY_WRAPPERS(relu)
FUNCSPEC_UNARY_WRAPPERS(floor)
FUNCSPEC_UNARY_WRAPPERS(ceil)
FUNCSPEC_UNARY_WRAPPERS(round)
FUNCSPEC_UNARY_WRAPPERS(exp)
FUNCSPEC_UNARY_WRAPPERS(expm1)
FUNCSPEC_UNARY_WRAPPERS(log)
FUNCSPEC_UNARY_WRAPPERS(log1p)
FUNCSPEC_UNARY_WRAPPERS(sqrt)
FUNCSPEC_UNARY_WRAPPERS(rsqrt)
FUNCSPEC_UNARY_WRAPPERS(reciprocal)
FUNCSPEC_UNARY_WRAPPERS(sin)
FUNCSPEC_UNARY_WRAPPERS(cos)
FUNCSPEC_UNARY_WRAPPERS(tan)
FUNCSPEC_UNARY_WRAPPERS(tanh)
FUNCSPEC_UNARY_WRAPPERS(sigmoid)
FUNCSPEC_UNARY_WRAPPERS(erf)
FUNCSPEC_UNARY_WRAPPERS(logical_not)
#undef FUNCSPEC_UNARY_WRAPPERS

// approximate: "none" (exact, with the normal cdf) or "tanh".
inline Tensor gelu(const Tensor& self, const std::string& approximate = "none") {
  return call_one("gelu", {self}, {{"approximate", approximate}});
}
inline Tensor gelu_(const Tensor& self, const std::string& approximate = "none") {
  return call_one("gelu_", {self}, {{"approximate", approximate}});
}
inline Tensor gelu_out(const Tensor& self, const Tensor& out, const std::string& approximate = "none") {
  return call_one("gelu.out", {self, out}, {{"approximate", approximate}});
}

inline Tensor softplus(const Tensor& self, double beta = 1.0, double threshold = 20.0) {
  return call_one("softplus", {self}, {{"beta", beta}, {"threshold", threshold}});
}
inline Tensor softplus_(const Tensor& self, double beta = 1.0, double threshold = 20.0) {
  return call_one("softplus_", {self}, {{"beta", beta}, {"threshold", threshold}});
}
inline Tensor softplus_out(const Tensor& self, const Tensor& out, double beta = 1.0, double threshold = 20.0) {
  return call_one("softplus.out", {self, out}, {{"beta", beta}, {"threshold", threshold}});
}

}  // namespace funcspec::ops
