#pragma once
// The host glue's view of CUDA tensors: a Tensor on device `cuda` becomes the plain StridedView a
// kernel takes (strided_view.h). Used by the CUDA family files' host side, never by kernels.
#include <string_view>

#include "reference/backends/cuda/strided_view.h"
#include "reference/core/tensor.h"

namespace funcspec::cuda {

// The geometry of `shape`; rejects ranks above kMaxDims with an error naming `op`.
Geometry geometry_of(const Shape& shape, std::string_view op);

// Device pointer to `t`'s element at its storage offset; checks that t lives on cuda and holds T.
// An empty view's offset may lie past the end of its storage (example i of a batch of empty
// tensors); nothing is read through it, so its kernels get the storage's start instead, a pointer
// into device memory like every other kernel argument.
template <typename T>
T* device_data(const Tensor& t) {
  FUNCSPEC_INTERNAL_ASSERT(t.payload() == nullptr, "a CUDA kernel was handed a transform's wrapper");
  FUNCSPEC_INTERNAL_ASSERT(t.device() == Device::Cuda && t.has_storage(), "device_data() of a tensor not on cuda");
  FUNCSPEC_INTERNAL_ASSERT(dtype_of<T>() == t.dtype(), "device_data<T>() with the wrong element type");
  T* const start = static_cast<T*>(t.storage()->data());
  return t.numel() == 0 ? start : start + t.storage_offset();
}

// `t` as a kernel operand; its shape must be the kernel's geometry (same rank and sizes).
template <typename T>
StridedView<T> strided_view_of(const Tensor& t, std::string_view op) {
  const Geometry geometry = geometry_of(t.shape(), op);
  StridedView<T> view;
  view.data = device_data<T>(t);
  for (int d = 0; d < geometry.rank; ++d) view.strides[d] = t.strides()[static_cast<std::size_t>(d)];
  view.contiguous = t.is_contiguous();
  return view;
}

}  // namespace funcspec::cuda
