#pragma once
#include <string>
#include <vector>

#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor softmax(const Tensor& self, std::int64_t dim) { return call_one("softmax", {self}, {{"dim", dim}}); }
inline Tensor log_softmax(const Tensor& self, std::int64_t dim) {
  return call_one("log_softmax", {self}, {{"dim", dim}});
}
inline Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = Tensor(),
                       const std::string& reduction = "mean", std::int64_t ignore_index = -100) {
  return call_one("nll_loss", {self, target, weight}, {{"reduction", reduction}, {"ignore_index", ignore_index}});
}
inline Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = Tensor(),
                            const std::string& reduction = "mean", std::int64_t ignore_index = -100,
                            double label_smoothing = 0.0) {
  return call_one("cross_entropy", {self, target, weight},
                  {{"reduction", reduction}, {"ignore_index", ignore_index}, {"label_smoothing", label_smoothing}});
}
inline Tensor mse_loss(const Tensor& self, const Tensor& target, const std::string& reduction = "mean") {
  return call_one("mse_loss", {self, target}, {{"reduction", reduction}});
}
inline Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = Tensor()) {
  return call_one("linear", {input, weight, bias});
}
inline Tensor layer_norm(const Tensor& input, const std::vector<std::int64_t>& normalized_shape,
                         const Tensor& weight = Tensor(), const Tensor& bias = Tensor(), double eps = 1e-5) {
  return call_one("layer_norm", {input, weight, bias}, {{"normalized_shape", normalized_shape}, {"eps", eps}});
}
inline Tensor dropout(const Tensor& input, double p = 0.5, bool train = true) {
  return call_one("dropout", {input}, {{"p", p}, {"train", train}});
}
inline Tensor fill_(const Tensor& self, const Scalar& value) { return call_one("fill_", {self}, {{"value", value}}); }
inline Tensor zero_(const Tensor& self) { return call_one("zero_", {self}); }

}  // namespace funcspec::ops
