#pragma once
// Sequential: submodules named "0", "1", ... applied in order, each to the previous one's result,
// as torch.nn.Sequential; make_mlp builds the usual multilayer perceptron from it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference/modules/module.h"

namespace funcspec::modules {

class Sequential : public Module {
 public:
  explicit Sequential(std::vector<std::shared_ptr<Module>> layers);
  std::string_view type_name() const override { return "Sequential"; }
  // One positional argument (any pytree) and no keyword arguments; the first layer gets it.
  PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) override;
  using Module::operator();

  std::size_t size() const { return named_children().size(); }

 protected:
  Sequential(const Sequential&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Sequential(*this)); }
};

// Linear(sizes[0], sizes[1]), activation, Linear(sizes[1], sizes[2]), ..., with no activation after
// the last Linear: state names 0.weight, 0.bias, 2.weight, ... `activation` is a unary op
// ("relu", "tanh"). At least two sizes.
std::shared_ptr<Sequential> make_mlp(const std::vector<std::int64_t>& sizes, const std::string& activation = "relu",
                                     ModuleOptions options = {});

}  // namespace funcspec::modules
