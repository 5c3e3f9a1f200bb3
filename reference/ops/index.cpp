// Joining and indexing ops. Index tensors must be int64 and hold values in [0, size) of the
// indexed dim; those values are data, so they are checked by the kernels (before writing) and
// not on meta, while every check of shapes and dtypes happens in infer.
#include <fmt/format.h>

#include <algorithm>

#include "reference/backends/cpu/index.h"
#include "reference/backends/cuda/index.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"
#include "reference/ops/resampling.h"

namespace funcspec {
namespace {

bool is_legacy_empty(const Tensor& t) { return t.shape() == Shape{0}; }

// The tensor whose shape the others must match: the first one that is not a legacy shape-[0]
// tensor (PyTorch lets those join tensors of any rank), or the first one when all are.
const Tensor& cat_reference(const TensorList& in) {
  auto it = std::find_if(in.begin(), in.end(), [](const Tensor& t) { return !is_legacy_empty(t); });
  return it == in.end() ? in.front() : *it;
}

// The kernels of each op, for the cpu and the cuda backend alike: `kernel` is the backend's
// function (cpu::cat or cuda::cat, ...), which share one signature; the attributes are read here.
template <auto kernel>
KernelFn cat_kernel() {
  return [](const KernelArgs& a) {
    const std::int64_t d = wrap_dim(a.attrs.get_int("dim"), cat_reference(a.inputs).dim(), "cat");
    kernel(a.inputs, d, a.outputs[0]);
  };
}

// index_select, gather: kernel(self, index, dim, out).
template <auto kernel>
KernelFn select_kernel(std::string_view op) {
  return [op](const KernelArgs& a) {
    kernel(a.inputs[0], a.inputs[1], wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), op), a.outputs[0]);
  };
}

template <auto kernel>
KernelFn scatter_add_kernel() {
  return [](const KernelArgs& a) {
    const std::int64_t d = wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), "scatter_add");
    kernel(a.inputs[0], a.inputs[1], a.inputs[2], d, a.outputs[0]);
  };
}

// The scatter modes of scatter_reduce's `reduce` attribute (NOTE: [scatter modes]).
common::ScatterMode scatter_mode_of(const std::string& reduce) {
  if (reduce == "sum") return common::ScatterMode::Sum;
  if (reduce == "prod") return common::ScatterMode::Prod;
  if (reduce == "mean") return common::ScatterMode::Mean;
  if (reduce == "amax") return common::ScatterMode::Amax;
  if (reduce == "amin") return common::ScatterMode::Amin;
  fail(ErrorKind::InvalidArgument,
       "[scatter_reduce] reduce argument must be either sum, prod, mean, amax or amin, got {}", reduce);
}

// scatter (Replace) and scatter_reduce: kernel(self, index, src, dim, mode, include_self, out).
template <auto kernel>
KernelFn scatter_reduce_kernel(bool replace) {
  return [replace](const KernelArgs& a) {
    const char* op = replace ? "scatter" : "scatter_reduce";
    const std::int64_t d = wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), op);
    const common::ScatterMode mode =
        replace ? common::ScatterMode::Replace : scatter_mode_of(a.attrs.get_string("reduce"));
    kernel(a.inputs[0], a.inputs[1], a.inputs[2], d, mode, !replace && a.attrs.get_bool("include_self"), a.outputs[0]);
  };
}

template <auto kernel>
KernelFn index_add_kernel() {
  return [](const KernelArgs& a) {
    const std::int64_t d = wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), "index_add");
    kernel(a.inputs[0], a.inputs[1], a.inputs[2], d, a.attrs.get_scalar("alpha"), a.outputs[0]);
  };
}

// value (0-dim, any dtype, on the op's device) becomes a host 0-dim tensor of out's dtype.
template <auto kernel>
KernelFn masked_fill_kernel() {
  return [](const KernelArgs& a) {
    const Tensor& out = a.outputs[0];
    const Tensor value = Tensor::empty({}, out.dtype());
    visit_dtype(out.dtype(), [&]<typename T>() { *value.data<T>() = a.inputs[2].to_vector<T>().at(0); });
    kernel(a.inputs[0], a.inputs[1], value, out);
  };
}

