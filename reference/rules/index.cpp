// Transform rules of the index family: cat, gather, index_add, index_select, masked_fill,
// scatter_add, scatter, scatter_reduce. Batching: every input moves its batch to the front (unbatched ones are
// expanded, a view) and the op runs once along the example's dim shifted past the batch. An index that differs per
// example cannot be one index of index_select or index_add, so those become gather and scatter_add over the index
// spread along the indexed dim.
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

// --- scatter and scatter_reduce (SPEC OPS-22.1, OPS-22.2) ---

std::string device_of(const Tensor& t) { return std::string(device_name(t.device())); }

// `t` cut to `shape` (no larger in any dim): the part of src that scatter's index reaches.
Tensor narrowed_to(Tensor t, const Shape& shape) {
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (t.shape()[k] != shape[k]) t = ops::narrow(t, static_cast<std::int64_t>(k), 0, shape[k]);
  }
  return t;
}

// For each index position p, whether scatter's write at p is the one that stays: the last position in
// row-major order among those with the same target (SPEC OPS-22.1). Position ids scattered into a
// tensor of -1 keep the last writer's id, read back with gather.
Tensor last_writers(const Tensor& index, const Shape& self_shape, const Attrs& attrs) {
  const Tensor ids = ops::reshape(ops::arange(Scalar(std::int64_t{0}), Scalar(numel_of(index.shape())),
                                              Scalar(std::int64_t{1}), DType::Int64, device_of(index)),
                                  std::vector<std::int64_t>(index.shape().begin(), index.shape().end()));
  const Tensor owners = call_one("scatter",
                                 {ops::full(std::vector<std::int64_t>(self_shape.begin(), self_shape.end()),
                                            Scalar(std::int64_t{-1}), DType::Int64, device_of(index)),
                                  index, ids},
                                 attrs);
  return ops::eq(call_one("gather", {owners, index}, attrs), ids);
}

Tensor scatter_transpose_src(const Tensor& ct, const Tensor& index, const Shape& src_shape, const Attrs& attrs) {
  const Tensor written = ops::to_dtype(last_writers(index, ct.shape(), attrs), ct.dtype());
  return padded_to(ops::mul(call_one("gather", {ct, index}, attrs), written), src_shape);
}

// How many values reach each element of self (float, self's shape): `self_weight` (self's own share,
// 0 or 1 per element) plus the number of index positions that land there.
Tensor arrivals(const Tensor& self_weight, const Tensor& index, const Attrs& attrs) {
  return call_one("scatter_add", {self_weight, index, ops::ones_like(index, self_weight.dtype())}, attrs);
}

// The exclusive product along the last dim (every element of the lane but the one at each position),
// without dividing: exact where the lane holds zeros, and at every order.
Tensor scatter_product_of_others(const Tensor& lanes) {
  const std::int64_t dim = lanes.dim() - 1;
  const std::int64_t n = lanes.shape().back();
  Shape unit = lanes.shape();
  unit.back() = 1;
  const Tensor ones = ops::ones(unit, lanes.dtype(), device_of(lanes));
  const Tensor before = ops::cumprod(ops::cat({ones, ops::slice(lanes, dim, 0, n - 1)}, dim), dim);
  const Tensor reversed_after =
      ops::cumprod(ops::flip(ops::cat({ops::slice(lanes, dim, 1, n), ones}, dim), {dim}), dim);
  return ops::mul(before, ops::flip(reversed_after, {dim}));
}

