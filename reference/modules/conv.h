#pragma once
// Conv2d(in_channels, out_channels, kernel_size), as torch.nn.Conv2d: the conv2d op of the
// catalogue (docs/ops/convolution.md) over (N, C_in, H, W) or unbatched (C_in, H, W) inputs, with a
// weight (C_out, C_in / groups, kh, kw) and a bias (C_out). Both are drawn uniform on
// ±1/sqrt(fan_in), fan_in = C_in / groups · kh · kw, what PyTorch's kaiming_uniform_(a = sqrt(5))
// and its bias rule give.
#include <cstdint>
#include <memory>

#include "reference/modules/module.h"

namespace funcspec::modules {

struct Conv2dOptions {
  Pair stride{1, 1};
  Pair padding{0, 0};
  Pair dilation{1, 1};
  std::int64_t groups = 1;
  bool bias = true;
};

class Conv2d : public TensorModule {
 public:
  Conv2d(std::int64_t in_channels, std::int64_t out_channels, Pair kernel_size, Conv2dOptions conv = {},
         ModuleOptions options = {});
  std::string_view type_name() const override { return "Conv2d"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  Conv2d(const Conv2d&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Conv2d(*this)); }

 private:
  Conv2dOptions conv_;
};

}  // namespace funcspec::modules
