#pragma once
// Linear(in_features, out_features): y = x @ weight^T + bias, as torch.nn.Linear. weight is
// [out_features, in_features] and bias [out_features], both drawn from U(-1/sqrt(in_features),
// 1/sqrt(in_features)) (init.h). The input's last dim must be in_features.
#include <cstdint>
#include <memory>

#include "reference/modules/module.h"

namespace funcspec::modules {

class Linear : public TensorModule {
 public:
  Linear(std::int64_t in_features, std::int64_t out_features, bool bias = true, ModuleOptions options = {});
  std::string_view type_name() const override { return "Linear"; }
  Tensor forward_tensor(const Tensor& input) override;

  std::int64_t in_features() const { return in_features_; }
  std::int64_t out_features() const { return out_features_; }

 protected:
  Linear(const Linear&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Linear(*this)); }

 private:
  std::int64_t in_features_;
  std::int64_t out_features_;
};

}  // namespace funcspec::modules
