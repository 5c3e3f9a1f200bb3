#pragma once
// GroupNorm(num_groups, num_channels), as torch.nn.GroupNorm: the group_norm op of the catalogue
// (docs/ops/normalization.md) over (N, C, ...) inputs, each example's channels split into
// num_groups groups normalized with their biased variance, then scaled by weight (ones) and shifted
// by bias (zeros) per channel. No running statistics: the same in training and evaluation, and
// each example alone, so vmap over examples equals the loop with no extra step.
#include <cstdint>
#include <memory>

#include "reference/modules/module.h"

namespace funcspec::modules {

class GroupNorm : public TensorModule {
 public:
  GroupNorm(std::int64_t num_groups, std::int64_t num_channels, double eps = 1e-5, bool affine = true,
            ModuleOptions options = {});
  std::string_view type_name() const override { return "GroupNorm"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  GroupNorm(const GroupNorm&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new GroupNorm(*this)); }

 private:
  std::int64_t num_groups_;
  double eps_;
};

}  // namespace funcspec::modules
