#include "reference/transforms/dual.h"

#include "reference/core/error.h"

namespace funcspec::transforms {

Tensor make_dual(const Tensor& primal, const Tensor& tangent, int level, std::shared_ptr<AliasGroup> aliases) {
  Tensor dual = Tensor::transform_wrapper(primal.shape(), primal.strides(), primal.dtype(), primal.device(),
                                          std::make_shared<DualPayload>(level, primal, tangent, aliases));
  if (aliases) {
    // Views made for one op call (the op layer's broadcasts) die at once: keep the group small.
    std::erase_if(aliases->members, [](const std::weak_ptr<TensorImpl>& m) { return m.expired(); });
    aliases->members.push_back(dual.impl_ptr());
  }
  return dual;
}

const DualPayload* dual_payload(const Tensor& tensor, int level) {
  if (!tensor.defined() || tensor.payload() == nullptr || tensor.payload()->level() != level) return nullptr;
  return dynamic_cast<const DualPayload*>(tensor.payload());
}

DualValue unwrap_dual(const Tensor& tensor, int level) {
  if (const DualPayload* payload = dual_payload(tensor, level)) return {payload->primal(), payload->tangent()};
  return {tensor, Tensor()};
}

void set_tangent(const Tensor& dual, const Tensor& tangent, int level) {
  const DualPayload* payload = dual_payload(dual, level);
  FUNCSPEC_INTERNAL_ASSERT(payload != nullptr, "set_tangent on a tensor that is not a dual of this level");
  dual.impl_ptr()->set_payload(std::make_shared<DualPayload>(level, payload->primal(), tangent, payload->aliases()));
}

std::shared_ptr<AliasGroup> alias_group(const Tensor& dual, int level) {
  const DualPayload* payload = dual_payload(dual, level);
  FUNCSPEC_INTERNAL_ASSERT(payload != nullptr, "alias_group of a tensor that is not a dual of this level");
  if (payload->aliases()) return payload->aliases();
  auto group = std::make_shared<AliasGroup>();
  group->members.push_back(dual.impl_ptr());
  dual.impl_ptr()->set_payload(std::make_shared<DualPayload>(level, payload->primal(), payload->tangent(), group));
  return group;
}

bool has_live_aliases(const Tensor& dual, int level) {
  const DualPayload* payload = dual_payload(dual, level);
  if (payload == nullptr || !payload->aliases()) return false;
  for (const std::weak_ptr<TensorImpl>& member : payload->aliases()->members) {
    const std::shared_ptr<TensorImpl> alive = member.lock();
    if (alive && alive != dual.impl_ptr()) return true;
  }
  return false;
}

}  // namespace funcspec::transforms
