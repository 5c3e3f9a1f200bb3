// Transform rules of the index family: cat, gather, index_add, index_select, masked_fill,
// scatter_add. Batching: every input moves its batch to the front (unbatched ones are expanded, a
// view) and the op runs once along the example's dim shifted past the batch. An index that differs
// per example cannot be one index of index_select or index_add, so those become gather and
// scatter_add over the index spread along the indexed dim.
//
// The examples' shapes and dtypes are checked first by the op itself on meta examples, so a
// batched call fails with the unbatched op's error kind and message (dims named against the
// example's rank) and before anything is computed; the data checks (index values) are the
// kernels', on the batched values.
#include <algorithm>

#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/batch_rules.h"

namespace funcspec::transforms {
namespace {

using rules::check_examples;
using rules::materialize_batch;

// A rank-0 example has no dim to index along; viewed as a one-element vector it has dim 1 after the
// batch, which is what the example's dims 0 and -1 (the only valid ones) then name.
Tensor as_vector_examples(const Tensor& front) { return call_one("unsqueeze", {front}, {{"dim", std::int64_t{1}}}); }
Tensor as_scalar_examples(const Tensor& front) {
  return call_one("squeeze", {front}, {{"dim", std::vector<std::int64_t>{1}}});
}

// The physical dim of the op's `dim` attribute for front-batched values whose rank-0 examples have
// been viewed as vectors.
std::int64_t physical_index_dim(const Attrs& attrs, std::int64_t example_rank, const char* op) {
  return example_rank == 0 ? 1 : rules::physical_dim(attrs.get_int("dim"), example_rank, op);
}

// A batched 0-d or 1-d index of k elements per example as a gather/scatter index shaped like
// `like` (front-batched) with k at `dim`: example b's index runs along dim, repeated over the others.
Tensor spread_index(const BatchedValue& index, std::int64_t batch_size, Shape like, std::int64_t dim) {
  const std::int64_t k = numel_of(rules::example_shape(index));
  std::vector<std::int64_t> lined_up(like.size(), 1);
  lined_up[0] = batch_size;
  lined_up[static_cast<std::size_t>(dim)] = k;
  const Tensor rows = call_one("reshape", {materialize_batch(index, batch_size)}, {{"shape", lined_up}});
  like[static_cast<std::size_t>(dim)] = k;
  return call_one("expand", {rows}, {{"size", std::vector<std::int64_t>(like.begin(), like.end())}});
}

BatchedValues cat_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("cat", in, attrs);
  // A legacy shape-[0] example joins examples of any rank by contributing nothing; batched it would
  // be [B, 0] and no longer match, so it is left out (unless every example is one).
  const auto legacy_empty = [](const BatchedValue& v) { return rules::example_shape(v) == Shape{0}; };
  auto reference = std::find_if(in.begin(), in.end(), [&](const BatchedValue& v) { return !legacy_empty(v); });
  const bool all_legacy = reference == in.end();
  const std::int64_t rank = all_legacy ? 1 : reference->logical_rank();
  TensorList pieces;
  for (const BatchedValue& input : in) {
    if (!all_legacy && legacy_empty(input)) continue;
    pieces.push_back(materialize_batch(input, context.batch_size));
  }
  return {{call_one("cat", pieces, rules::shift_dim_attr(attrs, "dim", rank, "cat")), 0}};
}

// gather and scatter_add take inputs of one rank: all go to the front and the op runs along dim.
BatchedValues same_rank_rule(const std::string& op, const BatchedValues& in, const Attrs& attrs,
                             const BatchContext& context) {
  check_examples(op, in, attrs);
  const std::int64_t rank = in.at(0).logical_rank();
  TensorList values;
  for (const BatchedValue& input : in) {
    const Tensor front = materialize_batch(input, context.batch_size);
    values.push_back(rank == 0 ? as_vector_examples(front) : front);
  }
  Attrs physical = attrs;
  physical.set("dim", physical_index_dim(attrs, rank, op.c_str()));
  const Tensor out = call_one(op, values, physical);
  return {{rank == 0 ? as_scalar_examples(out) : out, 0}};
}

BatchedValues index_select_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("index_select", in, attrs);
  const BatchedValue& index = in.at(1);
  const std::int64_t rank = in.at(0).logical_rank();
  Tensor self = materialize_batch(in.at(0), context.batch_size);
  if (rank == 0) self = as_vector_examples(self);
  const std::int64_t dim = physical_index_dim(attrs, rank, "index_select");
  const Tensor out =
      index.batched()
          ? call_one("gather", {self, spread_index(index, context.batch_size, self.shape(), dim)}, {{"dim", dim}})
          : call_one("index_select", {self, index.value}, {{"dim", dim}});
  return {{rank == 0 ? as_scalar_examples(out) : out, 0}};
}

BatchedValues index_add_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("index_add", in, attrs);
  const BatchedValue& index = in.at(1);
  const std::int64_t rank = in.at(0).logical_rank();
  Tensor self = materialize_batch(in.at(0), context.batch_size);
  Tensor source = materialize_batch(in.at(2), context.batch_size);
  if (rank == 0) {
    self = as_vector_examples(self);
    source = as_vector_examples(source);
  }
  const std::int64_t dim = physical_index_dim(attrs, rank, "index_add");
  const Scalar alpha = attrs.get_scalar("alpha");
  Tensor out;
  if (!index.batched()) {
    out = call_one("index_add", {self, index.value, source}, {{"dim", dim}, {"alpha", alpha}});
  } else {
    // Slice j of source is added to slice index[j]: scatter_add of source at the spread index adds
    // the same terms to every element in the same order (j ascending).
    const Tensor scaled =
        alpha == Scalar(std::int64_t{1}) ? source : call_one("mul", {source, Tensor::wrapped_scalar(alpha)});
    out = call_one("scatter_add", {self, spread_index(index, context.batch_size, source.shape(), dim), scaled},
                   {{"dim", dim}});
  }
  return {{rank == 0 ? as_scalar_examples(out) : out, 0}};
}

BatchedValues masked_fill_rule(const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
  check_examples("masked_fill", in, attrs);
  const Tensor self = materialize_batch(in.at(0), context.batch_size);
  const Tensor mask = materialize_batch(in.at(1), context.batch_size);
  const BatchedValue& value = in.at(2);
  if (!value.batched()) return {{call_one("masked_fill", {self, mask, value.value}, attrs), 0}};
  // One fill value per example: converted to self's dtype (as masked_fill converts its value) and
  // broadcast over each example.
  Tensor fill = rules::batch_to_front(value);
  if (fill.dtype() != self.dtype()) fill = call_one("to_dtype", {fill}, {{"dtype", self.dtype()}});
  std::vector<std::int64_t> lined_up(static_cast<std::size_t>(self.dim()), 1);
  lined_up[0] = context.batch_size;
  fill = call_one("reshape", {fill}, {{"shape", lined_up}});
  return {{call_one("where", {mask, fill, self}), 0}};
}

}  // namespace

void register_index_batch_rules(BatchRuleRegistry& registry) {
  registry.add("cat", cat_rule);
  for (const char* name : {"gather", "scatter_add"}) {
    const std::string op = name;
    registry.add(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
      return same_rank_rule(op, in, attrs, context);
    });
  }
  registry.add("index_select", index_select_rule);
  registry.add("index_add", index_add_rule);
  registry.add("masked_fill", masked_fill_rule);
}

void register_index_ad_rules(AdRuleRegistry&) {}

}  // namespace funcspec::transforms
