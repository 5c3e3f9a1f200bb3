#include "reference/modules/sequential.h"

#include "reference/modules/activation.h"
#include "reference/modules/linear.h"

namespace funcspec::modules {

Sequential::Sequential(std::vector<std::shared_ptr<Module>> layers) {
  for (std::size_t i = 0; i < layers.size(); ++i) register_module(std::to_string(i), std::move(layers[i]));
}

PyTree Sequential::forward(const std::vector<PyTree>& args, const PyTree& kwargs) {
  FUNCSPEC_CHECK(args.size() == 1 && no_keyword_arguments(kwargs), ErrorKind::InvalidArgument,
                 "[Sequential] forward takes one argument and no keyword arguments, but was called with {}",
                 describe_call(args, kwargs));
  PyTree value = args[0];
  for (const auto& [name, layer] : named_children()) value = layer->forward({value}, PyTree::dict({}));
  return value;
}

std::shared_ptr<Sequential> make_mlp(const std::vector<std::int64_t>& sizes, const std::string& activation,
                                     ModuleOptions options) {
  FUNCSPEC_CHECK(sizes.size() >= 2, ErrorKind::InvalidArgument,
                 "[make_mlp] needs at least an input and an output size, got {} size(s)", sizes.size());
  std::vector<std::shared_ptr<Module>> layers;
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
    if (i > 0) layers.push_back(Activation::of(activation));
    layers.push_back(std::make_shared<Linear>(sizes[i], sizes[i + 1], true, options));
  }
  return std::make_shared<Sequential>(std::move(layers));
}

}  // namespace funcspec::modules
