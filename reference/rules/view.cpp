// Transform rules of the view family. Batching: the same view of every example is one view of the
// batched value with the batch dim kept apart (moved to the front), so results still alias their
// base and writes through them reach the caller's tensor.
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

BatchedValues front_view(const std::string& op, const BatchedValue& self, const Attrs& attrs) {
  return {{call_one(op, {batch_to_front(self)}, attrs), 0}};
}

std::vector<std::int64_t> with_batch(std::int64_t batch, const std::vector<std::int64_t>& size) {
  std::vector<std::int64_t> out{batch};
  out.insert(out.end(), size.begin(), size.end());
  return out;
}

}  // namespace

void register_view_batch_rules(BatchRuleRegistry& registry) {
  registry.add("expand", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    const std::vector<std::int64_t>& size = attrs.get_int_list("size");
    const auto rank = static_cast<std::int64_t>(size.size());
    // New leading dims of the example go after the batch dim.
    const Tensor front = rules::align_example_rank(batch_to_front(self), true, self.logical_rank(), rank);
    Attrs physical = attrs;
    physical.set("size", with_batch(front.shape()[0], size));
    return {{call_one("expand", {front}, physical), 0}};
  });
  registry.add("permute", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    std::vector<std::int64_t> dims{0};
    for (std::int64_t d : attrs.get_int_list("dims")) dims.push_back(physical_dim(d, self.logical_rank(), "permute"));
    Attrs physical = attrs;
    physical.set("dims", dims);
    return front_view("permute", self, physical);
  });
  for (const char* name : {"select", "slice"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      const BatchedValue& self = in.at(0);
      return front_view(op, self, rules::shift_dim_attr(attrs, "dim", self.logical_rank(), op.c_str()));
    });
  }
  registry.add("squeeze", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    const Tensor front = batch_to_front(self);
    // A 0-dim example has nothing to squeeze (its dim 0 / -1 names the example itself).
    if (self.logical_rank() == 0) {
      if (!attrs.is_none("dim")) {
        for (std::int64_t d : attrs.get_int_list("dim")) wrap_dim(d, 0, "squeeze");
      }
      return {{front, 0}};
    }
    std::vector<std::int64_t> dims;
    if (attrs.is_none("dim")) {
      // Every size-1 dim of the example, never the batch dim (a batch of one stays a batch).
      for (std::int64_t d = 1; d < front.dim(); ++d) {
        if (front.shape()[static_cast<std::size_t>(d)] == 1) dims.push_back(d);
      }
    } else {
      for (std::int64_t d : attrs.get_int_list("dim")) dims.push_back(physical_dim(d, self.logical_rank(), "squeeze"));
    }
    if (dims.empty()) return {{front, 0}};
    Attrs physical = attrs;
    physical.set("dim", dims);
    return {{call_one("squeeze", {front}, physical), 0}};
  });
  registry.add("unsqueeze", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    Attrs physical = attrs;
    physical.set("dim", wrap_dim(attrs.get_int("dim"), self.logical_rank() + 1, "unsqueeze") + 1);
    return front_view("unsqueeze", self, physical);
  });
  registry.add("view", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    const Tensor front = batch_to_front(self);
    // Resolve a -1 against the example's element count, which the batch must not take part in.
    std::vector<std::int64_t> size = attrs.get_int_list("size");
    Shape example = front.shape();
    example.erase(example.begin());
    const Shape inferred = infer_size(size, numel_of(example), "view");
    Attrs physical = attrs;
    physical.set("size", with_batch(front.shape()[0], std::vector<std::int64_t>(inferred.begin(), inferred.end())));
    return {{call_one("view", {front}, physical), 0}};
  });
  registry.add("diagonal", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    Attrs physical = rules::shift_dim_attr(attrs, "dim1", self.logical_rank(), "diagonal");
    physical = rules::shift_dim_attr(physical, "dim2", self.logical_rank(), "diagonal");
    return front_view("diagonal", self, physical);
  });
}

void register_view_ad_rules(AdRuleRegistry& registry) {
  registry.add_jvp("expand", [](const JvpCall& c) -> TensorList {
    return {ops::expand(c.tangents[0], c.attrs.get_int_list("size"))};
  });
  registry.add_transpose("expand", [](const TransposeCall& c) -> TensorList {
    return {sum_to_shape(c.cotangents[0], c.metas[0].shape)};
  });
}

}  // namespace funcspec::transforms
