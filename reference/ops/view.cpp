// View ops: results share the input's storage; only shape, strides and offset change. The
// composites below (reshape, transpose, split, ...) are built from these views, so every result
// they return aliases its input except where reshape has to copy.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

std::vector<ViewGeometry> one_view(Shape shape, Strides strides, std::int64_t offset) {
  return {{std::move(shape), std::move(strides), offset}};
}

// A dim that must name an existing dim (not the rank-0 leniency of wrap_dim).
std::int64_t wrap_existing_dim(std::int64_t dim, const Tensor& self, std::string_view op) {
  FUNCSPEC_CHECK(self.dim() > 0, ErrorKind::DimOutOfRange, "[{}] cannot be applied to a 0-dim tensor (dim {})", op,
                 dim);
  return wrap_dim(dim, self.dim(), op);
}

void register_expand(OpRegistry& registry) {
  OpDef& op = registry.add("expand(Tensor(a) self, int[] size) -> Tensor(a)", OpKind::View, "view",
                           "self broadcast to size (-1 keeps a dim) with stride 0 on the broadcast dims");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::vector<std::int64_t>& size = attrs.get_int_list("size");
    FUNCSPEC_CHECK(size.size() >= self.shape().size(), ErrorKind::ShapeMismatch,
                   "[expand] cannot expand shape {} to the lower-rank size {}", shape_to_string(self.shape()),
                   shape_to_string(size));
    const std::size_t lead = size.size() - self.shape().size();
    Shape shape(size.size());
    Strides strides(size.size(), 0);
    for (std::size_t i = 0; i < size.size(); ++i) {
      if (i < lead) {
        FUNCSPEC_CHECK(size[i] >= 0, ErrorKind::InvalidArgument, "[expand] size {} is invalid for a new leading dim",
                       size[i]);
        shape[i] = size[i];
        continue;
      }
      const std::int64_t have = self.shape()[i - lead];
      const std::int64_t want = size[i] == -1 ? have : size[i];
      FUNCSPEC_CHECK(want == have || have == 1, ErrorKind::ShapeMismatch,
                     "[expand] cannot expand shape {} to {}: dim {} has size {}, which is not 1",
                     shape_to_string(self.shape()), shape_to_string(size), i, have);
      shape[i] = want;
      strides[i] = want == have ? self.strides()[i - lead] : 0;
    }
    return std::vector<ViewGeometry>{{shape, strides, self.storage_offset()}};
  };
}

void register_view(OpRegistry& registry) {
  OpDef& op = registry.add("view(Tensor(a) self, int[] size) -> Tensor(a)", OpKind::View, "view",
                           "self seen with shape size (one -1 inferred) over the same strides, without copying");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const Shape shape = infer_size(attrs.get_int_list("size"), self.numel(), "view");
    std::optional<Strides> strides = view_strides(self.shape(), self.strides(), shape);
    FUNCSPEC_CHECK(strides.has_value(), ErrorKind::ViewIncompatible,
                   "[view] shape {} cannot be expressed over an input of shape {} and strides {}; use reshape, "
                   "which copies when it must",
                   shape_to_string(shape), shape_to_string(self.shape()), shape_to_string(self.strides()));
    return one_view(shape, std::move(*strides), self.storage_offset());
  };
}

void register_permute(OpRegistry& registry) {
  OpDef& op = registry.add("permute(Tensor(a) self, int[] dims) -> Tensor(a)", OpKind::View, "view",
                           "dims of self reordered: result dim i is self's dim dims[i]");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::vector<std::int64_t>& dims = attrs.get_int_list("dims");
    FUNCSPEC_CHECK(static_cast<std::int64_t>(dims.size()) == self.dim(), ErrorKind::InvalidArgument,
                   "[permute] dims {} must list each of the {} dims of a tensor of shape {} once",
                   shape_to_string(dims), self.dim(), shape_to_string(self.shape()));
    const std::vector<std::int64_t> order = wrap_dims(dims, self.dim(), "permute");
    Shape shape;
    Strides strides;
    for (std::int64_t d : order) {
      shape.push_back(self.shape()[as_index(d)]);
      strides.push_back(self.strides()[as_index(d)]);
    }
    return one_view(shape, strides, self.storage_offset());
  };
}

