#include "reference/modules/linear.h"

#include "reference/api/ops.h"
#include "reference/modules/init.h"

namespace funcspec::modules {

Linear::Linear(std::int64_t in_features, std::int64_t out_features, bool bias, ModuleOptions options)
    : in_features_(in_features), out_features_(out_features) {
  FUNCSPEC_CHECK(in_features >= 0 && out_features >= 0, ErrorKind::InvalidArgument,
                 "[Linear] in_features and out_features must be >= 0, got {} and {}", in_features, out_features);
  const double bound = init::linear_bound(in_features);
  register_parameter("weight", init::uniform({out_features, in_features}, bound, options));
  register_parameter("bias", bias ? init::uniform({out_features}, bound, options) : Tensor());
}

Tensor Linear::forward_tensor(const Tensor& input) {
  return ops::linear(input, parameter("weight"), parameter("bias"));
}

}  // namespace funcspec::modules
