#pragma once
// The one-sided Jacobi (Hestenes) singular value decomposition, written once for every floating type
// so that the oracle dtype runs the very algorithm whose float32/float64 results it judges. The
// per-matrix routine works on raw arrays and is host+device: the CUDA backend runs it, one thread per
// matrix (reference/backends/cuda/linalg_svd.cu, compiled without fused multiply-adds), so both
// backends perform the same operations in the same order.
#include <cstdint>

#include "reference/backends/common/linalg_jacobi.h"
#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [one-sided Jacobi singular value decomposition]
// W = A·V for a tall r×c matrix A (r >= c; a wide one is decomposed through its transpose, see
// svd_dimensions), starting from V = I: sweeps over the column pairs (p, q), p < q, in row order,
// each rotating w_p and w_q (and v_p, v_q alike) by the Jacobi rotation that diagonalizes their Gram
// matrix [[α, γ], [γ, β]] (α = |w_p|², β = |w_q|², γ = w_p·w_q; ζ = (β − α)/(2γ),
// t = sign(ζ)/(|ζ| + √(1 + ζ²)), sign(0) = +1), so that they become orthogonal. A pair counts as
// orthogonal, and is not rotated, when |γ| <= eps·|w_p|·|w_q|: a relative criterion, which
// orthogonalizes small columns as accurately as large ones (Demmel–Veselić), so the singular vectors
// of tiny singular values are accurate too. The sweeps stop when one rotates nothing (at most
// kMaxJacobiSweeps: a NaN input never settles, and yields NaN).
// Then σ_j = |w_j| and u_j = w_j/σ_j; the triples are sorted by descending σ (a stable selection sort)
// and each pair (u_j, v_j) is signed jointly so that v_j's entry of largest magnitude (the first on
// ties) is positive (SPEC OPS-8.1: the joint sign is a choice, which conformance does not check).
// The columns of U that no nonzero σ fixes (those of zero singular values, and the r − c extra
// columns of a full U) are completed to an orthonormal basis: each is the unit vector e_i whose
// residual against the columns already there is largest (the first on ties), orthogonalized twice
// (Gram–Schmidt with reorthogonalization) and normalized.

// The geometry of one matrix's decomposition: A is m×n; the routine decomposes the tall r×c matrix
// (A, or Aᵀ when m < n) into U (r×u_cols), σ (c) and V (c×c).
struct SvdDimensions {
  std::int64_t r = 0;
  std::int64_t c = 0;
  std::int64_t u_cols = 0;
  bool transposed = false;

  // Elements of one matrix's scratch: U (r·u_cols, which first holds the r×c input), V (c·c), σ (c).
  FUNCSPEC_HOST_DEVICE std::int64_t workspace() const { return r * u_cols + c * c + c; }
};

FUNCSPEC_HOST_DEVICE inline SvdDimensions svd_dimensions(std::int64_t m, std::int64_t n, bool full_matrices) {
  SvdDimensions d;
  d.transposed = m < n;
  d.r = d.transposed ? n : m;
  d.c = d.transposed ? m : n;
  d.u_cols = full_matrices ? d.r : d.c;
  return d;
}

// The tall matrix of `d` from the m×n matrix at `base` (element (i, j) at base[i·row_stride +
// j·col_stride]) into u (row-major, d.u_cols per row, in its first d.c columns).
template <typename T, typename Source>
FUNCSPEC_HOST_DEVICE void gather_tall(const Source* base, const SvdDimensions& d, std::int64_t row_stride,
                                      std::int64_t col_stride, T* u) {
  for (std::int64_t i = 0; i < d.r; ++i) {
    for (std::int64_t j = 0; j < d.c; ++j) {
      u[i * d.u_cols + j] =
          d.transposed ? T(base[j * row_stride + i * col_stride]) : T(base[i * row_stride + j * col_stride]);
    }
  }
}

