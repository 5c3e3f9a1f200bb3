#include "reference/backends/cpu/linalg_lu_exp.h"

#include <vector>

#include "reference/backends/common/linalg_lu.h"
#include "reference/backends/common/matrix_exp.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// the other cpu kernels.
namespace lu_exp_kernels {

using common::MatrixLayout;
using common::trailing_matrix;

std::span<const std::int64_t> leading_dims(const std::vector<std::int64_t>& dims, std::size_t trailing) {
  return std::span<const std::int64_t>(dims).first(dims.size() - trailing);
}

// Copies the matrix at `base` (laid out as m) into `dst`, row-major, starting at row/col `at`.
template <typename T>
void read_block(const T* data, std::int64_t base, const MatrixLayout& m, T* dst, std::int64_t dst_cols,
                std::int64_t row0 = 0, std::int64_t col0 = 0) {
  for (std::int64_t i = 0; i < m.rows; ++i) {
    for (std::int64_t j = 0; j < m.cols; ++j) {
      dst[(row0 + i) * dst_cols + col0 + j] = data[base + i * m.row_stride + j * m.col_stride];
    }
  }
}

template <typename T>
void write_block(const T* src, std::int64_t src_cols, std::int64_t row0, std::int64_t col0, T* data, std::int64_t base,
                 const MatrixLayout& m) {
  for (std::int64_t i = 0; i < m.rows; ++i) {
    for (std::int64_t j = 0; j < m.cols; ++j) {
      data[base + i * m.row_stride + j * m.col_stride] = src[(row0 + i) * src_cols + col0 + j];
    }
  }
}

}  // namespace lu_exp_kernels

void lu_factor(const Tensor& a, const Tensor& lu, const Tensor& pivots, bool pivot) {
  using namespace lu_exp_kernels;
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* out = lu.data<T>();
    std::int64_t* piv = pivots.data<std::int64_t>();
    const MatrixLayout ma = trailing_matrix(a);
    const MatrixLayout mo = trailing_matrix(lu);
    const std::int64_t steps = ma.rows < ma.cols ? ma.rows : ma.cols;
    const std::int64_t pivot_stride = pivots.strides().back();
    std::vector<T> work(static_cast<std::size_t>(ma.rows * ma.cols));
    std::vector<std::int64_t> row_of(static_cast<std::size_t>(ma.rows));
    std::vector<std::int64_t> lapack_pivots(static_cast<std::size_t>(steps));
    for_each_offset<3>(leading_dims(a.shape(), 2),
                       {leading_dims(a.strides(), 2), leading_dims(lu.strides(), 2), leading_dims(pivots.strides(), 1)},
                       [&](const std::array<std::int64_t, 3>& at) {
                         read_block(in, at[0], ma, work.data(), ma.cols);
                         common::lu_factor_rectangular_in_place(work.data(), ma.rows, ma.cols, row_of.data(),
                                                                lapack_pivots.data(), pivot);
                         write_block(work.data(), ma.cols, 0, 0, out, at[1], mo);
                         for (std::int64_t k = 0; k < steps; ++k) {
                           piv[at[2] + k * pivot_stride] = lapack_pivots[static_cast<std::size_t>(k)];
                         }
                       });
  });
}

void matrix_exp(const Tensor& a, const Tensor& out) {
  using namespace lu_exp_kernels;
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* o = out.data<T>();
    const MatrixLayout ma = trailing_matrix(a);
    const MatrixLayout mo = trailing_matrix(out);
    const std::int64_t n = ma.rows;
    std::vector<T> matrix(static_cast<std::size_t>(n * n)), result(matrix.size()), scratch(2 * matrix.size());
    for_each_offset<2>(leading_dims(a.shape(), 2), {leading_dims(a.strides(), 2), leading_dims(out.strides(), 2)},
                       [&](const std::array<std::int64_t, 2>& at) {
                         read_block(in, at[0], ma, matrix.data(), n);
                         common::matrix_exp(matrix.data(), n, result.data(), scratch.data());
                         write_block(result.data(), n, 0, 0, o, at[1], mo);
                       });
  });
}

void matrix_exp_frechet(const Tensor& a, const Tensor& e, const Tensor& out) {
  using namespace lu_exp_kernels;
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* pa = a.data<T>();
    const T* pe = e.data<T>();
    T* o = out.data<T>();
    const MatrixLayout ma = trailing_matrix(a);
    const MatrixLayout me = trailing_matrix(e);
    const MatrixLayout mo = trailing_matrix(out);
    const std::int64_t n = ma.rows;
    const std::int64_t size = 2 * n;
    std::vector<T> block(static_cast<std::size_t>(size * size)), result(block.size()), scratch(2 * block.size());
    for_each_offset<3>(leading_dims(a.shape(), 2),
                       {leading_dims(a.strides(), 2), leading_dims(e.strides(), 2), leading_dims(out.strides(), 2)},
                       [&](const std::array<std::int64_t, 3>& at) {
                         for (T& value : block) value = T(0);
                         read_block(pa, at[0], ma, block.data(), size, 0, 0);
                         read_block(pa, at[0], ma, block.data(), size, n, n);
                         read_block(pe, at[1], me, block.data(), size, 0, n);
                         common::matrix_exp(block.data(), size, result.data(), scratch.data());
                         write_block(result.data(), size, 0, n, o, at[2], mo);
                       });
  });
}

}  // namespace funcspec::cpu
