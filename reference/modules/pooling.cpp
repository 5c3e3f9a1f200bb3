#include "reference/modules/pooling.h"

#include <vector>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"

namespace funcspec::modules {

MaxPool2d::MaxPool2d(Pair kernel_size, MaxPool2dOptions pool) : kernel_size_(kernel_size), pool_(pool) {}

Tensor MaxPool2d::forward_tensor(const Tensor& input) {
  const Pair stride = pool_.stride.value_or(kernel_size_);
  return call_one("max_pool2d", {input},
                  {{"kernel_size", std::vector<std::int64_t>{kernel_size_[0], kernel_size_[1]}},
                   {"stride", std::vector<std::int64_t>{stride[0], stride[1]}},
                   {"padding", std::vector<std::int64_t>{pool_.padding[0], pool_.padding[1]}},
                   {"dilation", std::vector<std::int64_t>{pool_.dilation[0], pool_.dilation[1]}},
                   {"ceil_mode", pool_.ceil_mode}});
}

Tensor Flatten::forward_tensor(const Tensor& input) { return ops::flatten(input, start_dim_, end_dim_); }

}  // namespace funcspec::modules
