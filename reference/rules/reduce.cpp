// Transform rules of the reduce family. Batching: with the batch dim at the front, reducing the
// example's dims is reducing the same dims one place further on, and the batch dim is never among
// them. Reductions visit each output's elements in row-major order of the reduced index (NOTE:
// [reduction order]), which the front batch dim does not change, so the batch computes bit for bit
// what each example would.
#include <algorithm>
#include <numeric>

#include "reference/core/shape.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {
namespace {

using rules::batch_to_front;
using rules::physical_dim;

// A rank-0 example reduces nothing (dims 0 and -1 are accepted and name no dim): the batch becomes
// [B, 1] and reduces its unit dim, which gives each example's one-element reduction.
Tensor front_with_unit_dim(const BatchedValue& self) {
  return call_one("unsqueeze", {batch_to_front(self)}, {{"dim", std::int64_t{1}}});
}

// The physical dims, batch at 0, of a `int[]? dim` attribute: None and [] mean every dim of the
// example, which must not become "every dim" of the batch.
std::vector<std::int64_t> physical_reduced_dims(const Attrs& attrs, std::int64_t example_rank, const char* op) {
  const std::optional<std::vector<std::int64_t>> dims = attrs.get_optional_int_list("dim");
  std::vector<std::int64_t> physical;
  if (!dims || dims->empty()) {
    physical.resize(static_cast<std::size_t>(example_rank));
    std::iota(physical.begin(), physical.end(), std::int64_t{1});
    return physical;
  }
  for (std::int64_t d : *dims) physical.push_back(physical_dim(d, example_rank, op));
  return physical;
}

// sum, prod, amax, amin, all, any, norm: `int[]? dim`, keepdim, and attributes (dtype, p) that
// keep their meaning.
BatchedValues reduce_dims_rule(const std::string& op, const BatchedValues& in, const Attrs& attrs) {
  const BatchedValue& self = in.at(0);
  rules::check_examples(op, {self}, attrs);
  const std::int64_t rank = self.logical_rank();
  Attrs physical = attrs;
  if (rank == 0) {
    physical.set("dim", std::vector<std::int64_t>{1});
    physical.set("keepdim", false);
    return {{call_one(op, {front_with_unit_dim(self)}, physical), 0}};
  }
  physical.set("dim", physical_reduced_dims(attrs, rank, op.c_str()));
  return {{call_one(op, {batch_to_front(self)}, physical), 0}};
}

// argmax, argmin: `int? dim`; None indexes the flattened example, so each example is flattened
// into one row of a [B, numel] batch (explicit sizes: a batch of 0 leaves nothing to infer from).
BatchedValues arg_reduce_rule(const std::string& op, const BatchedValues& in, const Attrs& attrs) {
  const BatchedValue& self = in.at(0);
  rules::check_examples(op, {self}, attrs);
  const std::int64_t rank = self.logical_rank();
  const bool keepdim = attrs.get_bool("keepdim");
  if (attrs.get_optional_int("dim")) {
    if (rank == 0) {
      return {{call_one(op, {front_with_unit_dim(self)}, {{"dim", std::int64_t{1}}, {"keepdim", false}}), 0}};
    }
    return {{call_one(op, {batch_to_front(self)}, rules::shift_dim_attr(attrs, "dim", rank, op.c_str())), 0}};
  }
  const Tensor front = batch_to_front(self);
  const std::int64_t batch = front.shape()[0];
  const std::int64_t example_numel = numel_of(Shape(front.shape().begin() + 1, front.shape().end()));
  const Tensor rows = call_one("reshape", {front}, {{"shape", std::vector<std::int64_t>{batch, example_numel}}});
  const Tensor index = call_one(op, {rows}, {{"dim", std::int64_t{1}}, {"keepdim", false}});
  if (!keepdim) return {{index, 0}};
  // keepdim keeps every dim of the example, each of size 1.
  std::vector<std::int64_t> kept(static_cast<std::size_t>(rank) + 1, 1);
  kept[0] = batch;
  return {{call_one("view", {index}, {{"size", kept}}), 0}};
}

}  // namespace

void register_reduce_batch_rules(BatchRuleRegistry& registry) {
  for (const char* name : {"sum", "prod", "amax", "amin", "all", "any", "norm"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return reduce_dims_rule(op, in, attrs);
    });
  }
  for (const char* name : {"argmax", "argmin"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return arg_reduce_rule(op, in, attrs);
    });
  }
}

void register_reduce_ad_rules(AdRuleRegistry& registry) {
  registry.add_jvp("sum", [](const JvpCall& c) -> TensorList { return {call_one("sum", {c.tangents[0]}, c.attrs)}; });
  // Each input element contributes once to its reduced result: the cotangent comes back by
  // re-inserting the reduced dims and expanding.
  registry.add_transpose("sum", [](const TransposeCall& c) -> TensorList {
    const Shape& shape = c.metas[0].shape;
    const auto rank = static_cast<std::int64_t>(shape.size());
    const std::optional<std::vector<std::int64_t>> dim = c.attrs.get_optional_int_list("dim");
    std::vector<std::int64_t> dims;
    if (dim && !dim->empty()) {
      dims = wrap_dims(*dim, rank, "sum");
    } else {
      for (std::int64_t d = 0; d < rank; ++d) dims.push_back(d);
    }
    std::sort(dims.begin(), dims.end());
    Tensor ct = c.cotangents[0];
    if (!c.attrs.get_bool("keepdim")) {
      for (std::int64_t d : dims) ct = ops::unsqueeze(ct, d);
    }
    return {ops::to_dtype(ops::expand(ct, shape), c.metas[0].dtype)};
  });
}

}  // namespace funcspec::transforms
