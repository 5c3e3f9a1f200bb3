#include "reference/transforms/ad_rules.h"

#include <vector>

#include "reference/api/ops.h"
#include "reference/core/error.h"

namespace funcspec::transforms {
Tensor sum_to_shape(const Tensor& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  const std::int64_t leading = t.dim() - static_cast<std::int64_t>(shape.size());
  FUNCSPEC_INTERNAL_ASSERT(leading >= 0, "sum_to_shape to a larger rank");
  std::vector<std::int64_t> dims;
  for (std::int64_t d = 0; d < leading; ++d) dims.push_back(d);
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1 && t.shape()[leading + d] != 1) dims.push_back(leading + static_cast<std::int64_t>(d));
  }
  Tensor summed = ops::sum(t, dims, /*keepdim=*/true);
  // The leading dims were kept as 1s; drop them.
  return leading == 0 ? summed : ops::view(summed, shape);
}

Tensor add_tangents(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return ops::add(a, b);
}

Tensor zeros_of(const TensorMeta& meta, Device device) {
  return ops::zeros(meta.shape, meta.dtype, std::string(device_name(device)));
}

}  // namespace funcspec::transforms
