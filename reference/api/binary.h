#pragma once
// Typed wrappers of the binary elementwise ops: `op(a, b)`, in-place `op_(a, b)` and
// `op_out(a, b, out)`. A literal operand is passed as `ops::lit(2.5)` (a wrapped number).
#include <optional>
#include <string>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  return call_one("add", {self, other}, {{"alpha", alpha}});
}
inline Tensor add_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  return call_one("add_", {self, other}, {{"alpha", alpha}});
}
inline Tensor add_out(const Tensor& self, const Tensor& other, const Tensor& out, const Scalar& alpha = 1) {
  return call_one("add.out", {self, other, out}, {{"alpha", alpha}});
}

inline Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  return call_one("sub", {self, other}, {{"alpha", alpha}});
}
inline Tensor sub_(const Tensor& self, const Tensor& other, const Scalar& alpha = 1) {
  return call_one("sub_", {self, other}, {{"alpha", alpha}});
}
inline Tensor sub_out(const Tensor& self, const Tensor& other, const Tensor& out, const Scalar& alpha = 1) {
  return call_one("sub.out", {self, other, out}, {{"alpha", alpha}});
}

// rounding_mode: none (true division), "trunc" or "floor".
inline Attrs div_attrs(const std::optional<std::string>& rounding_mode) {
  if (!rounding_mode) return {};
  return {{"rounding_mode", *rounding_mode}};
}
inline Tensor div(const Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode = {}) {
  return call_one("div", {self, other}, div_attrs(rounding_mode));
}
inline Tensor div_(const Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode = {}) {
  return call_one("div_", {self, other}, div_attrs(rounding_mode));
}
inline Tensor div_out(const Tensor& self, const Tensor& other, const Tensor& out,
                      const std::optional<std::string>& rounding_mode = {}) {
  return call_one("div.out", {self, other, out}, div_attrs(rounding_mode));
}

#define FUNCSPEC_BINARY_WRAPPERS(name)                                                                          \
  inline Tensor name(const Tensor& self, const Tensor& other) { return call_one(#name, {self, other}); }        \
  inline Tensor name##_(const Tensor& self, const Tensor& other) { return call_one(#name "_", {self, other}); } \
  inline Tensor name##_out(const Tensor& self, const Tensor& other, const Tensor& out) {                        \
    return call_one(#name ".out", {self, other, out});                                                          \
  }

FUNCSPEC_BINARY_WRAPPERS(mul)
FUNCSPEC_BINARY_WRAPPERS(pow)
FUNCSPEC_BINARY_WRAPPERS(maximum)
FUNCSPEC_BINARY_WRAPPERS(minimum)
FUNCSPEC_BINARY_WRAPPERS(atan2)
FUNCSPEC_BINARY_WRAPPERS(remainder)
FUNCSPEC_BINARY_WRAPPERS(eq)
FUNCSPEC_BINARY_WRAPPERS(ne)
FUNCSPEC_BINARY_WRAPPERS(lt)
FUNCSPEC_BINARY_WRAPPERS(le)
FUNCSPEC_BINARY_WRAPPERS(gt)
FUNCSPEC_BINARY_WRAPPERS(ge)
FUNCSPEC_BINARY_WRAPPERS(logical_and)
FUNCSPEC_BINARY_WRAPPERS(logical_or)
#undef FUNCSPEC_BINARY_WRAPPERS

inline Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return call_one("where", {condition, self, other});
}
inline Tensor where_out(const Tensor& condition, const Tensor& self, const Tensor& other, const Tensor& out) {
  return call_one("where.out", {condition, self, other, out});
}

// An undefined Tensor() stands for an absent bound.
inline Tensor clamp(const Tensor& self, const Tensor& min, const Tensor& max) {
  return call_one("clamp", {self, min, max});
}
inline Tensor clamp_(const Tensor& self, const Tensor& min, const Tensor& max) {
  return call_one("clamp_", {self, min, max});
}
inline Tensor clamp_out(const Tensor& self, const Tensor& min, const Tensor& max, const Tensor& out) {
  return call_one("clamp.out", {self, min, max, out});
}

}  // namespace funcspec::ops
