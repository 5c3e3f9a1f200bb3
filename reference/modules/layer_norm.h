#pragma once
// LayerNorm(normalized_shape): normalizes over the trailing normalized_shape dims with the biased
// variance, then scales by weight (ones) and shifts by bias (zeros), as torch.nn.LayerNorm. The
// same in training and evaluation mode.
#include <cstdint>
#include <memory>
#include <vector>

#include "reference/modules/module.h"

namespace funcspec::modules {

struct LayerNormOptions {
  double eps = 1e-5;
  bool elementwise_affine = true;  // weight and bias exist (else neither)
  bool bias = true;                // with elementwise_affine: bias exists
};

class LayerNorm : public TensorModule {
 public:
  explicit LayerNorm(std::vector<std::int64_t> normalized_shape, LayerNormOptions layer = {},
                     ModuleOptions options = {});
  std::string_view type_name() const override { return "LayerNorm"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  LayerNorm(const LayerNorm&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new LayerNorm(*this)); }

 private:
  std::vector<std::int64_t> normalized_shape_;
  double eps_;
};

}  // namespace funcspec::modules
