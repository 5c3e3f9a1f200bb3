#pragma once
#include "reference/core/strided_loop.h"

namespace funcspec {

template <typename T>
T* Tensor::data() const {
  if (payload() != nullptr) note_direct_access("data()");
  FUNCSPEC_INTERNAL_ASSERT(device() == Device::Cpu && has_storage(), "data() of a tensor without cpu storage");
  FUNCSPEC_INTERNAL_ASSERT(dtype_of<T>() == dtype(), "data<T>() with the wrong element type");
  return static_cast<T*>(impl().storage()->data()) + storage_offset();
}

template <typename T>
std::vector<T> Tensor::to_vector() const {
  if (device() == Device::Cuda) return to_device(*this, Device::Cpu).to_vector<T>();
  FUNCSPEC_CHECK(device() == Device::Cpu, ErrorKind::DataDependentOnMeta,
                 "[to_vector] reading the elements of a {} tensor", device_name(device()));
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(numel()));
  visit_dtype(dtype(), [&]<typename S>() {
    const S* base = data<S>();
    for_each_offset<1>(shape(), {strides()},
                       [&](const std::array<std::int64_t, 1>& at) { out.push_back(cast_scalar<T>(base[at[0]])); });
  });
  return out;
}

template <typename T>
Tensor from_vector(const std::vector<T>& values, const Shape& shape, DType dtype) {
  FUNCSPEC_CHECK(static_cast<std::int64_t>(values.size()) == numel_of(shape), ErrorKind::ShapeMismatch,
                 "[from_vector] {} values do not fill shape {}", values.size(), shape_to_string(shape));
  Tensor t = Tensor::empty(shape, dtype);
  visit_dtype(dtype, [&]<typename S>() {
    S* out = t.data<S>();
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = cast_scalar<S>(values[i]);
  });
  return t;
}

}  // namespace funcspec
