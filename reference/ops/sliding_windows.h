#pragma once
// NOTE: [sliding windows]
// Convolution, unfold/fold and (later) pooling read their input through sliding windows: along a
// spatial dim of size L, window o of a kernel of k taps with stride s and dilation d reads positions
// o*s + j*d, j = 0..k-1, and there are floor((L - d*(k-1) - 1) / s) + 1 windows. The windows are
// taken by index_select with those positions (each tap a copy), and put back by index_add into zeros,
// which sums the taps that land on one position in window-major order (o, then j). The two are
// adjoint, so every derivative and batching rule of the ops built on them comes from index_select's
// and index_add's.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/tensor.h"

namespace funcspec {

struct WindowGeometry {
  std::int64_t kernel = 1;
  std::int64_t stride = 1;
  std::int64_t dilation = 1;
  // The extent one window covers: d*(k-1) + 1.
  std::int64_t span() const { return dilation * (kernel - 1) + 1; }
  // How many whole windows fit in `size` positions (<= 0 when not even one does).
  std::int64_t count(std::int64_t size) const;
};

// `x` of shape [..., L_1, ..., L_n] with its last n = geometry.size() dims spatial, read as
// [..., O_1, k_1, ..., O_n, k_n]: element (o_1, j_1, ..., o_n, j_n) is x at positions
// o_i*s_i + j_i*d_i. Every O_i must be >= 1.
Tensor gather_windows(const Tensor& x, std::span<const WindowGeometry> geometry);

// The adjoint of gather_windows: `windows` of shape [..., O_1, k_1, ..., O_n, k_n] summed into zeros
// of shape [..., sizes_1, ..., sizes_n] at the positions each element was read from; every position
// must lie inside `sizes`.
Tensor scatter_windows(const Tensor& windows, std::span<const WindowGeometry> geometry,
                       std::span<const std::int64_t> sizes);

// An int[] attribute of a spatial op given for every spatial dim or once for all (PyTorch's int or
// tuple): `values` with one entry expanded to `spatial_dims`, else exactly `spatial_dims` entries
// (invalid_argument naming the op and attribute otherwise).
std::vector<std::int64_t> per_spatial_dim(std::string_view op, std::string_view name,
                                          const std::vector<std::int64_t>& values, std::int64_t spatial_dims);

// per_spatial_dim's list with every entry at least `least` (invalid_argument naming the op and
// attribute otherwise): kernels, strides and dilations at least 1, paddings at least 0.
std::vector<std::int64_t> spatial_list_at_least(std::string_view op, std::string_view name,
                                                const std::vector<std::int64_t>& values, std::int64_t spatial_dims,
                                                std::int64_t least);

// The spatial dims' letters for messages: "L", "H, W" or "D, H, W".
std::string spatial_dims_name(std::int64_t spatial_dims);

}  // namespace funcspec
