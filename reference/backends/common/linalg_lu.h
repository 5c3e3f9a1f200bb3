#pragma once
// LU factorization with partial pivoting, written once for every floating type so that the oracle
// dtype runs the very algorithm whose float32/float64 results it judges. The per-matrix routines
// work on raw arrays and are host+device: the CUDA backend runs them, one thread per matrix, so both
// backends perform the same operations in the same order (reference/backends/cuda/linalg.cu, which
// is compiled without fused multiply-adds so that the bits agree too).
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "reference/backends/common/scalar_math.h"
#include "reference/core/host_device.h"

namespace funcspec::common {

// NOTE: [LU with partial pivoting]
// P·A = L·U for an n×n matrix A (row-major), computed by Gaussian elimination column by column: at
// step k the pivot is the entry of largest magnitude in column k on or below the diagonal (the
// first one on ties), and its row is swapped into row k. A NaN counts as larger than any number, so
// a NaN input propagates into the results instead of passing for a zero pivot. A zero pivot
// (the whole remaining column is zero) leaves the column as it is and marks the matrix singular,
// as LAPACK's getrf does: the factorization still completes, U has a zero on its diagonal, det is 0.
template <typename T>
struct LuFactorization {
  std::int64_t n = 0;
  std::vector<T> lu;                       // U on and above the diagonal, L's multipliers below (L has a unit diagonal)
  std::vector<std::int64_t> row_of;        // row i of P·A is row row_of[i] of A
  bool odd_permutation = false;            // P swaps rows an odd number of times: det(P) = -1
  std::optional<std::int64_t> zero_pivot;  // the first k with U[k][k] == 0
};

// What lu_factor_in_place finds besides the factors themselves (LuFactorization's fields).
struct LuPivoting {
  bool odd_permutation = false;
  std::int64_t zero_pivot = -1;  // the first k with U[k][k] == 0, or -1 when there is none
};

template <typename T>
FUNCSPEC_HOST_DEVICE bool pivot_beats(const T& candidate, const T& best) {
  if (math::isnan(best)) return false;
  return math::isnan(candidate) || math::abs(candidate) > math::abs(best);
}

template <typename T>
FUNCSPEC_HOST_DEVICE void swap_values(T& x, T& y) {
  T held = x;
  x = y;
  y = held;
}

// Factors the m×n row-major matrix `a` in place, for any m and n (NOTE: [LU with partial
// pivoting], with min(m, n) elimination steps; a square matrix takes exactly the steps it always
// took): `a` becomes U on and above its diagonal and L's multipliers below, `row_of` (m entries)
// the row permutation, and `pivots` (min(m, n) entries, or null) LAPACK's getrf pivots: at step k
// rows k and pivots[k] - 1 were swapped (1-based, so an unswapped row k has pivots[k] = k + 1).
// Without `pivoting` no row is swapped (the pivot is the diagonal entry, whatever it is: a zero
// one leaves its column as a zero pivot does above).
template <typename T>
FUNCSPEC_HOST_DEVICE LuPivoting lu_factor_rectangular_in_place(T* a, std::int64_t m, std::int64_t n,
                                                               std::int64_t* row_of, std::int64_t* pivots,
                                                               bool pivoting = true) {
  LuPivoting result;
  for (std::int64_t i = 0; i < m; ++i) row_of[i] = i;
  const std::int64_t steps = m < n ? m : n;
  for (std::int64_t k = 0; k < steps; ++k) {
    std::int64_t pivot = k;
    for (std::int64_t i = k + 1; pivoting && i < m; ++i) {
      if (pivot_beats(a[i * n + k], a[pivot * n + k])) pivot = i;
    }
    if (pivots != nullptr) pivots[k] = pivot + 1;
    if (pivot != k) {
      for (std::int64_t j = 0; j < n; ++j) swap_values(a[k * n + j], a[pivot * n + j]);
      swap_values(row_of[k], row_of[pivot]);
      result.odd_permutation = !result.odd_permutation;
    }
    if (a[k * n + k] == T(0)) {
      if (result.zero_pivot < 0) result.zero_pivot = k;
      continue;
    }
    for (std::int64_t i = k + 1; i < m; ++i) {
      const T multiplier = a[i * n + k] / a[k * n + k];
      a[i * n + k] = multiplier;
      for (std::int64_t j = k + 1; j < n; ++j) a[i * n + j] -= multiplier * a[k * n + j];
    }
  }
  return result;
}

// Factors the n×n row-major matrix `a` in place (it becomes LuFactorization::lu) and fills
// `row_of` (n entries, LuFactorization::row_of).
template <typename T>
FUNCSPEC_HOST_DEVICE LuPivoting lu_factor_in_place(T* a, std::int64_t n, std::int64_t* row_of) {
  return lu_factor_rectangular_in_place(a, n, n, row_of, static_cast<std::int64_t*>(nullptr));
}

template <typename T>
LuFactorization<T> lu_factor(std::vector<T> a, std::int64_t n) {
  LuFactorization<T> f;
  f.n = n;
  f.row_of.resize(static_cast<std::size_t>(n));
  const LuPivoting pivoting = lu_factor_in_place(a.data(), n, f.row_of.data());
  f.odd_permutation = pivoting.odd_permutation;
  if (pivoting.zero_pivot >= 0) f.zero_pivot = pivoting.zero_pivot;
  f.lu = std::move(a);
  return f;
}

// Solves A·x = b from A's factors (`lu`, `row_of` of lu_factor_in_place; no zero pivot): permute b
// by P, then forward substitution with L and back substitution with U. `x` (n entries) must not
// overlap `b`.
template <typename T>
FUNCSPEC_HOST_DEVICE void lu_solve(const T* lu, const std::int64_t* row_of, std::int64_t n, const T* b, T* x) {
  for (std::int64_t i = 0; i < n; ++i) {
    T value = b[row_of[i]];
    for (std::int64_t j = 0; j < i; ++j) value -= lu[i * n + j] * x[j];
    x[i] = value;
  }
  for (std::int64_t i = n - 1; i >= 0; --i) {
    T value = x[i];
    for (std::int64_t j = i + 1; j < n; ++j) value -= lu[i * n + j] * x[j];
    x[i] = value / lu[i * n + i];
  }
}

// Solves A·x = b in place (b becomes x) from A's factorization, which must have no zero pivot.
template <typename T>
void lu_solve_in_place(const LuFactorization<T>& f, std::vector<T>& b) {
  std::vector<T> x(static_cast<std::size_t>(f.n));
  lu_solve(f.lu.data(), f.row_of.data(), f.n, b.data(), x.data());
  b = std::move(x);
}

// det(A) from A's factors: det(P) times the product of U's diagonal, multiplied in order.
template <typename T>
FUNCSPEC_HOST_DEVICE T lu_determinant(const T* lu, std::int64_t n, bool odd_permutation) {
  T product(odd_permutation ? -1 : 1);
  for (std::int64_t k = 0; k < n; ++k) product *= lu[k * n + k];
  return product;
}

// sign(det(A)) and log|det(A)| from A's factors; a singular A gives 0 and -inf.
template <typename T>
FUNCSPEC_HOST_DEVICE void lu_sign_and_log_abs_determinant(const T* lu, std::int64_t n, bool odd_permutation,
                                                          bool singular, T& sign, T& log_abs) {
  if (singular) {
    sign = T(0);
    log_abs = -math::infinity<T>();
    return;
  }
  T sign_product(odd_permutation ? -1 : 1);
  T log_sum(0);
  for (std::int64_t k = 0; k < n; ++k) {
    const T& pivot = lu[k * n + k];
    // A NaN pivot makes the sign NaN too, rather than a sign that pretends to be known.
    sign_product *= math::isnan(pivot) ? pivot : pivot < T(0) ? T(-1) : T(1);
    log_sum += math::log(math::abs(pivot));
  }
  sign = sign_product;
  log_abs = log_sum;
}

}  // namespace funcspec::common
