#pragma once
// MaxPool2d(kernel_size), as torch.nn.MaxPool2d: the max_pool2d op of the catalogue
// (docs/ops/pooling.md; ties give the first element, a NaN wins) over (N, C, H, W) or (C, H, W)
// inputs. The stride defaults to the kernel size. No state. return_indices is not offered: the op
// max_pool2d_with_indices is what a model that unpools calls.
#include <cstdint>
#include <memory>
#include <optional>

#include "reference/modules/module.h"

namespace funcspec::modules {

struct MaxPool2dOptions {
  std::optional<Pair> stride;  // nullopt: kernel_size
  Pair padding{0, 0};
  Pair dilation{1, 1};
  bool ceil_mode = false;
};

class MaxPool2d : public TensorModule {
 public:
  explicit MaxPool2d(Pair kernel_size, MaxPool2dOptions pool = {});
  std::string_view type_name() const override { return "MaxPool2d"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  MaxPool2d(const MaxPool2d&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new MaxPool2d(*this)); }

 private:
  Pair kernel_size_;
  MaxPool2dOptions pool_;
};

// Flatten(start_dim = 1, end_dim = -1), as torch.nn.Flatten: the flatten view; what sits between
// a model's convolutions and its linear head.
class Flatten : public TensorModule {
 public:
  explicit Flatten(std::int64_t start_dim = 1, std::int64_t end_dim = -1) : start_dim_(start_dim), end_dim_(end_dim) {}
  std::string_view type_name() const override { return "Flatten"; }
  Tensor forward_tensor(const Tensor& input) override;

 protected:
  Flatten(const Flatten&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Flatten(*this)); }

 private:
  std::int64_t start_dim_;
  std::int64_t end_dim_;
};

}  // namespace funcspec::modules
