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

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

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

bool is_legacy_empty(const Shape& shape) { return shape == Shape{0}; }

// `tangent`, or zeros shaped like `primal` when it is a symbolic zero: for linear ops that must
// still be given some value at that position.
Tensor tangent_or_zeros(const Tensor& tangent, const Tensor& primal) {
  return tangent.defined() ? tangent : zeros_of({primal.shape(), primal.dtype()}, primal.device());
}

// gather's cotangent of src (which may extend past the index in any dim): the cotangent at the
// gathered positions, zero elsewhere.
Tensor padded_to(const Tensor& piece, const Shape& shape) {
  if (piece.shape() == shape) return piece;
  std::vector<std::int64_t> pad;
  for (std::size_t k = shape.size(); k-- > 0;) {
    pad.push_back(0);
    pad.push_back(shape[k] - piece.shape()[k]);
  }
  return ops::pad(piece, pad);
}

TensorList cat_transpose(const TransposeCall& c) {
  const auto reference =
      std::find_if(c.metas.begin(), c.metas.end(), [](const TensorMeta& m) { return !is_legacy_empty(m.shape); });
  const bool all_legacy = reference == c.metas.end();
  const std::int64_t rank = all_legacy ? 1 : static_cast<std::int64_t>(reference->shape.size());
  const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), rank, "cat");
  const Tensor& ct = c.cotangents[0];
  TensorList cotangents(c.metas.size());
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < c.metas.size(); ++i) {
    // A legacy empty tensor took no part (and has no elements to receive anything).
    if (!all_legacy && is_legacy_empty(c.metas[i].shape)) continue;
    const std::int64_t width = c.metas[i].shape[static_cast<std::size_t>(dim)];
    if (c.linear[i]) cotangents[i] = ops::slice(ct, dim, offset, offset + width);
    offset += width;
  }
  return cotangents;
}

TensorList masked_fill_tangent(const JvpCall& c) {
  const Tensor& mask = c.primals[1];
  const DType dtype = c.outputs[0].dtype();
  if (!is_floating(dtype)) return {Tensor()};
  const Tensor kept = c.tangents[0].defined() ? ops::masked_fill(c.tangents[0], mask, ops::lit(0.0)) : Tensor();
  const Tensor filled =
      c.tangents[2].defined() ? ops::mul(ops::to_dtype(mask, dtype), ops::to_dtype(c.tangents[2], dtype)) : Tensor();
  return {add_tangents(kept, filled)};
}

// The value's cotangent is what the filled positions received.
TensorList masked_fill_transpose(const TransposeCall& c) {
  const Tensor& ct = c.cotangents[0];
  const Tensor& mask = c.inputs[1];
  const Tensor zero = ops::lit(0.0);
  Tensor value;
  if (c.linear[2])
    value = ops::to_dtype(ops::sum(ops::masked_fill(ct, ops::logical_not(mask), zero)), c.metas[2].dtype);
  return {c.linear[0] ? ops::masked_fill(ct, mask, zero) : Tensor(), Tensor(), value};
}

}  // namespace

void register_index_rules(RuleAttacher& attach) {
  // Batching.
  attach.batch("cat", cat_rule);
  for (const char* name : {"gather", "scatter_add"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) {
      return same_rank_rule(op, in, attrs, context);
    });
  }
  attach.batch("index_select", index_select_rule);
  attach.batch("index_add", index_add_rule);
  attach.batch("masked_fill", masked_fill_rule);

  // Derivatives.
  // Linear in every tensor: the tangents joined, zeros standing in for constant pieces.
  attach.jvp("cat", [](const JvpCall& c) -> TensorList {
    if (std::none_of(c.tangents.begin(), c.tangents.end(), [](const Tensor& t) { return t.defined(); }))
      return {Tensor()};
    TensorList pieces;
    for (std::size_t i = 0; i < c.primals.size(); ++i) pieces.push_back(tangent_or_zeros(c.tangents[i], c.primals[i]));
    return {call_one("cat", pieces, c.attrs)};
  });
  attach.transpose("cat", cat_transpose);

  attach.jvp("gather", [](const JvpCall& c) -> TensorList {
    return {call_one("gather", {c.tangents[0], c.primals[1]}, c.attrs)};
  });
  attach.transpose("gather", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {call_one("scatter_add", {zeros_of(c.metas[0], ct.device()), c.inputs[1], ct}, c.attrs), Tensor()};
  });

  attach.jvp("index_select", [](const JvpCall& c) -> TensorList {
    return {call_one("index_select", {c.tangents[0], c.primals[1]}, c.attrs)};
  });
  attach.transpose("index_select", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    const Attrs attrs{{"dim", c.attrs.get_int("dim")}};
    return {call_one("index_add", {zeros_of(c.metas[0], ct.device()), c.inputs[1], ct}, attrs), Tensor()};
  });

  // index_add and scatter_add are linear in self and in the added tensor together.
  for (const char* name : {"index_add", "scatter_add"}) {
    const std::string op = name;
    attach.jvp(op, [op](const JvpCall& c) -> TensorList {
      if (!c.tangents[2].defined()) return {c.tangents[0]};
      return {call_one(op, {tangent_or_zeros(c.tangents[0], c.primals[0]), c.primals[1], c.tangents[2]}, c.attrs)};
    });
  }
  attach.transpose("index_add", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    Tensor source;
    if (c.linear[2]) {
      source = ops::index_select(ct, c.attrs.get_int("dim"), c.inputs[1]);
      const Scalar alpha = c.attrs.get_scalar("alpha");
      if (alpha != Scalar(std::int64_t{1})) source = ops::mul(source, ops::lit(alpha));
    }
    return {c.linear[0] ? ct : Tensor(), Tensor(), source};
  });
  attach.transpose("scatter_add", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    const Tensor src =
        c.linear[2] ? padded_to(call_one("gather", {ct, c.inputs[1]}, c.attrs), c.metas[2].shape) : Tensor();
    return {c.linear[0] ? ct : Tensor(), Tensor(), src};
  });

  attach.jvp("masked_fill", masked_fill_tangent);
  attach.transpose("masked_fill", masked_fill_transpose);
}

}  // namespace funcspec::transforms
