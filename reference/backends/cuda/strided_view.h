#pragma once
// How CUDA kernels see tensors: a raw device pointer plus sizes and strides in fixed arrays, passed
// to kernels by value. This header is plain C++17 with no funcspec types, so nvcc compiles it; the
// host side fills it from a Tensor (device_tensor.h).
#include <cstdint>

#include "reference/core/host_device.h"

namespace funcspec::cuda {

// The most dims a tensor on the CUDA backend may have (PyTorch's CUDA kernels allow 25). Kernel
// arguments are fixed-size, so a limit is needed; device_tensor.h rejects higher ranks with an
// error that names it.
inline constexpr int kMaxDims = 16;

// The logical shape shared by the operands of one kernel (row-major linear order).
struct Geometry {
  int rank = 0;
  std::int64_t sizes[kMaxDims] = {};
  std::int64_t numel = 1;
};

// One operand: the element at index (i0, ..., ik) is data[i0*strides[0] + ... + ik*strides[k]];
// `data` already includes the tensor's storage offset. Strides may be 0 (broadcast) or negative.
template <typename T>
struct StridedView {
  T* data = nullptr;
  std::int64_t strides[kMaxDims] = {};
  bool contiguous = false;  // strides are the row-major ones of the geometry: offset == linear index
};

// The storage offset, relative to `data`, of the element at row-major position `linear`.
FUNCSPEC_HOST_DEVICE inline std::int64_t offset_of(std::int64_t linear, const Geometry& geometry,
                                                   const std::int64_t* strides) {
  std::int64_t offset = 0;
  for (int d = geometry.rank - 1; d >= 0; --d) {
    const std::int64_t size = geometry.sizes[d];
    offset += (linear % size) * strides[d];
    linear /= size;
  }
  return offset;
}

template <typename T>
FUNCSPEC_HOST_DEVICE inline T& element_at(const StridedView<T>& view, std::int64_t linear, const Geometry& geometry) {
  return view.contiguous ? view.data[linear] : view.data[offset_of(linear, geometry, view.strides)];
}

}  // namespace funcspec::cuda
