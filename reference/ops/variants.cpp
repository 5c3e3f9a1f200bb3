// NOTE: [derived variants]
// In-place and out= variants are not separate computations: `x.add_(y)` is `copy_(x, add(x, y))`
// and `add(x, y, out=o)` is `copy_(o, add(x, y))`, after checks that run before anything is
// written (so an error never leaves a tensor half-written):
//   - the result's dtype must be castable to the target's (no float into int64, no int64 into bool);
//   - in-place: the result's shape must equal self's; a broadcast result with more elements than
//     self is the `inplace_broadcast` error (the condition vmap checks for each example too);
//   - out=: the result's shape must equal out's (`out_shape_mismatch`). PyTorch resizes a wrongly
//     shaped out (with a deprecation warning when it was not empty); the spec requires the shape.
// copy_ itself is the only primitive that writes, which leaves transforms a single mutation to handle.
#include <fmt/format.h>

#include <algorithm>

#include "reference/core/promotion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

void check_castable(std::string_view op, DType result, DType target) {
  FUNCSPEC_CHECK(can_cast(result, target), ErrorKind::DtypeCastNotAllowed,
                 "[{}] the result's dtype {} cannot be cast to the target's dtype {}", op, dtype_name(result),
                 dtype_name(target));
}

void register_inplace_variant(OpRegistry& registry, const OpDef& functional) {
  OpSchema schema = functional.schema;
  schema.name = functional.name() + "_";
  FUNCSPEC_INTERNAL_ASSERT(!schema.args.empty() && schema.args[0].type == ArgType::TensorArg,
                           "an in-place variant needs a tensor self");
  schema.args[0].alias = "a";
  schema.args[0].mutated = true;
  schema.returns = {ReturnSpec{ArgType::TensorArg, "", "a"}};
  OpDef& op =
      registry.add(std::move(schema), OpKind::InPlace, functional.family,
                   fmt::format("in-place {}: writes {}(self, ...) into self", functional.name(), functional.name()));
  op.functional = functional.name();
  op.random = functional.random;
  op.decompose = [name = op.name(), fn = functional.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Tensor result = call_one(fn, in, attrs);
    check_castable(name, result.dtype(), self.dtype());
    FUNCSPEC_CHECK(result.shape() == self.shape(), ErrorKind::InplaceBroadcast,
                   "[{}] the result has the broadcast shape {} but self has shape {}: an in-place op cannot write "
                   "more elements than its target holds",
                   name, shape_to_string(result.shape()), shape_to_string(self.shape()));
    call("copy_", {self, result});
    return {self};
  };
}

void register_out_variant(OpRegistry& registry, const OpDef& functional) {
  OpSchema schema = functional.schema;
  schema.name = functional.name() + ".out";
  ArgSpec out_arg;
  out_arg.name = "out";
  out_arg.type = ArgType::TensorArg;
  out_arg.alias = "a";
  out_arg.mutated = true;
  out_arg.keyword_only = true;
  // Tensor inputs are positional in declaration order, so out goes after the last tensor argument.
  auto last_tensor =
      std::find_if(schema.args.rbegin(), schema.args.rend(), [](const ArgSpec& a) { return a.is_tensor(); });
  schema.args.insert(last_tensor.base(), out_arg);
  schema.returns = {ReturnSpec{ArgType::TensorArg, "", "a"}};
  OpDef& op = registry.add(std::move(schema), OpKind::OutVariant, functional.family,
                           fmt::format("{} writing its result into out", functional.name()));
  op.functional = functional.name();
  op.decompose = [name = op.name(), fn = functional.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& out = in.back();
    const Tensor result = call_one(fn, TensorList(in.begin(), in.end() - 1), attrs);
    check_castable(name, result.dtype(), out.dtype());
    FUNCSPEC_CHECK(result.shape() == out.shape(), ErrorKind::OutShapeMismatch,
                   "[{}] out has shape {} but the result has shape {}", name, shape_to_string(out.shape()),
                   shape_to_string(result.shape()));
    call("copy_", {out, result});
    return {out};
  };
}

}  // namespace

void register_variant_ops(OpRegistry& registry) {
  std::vector<const OpDef*> functionals;
  for (const OpDef* op : registry.all()) {
    if (op->derive_inplace || op->derive_out) functionals.push_back(op);
  }
  for (const OpDef* op : functionals) {
    if (op->derive_inplace) register_inplace_variant(registry, *op);
    if (op->derive_out) register_out_variant(registry, *op);
  }
}

}  // namespace funcspec