// scatter_reduce's tangent for one reduce (self and index of rank >= 1; `dim` wrapped). `keep` is
// self's share (float 0/1): 1 where self takes part in its element's fold (include_self, or no src
// reaches the element), else 0.
Tensor scatter_reduce_tangent(const std::string& reduce, const Tensor& self, const Tensor& index, const Tensor& src,
                              const Tensor& out, const Tensor& t_self, const Tensor& t_src, const Tensor& keep,
                              const Attrs& attrs, std::int64_t dim) {
  const Tensor src_reached = narrowed_to(src, index.shape());
  const Tensor t_src_reached = narrowed_to(t_src, index.shape());
  if (reduce == "sum" || reduce == "mean") {
    const Tensor total = call_one("scatter_add", {ops::mul(t_self, keep), index, t_src_reached}, attrs);
    return reduce == "sum" ? total : ops::div(total, arrivals(keep, index, attrs));
  }
  if (reduce == "amax" || reduce == "amin") {
    // The tangents of the values equal to the result, averaged (ties share it evenly; SPEC OPS-22.3).
    const Tensor self_is = ops::mul(keep, ops::to_dtype(ops::eq(self, out), out.dtype()));
    const Tensor src_is = ops::to_dtype(ops::eq(src_reached, call_one("gather", {out, index}, attrs)), out.dtype());
    const Tensor ties = call_one("scatter_add", {self_is, index, src_is}, attrs);
    const Tensor total =
        call_one("scatter_add", {ops::mul(t_self, self_is), index, ops::mul(t_src_reached, src_is)}, attrs);
    return ops::div(total, ties);
  }
  // prod: each value's tangent times the product of the other values of its element, laid out as
  // lanes: lane q (self's shape) holds self[q] (or 1 where self takes no part) and, for each
  // position j of index's dim, src at j where it lands on q (or 1).
  const Shape& shape = self.shape();
  const std::int64_t rank = self.dim();
  std::vector<std::int64_t> pads;  // index and src grown to self's size outside dim
  for (std::int64_t k = rank - 1; k >= 0; --k) {
    pads.push_back(0);
    pads.push_back(k == dim ? 0 : shape[static_cast<std::size_t>(k)] - index.shape()[static_cast<std::size_t>(k)]);
  }
  const std::int64_t width = index.shape()[static_cast<std::size_t>(dim)];
  std::vector<std::int64_t> lane_shape(shape.begin(), shape.end());
  lane_shape.push_back(width);
  const auto lanes_of = [&](const Tensor& t) {
    return ops::expand(ops::unsqueeze(ops::movedim(t, {dim}, {-1}), dim), lane_shape);
  };
  std::vector<std::int64_t> target_shape(static_cast<std::size_t>(rank + 1), 1);
  target_shape[static_cast<std::size_t>(dim)] = shape[static_cast<std::size_t>(dim)];
  const Tensor target = ops::reshape(ops::arange(Scalar(std::int64_t{0}), Scalar(shape[static_cast<std::size_t>(dim)]),
                                                 Scalar(std::int64_t{1}), DType::Int64, device_of(index)),
                                     target_shape);
  const Tensor lands = ops::eq(lanes_of(ops::pad(index, pads, Scalar(std::int64_t{-1}))), target);
  const Tensor one = ops::lit(1.0);
  const Tensor values = ops::cat({ops::unsqueeze(ops::where(ops::to_dtype(keep, DType::Bool), self, one), -1),
                                  ops::where(lands, lanes_of(ops::pad(src_reached, pads, Scalar(0.0))), one)},
                                 -1);
  const Tensor tangents =
      ops::cat({ops::unsqueeze(ops::mul(t_self, keep), -1),
                ops::mul(lanes_of(ops::pad(t_src_reached, pads, Scalar(0.0))), ops::to_dtype(lands, out.dtype()))},
               -1);
  return ops::sum(ops::mul(tangents, scatter_product_of_others(values)), std::vector<std::int64_t>{-1});
}

TensorList scatter_reduce_jvp(const JvpCall& c) {
  const DType dtype = c.outputs[0].dtype();
  if (!is_floating(dtype) || (!c.tangents[0].defined() && !c.tangents[2].defined())) return {Tensor()};
  const Tensor& out = c.outputs[0];
  Tensor self = c.primals[0], index = c.primals[1], src = c.primals[2], result = out;
  Tensor t_self = tangent_or_zeros(c.tangents[0], self), t_src = tangent_or_zeros(c.tangents[2], src);
  const bool scalar = self.dim() == 0;
  if (scalar) {  // a rank-0 call is the one-element vector's
    const std::vector<std::int64_t> one{1};
    for (Tensor* t : {&self, &index, &src, &result, &t_self, &t_src}) *t = ops::reshape(*t, one);
  }
  const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), self.dim(), "scatter_reduce");
  Attrs attrs = c.attrs;
  attrs.set("dim", dim);
  const Attrs add_attrs{{"dim", dim}};
  const Tensor reached =
      ops::gt(arrivals(ops::zeros_like(self, dtype), index, add_attrs), ops::lit(0.0));  // some src lands
  const Tensor keep =
      c.attrs.get_bool("include_self") ? ops::ones_like(self, dtype) : ops::to_dtype(ops::logical_not(reached), dtype);
  Tensor t = scatter_reduce_tangent(c.attrs.get_string("reduce"), self, index, src, result, t_self, t_src, keep,
                                    add_attrs, dim);
  if (scalar) t = ops::reshape(t, std::vector<std::int64_t>{});
  return {t};
}

}  // namespace

void register_index_rules(RuleAttacher& attach) {
  // Batching.
  attach.batch("cat", cat_rule);
  for (const char* name : {"gather", "scatter_add", "scatter", "scatter_reduce"}) {
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

  // scatter is linear in self and src together; the transpose gives src only what its writes
  // left in the result (the last of duplicates, SPEC OPS-22.1) and self what was not overwritten.
  attach.jvp("scatter", [](const JvpCall& c) -> TensorList {
    if (!c.tangents[0].defined() && !c.tangents[2].defined()) return {Tensor()};
    return {call_one(
        "scatter",
        {tangent_or_zeros(c.tangents[0], c.primals[0]), c.primals[1], tangent_or_zeros(c.tangents[2], c.primals[2])},
        c.attrs)};
  });
  attach.transpose("scatter", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    const Tensor& index = c.inputs[1];
    Tensor self, src;
    if (c.linear[0])
      self = call_one("scatter", {ct, index, zeros_of({index.shape(), ct.dtype()}, ct.device())}, c.attrs);
    if (c.linear[2]) src = scatter_transpose_src(ct, index, c.metas[2].shape, c.attrs);
    return {self, Tensor(), src};
  });
  // scatter_reduce's jvp is written with scatter_add and elementwise ops of the tangents (SPEC
  // OPS-22.3), whose transposes give its vjp.
  attach.jvp("scatter_reduce", scatter_reduce_jvp);

  attach.jvp("masked_fill", masked_fill_tangent);
  attach.transpose("masked_fill", masked_fill_transpose);
}

}  // namespace funcspec::transforms
