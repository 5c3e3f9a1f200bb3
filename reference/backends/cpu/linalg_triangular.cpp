#include "reference/backends/cpu/linalg_triangular.h"

#include <span>

#include "reference/backends/common/linalg_cholesky.h"
#include "reference/backends/common/linalg_triangular_solve.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// linalg.cpp, whose anonymous namespace has helpers of similar names.
namespace triangular_detail {
namespace {

std::span<const std::int64_t> leading_dims(const std::vector<std::int64_t>& dims, std::size_t matrix_rank) {
  return std::span<const std::int64_t>(dims).first(dims.size() - matrix_rank);
}

}  // namespace
}  // namespace triangular_detail

void solve_triangular(const Tensor& a, const Tensor& b, const Tensor& x, bool upper, bool left, bool unitriangular) {
  using triangular_detail::leading_dims;
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* px = x.data<T>();
    // x·A = B is Aᵀ·xᵀ = Bᵀ, and Aᵀ's triangle is the other one: a left solve with transposed
    // layouts covers both sides.
    const common::MatrixLayout ma = left ? common::trailing_matrix(a) : common::trailing_matrix(a).transposed();
    const common::MatrixLayout mb = left ? common::trailing_matrix(b) : common::trailing_matrix(b).transposed();
    const common::MatrixLayout mx = left ? common::trailing_matrix(x) : common::trailing_matrix(x).transposed();
    const bool upper_as_left = left ? upper : !upper;
    for_each_offset<3>(leading_dims(a.shape(), 2),
                       {leading_dims(a.strides(), 2), leading_dims(b.strides(), 2), leading_dims(x.strides(), 2)},
                       [&](const std::array<std::int64_t, 3>& at) {
                         for (std::int64_t c = 0; c < mb.cols; ++c) {
                           T* column = px + at[2] + c * mx.col_stride;
                           for (std::int64_t i = 0; i < mb.rows; ++i) {
                             column[i * mx.row_stride] = pb[at[1] + i * mb.row_stride + c * mb.col_stride];
                           }
                           common::triangular_substitute(pa + at[0], ma.row_stride, ma.col_stride, ma.rows,
                                                         upper_as_left, unitriangular, column, mx.row_stride);
                         }
                       });
  });
}

void cholesky(const Tensor& a, const Tensor& l, const Tensor& info, bool upper) {
  using triangular_detail::leading_dims;
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* pa = a.data<T>();
    T* pl = l.data<T>();
    std::int64_t* pinfo = info.data<std::int64_t>();
    // The upper factor is the lower one of the transposed layouts (NOTE: [Cholesky factorization]).
    const common::MatrixLayout ma = upper ? common::trailing_matrix(a).transposed() : common::trailing_matrix(a);
    const common::MatrixLayout ml = upper ? common::trailing_matrix(l).transposed() : common::trailing_matrix(l);
    for_each_offset<3>(leading_dims(a.shape(), 2),
                       {leading_dims(a.strides(), 2), leading_dims(l.strides(), 2), std::span(info.strides())},
                       [&](const std::array<std::int64_t, 3>& at) {
                         pinfo[at[2]] = common::cholesky_factor(pa + at[0], ma.row_stride, ma.col_stride, ma.rows,
                                                                pl + at[1], ml.row_stride, ml.col_stride);
                       });
  });
}

}  // namespace funcspec::cpu
