#include "reference/core/tensor.h"

#include <fmt/format.h>

namespace funcspec {
namespace {

DirectAccessObserver*& direct_access_observer() {
  thread_local DirectAccessObserver* observer = nullptr;
  return observer;
}

}  // namespace

DirectAccessScope::DirectAccessScope(DirectAccessObserver& observer) : previous_(direct_access_observer()) {
  direct_access_observer() = &observer;
}

DirectAccessScope::~DirectAccessScope() { direct_access_observer() = previous_; }

void Tensor::note_direct_access(std::string_view what) const {
  if (DirectAccessObserver* observer = direct_access_observer()) observer->on_direct_access(*this, what);
}

Tensor Tensor::empty(const Shape& shape, DType dtype, Device device) {
  for (std::int64_t s : shape) {
    FUNCSPEC_CHECK(s >= 0, ErrorKind::InvalidArgument, "[empty] negative size in shape {}", shape_to_string(shape));
  }
  std::shared_ptr<Storage> storage;
  if (device != Device::Meta) storage = Storage::allocate(dtype, numel_of(shape), device);
  return Tensor(std::make_shared<TensorImpl>(std::move(storage), shape, contiguous_strides(shape), 0, dtype, device));
}

Tensor Tensor::view_of(const Tensor& base, Shape shape, Strides strides, std::int64_t offset) {
  if (base.payload() != nullptr) base.note_direct_access("Tensor::view_of");
  return Tensor(std::make_shared<TensorImpl>(base.impl().storage(), std::move(shape), std::move(strides), offset,
                                             base.dtype(), base.device()));
}

Tensor Tensor::transform_wrapper(Shape shape, Strides strides, DType dtype, Device device,
                                 std::shared_ptr<const TransformPayload> payload, std::int64_t offset) {
  auto impl = std::make_shared<TensorImpl>(nullptr, std::move(shape), std::move(strides), offset, dtype, device);
  impl->set_payload(std::move(payload));
  return Tensor(std::move(impl));
}

Tensor Tensor::wrapped_scalar(const Scalar& value) {
  Tensor t = Tensor::empty({}, value.dtype());
  visit_dtype(value.dtype(), [&]<typename T>() { *t.data<T>() = value.to<T>(); });
  t.impl_->set_wrapped_number(true);
  return t;
}

std::int64_t Tensor::size(std::int64_t d) const {
  return shape()[static_cast<std::size_t>(wrap_dim(d, dim(), "size"))];
}

bool Tensor::is_contiguous() const {
  std::int64_t expected = 1;
  for (std::size_t i = shape().size(); i-- > 0;) {
    if (shape()[i] == 1) continue;
    if (strides()[i] != expected) return numel() == 0;
    expected *= shape()[i];
  }
  return true;
}

bool Tensor::shares_storage_with(const Tensor& other) const {
  return has_storage() && other.has_storage() && storage() == other.storage();
}

Tensor from_values(std::initializer_list<double> values, const Shape& shape, DType dtype) {
  return from_vector(std::vector<double>(values), shape, dtype);
}

}  // namespace funcspec
