// Host glue of the dynamic family's CUDA kernels (dynamic.cu; NOTE: [cuda dynamic kernels] in
// dynamic_launch.h).
#include "reference/backends/cuda/dynamic.h"

#include <type_traits>
#include <utility>
#include <vector>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/dynamic_launch.h"

namespace funcspec::cuda {
namespace dynamic_glue {

// Runs `count` (which writes one count per chunk of `numel` elements into a device buffer) and
// returns each chunk's first output position, on the device, and the total count.
template <typename Count>
std::pair<Tensor, std::int64_t> chunk_starts(std::int64_t numel, Count&& count) {
  Tensor buffer = Tensor::empty({dynamic_chunks(numel)}, DType::Int64, Device::Cuda);
  if (numel == 0) return {buffer, 0};
  count(device_data<std::int64_t>(buffer));
  std::vector<std::int64_t> starts = buffer.to_vector<std::int64_t>();
  std::int64_t total = 0;
  for (std::int64_t& start : starts) total += std::exchange(start, total);
  copy_host_to_device(device_data<std::int64_t>(buffer), starts.data(), starts.size() * sizeof(std::int64_t));
  return {buffer, total};
}

}  // namespace dynamic_glue

using dynamic_glue::chunk_starts;

Scalar single_element(const Tensor& self) {
  return visit_cuda_dtype(self.dtype(), [&]<typename T>() -> Scalar {
    const T value = self.to_vector<T>().at(0);
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t>)
      return Scalar(value);
    else
      return Scalar(cast_scalar<double>(value));
  });
}

Tensor nonzero_indices(const Tensor& self) {
  const Geometry geometry = geometry_of(self.shape(), "nonzero");
  return visit_cuda_dtype(self.dtype(), [&]<typename T>() {
    const StridedView<T> view = strided_view_of<T>(self, "nonzero");
    const auto [starts, count] =
        chunk_starts(geometry.numel, [&](std::int64_t* counts) { launch_count_nonzero<T>(geometry, view, counts); });
    Tensor out = Tensor::empty({count, self.dim()}, DType::Int64, Device::Cuda);
    if (count > 0 && self.dim() > 0) {
      launch_write_nonzero<T>(geometry, view, device_data<std::int64_t>(starts), device_data<std::int64_t>(out));
    }
    return out;
  });
}

Tensor select_masked(const Tensor& self, const Tensor& mask) {
  const Geometry geometry = geometry_of(self.shape(), "masked_select");
  const StridedView<bool> keep = strided_view_of<bool>(mask, "masked_select");
  const auto [starts, count] =
      chunk_starts(geometry.numel, [&](std::int64_t* counts) { launch_count_selected(geometry, keep, counts); });
  Tensor out = Tensor::empty({count}, self.dtype(), Device::Cuda);
  if (count > 0) {
    visit_cuda_dtype(self.dtype(), [&]<typename T>() {
      launch_write_selected<T>(geometry, strided_view_of<T>(self, "masked_select"), keep,
                               device_data<std::int64_t>(starts), device_data<T>(out));
    });
  }
  return out;
}

}  // namespace funcspec::cuda
