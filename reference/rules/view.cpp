// Transform rules of the view family. Batching: the same view of every example is one view of the
// batched value with the batch dim kept apart (moved to the front), so results still alias their
// base and writes through them reach the caller's tensor.
#include <algorithm>

#include "reference/api/ops.h"
#include "reference/core/shape.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

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

// `piece` with `before` zeros ahead of it and `after` zeros behind it along dim: the transpose of
// taking a contiguous range of a dim.
Tensor between_zeros(const Tensor& piece, std::int64_t dim, std::int64_t before, std::int64_t after) {
  const auto zeros = [&](std::int64_t width) {
    Shape shape = piece.shape();
    shape[static_cast<std::size_t>(dim)] = width;
    return zeros_of({shape, piece.dtype()}, piece.device());
  };
  TensorList pieces;
  if (before > 0) pieces.push_back(zeros(before));
  pieces.push_back(piece);
  if (after > 0) pieces.push_back(zeros(after));
  return pieces.size() == 1 ? piece : ops::cat(pieces, dim);
}

// Zeros of `input`'s shape with `piece`'s slices added at `positions` along dim: the transpose of
// taking the slices at those positions.
Tensor scattered_into_zeros(const TensorMeta& input, std::int64_t dim, const Tensor& positions, const Tensor& piece) {
  return ops::index_add(zeros_of(input, piece.device()), dim, positions, piece);
}

Tensor int64_range(std::int64_t start, std::int64_t count, std::int64_t step, Device device) {
  return ops::arange(start, start + count * step, step, DType::Int64, std::string(device_name(device)));
}

// Where slice's range along its dim starts: Python's rule (a negative start counts from the end
// once, then clamps to [0, size]).
std::int64_t slice_start(const Attrs& attrs, std::int64_t size) {
  std::int64_t start = attrs.get_optional_int("start").value_or(0);
  if (start < 0) start += size;
  return std::clamp<std::int64_t>(start, 0, size);
}

// The cotangent of diagonal's input: the diagonal's cotangent written into zeros of the (dim1,
// dim2) planes, which are moved last and flattened so that the diagonal is a list of positions.
Tensor diagonal_transpose(const TransposeCall& c) {
  const TensorMeta& input = c.metas[0];
  const auto rank = static_cast<std::int64_t>(input.shape.size());
  const std::int64_t dim1 = wrap_dim(c.attrs.get_int("dim1"), rank, "diagonal");
  const std::int64_t dim2 = wrap_dim(c.attrs.get_int("dim2"), rank, "diagonal");
  const std::int64_t offset = c.attrs.get_int("offset");
  const std::int64_t rows = input.shape[static_cast<std::size_t>(dim1)];
  const std::int64_t cols = input.shape[static_cast<std::size_t>(dim2)];
  std::vector<std::int64_t> planes_last;
  Shape flat_shape;
  for (std::int64_t d = 0; d < rank; ++d) {
    if (d == dim1 || d == dim2) continue;
    planes_last.push_back(d);
    flat_shape.push_back(input.shape[static_cast<std::size_t>(d)]);
  }
  Shape planes_shape = flat_shape;
  planes_shape.push_back(rows);
  planes_shape.push_back(cols);
  flat_shape.push_back(rows * cols);
  planes_last.push_back(dim1);
  planes_last.push_back(dim2);
  // Element k of the diagonal is at row k - min(offset, 0), column k + max(offset, 0).
  const Tensor& ct = c.cotangents[0];
  const std::int64_t length = ct.shape().back();
  const std::int64_t first = offset >= 0 ? offset : -offset * cols;
  const Tensor positions = int64_range(first, length, cols + 1, ct.device());
  const Tensor flat = scattered_into_zeros({flat_shape, input.dtype}, -1, positions, ct);
  std::vector<std::int64_t> back(static_cast<std::size_t>(rank));
  for (std::int64_t k = 0; k < rank; ++k) back[static_cast<std::size_t>(planes_last[static_cast<std::size_t>(k)])] = k;
  return ops::permute(ops::reshape(flat, planes_shape), back);
}

}  // namespace