void register_cat(OpRegistry& registry) {
  OpDef& op = registry.add("cat(Tensor[] tensors, *, int dim=0) -> Tensor", OpKind::Primitive, "index",
                           "the tensors (promoted to their common dtype) joined along dim; other dims must match");
  op.canonicalize = [](const TensorList& in, const Attrs&) {
    FUNCSPEC_CHECK(!in.empty(), ErrorKind::InvalidArgument, "[cat] expects a non-empty list of tensors");
    const DType dtype = result_type(in);
    TensorList out;
    for (const Tensor& t : in) out.push_back(cast_to(t, dtype));
    return out;
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    for (std::size_t i = 0; i < in.size(); ++i) {
      FUNCSPEC_CHECK(in[i].dim() > 0, ErrorKind::ShapeMismatch,
                     "[cat] the 0-dim tensor at position {} cannot be concatenated", i);
    }
    const Tensor& reference = cat_reference(in);
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), reference.dim(), "cat");
    Shape shape = reference.shape();
    shape[as_index(d)] = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const Tensor& t = in[i];
      if (is_legacy_empty(t) && !is_legacy_empty(reference)) continue;
      bool matches = t.dim() == reference.dim();
      for (std::int64_t k = 0; matches && k < t.dim(); ++k) {
        matches = k == d || t.shape()[as_index(k)] == reference.shape()[as_index(k)];
      }
      FUNCSPEC_CHECK(matches, ErrorKind::ShapeMismatch,
                     "[cat] the tensor at position {} has shape {} but shape {} is expected outside dim {}", i,
                     shape_to_string(t.shape()), shape_to_string(reference.shape()), d);
      shape[as_index(d)] += t.shape()[as_index(d)];
    }
    return {{shape, reference.dtype()}};
  };
  op.cpu_kernel = cat_kernel<&cpu::cat>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(cat_kernel<&cuda::cat>());
}

void register_stack(OpRegistry& registry) {
  OpDef& op = registry.add("stack(Tensor[] tensors, *, int dim=0) -> Tensor", OpKind::Composite, "index",
                           "the tensors (all of one shape) joined along a new dim");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    FUNCSPEC_CHECK(!in.empty(), ErrorKind::InvalidArgument, "[stack] expects a non-empty list of tensors");
    for (std::size_t i = 1; i < in.size(); ++i) {
      FUNCSPEC_CHECK(in[i].shape() == in[0].shape(), ErrorKind::ShapeMismatch,
                     "[stack] expects tensors of one shape, but position 0 has {} and position {} has {}",
                     shape_to_string(in[0].shape()), i, shape_to_string(in[i].shape()));
    }
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), in[0].dim() + 1, "stack");
    TensorList expanded;
    for (const Tensor& t : in) expanded.push_back(call_one("unsqueeze", {t}, {{"dim", d}}));
    return call("cat", expanded, {{"dim", d}});
  };
}

void check_index_dtype(std::string_view op, const Tensor& index) {
  check_dtype(op, "index", index.dtype(), DTypeSet::Integral);
}

void check_same_dtype(std::string_view op, std::string_view arg, const Tensor& self, const Tensor& other) {
  FUNCSPEC_CHECK(self.dtype() == other.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] '{}' has dtype {} but self has dtype {}; they must be equal", op, arg, dtype_name(other.dtype()),
                 dtype_name(self.dtype()));
}

void register_index_select(OpRegistry& registry) {
  OpDef& op = registry.add("index_select(Tensor self, Tensor index, *, int dim) -> Tensor", OpKind::Primitive, "index",
                           "the slices of self along dim at the positions listed in the 1-d int64 index");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    check_index_dtype("index_select", index);
    check_rank("index_select", "index", index, {0, 1});
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), self.dim(), "index_select");
    if (self.dim() == 0) {
      FUNCSPEC_CHECK(index.numel() == 1, ErrorKind::ShapeMismatch,
                     "[index_select] a 0-dim self takes an index of one element, not {}", index.numel());
      return {{{}, self.dtype()}};
    }
    Shape shape = self.shape();
    shape[as_index(d)] = index.numel();
    return {{shape, self.dtype()}};
  };
  op.cpu_kernel = select_kernel<&cpu::index_select>("index_select");
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(select_kernel<&cuda::index_select>("index_select"));
}