void register_squeeze(OpRegistry& registry) {
  OpDef& op = registry.add("squeeze(Tensor(a) self, int[]? dim=None) -> Tensor(a)", OpKind::View, "view",
                           "self without its size-1 dims (all of them, or those listed; listed dims of another "
                           "size are kept)");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    std::vector<bool> drop(as_index(self.dim()), false);
    if (auto dims = attrs.get_optional_int_list("dim")) {
      for (std::int64_t d : wrap_dims(*dims, self.dim(), "squeeze")) {
        if (self.dim() > 0) drop[as_index(d)] = self.shape()[as_index(d)] == 1;
      }
    } else {
      for (std::size_t d = 0; d < drop.size(); ++d) drop[d] = self.shape()[d] == 1;
    }
    Shape shape;
    Strides strides;
    for (std::size_t d = 0; d < drop.size(); ++d) {
      if (drop[d]) continue;
      shape.push_back(self.shape()[d]);
      strides.push_back(self.strides()[d]);
    }
    return one_view(shape, strides, self.storage_offset());
  };
}

void register_unsqueeze(OpRegistry& registry) {
  OpDef& op = registry.add("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", OpKind::View, "view",
                           "self with a new size-1 dim at position dim (in [-rank-1, rank])");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::int64_t d = wrap_dim(attrs.get_int("dim"), self.dim() + 1, "unsqueeze");
    Shape shape = self.shape();
    Strides strides = self.strides();
    // Any stride is valid for a size-1 dim; this one keeps a contiguous input contiguous.
    const std::int64_t stride = d < self.dim() ? shape[as_index(d)] * strides[as_index(d)] : 1;
    shape.insert(shape.begin() + d, 1);
    strides.insert(strides.begin() + d, stride);
    return one_view(shape, strides, self.storage_offset());
  };
}

void register_select(OpRegistry& registry) {
  OpDef& op = registry.add("select(Tensor(a) self, int dim, int index) -> Tensor(a)", OpKind::View, "view",
                           "the slice of self at index along dim, which is removed (negative index counts from "
                           "the end)");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "select");
    const std::int64_t size = self.shape()[as_index(d)];
    const std::int64_t index = attrs.get_int("index");
    FUNCSPEC_CHECK(index >= -size && index < size, ErrorKind::IndexOutOfRange,
                   "[select] index {} is out of range for dim {} of size {}", index, d, size);
    const std::int64_t wrapped = index < 0 ? index + size : index;
    Shape shape = self.shape();
    Strides strides = self.strides();
    const std::int64_t offset = self.storage_offset() + wrapped * strides[as_index(d)];
    shape.erase(shape.begin() + d);
    strides.erase(strides.begin() + d);
    return one_view(shape, strides, offset);
  };
}

// Python slicing bounds: negative values count from the end, then both clamp to [0, size].
std::int64_t clamp_slice_bound(std::optional<std::int64_t> bound, std::int64_t fallback, std::int64_t size) {
  if (!bound) return fallback;
  std::int64_t b = *bound < 0 ? *bound + size : *bound;
  return std::clamp<std::int64_t>(b, 0, size);
}

void register_slice(OpRegistry& registry) {
  OpDef& op = registry.add("slice(Tensor(a) self, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor(a)",
                           OpKind::View, "view",
                           "self[start:end:step] along dim with Python's clamping of start and end (step > 0)");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "slice");
    const std::int64_t step = attrs.get_int("step");
    FUNCSPEC_CHECK(step > 0, ErrorKind::InvalidArgument, "[slice] step must be positive but is {}", step);
    const std::int64_t size = self.shape()[as_index(d)];
    const std::int64_t start = clamp_slice_bound(attrs.get_optional_int("start"), 0, size);
    const std::int64_t end = std::max(start, clamp_slice_bound(attrs.get_optional_int("end"), size, size));
    Shape shape = self.shape();
    Strides strides = self.strides();
    shape[as_index(d)] = (end - start + step - 1) / step;
    const std::int64_t offset = self.storage_offset() + start * strides[as_index(d)];
    strides[as_index(d)] *= step;
    return one_view(shape, strides, offset);
  };
}

