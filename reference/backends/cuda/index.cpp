// Host glue of the index family's CUDA kernels: checks, views and dtype dispatch (the kernels are
// in index.cu; NOTE: [cuda index kernels] in index_launch.h).
#include "reference/backends/cuda/index.h"

#include "reference/backends/cuda/cuda_device.h"
#include "reference/backends/cuda/cuda_dtype.h"
#include "reference/backends/cuda/device_tensor.h"
#include "reference/backends/cuda/index_launch.h"

namespace funcspec::cuda {
namespace index_glue {

std::int64_t stride_of(const Tensor& t, std::int64_t dim) { return t.dim() == 0 ? 0 : t.strides()[as_index(dim)]; }

// The kernels' name for dim: -1 for a rank-0 tensor, which has none.
int kernel_dim(const Tensor& t, std::int64_t dim) { return t.dim() == 0 ? -1 : static_cast<int>(dim); }

// t as a kernel operand whose stride of dim is 0: walking it over another geometry of its rank
// reaches the element at position 0 of dim, to which the kernel adds index * stride_of(t, dim).
template <typename T>
StridedView<T> view_ignoring_dim(const Tensor& t, std::int64_t dim, std::string_view op) {
  StridedView<T> view = strided_view_of<T>(t, op);
  if (t.dim() > 0) view.strides[dim] = 0;
  view.contiguous = false;
  return view;
}

}  // namespace index_glue

using index_glue::kernel_dim;
using index_glue::stride_of;
using index_glue::view_ignoring_dim;

void check_index_values(std::string_view op, const Tensor& index, std::int64_t dim, std::int64_t size) {
  const Geometry geometry = geometry_of(index.shape(), op);
  const StridedView<std::int64_t> view = strided_view_of<std::int64_t>(index, op);
  const std::int64_t position = first_index_out_of_range(geometry, view, size);
  if (position < 0) return;
  std::int64_t value = 0;
  copy_device_to_host(&value, view.data + offset_of(position, geometry, view.strides), sizeof value);
  fail(ErrorKind::IndexOutOfRange, "[{}] index {} is out of range for dim {} of size {}", op, value, dim, size);
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
    visit_cuda_dtype(out.dtype(), [&]<typename T>() {
      launch_strided_copy<T>(geometry_of(in.shape(), "cat"), strided_view_of<T>(in, "cat"),
                             strided_view_of<T>(target, "cat"));
    });
    position += length;
  }
}

void index_select(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out) {
  check_index_values("index_select", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Geometry geometry = geometry_of(out.shape(), "index_select");
  const std::int64_t index_stride = index.dim() == 0 ? 0 : index.strides()[0];
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_index_select<T>(geometry, kernel_dim(out, dim), strided_view_of<T>(out, "index_select"),
                           view_ignoring_dim<T>(self, dim, "index_select"), stride_of(self, dim),
                           device_data<std::int64_t>(index), index_stride);
  });
}

void gather(const Tensor& self, const Tensor& index, std::int64_t dim, const Tensor& out) {
  check_index_values("gather", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Geometry geometry = geometry_of(index.shape(), "gather");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_gather<T>(geometry, strided_view_of<T>(out, "gather"), strided_view_of<std::int64_t>(index, "gather"),
                     view_ignoring_dim<T>(self, dim, "gather"), stride_of(self, dim));
  });
}

void scatter_add(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim, const Tensor& out) {
  check_index_values("scatter_add", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Geometry geometry = geometry_of(out.shape(), "scatter_add");
  const Geometry index_geometry = geometry_of(index.shape(), "scatter_add");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_scatter_add<T>(geometry, kernel_dim(out, dim), strided_view_of<T>(out, "scatter_add"),
                          strided_view_of<T>(self, "scatter_add"), index_geometry,
                          strided_view_of<std::int64_t>(index, "scatter_add"), strided_view_of<T>(src, "scatter_add"));
  });
}

void scatter_reduce(const Tensor& self, const Tensor& index, const Tensor& src, std::int64_t dim,
                    common::ScatterMode mode, bool include_self, const Tensor& out) {
  const char* op = mode == common::ScatterMode::Replace ? "scatter" : "scatter_reduce";
  check_index_values(op, index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Geometry geometry = geometry_of(out.shape(), op);
  const Geometry index_geometry = geometry_of(index.shape(), op);
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_scatter_reduce<T>(geometry, kernel_dim(out, dim), strided_view_of<T>(out, op), strided_view_of<T>(self, op),
                             index_geometry, strided_view_of<std::int64_t>(index, op), strided_view_of<T>(src, op),
                             static_cast<int>(mode), include_self);
  });
}

void index_add(const Tensor& self, const Tensor& index, const Tensor& source, std::int64_t dim, const Scalar& alpha,
               const Tensor& out) {
  check_index_values("index_add", index, dim, self.dim() == 0 ? 1 : self.shape()[as_index(dim)]);
  const Geometry geometry = geometry_of(out.shape(), "index_add");
  const std::int64_t index_stride = index.dim() == 0 ? 0 : index.strides()[0];
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    launch_index_add<T>(geometry, kernel_dim(out, dim), strided_view_of<T>(out, "index_add"),
                        strided_view_of<T>(self, "index_add"), view_ignoring_dim<T>(source, dim, "index_add"),
                        stride_of(source, dim), device_data<std::int64_t>(index), index_stride, index.numel(),
                        alpha.to<T>());
  });
}

void masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value, const Tensor& out) {
  const Geometry geometry = geometry_of(out.shape(), "masked_fill");
  visit_cuda_dtype(out.dtype(), [&]<typename T>() {
    const T fill = value.to_vector<T>().at(0);
    launch_masked_fill<T>(geometry, strided_view_of<T>(out, "masked_fill"), strided_view_of<T>(self, "masked_fill"),
                          strided_view_of<bool>(mask, "masked_fill"), fill);
  });
}

}  // namespace funcspec::cuda
