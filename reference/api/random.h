#pragma once
// Random ops, and the value-dependent ops (item, nonzero, ...) of the same helper's family.
#include <string>
#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor rand(const Shape& size, DType dtype = DType::Float32, const std::string& device = "cpu") {
  return call_one("rand", {}, {{"size", size}, {"dtype", dtype}, {"device", device}});
}
inline Tensor randn(const Shape& size, DType dtype = DType::Float32, const std::string& device = "cpu") {
  return call_one("randn", {}, {{"size", size}, {"dtype", dtype}, {"device", device}});
}
inline Tensor randint(std::int64_t low, std::int64_t high, const Shape& size, DType dtype = DType::Int64,
                      const std::string& device = "cpu") {
  return call_one("randint", {}, {{"low", low}, {"high", high}, {"size", size}, {"dtype", dtype}, {"device", device}});
}
inline Tensor bernoulli(const Tensor& p) { return call_one("bernoulli", {p}); }
inline Tensor bernoulli(const Tensor& self, double p) { return call_one("bernoulli.p", {self}, {{"p", p}}); }
inline Tensor normal(const Tensor& mean, const Tensor& std) { return call_one("normal", {mean, std}); }
inline Tensor normal_functional(const Tensor& self, double mean = 0, double std = 1) {
  return call_one("normal_functional", {self}, {{"mean", mean}, {"std", std}});
}
inline Tensor uniform(const Tensor& self, double from = 0, double to = 1) {
  return call_one("uniform", {self}, {{"from", from}, {"to", to}});
}
inline Tensor multinomial(const Tensor& self, std::int64_t num_samples, bool replacement = false) {
  return call_one("multinomial", {self}, {{"num_samples", num_samples}, {"replacement", replacement}});
}
inline Tensor normal_(const Tensor& self, double mean = 0, double std = 1) {
  return call_one("normal_", {self}, {{"mean", mean}, {"std", std}});
}
inline Tensor uniform_(const Tensor& self, double from = 0, double to = 1) {
  return call_one("uniform_", {self}, {{"from", from}, {"to", to}});
}
inline Tensor bernoulli_(const Tensor& self, double p = 0.5) { return call_one("bernoulli_", {self}, {{"p", p}}); }

}  // namespace funcspec::ops
