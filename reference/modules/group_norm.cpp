#include "reference/modules/group_norm.h"

#include "reference/api/ops.h"
#include "reference/modules/init.h"
#include "reference/ops/dispatch.h"

namespace funcspec::modules {

GroupNorm::GroupNorm(std::int64_t num_groups, std::int64_t num_channels, double eps, bool affine, ModuleOptions options)
    : num_groups_(num_groups), eps_(eps) {
  FUNCSPEC_CHECK(num_groups > 0 && num_channels % num_groups == 0, ErrorKind::InvalidArgument,
                 "[GroupNorm] num_groups {} must be positive and divide num_channels {}", num_groups, num_channels);
  register_parameter("weight", affine ? init::filled({num_channels}, 1, options) : Tensor());
  register_parameter("bias", affine ? init::filled({num_channels}, 0, options) : Tensor());
}

Tensor GroupNorm::forward_tensor(const Tensor& input) {
  return call_one("group_norm", {input, parameter("weight"), parameter("bias")},
                  {{"num_groups", num_groups_}, {"eps", eps_}});
}

}  // namespace funcspec::modules
