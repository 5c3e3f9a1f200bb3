#include "reference/transforms/batched.h"

#include "reference/core/error.h"

namespace funcspec::transforms {

Tensor make_batched(const Tensor& value, std::optional<std::int64_t> bdim, int level) {
  if (!bdim) return value;
  FUNCSPEC_INTERNAL_ASSERT(*bdim >= 0 && *bdim < value.dim(), "a batch dim outside the batched value");
  Shape shape = value.shape();
  Strides strides = value.strides();
  shape.erase(shape.begin() + *bdim);
  strides.erase(strides.begin() + *bdim);
  // No storage of its own: the values live in `value`.
  return Tensor::transform_wrapper(std::move(shape), std::move(strides), value.dtype(), value.device(),
                                   std::make_shared<BatchedPayload>(level, value, *bdim));
}

const BatchedPayload* batched_payload(const Tensor& tensor, int level) {
  if (!tensor.defined() || tensor.payload() == nullptr || tensor.payload()->level() != level) return nullptr;
  return dynamic_cast<const BatchedPayload*>(tensor.payload());
}

BatchedValue unwrap_batched(const Tensor& tensor, int level) {
  if (const BatchedPayload* payload = batched_payload(tensor, level)) return {payload->value(), payload->bdim()};
  return {tensor, std::nullopt};
}

}  // namespace funcspec::transforms
