#include "reference/modules/init.h"

#include <cmath>

#include "reference/api/ops.h"

namespace funcspec::modules::init {

Tensor uniform(const Shape& shape, double bound, const ModuleOptions& options) {
  const Tensor state = ops::zeros(shape, options.dtype, std::string(device_name(options.device)));
  if (options.device == Device::Meta) return state;
  return ops::uniform_(state, -bound, bound);
}

Tensor normal(const Shape& shape, double std, const ModuleOptions& options) {
  const Tensor state = ops::zeros(shape, options.dtype, std::string(device_name(options.device)));
  if (options.device == Device::Meta) return state;
  return ops::normal_(state, 0, std);
}

Tensor filled(const Shape& shape, const Scalar& value, const ModuleOptions& options) {
  return ops::full(shape, value, options.dtype, std::string(device_name(options.device)));
}

double linear_bound(std::int64_t fan_in) { return fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0; }

double xavier_bound(std::int64_t fan_in, std::int64_t fan_out) {
  return fan_in + fan_out > 0 ? std::sqrt(6.0 / static_cast<double>(fan_in + fan_out)) : 0.0;
}

}  // namespace funcspec::modules::init