// The rotation of the pair (p, q) of the columns of x (`rows` rows, `ld` elements per row).
template <typename T>
FUNCSPEC_HOST_DEVICE void rotate_columns(T* x, std::int64_t rows, std::int64_t ld, std::int64_t p, std::int64_t q, T c,
                                         T s) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const T xp = x[i * ld + p];
    const T xq = x[i * ld + q];
    x[i * ld + p] = c * xp - s * xq;
    x[i * ld + q] = s * xp + c * xq;
  }
}

template <typename T>
FUNCSPEC_HOST_DEVICE void swap_columns(T* x, std::int64_t rows, std::int64_t ld, std::int64_t p, std::int64_t q) {
  for (std::int64_t i = 0; i < rows; ++i) {
    const T held = x[i * ld + p];
    x[i * ld + p] = x[i * ld + q];
    x[i * ld + q] = held;
  }
}

// Columns [filled, d.u_cols) of u replaced by an orthonormal basis of the complement of columns
// [0, filled), which are orthonormal.
template <typename T>
FUNCSPEC_HOST_DEVICE void complete_orthonormal_columns(T* u, const SvdDimensions& d, std::int64_t filled) {
  const std::int64_t ld = d.u_cols;
  for (std::int64_t j = filled; j < d.u_cols; ++j) {
    // |e_i − Σ_k u_k u_kᵀ e_i|² = 1 − Σ_k u_ik²: the e_i that the columns so far cover least.
    std::int64_t best = 0;
    T best_residual = T(-1);
    for (std::int64_t i = 0; i < d.r; ++i) {
      T covered = T(0);
      for (std::int64_t k = 0; k < j; ++k) covered += u[i * ld + k] * u[i * ld + k];
      if (T(1) - covered > best_residual) {
        best_residual = T(1) - covered;
        best = i;
      }
    }
    for (std::int64_t i = 0; i < d.r; ++i) u[i * ld + j] = i == best ? T(1) : T(0);
    for (int pass = 0; pass < 2; ++pass) {
      for (std::int64_t k = 0; k < j; ++k) {
        T dot = T(0);
        for (std::int64_t i = 0; i < d.r; ++i) dot += u[i * ld + k] * u[i * ld + j];
        for (std::int64_t i = 0; i < d.r; ++i) u[i * ld + j] -= dot * u[i * ld + k];
      }
    }
    T norm2 = T(0);
    for (std::int64_t i = 0; i < d.r; ++i) norm2 += u[i * ld + j] * u[i * ld + j];
    const T norm = math::sqrt(norm2);
    for (std::int64_t i = 0; i < d.r; ++i) u[i * ld + j] /= norm;
  }
}

