// Transform rules of the scan family (scans and reorderings along dims). Batching: with the batch
// dim at the front, working along an example's dim is working along the same dim one place further
// on; each lane of the batch is a lane of one example, so the results are those of the examples.
#include <functional>

#include "reference/core/shape.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {
namespace {

using rules::batch_to_front;
using rules::physical_dim;

std::vector<std::int64_t> as_sizes(const Shape& shape) { return {shape.begin(), shape.end()}; }

// A rank-0 example has one lane of one element along "dim 0": the batch is viewed as [B, 1], the
// op works along dim 1, and each result is viewed back as [B].
Tensor with_unit_lane(const Tensor& front) { return call_one("unsqueeze", {front}, {{"dim", std::int64_t{1}}}); }
Tensor without_unit_lane(const Tensor& result) {
  return call_one("view", {result}, {{"size", std::vector<std::int64_t>{result.shape()[0]}}});
}

// cumsum, cumprod, sort, topk: one `dim` to work along; the other attributes keep their meaning.
// `rank0_attrs` adjusts them for a rank-0 example's unit lane.
BatchedValues along_dim_rule(const std::string& op, const BatchedValues& in, const Attrs& attrs,
                             const std::function<void(Attrs&)>& rank0_attrs = nullptr) {
  const BatchedValue& self = in.at(0);
  rules::check_examples(op, {self}, attrs);
  const std::int64_t rank = self.logical_rank();
  const Tensor front = batch_to_front(self);
  if (rank == 0) {
    Attrs physical = attrs;
    physical.set("dim", std::int64_t{1});
    if (rank0_attrs) rank0_attrs(physical);
    TensorList results = call(op, {with_unit_lane(front)}, physical);
    for (Tensor& r : results) r = without_unit_lane(r);
    return rules::batched_at_front(results);
  }
  return rules::batched_at_front(call(op, {front}, rules::shift_dim_attr(attrs, "dim", rank, op.c_str())));
}

BatchedValues flip_rule(const BatchedValues& in, const Attrs& attrs) {
  const BatchedValue& self = in.at(0);
  rules::check_examples("flip", {self}, attrs);
  const std::int64_t rank = self.logical_rank();
  // A rank-0 example has nothing to reverse: flip with no dims is the copy the op returns.
  std::vector<std::int64_t> dims;
  if (rank > 0) {
    for (std::int64_t d : attrs.get_int_list("dims")) dims.push_back(physical_dim(d, rank, "flip"));
  }
  return {{call_one("flip", {batch_to_front(self)}, {{"dims", dims}}), 0}};
}

BatchedValues roll_rule(const BatchedValues& in, const Attrs& attrs) {
  const BatchedValue& self = in.at(0);
  rules::check_examples("roll", {self}, attrs);
  const std::int64_t rank = self.logical_rank();
  const Tensor front = batch_to_front(self);
  const std::vector<std::int64_t>& shifts = attrs.get_int_list("shifts");
  const std::vector<std::int64_t>& dims = attrs.get_int_list("dims");
  if (!dims.empty() && rank > 0) {
    std::vector<std::int64_t> physical;
    for (std::int64_t d : dims) physical.push_back(physical_dim(d, rank, "roll"));
    return {{call_one("roll", {front}, {{"shifts", shifts}, {"dims", physical}}), 0}};
  }
  // Without dims the example is rolled flattened: each example is one row of a [B, numel] batch
  // (explicit sizes: a batch of 0 leaves nothing to infer from). A rank-0 example rolls as its
  // one-element flattening, whatever its dims say.
  const Shape shape = front.shape();
  const std::int64_t example_numel = numel_of(Shape(shape.begin() + 1, shape.end()));
  const Tensor rows = call_one("reshape", {front}, {{"shape", std::vector<std::int64_t>{shape[0], example_numel}}});
  const std::int64_t shift = dims.empty() ? shifts.at(0) : 0;
  const Tensor rolled =
      call_one("roll", {rows}, {{"shifts", std::vector<std::int64_t>{shift}}, {"dims", std::vector<std::int64_t>{1}}});
  return {{call_one("reshape", {rolled}, {{"shape", as_sizes(shape)}}), 0}};
}

}  // namespace

void register_scan_batch_rules(BatchRuleRegistry& registry) {
  for (const char* name : {"cumsum", "cumprod", "sort"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return along_dim_rule(op, in, attrs);
    });
  }
  // The op reads a rank-0 input as one lane of length 1 and writes its one element whatever k is
  // (k is 0 or 1 there), so the unit lane asks for that element.
  registry.add("topk", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
    return along_dim_rule("topk", in, attrs, [](Attrs& physical) { physical.set("k", std::int64_t{1}); });
  });
  registry.add("flip",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) { return flip_rule(in, attrs); });
  registry.add("roll",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) { return roll_rule(in, attrs); });
}

void register_scan_ad_rules(AdRuleRegistry&) {}

}  // namespace funcspec::transforms
