#pragma once
#include <optional>
#include <string>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor cat(const TensorList& tensors, std::int64_t dim = 0) { return call_one("cat", tensors, {{"dim", dim}}); }
inline Tensor stack(const TensorList& tensors, std::int64_t dim = 0) {
  return call_one("stack", tensors, {{"dim", dim}});
}
inline Tensor index_select(const Tensor& self, std::int64_t dim, const Tensor& index) {
  return call_one("index_select", {self, index}, {{"dim", dim}});
}
inline Tensor gather(const Tensor& self, std::int64_t dim, const Tensor& index) {
  return call_one("gather", {self, index}, {{"dim", dim}});
}
inline Tensor scatter_add(const Tensor& self, std::int64_t dim, const Tensor& index, const Tensor& src) {
  return call_one("scatter_add", {self, index, src}, {{"dim", dim}});
}
inline Tensor take_along_dim(const Tensor& self, const Tensor& indices,
                             std::optional<std::int64_t> dim = std::nullopt) {
  Attrs attrs;
  if (dim) attrs.set("dim", *dim);
  return call_one("take_along_dim", {self, indices}, attrs);
}
inline Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return call_one("masked_fill", {self, mask, value});
}
inline Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return call_one("masked_fill_", {self, mask, value});
}
inline Tensor index_add(const Tensor& self, std::int64_t dim, const Tensor& index, const Tensor& source,
                        const Scalar& alpha = Scalar(1)) {
  return call_one("index_add", {self, index, source}, {{"dim", dim}, {"alpha", alpha}});
}
inline Tensor index_add_(const Tensor& self, std::int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha = Scalar(1)) {
  return call_one("index_add_", {self, index, source}, {{"dim", dim}, {"alpha", alpha}});
}
inline Tensor pad(const Tensor& self, const std::vector<std::int64_t>& pad, const Scalar& value = Scalar(0)) {
  return call_one("pad", {self}, {{"pad", pad}, {"value", value}});
}
// mode: "constant", "reflect", "replicate" or "circular" (docs/ops/resampling.md).
inline Tensor pad(const Tensor& self, const std::vector<std::int64_t>& pad, const std::string& mode) {
  return call_one("pad", {self}, {{"pad", pad}, {"mode", mode}});
}

}  // namespace funcspec::ops
