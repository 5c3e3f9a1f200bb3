#include "reference/modules/layer_norm.h"

#include "reference/api/ops.h"
#include "reference/modules/init.h"

namespace funcspec::modules {

LayerNorm::LayerNorm(std::vector<std::int64_t> normalized_shape, LayerNormOptions layer, ModuleOptions options)
    : normalized_shape_(std::move(normalized_shape)), eps_(layer.eps) {
  FUNCSPEC_CHECK(!normalized_shape_.empty(), ErrorKind::InvalidArgument, "[LayerNorm] normalized_shape is empty");
  register_parameter("weight", layer.elementwise_affine ? init::filled(normalized_shape_, 1, options) : Tensor());
  register_parameter("bias",
                     layer.elementwise_affine && layer.bias ? init::filled(normalized_shape_, 0, options) : Tensor());
}

Tensor LayerNorm::forward_tensor(const Tensor& input) {
  return ops::layer_norm(input, normalized_shape_, parameter("weight"), parameter("bias"), eps_);
}

}  // namespace funcspec::modules