// Checks shared by gather and scatter_add: an int64 index of self's rank that fits in `bound`
// (self, or src) in every dim and in self outside dim. Returns the wrapped dim.
std::int64_t check_gather_like(std::string_view op, const Tensor& self, const Tensor& index, std::int64_t dim) {
  check_index_dtype(op, index);
  const std::int64_t d = wrap_dim(dim, self.dim(), op);
  FUNCSPEC_CHECK(index.dim() == self.dim(), ErrorKind::ShapeMismatch,
                 "[{}] index has {} dims but self has {}; they must be equal", op, index.dim(), self.dim());
  for (std::int64_t k = 0; k < self.dim(); ++k) {
    FUNCSPEC_CHECK(k == d || index.shape()[as_index(k)] <= self.shape()[as_index(k)], ErrorKind::ShapeMismatch,
                   "[{}] index of shape {} is larger than self of shape {} at dim {}", op,
                   shape_to_string(index.shape()), shape_to_string(self.shape()), k);
  }
  return d;
}

void register_gather(OpRegistry& registry) {
  OpDef& op = registry.add("gather(Tensor self, Tensor index, *, int dim) -> Tensor", OpKind::Primitive, "index",
                           "out[p] = self[p with p[dim] = index[p]]: out has index's shape");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_gather_like("gather", in[0], in[1], attrs.get_int("dim"));
    return {{in[1].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = select_kernel<&cpu::gather>("gather");
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(select_kernel<&cuda::gather>("gather"));
}

void check_scatter_like(std::string_view op, const Tensor& self, const Tensor& index, const Tensor& src,
                        std::int64_t dim);

void register_scatter_add(OpRegistry& registry) {
  OpDef& op =
      registry.add("scatter_add(Tensor self, Tensor index, Tensor src, *, int dim) -> Tensor", OpKind::Primitive,
                   "index", "a copy of self with src[p] added at p with p[dim] = index[p], in row-major order of p");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_scatter_like("scatter_add", in[0], in[1], in[2], attrs.get_int("dim"));
    return {{in[0].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = scatter_add_kernel<&cpu::scatter_add>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(scatter_add_kernel<&cuda::scatter_add>());
}

// Checks shared by scatter_add, scatter and scatter_reduce: gather's on self and index, src of self's
// dtype and rank and at least index's size in every dim.
void check_scatter_like(std::string_view op, const Tensor& self, const Tensor& index, const Tensor& src,
                        std::int64_t dim) {
  check_gather_like(op, self, index, dim);
  check_same_dtype(op, "src", self, src);
  FUNCSPEC_CHECK(src.dim() == index.dim(), ErrorKind::ShapeMismatch,
                 "[{}] src has {} dims but index has {}; they must be equal", op, src.dim(), index.dim());
  for (std::int64_t k = 0; k < src.dim(); ++k) {
    FUNCSPEC_CHECK(index.shape()[as_index(k)] <= src.shape()[as_index(k)], ErrorKind::ShapeMismatch,
                   "[{}] index of shape {} is larger than src of shape {} at dim {}", op,
                   shape_to_string(index.shape()), shape_to_string(src.shape()), k);
  }
}

void register_scatter(OpRegistry& registry) {
  OpDef& op =
      registry.add("scatter(Tensor self, Tensor index, Tensor src, *, int dim) -> Tensor", OpKind::Primitive, "index",
                   "a copy of self with src[p] written at p with p[dim] = index[p]; of duplicate targets the "
                   "last position in row-major order wins (SPEC OPS-22.1)");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_scatter_like("scatter", in[0], in[1], in[2], attrs.get_int("dim"));
    return {{in[0].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = scatter_reduce_kernel<&cpu::scatter_reduce>(true);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(scatter_reduce_kernel<&cuda::scatter_reduce>(true));
  op.derive_inplace = true;
  op.derive_out = true;
}

void register_scatter_value(OpRegistry& registry) {
  OpDef& op = registry.add("scatter.value(Tensor self, Tensor index, *, int dim, Scalar value) -> Tensor",
                           OpKind::Composite, "index",
                           "a copy of self with value (converted to self's dtype) written at p with p[dim] = index[p]");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    check_gather_like("scatter", self, index, attrs.get_int("dim"));
    const Tensor src = call_one("full", {},
                                {{"size", index.shape()},
                                 {"fill_value", attrs.get_scalar("value")},
                                 {"dtype", self.dtype()},
                                 {"device", std::string(device_name(self.device()))}});
    return call("scatter", {self, index, src}, {{"dim", attrs.get_int("dim")}});
  };
}

void register_scatter_reduce(OpRegistry& registry) {
  OpDef& op = registry.add(
      "scatter_reduce(Tensor self, Tensor index, Tensor src, *, int dim, str reduce, bool include_self=True) -> Tensor",
      OpKind::Primitive, "index",
      "a copy of self where each element that src reaches (p[dim] = index[p]) is the sum, prod, mean, amax or amin of "
      "the src values landing there and, with include_self, of self's (SPEC OPS-22.2)");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const std::string& reduce = attrs.get_string("reduce");
    const common::ScatterMode mode = scatter_mode_of(reduce);
    check_scatter_like("scatter_reduce", in[0], in[1], in[2], attrs.get_int("dim"));
    FUNCSPEC_CHECK(mode != common::ScatterMode::Mean || in[0].dtype() != DType::Bool, ErrorKind::DtypeNotSupported,
                   "[scatter_reduce] reduce='mean' is not supported for a bool self");
    return {{in[0].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = scatter_reduce_kernel<&cpu::scatter_reduce>(false);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(scatter_reduce_kernel<&cuda::scatter_reduce>(false));
  op.derive_inplace = true;
  op.derive_out = true;
}

// PyTorch's older spelling: reduce 'add' or 'multiply', self always included.
void register_scatter_reduce_legacy(OpRegistry& registry) {
  OpDef& op = registry.add("scatter.reduce(Tensor self, Tensor index, Tensor src, *, int dim, str reduce) -> Tensor",
                           OpKind::Composite, "index",
                           "scatter_reduce with reduce 'add' as 'sum' and 'multiply' as 'prod', self included");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const std::string& reduce = attrs.get_string("reduce");
    FUNCSPEC_CHECK(reduce == "add" || reduce == "multiply", ErrorKind::InvalidArgument,
                   "[scatter] reduce argument must be either add or multiply, got {}", reduce);
    return call("scatter_reduce", in,
                {{"dim", attrs.get_int("dim")},
                 {"reduce", std::string(reduce == "add" ? "sum" : "prod")},
                 {"include_self", true}});
  };
}

// A 0-d or 1-d index of k elements as a scatter index shaped like `like` with k at `dim`: element j
// of the index at position j of dim, repeated over the other dims (a view).
Tensor spread_along(const Tensor& index, Shape like, std::int64_t dim) {
  const std::int64_t k = index.numel();
  if (like.empty()) return call_one("reshape", {index}, {{"shape", std::vector<std::int64_t>{}}});
  std::vector<std::int64_t> lined_up(like.size(), 1);
  lined_up[as_index(dim)] = k;
  like[as_index(dim)] = k;
  return call_one("expand", {call_one("reshape", {index}, {{"shape", lined_up}})},
                  {{"size", std::vector<std::int64_t>(like.begin(), like.end())}});
}

// The checks of index_copy and index_reduce: a 0-d or 1-d int64 index, source of self's dtype and
// of self's shape with index's length at dim (rank 0: one index element). Returns the wrapped dim.
std::int64_t check_index_source(std::string_view op, const Tensor& self, const Tensor& index, const Tensor& source,
                                std::int64_t dim) {
  check_index_dtype(op, index);
  check_rank(op, "index", index, {0, 1});
  check_same_dtype(op, "source", self, source);
  const std::int64_t d = wrap_dim(dim, self.dim(), op);
  Shape expected = self.shape();
  if (self.dim() > 0) expected[as_index(d)] = index.numel();
  FUNCSPEC_CHECK(source.shape() == expected && (self.dim() > 0 || index.numel() == 1), ErrorKind::ShapeMismatch,
                 "[{}] source has shape {} but self of shape {} and an index of {} elements need {}", op,
                 shape_to_string(source.shape()), shape_to_string(self.shape()), index.numel(),
                 shape_to_string(expected));
  return d;
}

void register_index_reduce(OpRegistry& registry) {
  OpDef& op = registry.add(
      "index_reduce(Tensor self, Tensor index, Tensor source, *, int dim, str reduce, bool include_self=True) -> "
      "Tensor",
      OpKind::Composite, "index",
      "slice index[j] of self reduced (prod, mean, amax, amin) with source.select(dim, j), for j in order, and with "
      "self's own slice when include_self");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const std::string& reduce = attrs.get_string("reduce");
    FUNCSPEC_CHECK(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin",
                   ErrorKind::InvalidArgument,
                   "[index_reduce] reduce argument must be either prod, mean, amax or amin, got {}", reduce);
    const std::int64_t d = check_index_source("index_reduce", in[0], in[1], in[2], attrs.get_int("dim"));
    // Slice j of source lands on slice index[j]: scatter_reduce over the spread index folds the same
    // values into every element in the same order (j ascending).
    return call("scatter_reduce", {in[0], spread_along(in[1], in[2].shape(), d), in[2]},
                {{"dim", d}, {"reduce", reduce}, {"include_self", attrs.get_bool("include_self")}});
  };
  op.derive_inplace = true;
}

void register_index_copy(OpRegistry& registry) {
  OpDef& op = registry.add("index_copy(Tensor self, Tensor index, Tensor source, *, int dim) -> Tensor",
                           OpKind::Composite, "index",
                           "a copy of self with slice index[j] replaced by source.select(dim, j); of duplicates the "
                           "last j wins (SPEC OPS-22.1)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const std::int64_t d = check_index_source("index_copy", in[0], in[1], in[2], attrs.get_int("dim"));
    return call("scatter", {in[0], spread_along(in[1], in[2].shape(), d), in[2]}, {{"dim", d}});
  };
  op.derive_inplace = true;
}

void register_index_fill(OpRegistry& registry) {
  OpDef& op = registry.add(
      "index_fill(Tensor self, Tensor index, *, int dim, Scalar value) -> Tensor", OpKind::Composite, "index",
      "a copy of self with the slices at index along dim set to value (converted to self's dtype)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    check_index_dtype("index_fill", index);
    check_rank("index_fill", "index", index, {0, 1});
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), self.dim(), "index_fill");
    FUNCSPEC_CHECK(self.dim() > 0 || index.numel() == 1, ErrorKind::ShapeMismatch,
                   "[index_fill] a 0-dim self takes an index of one element, not {}", index.numel());
    return call("scatter.value", {self, spread_along(index, self.shape(), d)},
                {{"dim", d}, {"value", attrs.get_scalar("value")}});
  };
  op.derive_inplace = true;
}

// take and put index self as flattened; a negative index counts from the end (PyTorch's rule).
Tensor flat_positions(const Tensor& index, std::int64_t numel) {
  const Tensor flat = call_one("reshape", {index}, {{"shape", std::vector<std::int64_t>{-1}}});
  const Tensor negative = call_one("lt", {flat, Tensor::wrapped_scalar(Scalar(std::int64_t{0}))});
  return call_one("where", {negative, call_one("add", {flat, Tensor::wrapped_scalar(Scalar(numel))}), flat});
}

void register_take(OpRegistry& registry) {
  OpDef& op = registry.add("take(Tensor self, Tensor index) -> Tensor", OpKind::Composite, "index",
                           "the elements of the flattened self at index (negative counts from the end); index's shape");
  op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    check_index_dtype("take", index);
    const Tensor flat = call_one("reshape", {self}, {{"shape", std::vector<std::int64_t>{-1}}});
    const Tensor taken = call_one("gather", {flat, flat_positions(index, self.numel())}, {{"dim", std::int64_t{0}}});
    return call("reshape", {taken}, {{"shape", std::vector<std::int64_t>(index.shape().begin(), index.shape().end())}});
  };
}

void register_put(OpRegistry& registry) {
  OpDef& op = registry.add("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
                           OpKind::Composite, "index",
                           "a copy of the flattened self with source written (accumulate: added) at index, then "
                           "self's shape; of duplicate writes the last in index order wins (SPEC OPS-22.1)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    const Tensor& source = in[2];
    check_index_dtype("put", index);
    check_same_dtype("put", "source", self, source);
    FUNCSPEC_CHECK(index.numel() == source.numel(), ErrorKind::ShapeMismatch,
                   "[put] source has {} elements but index has {}; they must be equal", source.numel(), index.numel());
    const std::vector<std::int64_t> flat_shape{-1};
    const Tensor flat = call_one("reshape", {self}, {{"shape", flat_shape}});
    const Tensor values = call_one("reshape", {source}, {{"shape", flat_shape}});
    const Tensor written = call_one(attrs.get_bool("accumulate") ? "scatter_add" : "scatter",
                                    {flat, flat_positions(index, self.numel()), values}, {{"dim", std::int64_t{0}}});
    return call("reshape", {written}, {{"shape", std::vector<std::int64_t>(self.shape().begin(), self.shape().end())}});
  };
  op.derive_inplace = true;
}

void register_take_along_dim(OpRegistry& registry) {
  OpDef& op = registry.add("take_along_dim(Tensor self, Tensor indices, *, int? dim=None) -> Tensor", OpKind::Composite,
                           "index",
                           "gather along dim after broadcasting self and indices in the other dims (dim None: of the "
                           "flattened self)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Tensor& indices = in[1];
    const std::optional<std::int64_t> dim = attrs.get_optional_int("dim");
    if (!dim) {
      const std::vector<std::int64_t> flat{-1};
      return call("gather",
                  {call_one("reshape", {self}, {{"shape", flat}}), call_one("reshape", {indices}, {{"shape", flat}})},
                  {{"dim", std::int64_t{0}}});
    }
    FUNCSPEC_CHECK(self.dim() == indices.dim(), ErrorKind::ShapeMismatch,
                   "[take_along_dim] indices have {} dims but self has {}; they must be equal", indices.dim(),
                   self.dim());
    const std::int64_t d = wrap_dim(*dim, self.dim(), "take_along_dim");
    if (self.dim() == 0) return call("gather", {self, indices}, {{"dim", d}});
    Shape self_like = self.shape();
    self_like[as_index(d)] = indices.shape()[as_index(d)];
    Shape self_target = broadcast_shapes(std::vector<Shape>{self_like, indices.shape()}, "take_along_dim");
    Shape indices_target = self_target;
    self_target[as_index(d)] = self.shape()[as_index(d)];
    return call("gather", {expand_to(self, self_target), expand_to(indices, indices_target)}, {{"dim", d}});
  };
}

void register_masked_fill(OpRegistry& registry) {
  OpDef& op = registry.add("masked_fill(Tensor self, Tensor mask, Tensor value) -> Tensor", OpKind::Primitive, "index",
                           "self where mask is false, value (0-dim, converted to self's dtype) where it is true");
  // self and mask broadcast together; value stays as given (a literal follows self's device) and
  // is converted by the kernel, so the result's dtype is self's whatever value's is.
  op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
    const Shape shape = broadcast_shapes(std::vector<Shape>{in[0].shape(), in[1].shape()}, "masked_fill");
    return {expand_to(in[0], shape), expand_to(in[1], shape), in[2]};
  };
  op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
    check_dtype("masked_fill", "mask", in[1].dtype(), DTypeSet::BoolOnly);
    FUNCSPEC_CHECK(in[2].dim() == 0, ErrorKind::InvalidArgument,
                   "[masked_fill] value must be a 0-dim tensor or a literal but has shape {}",
                   shape_to_string(in[2].shape()));
    return {{in[0].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = masked_fill_kernel<&cpu::masked_fill>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(masked_fill_kernel<&cuda::masked_fill>());
  op.derive_inplace = true;
}

void register_index_add(OpRegistry& registry) {
  OpDef& op = registry.add("index_add(Tensor self, Tensor index, Tensor source, *, int dim, Scalar alpha=1) -> Tensor",
                           OpKind::Primitive, "index",
                           "a copy of self with alpha * source.select(dim, j) added to slice index[j] along dim, for "
                           "j in order");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const Tensor& self = in[0];
    const Tensor& index = in[1];
    const Tensor& source = in[2];
    check_index_dtype("index_add", index);
    check_rank("index_add", "index", index, {0, 1});
    check_same_dtype("index_add", "source", self, source);
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), self.dim(), "index_add");
    Shape expected = self.shape();
    if (self.dim() > 0) expected[as_index(d)] = index.numel();
    FUNCSPEC_CHECK(source.shape() == expected && (self.dim() > 0 || index.numel() == 1), ErrorKind::ShapeMismatch,
                   "[index_add] source has shape {} but self of shape {} and an index of {} elements need {}",
                   shape_to_string(source.shape()), shape_to_string(self.shape()), index.numel(),
                   shape_to_string(expected));
    const Scalar alpha = attrs.get_scalar("alpha");
    FUNCSPEC_CHECK(is_floating(self.dtype()) || !alpha.is_floating(), ErrorKind::InvalidArgument,
                   "[index_add] a float alpha {} is not allowed for a {} self", alpha.to_string(),
                   dtype_name(self.dtype()));
    FUNCSPEC_CHECK(self.dtype() != DType::Bool || alpha.is_bool() || alpha == Scalar(std::int64_t{1}),
                   ErrorKind::InvalidArgument, "[index_add] alpha must be a bool for a bool self");
    return {{self.shape(), self.dtype()}};
  };
  op.cpu_kernel = index_add_kernel<&cpu::index_add>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(index_add_kernel<&cuda::index_add>());
  op.derive_inplace = true;
}