void register_diagonal(OpRegistry& registry) {
  OpDef& op =
      registry.add("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", OpKind::View, "view",
                   "the diagonal self[..., i, i + offset] of the (dim1, dim2) planes, as a new last dim");
  op.view = [](const Tensor& self, const Attrs& attrs) {
    const std::int64_t d1 = wrap_dim(attrs.get_int("dim1"), self.dim(), "diagonal");
    const std::int64_t d2 = wrap_dim(attrs.get_int("dim2"), self.dim(), "diagonal");
    FUNCSPEC_CHECK(d1 != d2, ErrorKind::InvalidArgument, "[diagonal] dim1 and dim2 both name dim {}", d1);
    const std::int64_t offset = attrs.get_int("offset");
    const std::int64_t rows = self.shape()[as_index(d1)];
    const std::int64_t cols = self.shape()[as_index(d2)];
    const std::int64_t length =
        std::max<std::int64_t>(0, offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols));
    std::int64_t storage_offset = self.storage_offset();
    // An empty diagonal keeps the input's offset so that it never points past the storage.
    if (length > 0) {
      storage_offset += offset >= 0 ? offset * self.strides()[as_index(d2)] : -offset * self.strides()[as_index(d1)];
    }
    Shape shape;
    Strides strides;
    for (std::int64_t d = 0; d < self.dim(); ++d) {
      if (d == d1 || d == d2) continue;
      shape.push_back(self.shape()[as_index(d)]);
      strides.push_back(self.strides()[as_index(d)]);
    }
    shape.push_back(length);
    strides.push_back(self.strides()[as_index(d1)] + self.strides()[as_index(d2)]);
    return one_view(shape, strides, storage_offset);
  };
}

// ---- Composites ------------------------------------------------------------------------------

void register_reshape(OpRegistry& registry) {
  OpDef& op = registry.add("reshape(Tensor(a) self, int[] shape) -> Tensor(a)", OpKind::Composite, "view",
                           "self with a new shape: a view when the strides allow it, else a view of a contiguous "
                           "copy");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const Shape shape = infer_size(attrs.get_int_list("shape"), self.numel(), "reshape");
    if (view_strides(self.shape(), self.strides(), shape)) return call("view", {self}, {{"size", shape}});
    return call("view", {call_one("clone", {self})}, {{"size", shape}});
  };
}

void register_transpose(OpRegistry& registry) {
  OpDef& op = registry.add("transpose(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", OpKind::Composite, "view",
                           "self with dims dim0 and dim1 swapped");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t d0 = wrap_dim(attrs.get_int("dim0"), self.dim(), "transpose");
    const std::int64_t d1 = wrap_dim(attrs.get_int("dim1"), self.dim(), "transpose");
    std::vector<std::int64_t> order(as_index(self.dim()));
    std::iota(order.begin(), order.end(), 0);
    if (self.dim() > 0) std::swap(order[as_index(d0)], order[as_index(d1)]);
    return call("permute", {self}, {{"dims", order}});
  };
}

void register_movedim(OpRegistry& registry) {
  OpDef& op =
      registry.add("movedim(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", OpKind::Composite, "view",
                   "self with dim source[i] moved to position destination[i]; other dims keep their order");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::vector<std::int64_t>& source_given = attrs.get_int_list("source");
    const std::vector<std::int64_t>& destination_given = attrs.get_int_list("destination");
    FUNCSPEC_CHECK(source_given.size() == destination_given.size(), ErrorKind::InvalidArgument,
                   "[movedim] source {} and destination {} must have the same length", shape_to_string(source_given),
                   shape_to_string(destination_given));
    const std::vector<std::int64_t> source = wrap_dims(source_given, self.dim(), "movedim");
    const std::vector<std::int64_t> destination = wrap_dims(destination_given, self.dim(), "movedim");
    const std::size_t rank = as_index(self.dim());
    std::vector<std::int64_t> order(rank, -1);
    std::vector<bool> moved(rank, false);
    for (std::size_t i = 0; i < source.size() && rank > 0; ++i) {
      order[as_index(destination[i])] = source[i];
      moved[as_index(source[i])] = true;
    }
    std::size_t next_free = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      if (moved[d]) continue;
      while (order[next_free] != -1) ++next_free;
      order[next_free] = static_cast<std::int64_t>(d);
    }
    return call("permute", {self}, {{"dims", order}});
  };
}

