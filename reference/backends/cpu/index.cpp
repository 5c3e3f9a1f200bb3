#include "reference/backends/cpu/index.h"

#include "reference/backends/common/index_update.h"
#include "reference/backends/cpu/copy.h"

namespace funcspec::cpu {
namespace {

// The geometry of one slice x.select(dim, i), relative to x's data(): the caller adds i·stride.
struct SliceGeometry {
  Shape shape;
  Strides strides;
};

SliceGeometry without_dim(const Tensor& t, std::int64_t dim) {
  SliceGeometry g{t.shape(), t.strides()};
  if (t.dim() > 0) {
    g.shape.erase(g.shape.begin() + dim);
    g.strides.erase(g.strides.begin() + dim);
  }
  return g;
}

std::int64_t stride_of(const Tensor& t, std::int64_t dim) { return t.dim() == 0 ? 0 : t.strides()[as_index(dim)]; }

// Strides of t with the stride of `dim` set to 0: walking them with another tensor's shape visits
// the element at position 0 of dim, to which the kernel adds index·stride itself.
Strides strides_ignoring_dim(const Tensor& t, std::int64_t dim) {
  Strides s = t.strides();
  if (!s.empty()) s[as_index(dim)] = 0;
  return s;
}

}  // namespace

void check_index_values(std::string_view op, const Tensor& index, std::int64_t dim, std::int64_t size) {
  const std::int64_t* base = index.data<std::int64_t>();
  for_each_offset<1>(index.shape(), {index.strides()}, [&](const std::array<std::int64_t, 1>& off) {
    const std::int64_t v = base[off[0]];
    FUNCSPEC_CHECK(v >= 0 && v < size, ErrorKind::IndexOutOfRange,
                   "[{}] index {} is out of range for dim {} of size {}", op, v, dim, size);
  });
}

void cat(const TensorList& inputs, std::int64_t dim, const Tensor& out) {
  std::int64_t position = 0;
  for (const Tensor& in : inputs) {
    if (in.numel() == 0) continue;
    const std::int64_t length = in.shape()[as_index(dim)];
    Shape shape = out.shape();
    shape[as_index(dim)] = length;
    const Tensor target =
        Tensor::view_of(out, shape, out.strides(), out.storage_offset() + out.strides()[as_index(dim)] * position);
    copy_elements(in, target);
    position += length;
  }
}

void index_select(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out) {
  check_index_values("index_select", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const SliceGeometry self_slice = without_dim(self, dim);
  const SliceGeometry out_slice = without_dim(out, dim);
  const std::vector<std::int64_t> picks = index.to_vector<std::int64_t>();
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T* src = self.data<T>();
    T* dst = out.data<T>();
    for (std::size_t j = 0; j < picks.size(); ++j) {
      const T* from = src + picks[j] * stride_of(self, dim);
      T* to = dst + static_cast<std::int64_t>(j) * stride_of(out, dim);
      for_each_offset<2>(out_slice.shape, {out_slice.strides, self_slice.strides},
                         [&](const std::array<std::int64_t, 2>& off) { to[off[0]] = from[off[1]]; });
    }
  });
}

void gather(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out) {
  check_index_values("gather", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Strides self_strides = strides_ignoring_dim(self, dim);
  const std::int64_t step = stride_of(self, dim);
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T* src = self.data<T>();
    const std::int64_t* idx = index.data<std::int64_t>();
    T* dst = out.data<T>();
    for_each_offset<3>(index.shape(), {out.strides(), index.strides(), self_strides},
                       [&](const std::array<std::int64_t, 3>& off) { dst[off[0]] = src[off[2] + idx[off[1]] * step]; });
  });
}

void scatter_add(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim, const Tensor& out) {
  check_index_values("scatter_add", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  copy_elements(self, out);
  const Strides out_strides = strides_ignoring_dim(out, dim);
  const std::int64_t step = stride_of(out, dim);
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T* from = src.data<T>();
    const std::int64_t* idx = index.data<std::int64_t>();
    T* dst = out.data<T>();
    for_each_offset<3>(index.shape(), {out_strides, index.strides(), src.strides()},
                       [&](const std::array<std::int64_t, 3>& off) {
                         T& target = dst[off[0] + idx[off[1]] * step];
                         target = common::scatter_add_update(target, from[off[2]]);
                       });
  });
}

