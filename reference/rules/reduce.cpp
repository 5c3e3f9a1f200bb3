// Transform rules of the reduce family. Batching: with the batch dim at the front, reducing the
// example's dims is reducing the same dims one place further on, and the batch dim is never among
// them. Reductions visit each output's elements in row-major order of the reduced index (NOTE:
// [reduction order]), which the front batch dim does not change, so the batch computes bit for bit
// what each example would.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "reference/api/ops.h"
#include "reference/core/shape.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

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

// The wrapped, sorted dims a `int[]? dim` reduction of a rank-`rank` input reduces: None and []
// mean every dim, and a rank-0 input reduces none (its dims 0 and -1 name nothing).
std::vector<std::int64_t> reduced_dims_of(const Attrs& attrs, std::int64_t rank, const char* op) {
  const std::optional<std::vector<std::int64_t>> dim = attrs.get_optional_int_list("dim");
  std::vector<std::int64_t> dims;
  if (rank == 0) return dims;
  if (dim && !dim->empty()) {
    dims = wrap_dims(*dim, rank, op);
  } else {
    dims.resize(static_cast<std::size_t>(rank));
    std::iota(dims.begin(), dims.end(), std::int64_t{0});
  }
  std::sort(dims.begin(), dims.end());
  return dims;
}

// A reduction's result (or cotangent) with its reduced dims back as size 1, so that it broadcasts
// against the input.
Tensor with_reduced_dims_kept(const Tensor& reduced, const std::vector<std::int64_t>& dims, bool keepdim) {
  if (keepdim) return reduced;
  Tensor kept = reduced;
  for (std::int64_t d : dims) kept = ops::unsqueeze(kept, d);
  return kept;
}

// The tangent of a reduction whose result moves by sum(t * weight) over the reduced dims, `weight`
// being the derivative of the result with respect to each input element.
Tensor weighted_sum_tangent(const Tensor& tangent, const Tensor& weight, const Attrs& attrs) {
  if (!tangent.defined()) return Tensor();
  return ops::sum(ops::mul(tangent, weight), attrs.get_optional_int_list("dim"), attrs.get_bool("keepdim"));
}

// The product along `dim` of every element of the lane but the one at each position, without
// dividing (so exact where the lane holds zeros): exclusive running products from both ends.
Tensor product_of_others_along(const Tensor& x, std::int64_t dim) {
  const std::int64_t n = x.shape()[static_cast<std::size_t>(dim)];
  Shape unit = x.shape();
  unit[static_cast<std::size_t>(dim)] = 1;
  const Tensor ones = ops::ones(unit, x.dtype(), std::string(device_name(x.device())));
  const Tensor before = ops::cumprod(ops::cat({ones, ops::slice(x, dim, 0, n - 1)}, dim), dim);
  const Tensor reversed_after = ops::cumprod(ops::flip(ops::cat({ops::slice(x, dim, 1, n), ones}, dim), {dim}), dim);
  return ops::mul(before, ops::flip(reversed_after, {dim}));
}

// d prod(x over dims) / dx: the product of every other element reduced with it. Over several dims
// it is the product of the other slices of the first dim times the product of the others within
// the slice.
Tensor product_of_others(const Tensor& x, std::span<const std::int64_t> dims) {
  if (dims.size() == 1) return product_of_others_along(x, dims[0]);
  const std::span<const std::int64_t> rest = dims.subspan(1);
  const Tensor slice_products = ops::prod(x, std::vector<std::int64_t>(rest.begin(), rest.end()), /*keepdim=*/true);
  return ops::mul(product_of_others_along(slice_products, dims[0]), product_of_others(x, rest));
}

// The share of the inf-norm's derivative each element of `values` gets: the elements equal to the
// extreme split it evenly, as PyTorch. A NaN extreme came from the NaN elements, which split it
// instead.
Tensor even_split_among_extremes(const Tensor& values, const Tensor& extreme, const Attrs& attrs) {
  const Tensor is_extreme = ops::logical_or(ops::eq(values, extreme), ops::ne(values, values));
  const Tensor mask = ops::to_dtype(is_extreme, values.dtype());
  return ops::div(mask, ops::sum(mask, attrs.get_optional_int_list("dim"), /*keepdim=*/true));
}

// The share of amax/amin's derivative each element of `x` gets: the k elements equal to the extreme
// split it evenly, as PyTorch's amax/amin backward (and forward AD) computes it: mask / sum(mask). A
// NaN extreme equals no element, so every element of its row gets 0/0 = NaN (SPEC OPS-23.6): the
// derivative of a NaN result is NaN, as PyTorch 1.13 and 2 and JAX give.
Tensor share_of_extreme(const Tensor& x, const Tensor& extreme, const Attrs& attrs) {
  const Tensor mask = ops::to_dtype(ops::eq(x, extreme), x.dtype());
  return ops::div(mask, ops::sum(mask, attrs.get_optional_int_list("dim"), /*keepdim=*/true));
}

