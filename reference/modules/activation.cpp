#include "reference/modules/activation.h"

#include <utility>

#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::modules {

Activation::Activation(std::string name, std::string op) : name_(std::move(name)), op_(std::move(op)) {
  OpRegistry::instance().get(op_);  // an unknown name fails here (unknown_op), not at the first forward
}

std::shared_ptr<Activation> Activation::of(const std::string& op) {
  static const std::pair<const char*, const char*> kTorchNames[] = {
      {"relu", "ReLU"}, {"tanh", "Tanh"}, {"sigmoid", "Sigmoid"}, {"gelu", "GELU"}};
  for (const auto& [known_op, name] : kTorchNames) {
    if (op == known_op) return std::make_shared<Activation>(name, op);
  }
  return std::make_shared<Activation>("Activation(" + op + ")", op);
}

Tensor Activation::forward_tensor(const Tensor& input) { return call_one(op_, {input}); }

}  // namespace funcspec::modules
