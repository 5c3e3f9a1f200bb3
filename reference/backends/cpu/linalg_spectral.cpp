#include "reference/backends/cpu/linalg_spectral.h"

#include <vector>

#include "reference/backends/common/linalg_jacobi.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {

void eigh(const Tensor& a, const Tensor& eigenvalues, const Tensor& eigenvectors, bool lower) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* values = eigenvalues.data<T>();
    T* vectors = eigenvectors.data<T>();
    const common::MatrixLayout m = common::trailing_matrix(a);
    const common::MatrixLayout mv = common::trailing_matrix(eigenvectors);
    const std::int64_t n = m.rows;
    const std::int64_t value_stride = eigenvalues.strides().back();
    const auto batch = [](const std::vector<std::int64_t>& dims, std::size_t matrix_rank) {
      return std::span<const std::int64_t>(dims).first(dims.size() - matrix_rank);
    };
    std::vector<T> work(static_cast<std::size_t>(n * n));
    std::vector<T> v(static_cast<std::size_t>(n * n));
    std::vector<T> w(static_cast<std::size_t>(n));
    for_each_offset<3>(
        batch(a.shape(), 2), {batch(a.strides(), 2), batch(eigenvalues.strides(), 1), batch(eigenvectors.strides(), 2)},
        [&](const std::array<std::int64_t, 3>& at) {
          common::gather_symmetric(in + at[0], n, m.row_stride, m.col_stride, lower, work.data());
          common::symmetric_eigen_in_place(work.data(), n, v.data(), w.data());
          for (std::int64_t i = 0; i < n; ++i) {
            values[at[1] + i * value_stride] = w[static_cast<std::size_t>(i)];
            for (std::int64_t j = 0; j < n; ++j) {
              vectors[at[2] + i * mv.row_stride + j * mv.col_stride] = v[static_cast<std::size_t>(i * n + j)];
            }
          }
        });
  });
}

}  // namespace funcspec::cpu