// u (r×u_cols, row-major) holds the tall matrix in its first c columns (gather_tall); on return it
// holds U, v (c×c, row-major) V and sigma (c) the singular values, descending.
template <typename T>
FUNCSPEC_HOST_DEVICE void svd_in_place(T* u, const SvdDimensions& d, T* v, T* sigma) {
  const T eps = jacobi_epsilon<T>();
  const std::int64_t r = d.r;
  const std::int64_t c = d.c;
  const std::int64_t ld = d.u_cols;
  for (std::int64_t i = 0; i < c; ++i) {
    for (std::int64_t j = 0; j < c; ++j) v[i * c + j] = i == j ? T(1) : T(0);
  }
  for (int sweep = 0; sweep < kMaxJacobiSweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t p = 0; p < c; ++p) {
      for (std::int64_t q = p + 1; q < c; ++q) {
        T alpha = T(0);
        T beta = T(0);
        T gamma = T(0);
        for (std::int64_t i = 0; i < r; ++i) {
          alpha += u[i * ld + p] * u[i * ld + p];
          beta += u[i * ld + q] * u[i * ld + q];
          gamma += u[i * ld + p] * u[i * ld + q];
        }
        if (gamma == T(0) || math::abs(gamma) <= eps * math::sqrt(alpha) * math::sqrt(beta)) continue;
        const T zeta = (beta - alpha) / (T(2) * gamma);
        const T abs_zeta = math::abs(zeta);
        // √(1 + ζ²) without overflow where |ζ| is huge (a tiny γ against very unequal columns).
        const T root = abs_zeta > T(1) ? abs_zeta * math::sqrt(T(1) + (T(1) / zeta) * (T(1) / zeta))
                                       : math::sqrt(T(1) + zeta * zeta);
        const T t = (zeta >= T(0) ? T(1) : T(-1)) / (abs_zeta + root);
        const T cosine = T(1) / math::sqrt(T(1) + t * t);
        const T sine = cosine * t;
        rotate_columns(u, r, ld, p, q, cosine, sine);
        rotate_columns(v, c, c, p, q, cosine, sine);
        rotated = true;
      }
    }
    if (!rotated) break;
  }
  for (std::int64_t j = 0; j < c; ++j) {
    T norm2 = T(0);
    for (std::int64_t i = 0; i < r; ++i) norm2 += u[i * ld + j] * u[i * ld + j];
    sigma[j] = math::sqrt(norm2);
  }
  for (std::int64_t j = 0; j < c; ++j) {
    std::int64_t largest = j;
    for (std::int64_t k = j + 1; k < c; ++k) {
      if (sigma[k] > sigma[largest]) largest = k;
    }
    if (largest == j) continue;
    const T held = sigma[j];
    sigma[j] = sigma[largest];
    sigma[largest] = held;
    swap_columns(u, r, ld, j, largest);
    swap_columns(v, c, c, j, largest);
  }
  std::int64_t filled = 0;
  while (filled < c && sigma[filled] != T(0)) ++filled;
  for (std::int64_t j = 0; j < filled; ++j) {
    for (std::int64_t i = 0; i < r; ++i) u[i * ld + j] /= sigma[j];
  }
  for (std::int64_t j = 0; j < c; ++j) {
    std::int64_t largest = 0;
    for (std::int64_t i = 1; i < c; ++i) {
      if (math::abs(v[i * c + j]) > math::abs(v[largest * c + j])) largest = i;
    }
    if (v[largest * c + j] < T(0)) {
      for (std::int64_t i = 0; i < c; ++i) v[i * c + j] = -v[i * c + j];
      for (std::int64_t i = 0; i < r; ++i) u[i * ld + j] = -u[i * ld + j];
    }
  }
  complete_orthonormal_columns(u, d, filled);
}

// The decomposition of A from that of its tall matrix: element (i, j) of A's U, Vh and S from the
// routine's u, v and sigma (A = U S Vh; when A was transposed, Aᵀ = u σ vᵀ, so U = v and Vh = uᵀ).
template <typename T>
FUNCSPEC_HOST_DEVICE T svd_u_entry(const SvdDimensions& d, const T* u, const T* v, std::int64_t i, std::int64_t j) {
  return d.transposed ? v[i * d.c + j] : u[i * d.u_cols + j];
}

template <typename T>
FUNCSPEC_HOST_DEVICE T svd_vh_entry(const SvdDimensions& d, const T* u, const T* v, std::int64_t i, std::int64_t j) {
  return d.transposed ? u[j * d.u_cols + i] : v[j * d.c + i];
}

// The shapes of A's factors: U is u_rows×u_cols_of_a, Vh vh_rows×vh_cols.
struct SvdFactorShapes {
  std::int64_t u_rows = 0;
  std::int64_t u_cols = 0;
  std::int64_t vh_rows = 0;
  std::int64_t vh_cols = 0;
};

FUNCSPEC_HOST_DEVICE inline SvdFactorShapes svd_factor_shapes(const SvdDimensions& d) {
  // Not transposed: U = u (r×u_cols), Vh = vᵀ (c×c). Transposed: U = v (c×c), Vh = uᵀ (u_cols×r).
  return d.transposed ? SvdFactorShapes{d.c, d.c, d.u_cols, d.r} : SvdFactorShapes{d.r, d.u_cols, d.c, d.c};
}

}  // namespace funcspec::common
