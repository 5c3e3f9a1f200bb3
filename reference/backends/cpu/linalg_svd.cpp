#include "reference/backends/cpu/linalg_svd.h"

#include <span>
#include <vector>

#include "reference/backends/common/linalg_svd.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {

void svd(const Tensor& a, const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const common::MatrixLayout ma = common::trailing_matrix(a);
    const common::MatrixLayout mu = common::trailing_matrix(u);
    const common::MatrixLayout mvh = common::trailing_matrix(vh);
    const common::SvdDimensions d = common::svd_dimensions(ma.rows, ma.cols, full_matrices);
    const common::SvdFactorShapes shapes = common::svd_factor_shapes(d);
    const std::int64_t s_stride = s.strides().back();
    const auto batch = [](const std::vector<std::int64_t>& dims, std::size_t matrix_rank) {
      return std::span<const std::int64_t>(dims).first(dims.size() - matrix_rank);
    };
    std::vector<T> work_u(static_cast<std::size_t>(d.r * d.u_cols));
    std::vector<T> work_v(static_cast<std::size_t>(d.c * d.c));
    std::vector<T> sigma(static_cast<std::size_t>(d.c));
    const T* in = a.data<T>();
    T* u_out = u.data<T>();
    T* s_out = s.data<T>();
    T* vh_out = vh.data<T>();
    for_each_offset<4>(batch(a.shape(), 2),
                       {batch(a.strides(), 2), batch(u.strides(), 2), batch(s.strides(), 1), batch(vh.strides(), 2)},
                       [&](const std::array<std::int64_t, 4>& at) {
                         common::gather_tall(in + at[0], d, ma.row_stride, ma.col_stride, work_u.data());
                         common::svd_in_place(work_u.data(), d, work_v.data(), sigma.data());
                         for (std::int64_t i = 0; i < shapes.u_rows; ++i) {
                           for (std::int64_t j = 0; j < shapes.u_cols; ++j) {
                             u_out[at[1] + i * mu.row_stride + j * mu.col_stride] =
                                 common::svd_u_entry(d, work_u.data(), work_v.data(), i, j);
                           }
                         }
                         for (std::int64_t j = 0; j < d.c; ++j) {
                           s_out[at[2] + j * s_stride] = sigma[static_cast<std::size_t>(j)];
                         }
                         for (std::int64_t i = 0; i < shapes.vh_rows; ++i) {
                           for (std::int64_t j = 0; j < shapes.vh_cols; ++j) {
                             vh_out[at[3] + i * mvh.row_stride + j * mvh.col_stride] =
                                 common::svd_vh_entry(d, work_u.data(), work_v.data(), i, j);
                           }
                         }
                       });
  });
}

}  // namespace funcspec::cpu
