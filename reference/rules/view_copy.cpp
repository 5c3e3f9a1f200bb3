// Transform rules of the copying twins of the views and of their scatters (NOTE: [view copies]).
// A twin is its view followed by a copy, so its rules are the view's rules followed by a copy (a
// copy is the identity to every transform): each twin's batching rule and transpose rule defer to
// its view's, looked up when they run so that a rule replaced for a scope (NOTE: [rules replaced
// for a scope]) is the one deferred to. Only view_copy batches itself: the view's rule would refuse
// strides view_copy accepts.
#include <fmt/format.h>

#include <array>

#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace {

constexpr std::array<const char*, 8> kTwinnedViews = {"expand", "permute", "squeeze",  "unsqueeze",
                                                      "select", "slice",   "diagonal", "detach"};

struct ScatterOp {
  const char* view;
  std::vector<std::string> dim_attrs;  // the view's attributes that name dims of self
};

const std::vector<ScatterOp>& scatter_ops() {
  static const std::vector<ScatterOp> ops{{"select", {"dim"}}, {"slice", {"dim"}}, {"diagonal", {"dim1", "dim2"}}};
  return ops;
}

std::string twin_of(const std::string& view) { return view + "_copy"; }
std::string scatter_of(const std::string& view) { return view + "_scatter"; }

}  // namespace

void register_view_copy_rules(RuleAttacher& attach) {
  // Batching.
  for (const char* name : kTwinnedViews) {
    const std::string view = name;
    attach.batch(twin_of(view), [view](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
      const BatchRule* rule = batch_rule(OpRegistry::instance().get(view));
      FUNCSPEC_INTERNAL_ASSERT(rule != nullptr, fmt::format("{} has no batching rule to copy", view));
      BatchedValues viewed = (*rule)(in, attrs, context);
      for (BatchedValue& v : viewed) v.value = call_one("clone", {v.value});
      return viewed;
    });
  }
  attach.batch("view_copy", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const Tensor front = rules::batch_to_front(in.at(0));
    const Shape example = rules::example_shape(in.at(0));
    const Shape inferred = infer_size(attrs.get_int_list("size"), numel_of(example), "view_copy");
    std::vector<std::int64_t> size{front.shape()[0]};
    size.insert(size.end(), inferred.begin(), inferred.end());
    Attrs physical = attrs;
    physical.set("size", size);
    return {{call_one("view_copy", {front}, physical), 0}};
  });
  for (const ScatterOp& scatter : scatter_ops()) {
    const std::string op = scatter_of(scatter.view);
    attach.batch(op,
                 [op, dims = scatter.dim_attrs](const BatchedValues& in, const Attrs& attrs,
                                                const BatchContext& context) -> BatchedValues {
                   // Raised on the examples, as the unbatched op would raise them.
                   rules::check_examples(op, in, attrs);
                   Attrs physical = attrs;
                   for (const std::string& dim : dims)
                     physical = rules::shift_dim_attr(physical, dim, in.at(0).logical_rank(), op.c_str());
                   const Tensor self = rules::materialize_batch(in.at(0), context.batch_size);
                   const Tensor src = rules::materialize_batch(in.at(1), context.batch_size);
                   return {{call_one(op, {self, src}, physical), 0}};
                 });
  }

  // Derivatives.
  for (const char* name : kTwinnedViews) {
    const std::string view = name;
    if (view == "detach") continue;
    attach.jvp(twin_of(view), [op = twin_of(view)](const JvpCall& c) -> TensorList {
      return {call_one(op, {c.tangents[0]}, c.attrs)};
    });
    attach.transpose(twin_of(view), [view](const TransposeCall& c) -> TensorList {
      const TransposeRule* rule = transpose_rule(OpRegistry::instance().get(view));
      FUNCSPEC_INTERNAL_ASSERT(rule != nullptr, fmt::format("{} has no transpose rule to copy", view));
      return (*rule)(c);
    });
  }
  attach.jvp("view_copy",
             [](const JvpCall& c) -> TensorList { return {call_one("view_copy", {c.tangents[0]}, c.attrs)}; });
  attach.transpose("view_copy", [](const TransposeCall& c) -> TensorList {
    const std::vector<std::int64_t> shape(c.metas[0].shape.begin(), c.metas[0].shape.end());
    return {call_one("view_copy", {c.cotangents[0]}, {{"size", shape}})};
  });
  // The copy of a constant is a constant (stop_gradient, as detach).
  attach.non_differentiable("detach_copy");

  // A scatter is linear in (self, src) together: its tangent scatters src's tangent into self's.
  // A zero tangent on one side becomes zeros, which a transpose then treats as the constant it is.
  for (const ScatterOp& scatter : scatter_ops()) {
    const std::string op = scatter_of(scatter.view);
    attach.jvp(op, [op](const JvpCall& c) -> TensorList {
      const auto or_zeros = [](const Tensor& tangent, const Tensor& primal) {
        return tangent.defined() ? tangent : zeros_of({primal.shape(), primal.dtype()}, primal.device());
      };
      return {call_one(op, {or_zeros(c.tangents[0], c.primals[0]), or_zeros(c.tangents[1], c.primals[1])}, c.attrs)};
    });
    attach.transpose(op, [op, twin = twin_of(scatter.view)](const TransposeCall& c) -> TensorList {
      const Tensor& ct = c.cotangents[0];
      TensorList cotangents(2);
      // self's elements outside the region reach the result; src's reach the region.
      if (c.linear[0]) cotangents[0] = call_one(op, {ct, zeros_of(c.metas[1], ct.device())}, c.attrs);
      if (c.linear[1]) cotangents[1] = call_one(twin, {ct}, c.attrs);
      return cotangents;
    });
  }
}

}  // namespace funcspec::transforms
