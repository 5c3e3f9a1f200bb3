#pragma once
#include <optional>
#include <string>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor full(const std::vector<std::int64_t>& size, const Scalar& fill_value,
                   std::optional<DType> dtype = std::nullopt, const std::string& device = "cpu") {
  Attrs attrs{{"size", size}, {"fill_value", fill_value}, {"device", device}};
  if (dtype) attrs.set("dtype", *dtype);
  return call_one("full", {}, attrs);
}
// arange(end), arange(start, end), arange(start, end, step), as in PyTorch.
inline Tensor arange(const Scalar& end) { return call_one("arange", {}, {{"end", end}}); }
inline Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = Scalar(1),
                     std::optional<DType> dtype = std::nullopt, const std::string& device = "cpu") {
  Attrs attrs{{"start", start}, {"end", end}, {"step", step}, {"device", device}};
  if (dtype) attrs.set("dtype", *dtype);
  return call_one("arange", {}, attrs);
}
inline Tensor zeros(const std::vector<std::int64_t>& size, DType dtype = DType::Float32,
                    const std::string& device = "cpu") {
  return call_one("zeros", {}, {{"size", size}, {"dtype", dtype}, {"device", device}});
}
inline Tensor ones(const std::vector<std::int64_t>& size, DType dtype = DType::Float32,
                   const std::string& device = "cpu") {
  return call_one("ones", {}, {{"size", size}, {"dtype", dtype}, {"device", device}});
}
inline Tensor zeros_like(const Tensor& self, std::optional<DType> dtype = std::nullopt) {
  Attrs attrs;
  if (dtype) attrs.set("dtype", *dtype);
  return call_one("zeros_like", {self}, attrs);
}
inline Tensor ones_like(const Tensor& self, std::optional<DType> dtype = std::nullopt) {
  Attrs attrs;
  if (dtype) attrs.set("dtype", *dtype);
  return call_one("ones_like", {self}, attrs);
}
inline Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<DType> dtype = std::nullopt) {
  Attrs attrs{{"fill_value", fill_value}};
  if (dtype) attrs.set("dtype", *dtype);
  return call_one("full_like", {self}, attrs);
}

}  // namespace funcspec::ops