void register_broadcast_to(OpRegistry& registry) {
  OpDef& op = registry.add("broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", OpKind::Composite, "view",
                           "self broadcast to size (expand)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    return call("expand", {in[0]}, {{"size", attrs.get_int_list("size")}});
  };
}

void register_flatten(OpRegistry& registry) {
  OpDef& op = registry.add("flatten(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", OpKind::Composite,
                           "view", "dims start_dim..end_dim of self merged into one (reshape; rank 0 gives [1])");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t start = wrap_dim(attrs.get_int("start_dim"), self.dim(), "flatten");
    const std::int64_t end = wrap_dim(attrs.get_int("end_dim"), self.dim(), "flatten");
    FUNCSPEC_CHECK(start <= end, ErrorKind::InvalidArgument,
                   "[flatten] start_dim {} comes after end_dim {} for a tensor of rank {}", start, end, self.dim());
    if (self.dim() == 0) return call("reshape", {self}, {{"shape", std::vector<std::int64_t>{1}}});
    Shape shape(self.shape().begin(), self.shape().begin() + start);
    shape.push_back(numel_of(std::span(self.shape()).subspan(as_index(start), as_index(end - start + 1))));
    shape.insert(shape.end(), self.shape().begin() + end + 1, self.shape().end());
    return call("reshape", {self}, {{"shape", shape}});
  };
}

void register_unflatten(OpRegistry& registry) {
  OpDef& op = registry.add("unflatten(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)", OpKind::Composite, "view",
                           "dim of self split into dims of the given sizes (one -1 inferred); always a view");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "unflatten");
    const std::vector<std::int64_t>& sizes = attrs.get_int_list("sizes");
    FUNCSPEC_CHECK(!sizes.empty(), ErrorKind::InvalidArgument, "[unflatten] sizes must not be empty");
    const Shape inner = infer_size(sizes, self.shape()[as_index(d)], "unflatten");
    Shape shape(self.shape().begin(), self.shape().begin() + d);
    shape.insert(shape.end(), inner.begin(), inner.end());
    shape.insert(shape.end(), self.shape().begin() + d + 1, self.shape().end());
    return call("view", {self}, {{"size", shape}});
  };
}

void register_narrow(OpRegistry& registry) {
  OpDef& op = registry.add("narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", OpKind::Composite,
                           "view", "self[start:start+length] along dim (start may be negative; no clamping)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "narrow");
    const std::int64_t size = self.shape()[as_index(d)];
    const std::int64_t start_given = attrs.get_int("start");
    const std::int64_t length = attrs.get_int("length");
    FUNCSPEC_CHECK(start_given >= -size && start_given <= size, ErrorKind::IndexOutOfRange,
                   "[narrow] start {} is out of range for dim {} of size {}", start_given, d, size);
    FUNCSPEC_CHECK(length >= 0, ErrorKind::InvalidArgument, "[narrow] length must be non-negative but is {}", length);
    const std::int64_t start = start_given < 0 ? start_given + size : start_given;
    FUNCSPEC_CHECK(start + length <= size, ErrorKind::IndexOutOfRange,
                   "[narrow] start {} + length {} exceeds dim {} of size {}", start, length, d, size);
    return call("slice", {self}, {{"dim", d}, {"start", start}, {"end", start + length}});
  };
}

void register_unbind(OpRegistry& registry) {
  OpDef& op = registry.add("unbind(Tensor(a) self, int dim=0) -> Tensor[]", OpKind::Composite, "view",
                           "the slices of self along dim, each with dim removed (views)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "unbind");
    TensorList pieces;
    for (std::int64_t i = 0; i < self.shape()[as_index(d)]; ++i) {
      pieces.push_back(call_one("select", {self}, {{"dim", d}, {"index", i}}));
    }
    return pieces;
  };
}

