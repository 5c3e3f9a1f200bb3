#pragma once
// LU factorization with partial pivoting, written once for every floating type so that the oracle
// dtype runs the very algorithm whose float32/float64 results it judges.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "reference/backends/cpu/scalar_math.h"

namespace funcspec::cpu {

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

template <typename T>
bool pivot_beats(const T& candidate, const T& best) {
  if (math::isnan(best)) return false;
  return math::isnan(candidate) || math::abs(candidate) > math::abs(best);
}

template <typename T>
LuFactorization<T> lu_factor(std::vector<T> a, std::int64_t n) {
  LuFactorization<T> f;
  f.n = n;
  f.row_of.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) f.row_of[static_cast<std::size_t>(i)] = i;
  auto at = [&](std::int64_t i, std::int64_t j) -> T& { return a[static_cast<std::size_t>(i * n + j)]; };
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t pivot = k;
    for (std::int64_t i = k + 1; i < n; ++i) {
      if (pivot_beats(at(i, k), at(pivot, k))) pivot = i;
    }
    if (pivot != k) {
      for (std::int64_t j = 0; j < n; ++j) std::swap(at(k, j), at(pivot, j));
      std::swap(f.row_of[static_cast<std::size_t>(k)], f.row_of[static_cast<std::size_t>(pivot)]);
      f.odd_permutation = !f.odd_permutation;
    }
    if (at(k, k) == T(0)) {
      if (!f.zero_pivot) f.zero_pivot = k;
      continue;
    }
    for (std::int64_t i = k + 1; i < n; ++i) {
      const T multiplier = at(i, k) / at(k, k);
      at(i, k) = multiplier;
      for (std::int64_t j = k + 1; j < n; ++j) at(i, j) -= multiplier * at(k, j);
    }
  }
  f.lu = std::move(a);
  return f;
}

// Solves A·x = b in place (b becomes x) from A's factorization, which must have no zero pivot:
// permute b by P, then forward substitution with L and back substitution with U.
template <typename T>
void lu_solve_in_place(const LuFactorization<T>& f, std::vector<T>& b) {
  const std::int64_t n = f.n;
  auto lu = [&](std::int64_t i, std::int64_t j) -> const T& { return f.lu[static_cast<std::size_t>(i * n + j)]; };
  std::vector<T> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    T value = b[static_cast<std::size_t>(f.row_of[static_cast<std::size_t>(i)])];
    for (std::int64_t j = 0; j < i; ++j) value -= lu(i, j) * x[static_cast<std::size_t>(j)];
    x[static_cast<std::size_t>(i)] = value;
  }
  for (std::int64_t i = n - 1; i >= 0; --i) {
    T value = x[static_cast<std::size_t>(i)];
    for (std::int64_t j = i + 1; j < n; ++j) value -= lu(i, j) * x[static_cast<std::size_t>(j)];
    x[static_cast<std::size_t>(i)] = value / lu(i, i);
  }
  b = std::move(x);
}

}  // namespace funcspec::cpu
