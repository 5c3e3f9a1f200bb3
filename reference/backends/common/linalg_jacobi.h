#pragma once
// The cyclic Jacobi eigenvalue algorithm for symmetric matrices, written once for every floating
// type so that the oracle dtype runs the very algorithm whose float32/float64 results it judges.
// The per-matrix routine works on raw arrays and is host+device: the CUDA backend runs it, one
// thread per matrix (reference/backends/cuda/linalg_spectral.cu, compiled without fused
// multiply-adds), so both backends perform the same operations in the same order.
#include <cstdint>
#include <limits>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// The unit roundoff scale of T: where Jacobi stops rotating.
template <typename T>
FUNCSPEC_HOST_DEVICE T jacobi_epsilon() {
  if constexpr (is_oracle_v<T>) {
    return std::numeric_limits<T>::epsilon();
  } else if constexpr (sizeof(T) == sizeof(float)) {
    return T(1.1920928955078125e-07);
  } else {
    return T(2.220446049250313e-16);
  }
}

// NOTE: [cyclic Jacobi eigenvalue algorithm]
// A = V·diag(w)·Vᵀ for a symmetric n×n matrix A (row-major, both triangles present): sweeps over
// the pairs (p, q), p < q, in row order, each annihilating a_pq with the rotation of Rutishauser's
// formulas (θ = (a_qq − a_pp)/(2a_pq), t = sign(θ)/(|θ| + √(θ² + 1)), sign(0) = +1), accumulated
// into V. An entry is negligible, and set to zero without a rotation, when |a_pq| <= eps·√|a_pp·a_qq|
// (it no longer moves the diagonal beyond rounding: Demmel–Veselić's relative criterion) or
// |a_pq| <= eps²·||A||_F (an absolute floor, for zero diagonal entries). The sweeps stop when one
// rotates nothing (at most 64: a NaN input never settles, and yields NaN). Jacobi converges
// quadratically, so the 50-digit oracle needs a few sweeps more than float64.
// Then the eigenvalues are sorted ascending (a stable selection sort moving V's columns along),
// and each eigenvector is signed so that its entry of largest magnitude (the first on ties) is
// positive (SPEC OPS-4.1, OPS-4.3: the sign is a choice, which conformance does not check).
// `a` is destroyed; `v` (n×n, row-major, the eigenvectors in its columns) and `w` (n) are written.
inline constexpr int kMaxJacobiSweeps = 64;

template <typename T>
FUNCSPEC_HOST_DEVICE void jacobi_rotate(T* a, T* v, std::int64_t n, std::int64_t p, std::int64_t q) {
  const T apq = a[p * n + q];
  const T theta = (a[q * n + q] - a[p * n + p]) / (T(2) * apq);
  const T t = (theta >= T(0) ? T(1) : T(-1)) / (math::abs(theta) + math::sqrt(theta * theta + T(1)));
  const T c = T(1) / math::sqrt(t * t + T(1));
  const T s = t * c;
  const T tau = s / (T(1) + c);
  a[p * n + p] -= t * apq;
  a[q * n + q] += t * apq;
  a[p * n + q] = T(0);
  a[q * n + p] = T(0);
  for (std::int64_t r = 0; r < n; ++r) {
    if (r != p && r != q) {
      const T g = a[r * n + p];
      const T h = a[r * n + q];
      a[r * n + p] = g - s * (h + g * tau);
      a[r * n + q] = h + s * (g - h * tau);
      a[p * n + r] = a[r * n + p];
      a[q * n + r] = a[r * n + q];
    }
    const T g = v[r * n + p];
    const T h = v[r * n + q];
    v[r * n + p] = g - s * (h + g * tau);
    v[r * n + q] = h + s * (g - h * tau);
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE void symmetric_eigen_in_place(T* a, std::int64_t n, T* v, T* w) {
  const T eps = jacobi_epsilon<T>();
  T frobenius_squared = T(0);
  for (std::int64_t e = 0; e < n * n; ++e) frobenius_squared += a[e] * a[e];
  const T floor = eps * eps * math::sqrt(frobenius_squared);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) v[i * n + j] = i == j ? T(1) : T(0);
  }
  for (int sweep = 0; sweep < kMaxJacobiSweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < n; ++p) {
      for (std::int64_t q = p + 1; q < n; ++q) {
        const T apq = math::abs(a[p * n + q]);
        if (apq == T(0)) continue;
        if (apq <= eps * math::sqrt(math::abs(a[p * n + p] * a[q * n + q])) || apq <= floor) {
          a[p * n + q] = T(0);
          a[q * n + p] = T(0);
          continue;
        }
        jacobi_rotate(a, v, n, p, q);
        rotated = true;
      }
    }
    if (!rotated) break;
  }
  for (std::int64_t i = 0; i < n; ++i) w[i] = a[i * n + i];
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t least = i;
    for (std::int64_t k = i + 1; k < n; ++k) {
      if (w[k] < w[least]) least = k;
    }
    if (least == i) continue;
    const T held = w[i];
    w[i] = w[least];
    w[least] = held;
    for (std::int64_t r = 0; r < n; ++r) {
      const T x = v[r * n + i];
      v[r * n + i] = v[r * n + least];
      v[r * n + least] = x;
    }
  }
  for (std::int64_t j = 0; j < n; ++j) {
    std::int64_t largest = 0;
    for (std::int64_t r = 1; r < n; ++r) {
      if (math::abs(v[r * n + j]) > math::abs(v[largest * n + j])) largest = r;
    }
    if (v[largest * n + j] < T(0)) {
      for (std::int64_t r = 0; r < n; ++r) v[r * n + j] = -v[r * n + j];
    }
  }
}

// The symmetric matrix eigh sees: the `lower` (else upper) triangle of the n×n matrix at `base`
// (element (i, j) at base[i·row_stride + j·col_stride]) reflected onto the other, row-major.
template <typename T, typename Source>
FUNCSPEC_HOST_DEVICE void gather_symmetric(const Source* base, std::int64_t n, std::int64_t row_stride,
                                           std::int64_t col_stride, bool lower, T* out) {
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const std::int64_t r = lower ? (i > j ? i : j) : (i < j ? i : j);
      const std::int64_t c = lower ? (i > j ? j : i) : (i < j ? j : i);
      out[i * n + j] = base[r * row_stride + c * col_stride];
    }
  }
}

}  // namespace funcspec::common
