// Transform rules of the conversion family: clone, to_dtype, copy_, detach.
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

void register_conversion_rules(RuleAttacher& attach) {
  // Batching.
  // clone promises a contiguous copy, so each example must come out contiguous: cloned with the
  // batch dim in front (a batch dim kept in the middle would leave every example strided, and
  // reshape, which clones exactly when a view is impossible, would then fail to view the clone).
  attach.batch("clone", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    if (!in.at(0).bdim) return {{call_one("clone", {in.at(0).value}, attrs), std::nullopt}};
    return {{call_one("clone", {rules::batch_to_front(in.at(0))}, attrs), 0}};
  });
  // Elementwise on one tensor, no layout promised: the batch dim stays.
  for (const char* name : {"to_dtype", "detach"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      return {{call_one(op, {in.at(0).value}, attrs), in.at(0).bdim}};
    });
  }
  // copy_(self, src): the interpreter has refused a batched src into an unbatched self, and the op
  // layer has broadcast src to self's examples; the write goes through the front-batched view of
  // self's value, so the caller's batched tensor sees it.
  attach.batch("copy_", [](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
    const Tensor self = rules::batch_to_front(in.at(0));
    const Tensor src = rules::materialize_batch(in.at(1), context.batch_size);
    call_one("copy_", {self, src}, attrs);
    return {in.at(0)};
  });

  // Derivatives.
  attach.jvp("to_dtype", [](const JvpCall& c) -> TensorList {
    if (!is_floating(c.outputs[0].dtype())) return {Tensor()};
    return {ops::to_dtype(c.tangents[0], c.outputs[0].dtype())};
  });
  attach.transpose("to_dtype", [](const TransposeCall& c) -> TensorList {
    return {ops::to_dtype(c.cotangents[0], c.metas[0].dtype)};
  });

  attach.jvp("clone", [](const JvpCall& c) -> TensorList { return {ops::clone(c.tangents[0])}; });
  attach.transpose("clone", [](const TransposeCall& c) -> TensorList { return {c.cotangents[0]}; });

  // copy_(self, src): self's new value is src (the op layer has already expanded it to self's
  // shape) in self's dtype, and so is its tangent, whatever self's tangent was; the interpreter
  // installs it on self. Writing a src without a tangent leaves self with a zero one.
  attach.jvp("copy_", [](const JvpCall& c) -> TensorList {
    const Tensor& src = c.tangents[1];
    const DType dtype = c.primals[0].dtype();
    if (!src.defined() || !is_floating(dtype)) return {Tensor()};
    return {src.dtype() == dtype ? src : ops::to_dtype(src, dtype)};
  });

  // detach is stop_gradient: its result is a constant of every transform.
  attach.non_differentiable("detach");
}

}  // namespace funcspec::transforms
