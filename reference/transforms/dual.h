#pragma once
// NOTE: [dual tensors]
// Under a jvp level, the function sees wrappers (NOTE: [transform payloads]) whose payload holds a
// primal value and its tangent, both below the level (plain, or wrapped by outer transforms). An
// undefined tangent is a zero. Every op the level processes returns wrappers of its level, even
// without a tangent, so that a tensor created inside the transform is told apart from one captured
// from outside it (an in-place write of a tangent into the latter is an error, ad_inplace_captured).
//
// Views share storage, but each dual has its own tangent; an in-place write updates the tangent of
// the tensor written into and no other. So duals that view one another form an alias group, and a
// write that changes a tangent while another member of the group is alive is refused
// (ad_inplace_aliased) rather than leaving that member with a stale derivative.
#include <memory>
#include <string_view>
#include <vector>

#include "reference/core/tensor.h"

namespace funcspec::transforms {

struct AliasGroup {
  std::vector<std::weak_ptr<TensorImpl>> members;
};

class DualPayload final : public TransformPayload {
 public:
  DualPayload(int level, Tensor primal, Tensor tangent, std::shared_ptr<AliasGroup> aliases)
      : TransformPayload(level),
        primal_(std::move(primal)),
        tangent_(std::move(tangent)),
        aliases_(std::move(aliases)) {}
  const Tensor& primal() const { return primal_; }
  const Tensor& tangent() const { return tangent_; }
  const std::shared_ptr<AliasGroup>& aliases() const { return aliases_; }  // null: no views
  const Tensor* wrapped_values() const override { return &primal_; }
  std::vector<const Tensor*> also_wrapped() const override { return {&tangent_}; }
  std::string_view description() const override { return "a tensor of a jvp level"; }

 private:
  Tensor primal_;
  Tensor tangent_;
  std::shared_ptr<AliasGroup> aliases_;
};

struct DualValue {
  Tensor primal;
  Tensor tangent;  // undefined: zero
};

Tensor make_dual(const Tensor& primal, const Tensor& tangent, int level, std::shared_ptr<AliasGroup> aliases = nullptr);
// What `tensor` is at `level`: its primal and tangent when it is a dual of that level, otherwise
// the tensor itself with a zero tangent.
DualValue unwrap_dual(const Tensor& tensor, int level);
const DualPayload* dual_payload(const Tensor& tensor, int level);
// Gives an existing dual a new tangent (after an in-place write); every handle to it sees it.
void set_tangent(const Tensor& dual, const Tensor& tangent, int level);
// The alias group of `dual`, created (and `dual` made its first member) when it has none.
std::shared_ptr<AliasGroup> alias_group(const Tensor& dual, int level);
// Whether a member of `dual`'s alias group other than `dual` itself is alive.
bool has_live_aliases(const Tensor& dual, int level);

}  // namespace funcspec::transforms
