#pragma once
#include <optional>
#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

// `int[]? dim`: nullopt (None) and an empty list both reduce every dim.
using OptionalDims = std::optional<std::vector<std::int64_t>>;

namespace reduce_detail {
template <typename T>
AttrValue optional_attr(const std::optional<T>& value) {
  return value ? AttrValue(*value) : AttrValue(std::monostate{});
}
}  // namespace reduce_detail

inline Tensor sum(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false,
                  std::optional<DType> dtype = std::nullopt) {
  return call_one("sum", {self},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"keepdim", keepdim},
                   {"dtype", reduce_detail::optional_attr(dtype)}});
}
inline Tensor prod(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt) {
  return call_one("prod", {self},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"keepdim", keepdim},
                   {"dtype", reduce_detail::optional_attr(dtype)}});
}
inline Tensor mean(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false,
                   std::optional<DType> dtype = std::nullopt) {
  return call_one("mean", {self},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"keepdim", keepdim},
                   {"dtype", reduce_detail::optional_attr(dtype)}});
}
inline Tensor amax(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false) {
  return call_one("amax", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor amin(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false) {
  return call_one("amin", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor all(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false) {
  return call_one("all", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor any(const Tensor& self, const OptionalDims& dim = std::nullopt, bool keepdim = false) {
  return call_one("any", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor argmax(const Tensor& self, std::optional<std::int64_t> dim = std::nullopt, bool keepdim = false) {
  return call_one("argmax", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor argmin(const Tensor& self, std::optional<std::int64_t> dim = std::nullopt, bool keepdim = false) {
  return call_one("argmin", {self}, {{"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
inline Tensor norm(const Tensor& self, const Scalar& p = 2, const OptionalDims& dim = std::nullopt,
                   bool keepdim = false) {
  return call_one("norm", {self}, {{"p", p}, {"dim", reduce_detail::optional_attr(dim)}, {"keepdim", keepdim}});
}
// correction: nullopt means 1 (Bessel's correction).
inline Tensor var(const Tensor& self, const OptionalDims& dim = std::nullopt,
                  std::optional<Scalar> correction = std::nullopt, bool keepdim = false) {
  return call_one("var", {self},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"correction", reduce_detail::optional_attr(correction)},
                   {"keepdim", keepdim}});
}
inline Tensor std(const Tensor& self, const OptionalDims& dim = std::nullopt,
                  std::optional<Scalar> correction = std::nullopt, bool keepdim = false) {
  return call_one("std", {self},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"correction", reduce_detail::optional_attr(correction)},
                   {"keepdim", keepdim}});
}
inline Tensor logsumexp(const Tensor& self, const std::vector<std::int64_t>& dim, bool keepdim = false) {
  return call_one("logsumexp", {self}, {{"dim", dim}, {"keepdim", keepdim}});
}
// The out= variant of sum (sum.out): writes the result into `out` and returns it.
inline Tensor sum_out(const Tensor& self, const Tensor& out, const OptionalDims& dim = std::nullopt,
                      bool keepdim = false, std::optional<DType> dtype = std::nullopt) {
  return call_one("sum.out", {self, out},
                  {{"dim", reduce_detail::optional_attr(dim)},
                   {"keepdim", keepdim},
                   {"dtype", reduce_detail::optional_attr(dtype)}});
}

}  // namespace funcspec::ops