void scatter_reduce(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim,
                    common::ScatterMode mode, bool include_self, const Tensor& out) {
  check_index_values(mode == common::ScatterMode::Replace ? "scatter" : "scatter_reduce", index, dim,
                     self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  // The running values and counts live in a row-major buffer of out's shape; out is written last.
  const Strides linear = contiguous_strides(out.shape());
  Strides linear_ignoring_dim = linear;
  if (!linear_ignoring_dim.empty()) linear_ignoring_dim[as_index(dim)] = 0;
  const std::int64_t step = out.dim() == 0 ? 0 : linear[as_index(dim)];
  std::vector<std::int64_t> counts(static_cast<std::size_t>(out.numel()), 0);
  visit_dtype(out.dtype(), [&]<typename T>() {
    struct Cell {
      T value{};
    };  // not std::vector<bool>'s packed bits
    std::vector<Cell> cells(static_cast<std::size_t>(out.numel()));
    const T* self_data = self.data<T>();
    if (include_self) {
      for_each_offset<2>(out.shape(), {linear, self.strides()}, [&](const std::array<std::int64_t, 2>& off) {
        cells[as_index(off[0])].value = self_data[off[1]];
        counts[as_index(off[0])] = 1;
      });
    }
    const T* from = src.data<T>();
    const std::int64_t* idx = index.data<std::int64_t>();
    for_each_offset<3>(index.shape(), {linear_ignoring_dim, index.strides(), src.strides()},
                       [&](const std::array<std::int64_t, 3>& off) {
                         const std::size_t q = as_index(off[0] + idx[off[1]] * step);
                         T& acc = cells[q].value;
                         acc = counts[q] == 0 ? from[off[2]] : common::scatter_combine(mode, acc, from[off[2]]);
                         ++counts[q];
                       });
    T* dst = out.data<T>();
    for_each_offset<3>(
        out.shape(), {out.strides(), self.strides(), linear}, [&](const std::array<std::int64_t, 3>& off) {
          const std::size_t q = as_index(off[2]);
          const bool reached = include_self ? counts[q] > 1 : counts[q] > 0;
          dst[off[0]] = reached ? common::scatter_finish(mode, cells[q].value, counts[q]) : self_data[off[1]];
        });
  });
}

void index_add(const Tensor& self, const Tensor& index, const Tensor& source, std::int64_t dim, const Scalar& alpha,
               const Tensor& out) {
  check_index_values("index_add", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  copy_elements(self, out);
  const SliceGeometry source_slice = without_dim(source, dim);
  const SliceGeometry out_slice = without_dim(out, dim);
  const std::vector<std::int64_t> targets = index.to_vector<std::int64_t>();
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T scale = alpha.to<T>();
    const T* src = source.data<T>();
    T* dst = out.data<T>();
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const T* from = src + static_cast<std::int64_t>(j) * stride_of(source, dim);
      T* to = dst + targets[j] * stride_of(out, dim);
      for_each_offset<2>(out_slice.shape, {out_slice.strides, source_slice.strides},
                         [&](const std::array<std::int64_t, 2>& off) {
                           to[off[0]] = common::index_add_update(to[off[0]], scale, from[off[1]]);
                         });
    }
  });
}

void masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value, const Tensor& out) {
  visit_dtype(out.dtype(), [&]<typename T>() {
    const T fill = *value.data<T>();
    const T* src = self.data<T>();
    const bool* m = mask.data<bool>();
    T* dst = out.data<T>();
    for_each_offset<3>(out.shape(), {out.strides(), self.strides(), mask.strides()},
                       [&](const std::array<std::int64_t, 3>& off) { dst[off[0]] = m[off[2]] ? fill : src[off[1]]; });
  });
}

}  // namespace funcspec::cpu
