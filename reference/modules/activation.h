#pragma once
// Parameter-free elementwise layers: ReLU, Tanh, Sigmoid, GELU, as torch.nn's, each one op of the
// catalogue applied to its input.
#include <memory>
#include <string>

#include "reference/modules/module.h"

namespace funcspec::modules {

class Activation : public TensorModule {
 public:
  // `op` is a unary op of the catalogue; `name` is the layer's class name ("ReLU").
  Activation(std::string name, std::string op);
  // The layer of `op`, named as torch.nn names it for relu, tanh, sigmoid and gelu ("ReLU"), else
  // "Activation(op)".
  static std::shared_ptr<Activation> of(const std::string& op);

  std::string_view type_name() const override { return name_; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  Activation(const Activation&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Activation(*this)); }

 private:
  std::string name_;
  std::string op_;
};

}  // namespace funcspec::modules
