#pragma once
#include <string>
#include <utility>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor einsum(const std::string& equation, const TensorList& operands) {
  return call_one("einsum", operands, {{"equation", equation}});
}
inline Tensor mm(const Tensor& self, const Tensor& mat2) { return call_one("mm", {self, mat2}); }
inline Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  return call_one("mm.out", {self, mat2, out});
}
inline Tensor bmm(const Tensor& self, const Tensor& mat2) { return call_one("bmm", {self, mat2}); }
inline Tensor mv(const Tensor& self, const Tensor& vec) { return call_one("mv", {self, vec}); }
inline Tensor dot(const Tensor& self, const Tensor& tensor) { return call_one("dot", {self, tensor}); }
inline Tensor outer(const Tensor& self, const Tensor& vec2) { return call_one("outer", {self, vec2}); }
inline Tensor matmul(const Tensor& self, const Tensor& other) { return call_one("matmul", {self, other}); }
inline Tensor matmul_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return call_one("matmul.out", {self, other, out});
}
inline Tensor trace(const Tensor& self) { return call_one("trace", {self}); }

inline Tensor tril(const Tensor& self, std::int64_t diagonal = 0) {
  return call_one("tril", {self}, {{"diagonal", diagonal}});
}
inline Tensor tril_(const Tensor& self, std::int64_t diagonal = 0) {
  return call_one("tril_", {self}, {{"diagonal", diagonal}});
}
inline Tensor tril_out(const Tensor& self, const Tensor& out, std::int64_t diagonal = 0) {
  return call_one("tril.out", {self, out}, {{"diagonal", diagonal}});
}
inline Tensor triu(const Tensor& self, std::int64_t diagonal = 0) {
  return call_one("triu", {self}, {{"diagonal", diagonal}});
}
inline Tensor triu_(const Tensor& self, std::int64_t diagonal = 0) {
  return call_one("triu_", {self}, {{"diagonal", diagonal}});
}
inline Tensor triu_out(const Tensor& self, const Tensor& out, std::int64_t diagonal = 0) {
  return call_one("triu.out", {self, out}, {{"diagonal", diagonal}});
}

inline Tensor det(const Tensor& self) { return call_one("det", {self}); }
// (sign, logabsdet)
inline std::pair<Tensor, Tensor> slogdet(const Tensor& self) {
  TensorList out = call("slogdet", {self});
  return {out[0], out[1]};
}
inline Tensor inverse(const Tensor& self) { return call_one("inverse", {self}); }
inline Tensor solve(const Tensor& a, const Tensor& b, bool left = true) {
  return call_one("solve", {a, b}, {{"left", left}});
}

}  // namespace funcspec::ops