// d norm_p(x) / dx as PyTorch's norm_backward computes it, `norm` having the reduced dims kept.
// Where the norm is 0 the derivative is taken as 0 (p >= 1), and where an element is 0 its share
// is 0 (p < 1), instead of the 0/0 of the formula. The masked-out formulas read 1 in place of the
// zero norm or element: the mask gives what it drops a zero cotangent, and 0 * inf there would make
// the second derivative NaN in reverse-over-reverse but 0 in forward-over-reverse.
Tensor norm_weight(const Tensor& x, const Tensor& norm, double p, const Attrs& attrs) {
  const Tensor zero = ops::lit(0.0);
  const Tensor one = ops::lit(1.0);
  const Tensor at_zero_norm = ops::eq(norm, zero);
  if (std::isinf(p)) {
    return ops::mul(ops::sign(x), even_split_among_extremes(ops::abs(x), norm, attrs));
  }
  if (p == 1) return ops::sign(x);
  const Tensor safe_norm = ops::masked_fill(norm, at_zero_norm, one);
  if (p == 2) return ops::masked_fill(ops::div(x, safe_norm), at_zero_norm, zero);
  const Tensor at_zero_x = ops::eq(x, zero);
  const Tensor scaled =
      ops::mul(ops::sign(x), ops::pow(ops::masked_fill(ops::abs(x), at_zero_x, one), ops::lit(p - 1)));
  if (p < 1) {
    // norm^(1-p) is 0 at a zero norm, where every element is 0 and masked anyway; the stand-in 1
    // keeps pow's infinite slope at 0 out of the second derivative there.
    const Tensor scale = ops::masked_fill(ops::pow(safe_norm, ops::lit(1 - p)), at_zero_norm, zero);
    return ops::mul(ops::masked_fill(scaled, at_zero_x, zero), scale);
  }
  return ops::masked_fill(ops::div(scaled, ops::pow(safe_norm, ops::lit(p - 1))), at_zero_norm, zero);
}

}  // namespace

void register_reduce_rules(RuleAttacher& attach) {
  // Batching.
  for (const char* name : {"sum", "prod", "amax", "amin", "all", "any", "norm"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return reduce_dims_rule(op, in, attrs);
    });
  }
  for (const char* name : {"argmax", "argmin"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) {
      return arg_reduce_rule(op, in, attrs);
    });
  }

  // Derivatives.
  attach.jvp("sum", [](const JvpCall& c) -> TensorList { return {call_one("sum", {c.tangents[0]}, c.attrs)}; });
  // Each input element contributes once to its reduced result: the cotangent comes back by
  // re-inserting the reduced dims and expanding.
  attach.transpose("sum", [](const TransposeCall& c) -> TensorList {
    const Shape& shape = c.metas[0].shape;
    const std::vector<std::int64_t> dims = reduced_dims_of(c.attrs, static_cast<std::int64_t>(shape.size()), "sum");
    const Tensor kept = with_reduced_dims_kept(c.cotangents[0], dims, c.attrs.get_bool("keepdim"));
    return {ops::to_dtype(ops::expand(kept, shape), c.metas[0].dtype)};
  });

  attach.jvp("prod", [](const JvpCall& c) -> TensorList {
    const Tensor& x = c.primals[0];
    const std::vector<std::int64_t> dims = reduced_dims_of(c.attrs, x.dim(), "prod");
    // An empty product is the constant 1; a rank-0 one is x itself.
    if (x.numel() == 0) return {Tensor()};
    if (dims.empty()) return {c.tangents[0]};
    return {weighted_sum_tangent(c.tangents[0], product_of_others(x, dims), c.attrs)};
  });

  for (const char* name : {"amax", "amin"}) {
    attach.jvp(name, [name](const JvpCall& c) -> TensorList {
      const Tensor& x = c.primals[0];
      const std::vector<std::int64_t> dims = reduced_dims_of(c.attrs, x.dim(), name);
      const Tensor extreme = with_reduced_dims_kept(c.outputs[0], dims, c.attrs.get_bool("keepdim"));
      return {weighted_sum_tangent(c.tangents[0], share_of_extreme(x, extreme, c.attrs), c.attrs)};
    });
  }

  attach.jvp("norm", [](const JvpCall& c) -> TensorList {
    const Tensor& x = c.primals[0];
    const double p = c.attrs.get_scalar("p").to<double>();
    // p = 0 counts the non-zero elements: piecewise constant.
    if (p == 0) return {Tensor()};
    const std::vector<std::int64_t> dims = reduced_dims_of(c.attrs, x.dim(), "norm");
    const Tensor norm = with_reduced_dims_kept(c.outputs[0], dims, c.attrs.get_bool("keepdim"));
    return {weighted_sum_tangent(c.tangents[0], norm_weight(x, norm, p, c.attrs), c.attrs)};
  });

  for (const char* name : {"all", "any", "argmax", "argmin"}) attach.non_differentiable(name);
}

}  // namespace funcspec::transforms
