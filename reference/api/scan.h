#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor cumsum(const Tensor& self, std::int64_t dim, std::optional<DType> dtype = std::nullopt) {
  return call_one("cumsum", {self}, {{"dim", dim}, {"dtype", dtype ? AttrValue(*dtype) : AttrValue()}});
}
inline Tensor cumprod(const Tensor& self, std::int64_t dim, std::optional<DType> dtype = std::nullopt) {
  return call_one("cumprod", {self}, {{"dim", dim}, {"dtype", dtype ? AttrValue(*dtype) : AttrValue()}});
}
inline Tensor flip(const Tensor& self, const std::vector<std::int64_t>& dims) {
  return call_one("flip", {self}, {{"dims", dims}});
}
inline Tensor roll(const Tensor& self, const std::vector<std::int64_t>& shifts,
                   const std::vector<std::int64_t>& dims = {}) {
  return call_one("roll", {self}, {{"shifts", shifts}, {"dims", dims}});
}
// (values, indices)
inline std::pair<Tensor, Tensor> sort(const Tensor& self, std::int64_t dim = -1, bool descending = false,
                                      bool stable = true) {
  TensorList out = call("sort", {self}, {{"dim", dim}, {"descending", descending}, {"stable", stable}});
  return {out[0], out[1]};
}
inline std::pair<Tensor, Tensor> topk(const Tensor& self, std::int64_t k, std::int64_t dim = -1, bool largest = true,
                                      bool sorted = true) {
  TensorList out = call("topk", {self}, {{"k", k}, {"dim", dim}, {"largest", largest}, {"sorted", sorted}});
  return {out[0], out[1]};
}

}  // namespace funcspec::ops
