#include "reference/core/wrapper_walk.h"

namespace funcspec {

const void* memory_identity(const Tensor& tensor) {
  if (!tensor.defined()) return nullptr;
  if (tensor.has_storage()) return tensor.storage().get();
  const TransformPayload* payload = tensor.payload();
  if (payload == nullptr) return nullptr;
  if (const void* memory = payload->own_memory()) return memory;
  const Tensor* values = payload->wrapped_values();
  return values != nullptr ? memory_identity(*values) : nullptr;
}

const TransformPayload* find_wrapper(const Tensor& tensor, const std::function<bool(const TransformPayload&)>& match) {
  if (!tensor.defined() || tensor.payload() == nullptr) return nullptr;
  const TransformPayload& payload = *tensor.payload();
  if (match(payload)) return &payload;
  if (const Tensor* values = payload.wrapped_values()) {
    if (const TransformPayload* found = find_wrapper(*values, match)) return found;
  }
  for (const Tensor* carried : payload.also_wrapped()) {
    if (const TransformPayload* found = find_wrapper(*carried, match)) return found;
  }
  return nullptr;
}

}  // namespace funcspec
