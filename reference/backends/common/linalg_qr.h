#pragma once
// Householder QR, written once for every floating type so that the oracle dtype runs the very
// algorithm whose float32/float64 results it judges. The per-matrix routines work on raw row-major
// arrays and are host+device: the CUDA backend runs them, one thread per matrix
// (reference/backends/cuda/linalg_qr.cu, compiled without fused multiply-adds), so both backends
// perform the same operations in the same order.
#include <cstdint>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [Householder QR]
// LAPACK's geqrf, unblocked (geqr2 with larfg's reflector): for j = 0 .. k - 1 (k = min(m, n)),
// with α = a_jj and x the entries below it in column j, the reflector H_j = I − τ_j v_j v_jᵀ,
// v_j = (0, .., 0, 1, x/(α − β)), maps (α, x) to (β, 0) with β = −sign(α)·‖(α, x)‖ (sign(0) = +1)
// and τ_j = (β − α)/β; where x = 0 already, H_j = I (τ_j = 0) and β = α, whatever α's sign. H_j is
// then applied to the columns right of j. R (on and above the diagonal) and the v_j's tails
// (below it) are left packed in `a`, as geqrf leaves them, and the τ_j in `tau`. So R's diagonal
// has the signs LAPACK gives it, which is one of the choices SPEC OPS-10.1 leaves free. The norm is
// √(α² + ‖x‖²) without LAPACK's scaling: the samples' magnitudes are far from overflow.
// `a` is m×n, row-major; `tau` has k entries.
template <typename T>
FUNCSPEC_HOST_DEVICE void householder_qr_in_place(T* a, std::int64_t m, std::int64_t n, T* tau) {
  const std::int64_t k = m < n ? m : n;
  for (std::int64_t j = 0; j < k; ++j) {
    const T alpha = a[j * n + j];
    T tail_squared = T(0);
    for (std::int64_t i = j + 1; i < m; ++i) tail_squared += a[i * n + j] * a[i * n + j];
    if (tail_squared == T(0)) {
      tau[j] = T(0);
      continue;
    }
    const T norm = math::sqrt(alpha * alpha + tail_squared);
    const T beta = alpha >= T(0) ? -norm : norm;
    tau[j] = (beta - alpha) / beta;
    const T scale = T(1) / (alpha - beta);
    for (std::int64_t i = j + 1; i < m; ++i) a[i * n + j] *= scale;
    a[j * n + j] = beta;
    // Columns right of j: c ← c − τ v (vᵀ c).
    for (std::int64_t c = j + 1; c < n; ++c) {
      T w = a[j * n + c];
      for (std::int64_t i = j + 1; i < m; ++i) w += a[i * n + j] * a[i * n + c];
      w *= tau[j];
      a[j * n + c] -= w;
      for (std::int64_t i = j + 1; i < m; ++i) a[i * n + c] -= w * a[i * n + j];
    }
  }
}

// LAPACK's orgqr, unblocked (org2r): the first `q_cols` columns (k <= q_cols <= m) of
// H_0 H_1 ⋯ H_{k−1}, the reflectors householder_qr_in_place left in `a` (m×n, row-major) and `tau`,
// written to `q` (m×q_cols, row-major). Built from the identity's columns by applying H_{k−1} first.
template <typename T>
FUNCSPEC_HOST_DEVICE void householder_q(const T* a, std::int64_t m, std::int64_t n, const T* tau, T* q,
                                        std::int64_t q_cols) {
  const std::int64_t k = m < n ? m : n;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t c = 0; c < q_cols; ++c) q[i * q_cols + c] = i == c ? T(1) : T(0);
  }
  for (std::int64_t j = k - 1; j >= 0; --j) {
    if (tau[j] == T(0)) continue;
    for (std::int64_t c = 0; c < q_cols; ++c) {
      T w = q[j * q_cols + c];
      for (std::int64_t i = j + 1; i < m; ++i) w += a[i * n + j] * q[i * q_cols + c];
      w *= tau[j];
      q[j * q_cols + c] -= w;
      for (std::int64_t i = j + 1; i < m; ++i) q[i * q_cols + c] -= w * a[i * n + j];
    }
  }
}

// R of the factorization householder_qr_in_place left in `a` (m×n): its first `r_rows` rows (k or
// m), zero below the diagonal, written to `r` at element (i, j) = r[i·row_stride + j·col_stride].
template <typename T, typename Out>
FUNCSPEC_HOST_DEVICE void scatter_r(const T* a, std::int64_t n, std::int64_t r_rows, Out* r, std::int64_t row_stride,
                                    std::int64_t col_stride) {
  for (std::int64_t i = 0; i < r_rows; ++i) {
    for (std::int64_t j = 0; j < n; ++j) r[i * row_stride + j * col_stride] = j >= i ? a[i * n + j] : Out(0);
  }
}

}  // namespace funcspec::common
