#pragma once
#include "reference/ops/dispatch.h"

namespace funcspec::ops {

using IntList = std::vector<std::int64_t>;

inline Tensor expand(const Tensor& self, const IntList& size) { return call_one("expand", {self}, {{"size", size}}); }
inline Tensor view(const Tensor& self, const IntList& size) { return call_one("view", {self}, {{"size", size}}); }
inline Tensor permute(const Tensor& self, const IntList& dims) { return call_one("permute", {self}, {{"dims", dims}}); }
inline Tensor squeeze(const Tensor& self) { return call_one("squeeze", {self}); }
inline Tensor squeeze(const Tensor& self, const IntList& dim) { return call_one("squeeze", {self}, {{"dim", dim}}); }
inline Tensor unsqueeze(const Tensor& self, std::int64_t dim) { return call_one("unsqueeze", {self}, {{"dim", dim}}); }
inline Tensor select(const Tensor& self, std::int64_t dim, std::int64_t index) {
  return call_one("select", {self}, {{"dim", dim}, {"index", index}});
}
inline Tensor slice(const Tensor& self, std::int64_t dim = 0, std::optional<std::int64_t> start = std::nullopt,
                    std::optional<std::int64_t> end = std::nullopt, std::int64_t step = 1) {
  Attrs attrs{{"dim", dim}, {"step", step}};
  if (start) attrs.set("start", *start);
  if (end) attrs.set("end", *end);
  return call_one("slice", {self}, attrs);
}
inline Tensor diagonal(const Tensor& self, std::int64_t offset = 0, std::int64_t dim1 = 0, std::int64_t dim2 = 1) {
  return call_one("diagonal", {self}, {{"offset", offset}, {"dim1", dim1}, {"dim2", dim2}});
}
inline Tensor reshape(const Tensor& self, const IntList& shape) {
  return call_one("reshape", {self}, {{"shape", shape}});
}
inline Tensor transpose(const Tensor& self, std::int64_t dim0, std::int64_t dim1) {
  return call_one("transpose", {self}, {{"dim0", dim0}, {"dim1", dim1}});
}
inline Tensor movedim(const Tensor& self, const IntList& source, const IntList& destination) {
  return call_one("movedim", {self}, {{"source", source}, {"destination", destination}});
}
inline Tensor broadcast_to(const Tensor& self, const IntList& size) {
  return call_one("broadcast_to", {self}, {{"size", size}});
}
inline Tensor flatten(const Tensor& self, std::int64_t start_dim = 0, std::int64_t end_dim = -1) {
  return call_one("flatten", {self}, {{"start_dim", start_dim}, {"end_dim", end_dim}});
}
inline Tensor unflatten(const Tensor& self, std::int64_t dim, const IntList& sizes) {
  return call_one("unflatten", {self}, {{"dim", dim}, {"sizes", sizes}});
}
inline Tensor narrow(const Tensor& self, std::int64_t dim, std::int64_t start, std::int64_t length) {
  return call_one("narrow", {self}, {{"dim", dim}, {"start", start}, {"length", length}});
}
inline TensorList unbind(const Tensor& self, std::int64_t dim = 0) { return call("unbind", {self}, {{"dim", dim}}); }
inline TensorList split(const Tensor& self, std::int64_t split_size, std::int64_t dim = 0) {
  return call("split", {self}, {{"split_size", split_size}, {"dim", dim}});
}
inline TensorList split_with_sizes(const Tensor& self, const IntList& split_sizes, std::int64_t dim = 0) {
  return call("split_with_sizes", {self}, {{"split_sizes", split_sizes}, {"dim", dim}});
}
inline TensorList chunk(const Tensor& self, std::int64_t chunks, std::int64_t dim = 0) {
  return call("chunk", {self}, {{"chunks", chunks}, {"dim", dim}});
}

}  // namespace funcspec::ops
