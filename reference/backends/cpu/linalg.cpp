#include "reference/backends/cpu/linalg.h"

#include "reference/backends/common/linalg_lu.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/backends/common/singular_matrix.h"

namespace funcspec::cpu {
namespace {

using common::MatrixLayout;
using common::trailing_matrix;
using common::trailing_vector;

template <typename T>
std::vector<T> gather_matrix(const T* data, std::int64_t base, const MatrixLayout& m) {
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(m.rows * m.cols));
  for (std::int64_t i = 0; i < m.rows; ++i) {
    for (std::int64_t j = 0; j < m.cols; ++j) out.push_back(data[base + i * m.row_stride + j * m.col_stride]);
  }
  return out;
}

std::span<const std::int64_t> batch_part(const std::vector<std::int64_t>& dims, std::size_t matrix_rank) {
  return std::span<const std::int64_t>(dims).first(dims.size() - matrix_rank);
}

// Runs `fn(a_offset, out_offsets..., batch_element)` for every matrix of `a` ([*, n, n]) and the
// matching slot of each output, which share a's batch dims [*].
template <std::size_t N, typename Fn>
void for_each_batch(const Tensor& a, const std::array<const Tensor*, N>& outputs,
                    const std::array<std::size_t, N>& output_matrix_ranks, Fn&& fn) {
  std::array<std::span<const std::int64_t>, N + 1> strides;
  strides[0] = batch_part(a.strides(), 2);
  for (std::size_t k = 0; k < N; ++k) strides[k + 1] = batch_part(outputs[k]->strides(), output_matrix_ranks[k]);
  std::int64_t element = 0;
  for_each_offset<N + 1>(batch_part(a.shape(), 2), strides,
                         [&](const std::array<std::int64_t, N + 1>& at) { fn(at, element++); });
}

template <typename T>
void check_invertible(const common::LuFactorization<T>& f, const Tensor& a, std::int64_t element, std::string_view op) {
  if (f.zero_pivot) common::raise_singular_matrix(a, element, *f.zero_pivot, op);
}

}  // namespace

void tril_triu(const Tensor& self, const Tensor& out, std::int64_t diagonal, bool lower) {
  visit_dtype(self.dtype(), [&]<typename T>() {
    const T* in = self.data<T>();
    T* o = out.data<T>();
    const MatrixLayout mi = trailing_matrix(self);
    const MatrixLayout mo = trailing_matrix(out);
    for_each_offset<2>(batch_part(self.shape(), 2), {batch_part(self.strides(), 2), batch_part(out.strides(), 2)},
                       [&](const std::array<std::int64_t, 2>& at) {
                         for (std::int64_t i = 0; i < mi.rows; ++i) {
                           for (std::int64_t j = 0; j < mi.cols; ++j) {
                             const bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
                             o[at[1] + i * mo.row_stride + j * mo.col_stride] =
                                 keep ? in[at[0] + i * mi.row_stride + j * mi.col_stride] : T(0);
                           }
                         }
                       });
  });
}

void det(const Tensor& a, const Tensor& out) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* o = out.data<T>();
    const MatrixLayout m = trailing_matrix(a);
    for_each_batch<1>(a, {&out}, {0}, [&](const std::array<std::int64_t, 2>& at, std::int64_t) {
      const common::LuFactorization<T> f = common::lu_factor(gather_matrix(in, at[0], m), m.rows);
      o[at[1]] = common::lu_determinant(f.lu.data(), m.rows, f.odd_permutation);
    });
  });
}

void slogdet(const Tensor& a, const Tensor& sign, const Tensor& logabsdet) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* s = sign.data<T>();
    T* l = logabsdet.data<T>();
    const MatrixLayout m = trailing_matrix(a);
    for_each_batch<2>(a, {&sign, &logabsdet}, {0, 0}, [&](const std::array<std::int64_t, 3>& at, std::int64_t) {
      const common::LuFactorization<T> f = common::lu_factor(gather_matrix(in, at[0], m), m.rows);
      common::lu_sign_and_log_abs_determinant(f.lu.data(), m.rows, f.odd_permutation, f.zero_pivot.has_value(),
                                              s[at[1]], l[at[2]]);
    });
  });
}

void inverse(const Tensor& a, const Tensor& out, std::string_view op) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* in = a.data<T>();
    T* o = out.data<T>();
    const MatrixLayout m = trailing_matrix(a);
    const MatrixLayout mo = trailing_matrix(out);
    for_each_batch<1>(a, {&out}, {2}, [&](const std::array<std::int64_t, 2>& at, std::int64_t element) {
      const common::LuFactorization<T> f = common::lu_factor(gather_matrix(in, at[0], m), m.rows);
      check_invertible(f, a, element, op);
      // Column j of the inverse solves A·x = e_j.
      for (std::int64_t j = 0; j < m.rows; ++j) {
        std::vector<T> column(static_cast<std::size_t>(m.rows), T(0));
        column[static_cast<std::size_t>(j)] = T(1);
        common::lu_solve_in_place(f, column);
        for (std::int64_t i = 0; i < m.rows; ++i) {
          o[at[1] + i * mo.row_stride + j * mo.col_stride] = column[static_cast<std::size_t>(i)];
        }
      }
    });
  });
}

void solve(const Tensor& a, const Tensor& b, const Tensor& x, bool left, bool vector_rhs, std::string_view op) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* px = x.data<T>();
    // x·A = B is Aᵀ·xᵀ = Bᵀ: solving from the left with transposed layouts covers both sides.
    const MatrixLayout ma = left ? trailing_matrix(a) : trailing_matrix(a).transposed();
    MatrixLayout mb = vector_rhs ? trailing_vector(b) : trailing_matrix(b);
    MatrixLayout mx = vector_rhs ? trailing_vector(x) : trailing_matrix(x);
    if (!left && !vector_rhs) {
      mb = mb.transposed();
      mx = mx.transposed();
    }
    const std::size_t rhs_rank = vector_rhs ? 1 : 2;
    for_each_batch<2>(a, {&b, &x}, {rhs_rank, rhs_rank},
                      [&](const std::array<std::int64_t, 3>& at, std::int64_t element) {
                        const common::LuFactorization<T> f = common::lu_factor(gather_matrix(pa, at[0], ma), ma.rows);
                        check_invertible(f, a, element, op);
                        for (std::int64_t c = 0; c < mb.cols; ++c) {
                          std::vector<T> column;
                          for (std::int64_t i = 0; i < mb.rows; ++i) {
                            column.push_back(pb[at[1] + i * mb.row_stride + c * mb.col_stride]);
                          }
                          common::lu_solve_in_place(f, column);
                          for (std::int64_t i = 0; i < mx.rows; ++i) {
                            px[at[2] + i * mx.row_stride + c * mx.col_stride] = column[static_cast<std::size_t>(i)];
                          }
                        }
                      });
  });
}

}  // namespace funcspec::cpu
