#include "reference/backends/cuda/device_tensor.h"

namespace funcspec::cuda {

Geometry geometry_of(const Shape& shape, std::string_view op) {
  FUNCSPEC_CHECK(shape.size() <= static_cast<std::size_t>(kMaxDims), ErrorKind::InvalidArgument,
                 "[{}] the CUDA backend handles tensors of up to {} dims, not {}", op, kMaxDims, shape.size());
  Geometry geometry;
  geometry.rank = static_cast<int>(shape.size());
  for (int d = 0; d < geometry.rank; ++d) {
    geometry.sizes[d] = shape[static_cast<std::size_t>(d)];
    geometry.numel *= geometry.sizes[d];
  }
  return geometry;
}

}  // namespace funcspec::cuda
