#pragma once
// flip as a view, shared by the cpu and CUDA flip kernels: reading a dim backwards is reading it
// from its last element with the stride negated.
#include <cstddef>
#include <cstdint>
#include <span>

#include "reference/core/tensor.h"

namespace funcspec::common {

// `in` with each of `dims` (non-negative, valid) read backwards; shares in's storage.
inline Tensor reversed_view(const Tensor& in, std::span<const std::int64_t> dims) {
  Strides strides = in.strides();
  std::int64_t offset = in.storage_offset();
  for (std::int64_t d : dims) {
    if (in.dim() == 0) break;
    const auto i = static_cast<std::size_t>(d);
    if (in.shape()[i] == 0) continue;
    offset += (in.shape()[i] - 1) * strides[i];
    strides[i] = -strides[i];
  }
  return Tensor::view_of(in, in.shape(), strides, offset);
}

}  // namespace funcspec::common