// Views of self along dim with the given sizes, which the caller has checked sum to its size.
TensorList narrow_pieces(const Tensor& self, std::int64_t dim, std::span<const std::int64_t> sizes) {
  TensorList pieces;
  std::int64_t start = 0;
  for (std::int64_t s : sizes) {
    pieces.push_back(call_one("narrow", {self}, {{"dim", dim}, {"start", start}, {"length", s}}));
    start += s;
  }
  return pieces;
}

void register_split(OpRegistry& registry) {
  {
    OpDef& op = registry.add("split(Tensor(a) self, int split_size, int dim=0) -> Tensor[]", OpKind::Composite, "view",
                             "self cut along dim into pieces of split_size (the last one smaller)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& self = in[0];
      const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "split");
      const std::int64_t split_size = attrs.get_int("split_size");
      const std::int64_t size = self.shape()[as_index(d)];
      FUNCSPEC_CHECK(split_size > 0 || (split_size == 0 && size == 0), ErrorKind::InvalidArgument,
                     "[split] split_size {} is invalid for dim {} of size {} (expected a positive size)", split_size, d,
                     size);
      // An empty dim still gives one (empty) piece, as in PyTorch.
      const std::int64_t count = size == 0 ? 1 : (size + split_size - 1) / split_size;
      std::vector<std::int64_t> sizes(as_index(count), split_size);
      sizes.back() = size - split_size * (count - 1);
      return narrow_pieces(self, d, sizes);
    };
  }
  {
    OpDef& op = registry.add("split_with_sizes(Tensor(a) self, int[] split_sizes, int dim=0) -> Tensor[]",
                             OpKind::Composite, "view", "self cut along dim into pieces of the given sizes");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& self = in[0];
      const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "split_with_sizes");
      const std::vector<std::int64_t>& sizes = attrs.get_int_list("split_sizes");
      for (std::int64_t s : sizes) {
        FUNCSPEC_CHECK(s >= 0, ErrorKind::InvalidArgument, "[split_with_sizes] negative size {} in {}", s,
                       shape_to_string(sizes));
      }
      const std::int64_t total = std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0});
      FUNCSPEC_CHECK(total == self.shape()[as_index(d)], ErrorKind::ShapeMismatch,
                     "[split_with_sizes] sizes {} sum to {} but dim {} has size {}", shape_to_string(sizes), total, d,
                     self.shape()[as_index(d)]);
      return narrow_pieces(self, d, sizes);
    };
  }
  {
    OpDef& op = registry.add("chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor[]", OpKind::Composite, "view",
                             "self cut along dim into pieces of ceil(size / chunks) (so possibly fewer than chunks)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& self = in[0];
      const std::int64_t d = wrap_existing_dim(attrs.get_int("dim"), self, "chunk");
      const std::int64_t chunks = attrs.get_int("chunks");
      FUNCSPEC_CHECK(chunks > 0, ErrorKind::InvalidArgument, "[chunk] chunks must be positive but is {}", chunks);
      const std::int64_t size = self.shape()[as_index(d)];
      // PyTorch gives `chunks` empty pieces for an empty dim, and split's pieces otherwise.
      if (size == 0) return narrow_pieces(self, d, std::vector<std::int64_t>(as_index(chunks), 0));
      return call("split", {self}, {{"split_size", (size + chunks - 1) / chunks}, {"dim", d}});
    };
  }
}

}  // namespace

void register_view_ops(OpRegistry& registry) {
  register_expand(registry);
  register_view(registry);
  register_permute(registry);
  register_squeeze(registry);
  register_unsqueeze(registry);
  register_select(registry);
  register_slice(registry);
  register_diagonal(registry);
  register_reshape(registry);
  register_transpose(registry);
  register_movedim(registry);
  register_broadcast_to(registry);
  register_flatten(registry);
  register_unflatten(registry);
  register_narrow(registry);
  register_unbind(registry);
  register_split(registry);
}

}  // namespace funcspec