void register_pad(OpRegistry& registry) {
  OpDef& op = registry.add(
      "pad(Tensor self, *, int[] pad, str mode='constant', Scalar value=0) -> Tensor", OpKind::Composite, "index",
      "self padded with value (mode 'constant'), its mirror image without the edge ('reflect'), its "
      "edge ('replicate') or its other end ('circular'); pad lists (before, after) pairs from the last "
      "dim backwards; negative pads crop");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::vector<std::int64_t>& pad = attrs.get_int_list("pad");
    const std::string& mode = attrs.get_string("mode");
    FUNCSPEC_CHECK(mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular",
                   ErrorKind::InvalidArgument,
                   "[pad] unknown padding mode '{}' (expected 'constant', 'reflect', 'replicate' or 'circular')", mode);
    FUNCSPEC_CHECK(pad.size() % 2 == 0, ErrorKind::InvalidArgument,
                   "[pad] pad {} must have an even length (a before and an after per dim)", shape_to_string(pad));
    const std::int64_t padded_dims = static_cast<std::int64_t>(pad.size() / 2);
    FUNCSPEC_CHECK(padded_dims <= self.dim(), ErrorKind::InvalidArgument,
                   "[pad] pad {} covers {} dims but self has shape {}", shape_to_string(pad), padded_dims,
                   shape_to_string(self.shape()));
    // reflect, replicate and circular: docs/ops/resampling.md (SPEC OPS-19.1).
    if (mode != "constant") return {pad_with_mode(self, pad, mode, attrs.get_scalar("value"))};
    // Every size is checked before any op runs, so a bad pad list fails as a whole.
    for (std::int64_t i = 0; i < padded_dims; ++i) {
      const std::int64_t d = self.dim() - 1 - i;
      const std::int64_t size = self.shape()[as_index(d)] + pad[as_index(2 * i)] + pad[as_index(2 * i + 1)];
      FUNCSPEC_CHECK(size >= 0, ErrorKind::InvalidArgument,
                     "[pad] dim {} of size {} padded by {} and {} would have the negative size {}", d,
                     self.shape()[as_index(d)], pad[as_index(2 * i)], pad[as_index(2 * i + 1)], size);
    }
    const std::string device(device_name(self.device()));
    Tensor result = self;
    bool copied = false;
    for (std::int64_t i = 0; i < padded_dims; ++i) {
      const std::int64_t d = self.dim() - 1 - i;
      const std::int64_t before = pad[as_index(2 * i)], after = pad[as_index(2 * i + 1)];
      const std::int64_t crop_before = std::max<std::int64_t>(0, -before),
                         crop_after = std::max<std::int64_t>(0, -after);
      if (crop_before > 0 || crop_after > 0) {
        result = call_one(
            "narrow", {result},
            {{"dim", d}, {"start", crop_before}, {"length", result.shape()[as_index(d)] - crop_before - crop_after}});
      }
      if (before <= 0 && after <= 0) continue;
      const auto block_of = [&](std::int64_t width) {
        Shape block = result.shape();
        block[as_index(d)] = width;
        return call_one(
            "full", {},
            {{"size", block}, {"fill_value", attrs.get_scalar("value")}, {"dtype", self.dtype()}, {"device", device}});
      };
      TensorList pieces;
      if (before > 0) pieces.push_back(block_of(before));
      pieces.push_back(result);
      if (after > 0) pieces.push_back(block_of(after));
      result = call_one("cat", pieces, {{"dim", d}});
      copied = true;
    }
    // Like PyTorch, the result never aliases self, even when the pads only crop.
    if (!copied) result = call_one("clone", {result});
    return {result};
  };
}

}  // namespace

void register_index_ops(OpRegistry& registry) {
  register_cat(registry);
  register_stack(registry);
  register_index_select(registry);
  register_gather(registry);
  register_scatter_add(registry);
  register_scatter(registry);
  register_scatter_value(registry);
  register_scatter_reduce(registry);
  register_scatter_reduce_legacy(registry);
  register_index_reduce(registry);
  register_index_copy(registry);
  register_index_fill(registry);
  register_take(registry);
  register_put(registry);
  register_take_along_dim(registry);
  register_masked_fill(registry);
  register_index_add(registry);
  register_pad(registry);
}

}  // namespace funcspec