void register_view_rules(RuleAttacher& attach) {
  // Batching.
  attach.batch("expand", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    const std::vector<std::int64_t>& size = attrs.get_int_list("size");
    const auto rank = static_cast<std::int64_t>(size.size());
    // New leading dims of the example go after the batch dim.
    const Tensor front = rules::align_example_rank(batch_to_front(self), true, self.logical_rank(), rank);
    Attrs physical = attrs;
    physical.set("size", with_batch(front.shape()[0], size));
    return {{call_one("expand", {front}, physical), 0}};
  });
  attach.batch("permute", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    std::vector<std::int64_t> dims{0};
    for (std::int64_t d : attrs.get_int_list("dims")) dims.push_back(physical_dim(d, self.logical_rank(), "permute"));
    Attrs physical = attrs;
    physical.set("dims", dims);
    return front_view("permute", self, physical);
  });
  for (const char* name : {"select", "slice"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      const BatchedValue& self = in.at(0);
      return front_view(op, self, rules::shift_dim_attr(attrs, "dim", self.logical_rank(), op.c_str()));
    });
  }
  attach.batch("squeeze", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
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
  attach.batch("unsqueeze", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    Attrs physical = attrs;
    physical.set("dim", wrap_dim(attrs.get_int("dim"), self.logical_rank() + 1, "unsqueeze") + 1);
    return front_view("unsqueeze", self, physical);
  });
  attach.batch("view", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
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
  attach.batch("diagonal", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    const BatchedValue& self = in.at(0);
    Attrs physical = rules::shift_dim_attr(attrs, "dim1", self.logical_rank(), "diagonal");
    physical = rules::shift_dim_attr(physical, "dim2", self.logical_rank(), "diagonal");
    return front_view("diagonal", self, physical);
  });

  // Derivatives.
  // A view of the tangent is the tangent of the view (views are linear).
  for (const char* name : {"diagonal", "expand", "permute", "select", "slice", "squeeze", "unsqueeze"}) {
    const std::string op = name;
    attach.jvp(op, [op](const JvpCall& c) -> TensorList { return {call_one(op, {c.tangents[0]}, c.attrs)}; });
  }
  // The tangent need not have the primal's strides, so view may have to copy it: reshape.
  attach.jvp("view",
             [](const JvpCall& c) -> TensorList { return {ops::reshape(c.tangents[0], c.outputs[0].shape())}; });

  attach.transpose(
      "expand", [](const TransposeCall& c) -> TensorList { return {sum_to_shape(c.cotangents[0], c.metas[0].shape)}; });
  // Views that keep every element and its order: back to the input's shape.
  for (const char* name : {"squeeze", "unsqueeze", "view"}) {
    attach.transpose(
        name, [](const TransposeCall& c) -> TensorList { return {ops::reshape(c.cotangents[0], c.metas[0].shape)}; });
  }
  attach.transpose("permute", [](const TransposeCall& c) -> TensorList {
    const auto rank = static_cast<std::int64_t>(c.metas[0].shape.size());
    const std::vector<std::int64_t> dims = wrap_dims(c.attrs.get_int_list("dims"), rank, "permute");
    std::vector<std::int64_t> inverse(dims.size());
    for (std::size_t k = 0; k < dims.size(); ++k)
      inverse[static_cast<std::size_t>(dims[k])] = static_cast<std::int64_t>(k);
    return {ops::permute(c.cotangents[0], inverse)};
  });
  attach.transpose("select", [](const TransposeCall& c) -> TensorList {
    const Shape& shape = c.metas[0].shape;
    const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), static_cast<std::int64_t>(shape.size()), "select");
    const std::int64_t size = shape[static_cast<std::size_t>(dim)];
    std::int64_t index = c.attrs.get_int("index");
    if (index < 0) index += size;
    return {between_zeros(ops::unsqueeze(c.cotangents[0], dim), dim, index, size - index - 1)};
  });
  attach.transpose("slice", [](const TransposeCall& c) -> TensorList {
    const Shape& shape = c.metas[0].shape;
    const std::int64_t dim = wrap_dim(c.attrs.get_int("dim"), static_cast<std::int64_t>(shape.size()), "slice");
    const std::int64_t size = shape[static_cast<std::size_t>(dim)];
    const std::int64_t start = slice_start(c.attrs, size);
    const std::int64_t length = c.results[0].shape[static_cast<std::size_t>(dim)];
    const std::int64_t step = c.attrs.get_int("step");
    const Tensor& ct = c.cotangents[0];
    if (step == 1) return {between_zeros(ct, dim, start, size - start - length)};
    return {scattered_into_zeros(c.metas[0], dim, int64_range(start, length, step, ct.device()), ct)};
  });
  attach.transpose("diagonal", [](const TransposeCall& c) -> TensorList { return {diagonal_transpose(c)}; });
}

}  // namespace funcspec::transforms
