#include "reference/modules/conv.h"

#include <vector>

#include "reference/api/ops.h"
#include "reference/modules/init.h"
#include "reference/ops/dispatch.h"

namespace funcspec::modules {

namespace {
std::vector<std::int64_t> as_list(const Pair& pair) { return {pair[0], pair[1]}; }
}  // namespace

Conv2d::Conv2d(std::int64_t in_channels, std::int64_t out_channels, Pair kernel_size, Conv2dOptions conv,
               ModuleOptions options)
    : conv_(conv) {
  FUNCSPEC_CHECK(in_channels > 0 && out_channels > 0 && kernel_size[0] > 0 && kernel_size[1] > 0,
                 ErrorKind::InvalidArgument,
                 "[Conv2d] in_channels, out_channels and kernel_size must be positive, got {}, {} and [{}, {}]",
                 in_channels, out_channels, kernel_size[0], kernel_size[1]);
  FUNCSPEC_CHECK(conv.groups > 0 && in_channels % conv.groups == 0 && out_channels % conv.groups == 0,
                 ErrorKind::InvalidArgument, "[Conv2d] groups {} must divide in_channels {} and out_channels {}",
                 conv.groups, in_channels, out_channels);
  const double bound = init::linear_bound(in_channels / conv.groups * kernel_size[0] * kernel_size[1]);
  register_parameter("weight", init::uniform({out_channels, in_channels / conv.groups, kernel_size[0], kernel_size[1]},
                                             bound, options));
  register_parameter("bias", conv.bias ? init::uniform({out_channels}, bound, options) : Tensor());
}

Tensor Conv2d::forward_tensor(const Tensor& input) {
  return call_one("conv2d", {input, parameter("weight"), parameter("bias")},
                  {{"stride", as_list(conv_.stride)},
                   {"padding", as_list(conv_.padding)},
                   {"dilation", as_list(conv_.dilation)},
                   {"groups", conv_.groups}});
}

}  // namespace funcspec::modules
