#include "reference/backends/cpu/linalg_qr.h"

#include <vector>

#include "reference/backends/common/linalg_qr.h"
#include "reference/backends/common/matrix_layout.h"
#include "reference/core/strided_loop.h"

namespace funcspec::cpu {

void qr(const Tensor& a, const Tensor& q, const Tensor& r, bool compute_q) {
  visit_floating_dtype(a.dtype(), [&]<typename T>() {
    const common::MatrixLayout ma = common::trailing_matrix(a);
    const common::MatrixLayout mr = common::trailing_matrix(r);
    const std::int64_t m = ma.rows;
    const std::int64_t n = ma.cols;
    const std::int64_t k = m < n ? m : n;
    const std::int64_t q_cols = compute_q ? q.size(-1) : 0;
    const common::MatrixLayout mq = compute_q ? common::trailing_matrix(q) : common::MatrixLayout{};
    const auto batch = [](const std::vector<std::int64_t>& dims) {
      return std::span<const std::int64_t>(dims).first(dims.size() - 2);
    };
    // Mode 'r''s Q is [0] whatever the batch: its offsets are never used.
    const std::vector<std::int64_t> no_strides(a.shape().size(), 0);
    const T* in = a.data<T>();
    T* r_out = r.data<T>();
    T* q_out = compute_q ? q.data<T>() : nullptr;
    std::vector<T> work(static_cast<std::size_t>(m * n));
    std::vector<T> tau(static_cast<std::size_t>(k));
    std::vector<T> q_work(static_cast<std::size_t>(m * q_cols));
    for_each_offset<3>(
        batch(a.shape()), {batch(a.strides()), batch(r.strides()), batch(compute_q ? q.strides() : no_strides)},
        [&](const std::array<std::int64_t, 3>& at) {
          for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
              work[static_cast<std::size_t>(i * n + j)] = in[at[0] + i * ma.row_stride + j * ma.col_stride];
            }
          }
          common::householder_qr_in_place(work.data(), m, n, tau.data());
          common::scatter_r(work.data(), n, mr.rows, r_out + at[1], mr.row_stride, mr.col_stride);
          if (!compute_q) return;
          common::householder_q(work.data(), m, n, tau.data(), q_work.data(), q_cols);
          for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < q_cols; ++j) {
              q_out[at[2] + i * mq.row_stride + j * mq.col_stride] = q_work[static_cast<std::size_t>(i * q_cols + j)];
            }
          }
        });
  });
}

}  // namespace funcspec::cpu
