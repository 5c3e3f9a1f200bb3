// Sliding windows (NOTE: [sliding windows]).
#include "reference/ops/sliding_windows.h"

#include "reference/api/ops.h"
#include "reference/core/error.h"

namespace funcspec {
namespace {

// The flat positions o*s + j*d of all windows along one dim, window-major: [O * k] int64.
Tensor window_positions(std::int64_t windows, const WindowGeometry& g, Device device) {
  const std::string where(device_name(device));
  const Tensor starts = ops::mul(ops::arange(0, windows, 1, DType::Int64, where), ops::lit(g.stride));
  const Tensor taps = ops::mul(ops::arange(0, g.kernel, 1, DType::Int64, where), ops::lit(g.dilation));
  return ops::reshape(ops::add(ops::unsqueeze(starts, 1), taps), {windows * g.kernel});
}

}  // namespace

std::int64_t WindowGeometry::count(std::int64_t size) const {
  const std::int64_t room = size - span();
  // Floor division: a negative room means no window fits.
  return room < 0 ? 0 : room / stride + 1;
}

Tensor gather_windows(const Tensor& x, std::span<const WindowGeometry> geometry) {
  const auto n = static_cast<std::int64_t>(geometry.size());
  const std::int64_t first = x.dim() - n;
  Tensor out = x;
  // Last spatial dim first, so that the dims before it keep their positions.
  for (std::int64_t i = n - 1; i >= 0; --i) {
    const WindowGeometry& g = geometry[i];
    const std::int64_t dim = first + i;
    const std::int64_t windows = g.count(x.size(dim));
    FUNCSPEC_CHECK(windows >= 1, ErrorKind::Internal, "gather_windows: no window of span {} fits in {}", g.span(),
                   x.size(dim));
    out =
        ops::unflatten(ops::index_select(out, dim, window_positions(windows, g, x.device())), dim, {windows, g.kernel});
  }
  return out;
}

Tensor scatter_windows(const Tensor& windows, std::span<const WindowGeometry> geometry,
                       std::span<const std::int64_t> sizes) {
  const auto n = static_cast<std::int64_t>(geometry.size());
  const std::int64_t first = windows.dim() - 2 * n;
  Tensor out = windows;
  for (std::int64_t i = n - 1; i >= 0; --i) {
    const WindowGeometry& g = geometry[i];
    const std::int64_t dim = first + 2 * i;
    const std::int64_t count = out.size(dim);
    FUNCSPEC_CHECK((count - 1) * g.stride + g.span() <= sizes[i], ErrorKind::Internal,
                   "scatter_windows: {} windows of span {} do not fit in {}", count, g.span(), sizes[i]);
    const Tensor flat = ops::flatten(out, dim, dim + 1);
    Shape zeros_shape = flat.shape();
    zeros_shape[dim] = sizes[i];
    const Tensor zeros = ops::zeros(zeros_shape, flat.dtype(), std::string(device_name(flat.device())));
    out = ops::index_add(zeros, dim, window_positions(count, g, flat.device()), flat);
  }
  return out;
}

std::vector<std::int64_t> per_spatial_dim(std::string_view op, std::string_view name,
                                          const std::vector<std::int64_t>& values, std::int64_t spatial_dims) {
  if (values.size() == 1) return std::vector<std::int64_t>(spatial_dims, values[0]);
  FUNCSPEC_CHECK(static_cast<std::int64_t>(values.size()) == spatial_dims, ErrorKind::InvalidArgument,
                 "[{}] expected {} to be a single integer value or a list of {} values to match the spatial dims, "
                 "but got {}={}",
                 op, name, spatial_dims, name, shape_to_string(values));
  return values;
}

std::vector<std::int64_t> spatial_list_at_least(std::string_view op, std::string_view name,
                                                const std::vector<std::int64_t>& values, std::int64_t spatial_dims,
                                                std::int64_t least) {
  std::vector<std::int64_t> list = per_spatial_dim(op, name, values, spatial_dims);
  for (std::int64_t v : list) {
    FUNCSPEC_CHECK(v >= least, ErrorKind::InvalidArgument, "[{}] {} must be at least {} but is {}", op, name, least,
                   shape_to_string(list));
  }
  return list;
}

std::string spatial_dims_name(std::int64_t spatial_dims) {
  return spatial_dims == 1 ? "L" : spatial_dims == 2 ? "H, W" : "D, H, W";
}

}  // namespace funcspec
