// Transform rules of the scan family (scans and reorderings along dims). Batching: with the batch
// dim at the front, working along an example's dim is working along the same dim one place further
// on; each lane of the batch is a lane of one example, so the results are those of the examples.
#include <functional>

#include "reference/api/ops.h"
#include "reference/core/shape.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace {

using rules::batch_to_front;
using rules::physical_dim;

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
  return {{call_one("reshape", {rolled}, {{"shape", shape}}), 0}};
}

// d cumprod(x)_i / dx_k = prod_{j <= i, j != k} x_j for k <= i (0 above the diagonal), as an
// [..., k, i] matrix per lane of x (moved last), computed without dividing so that zeros in x give
// PyTorch's exact derivative: row k is the running product of the lane with x_k replaced by 1.
Tensor cumprod_jacobian_transposed(const Tensor& lanes) {
  const std::int64_t n = lanes.shape().back();
  const Tensor positions = ops::arange(0, n, 1, DType::Int64, std::string(device_name(lanes.device())));
  const Tensor row = ops::unsqueeze(positions, 1);
  const Tensor column = ops::unsqueeze(positions, 0);
  const Tensor others = ops::masked_fill(ops::unsqueeze(lanes, -2), ops::eq(row, column), ops::lit(1.0));
  return ops::masked_fill(ops::cumprod(others, -1), ops::gt(row, column), ops::lit(0.0));
}

Tensor cumprod_tangent(const JvpCall& c) {
  const Tensor& x = c.primals[0];
  const Tensor& t = c.tangents[0];
  if (x.dim() == 0) return t;
  const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), x.dim(), "cumprod");
  const Tensor lanes = ops::movedim(x, {dim}, {-1});
  const Tensor tangent_lanes = ops::movedim(t, {dim}, {-1});
  // dy_i = sum_k J_ik t_k.
  const Tensor jacobian_t = cumprod_jacobian_transposed(lanes);
  const Tensor tangent =
      ops::sum(ops::mul(ops::unsqueeze(tangent_lanes, -1), jacobian_t), std::vector<std::int64_t>{-2});
  return ops::movedim(tangent, {-1}, {dim});
}

// sort and topk: the values are the input's elements at the returned indices.
TensorList gathered_values_tangent(const JvpCall& c) {
  const Tensor& t = c.tangents[0];
  if (c.primals[0].dim() == 0) return {t, Tensor()};
  return {ops::gather(t, c.attrs.get_int("dim"), c.outputs[1]), Tensor()};
}

}  // namespace

void register_scan_rules(RuleAttacher& attach) {
  // Batching.
  for (const char* name : {"cumsum", "cumprod", "sort"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return along_dim_rule(op, in, attrs);
    });
  }
  // The op reads a rank-0 input as one lane of length 1 and writes its one element whatever k is
  // (k is 0 or 1 there), so the unit lane asks for that element.
  attach.batch("topk", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
    return along_dim_rule("topk", in, attrs, [](Attrs& physical) { physical.set("k", std::int64_t{1}); });
  });
  attach.batch("flip",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) { return flip_rule(in, attrs); });
  attach.batch("roll",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) { return roll_rule(in, attrs); });

  // Derivatives.
  for (const char* name : {"cumsum", "flip", "roll"}) {
    const std::string op = name;
    attach.jvp(op, [op](const JvpCall& c) -> TensorList { return {call_one(op, {c.tangents[0]}, c.attrs)}; });
  }
  // Element i of the cotangent reaches every running sum from i on: a running sum from the end.
  attach.transpose("cumsum", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    if (ct.dim() == 0) return {ct};
    const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), ct.dim(), "cumsum");
    return {ops::flip(ops::cumsum(ops::flip(ct, {dim}), dim), {dim})};
  });
  attach.transpose("flip",
                   [](const TransposeCall& c) -> TensorList { return {call_one("flip", {c.cotangents[0]}, c.attrs)}; });
  attach.transpose("roll", [](const TransposeCall& c) -> TensorList {
    std::vector<std::int64_t> back = c.attrs.get_int_list("shifts");
    for (std::int64_t& shift : back) shift = -shift;
    return {ops::roll(c.cotangents[0], back, c.attrs.get_int_list("dims"))};
  });
  attach.jvp("cumprod", [](const JvpCall& c) -> TensorList { return {cumprod_tangent(c)}; });
  attach.jvp("sort", gathered_values_tangent);
  attach.jvp("topk", gathered_values_tangent);
}

}  // namespace funcspec::transforms
