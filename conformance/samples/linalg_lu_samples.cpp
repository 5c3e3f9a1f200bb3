// Samples of lu_factor, matrix_exp and matrix_exp_frechet. The exact tie and the exactly singular
// input of lu_factor are case files (conformance/cases/ops/lu_factor--*.json), not samples: at a
// tie the pivot choice (and so the factors) jumps under any perturbation, so finite differences
// cannot check a derivative there, and at a singular input the derivative is undefined (NOTE:
// [lu_factor derivative]).
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
// Helpers in a namespace of their own: the unity build compiles this file with linalg_samples.cpp.
namespace linalg_lu_samples {
namespace {

// A batch of m×n matrices whose partial pivoting is decided with a wide margin, with rows swapped:
// a matrix strictly diagonally dominant by rows (off-diagonal entries in [-1, 1), diagonal entries
// ±[n + 1, n + 2)) whose rows are then shuffled (the same shuffle for every matrix of the batch).
// Elimination keeps the dominance: at step k the pivot candidate from the dominant row has
// magnitude >= n + 1 - (n - 1) = 2 and every other candidate at most 1 + 1/(n + 1)·(n + 2), so
// the pivot found is the row the shuffle moved, every float type finds the same one, and no small
// perturbation (finite differences) changes it. Unshuffled (`shuffle` false), no row is swapped.
// With `transposed` the values are laid out column-major (a non-contiguous view).
Tensor pivoted(SampleRng& rng, const Shape& batch, std::int64_t m, std::int64_t n, DType dtype, bool shuffle = true,
               bool transposed = false) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(m));
  std::iota(order.begin(), order.end(), 0);
  if (shuffle) {
    for (std::int64_t i = m - 1; i > 0; --i)
      std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng.integer(0, i + 1))]);
    // Swap at least the first two rows, so that the first step pivots.
    if (m > 1 && order[0] == 0) std::swap(order[0], order[1]);
  }
  const std::int64_t count = numel_of(batch);
  std::vector<double> values(static_cast<std::size_t>(count * m * n));
  for (std::int64_t b = 0; b < count; ++b) {
    for (std::int64_t r = 0; r < m; ++r) {
      const std::int64_t source = order[static_cast<std::size_t>(r)];  // row r holds dominant row `source`
      for (std::int64_t j = 0; j < n; ++j) {
        double& value = values[static_cast<std::size_t>(b * m * n + (transposed ? j * m + r : r * n + j))];
        if (source == j) {
          value = ((rng.next_u64() & 1u) ? 1.0 : -1.0) *
                  rng.uniform(static_cast<double>(n + 1), static_cast<double>(n + 2));
        } else {
          value = rng.uniform(-1.0, 1.0);
        }
      }
    }
  }
  Shape shape = batch;
  if (!transposed) {
    shape.insert(shape.end(), {m, n});
    return from_vector(values, shape, dtype);
  }
  shape.insert(shape.end(), {n, m});
  const Tensor stored = from_vector(values, shape, dtype);
  Shape viewed = batch;
  viewed.insert(viewed.end(), {m, n});
  Strides strides = stored.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(stored, viewed, strides, 0);
}

std::vector<OpSample> lu_factor_samples(DType f, SampleRng& rng) {
  const Attrs no_pivoting{{"pivot", false}};
  return {
      {{pivoted(rng, {}, 3, 3, f)}, {}, "3x3, rows swapped"},
      {{pivoted(rng, {2}, 3, 3, f)}, {}, "batch of 3x3"},
      {{pivoted(rng, {2}, 3, 2, f)}, {}, "tall 3x2 (m > n), batched"},
      {{pivoted(rng, {}, 2, 3, f)}, {}, "wide 2x3 (m < n)"},
      {{pivoted(rng, {}, 4, 4, f, true, true)}, {}, "non-contiguous 4x4"},
      {{pivoted(rng, {2, 1}, 2, 2, f)}, {}, "two batch dims"},
      {{from_values({1, 2, 1.5, 3.05}, {2, 2}, f)}, {}, "ill-conditioned (cond about 450), rows swapped"},
      {{pivoted(rng, {}, 1, 1, f)}, {}, "1x1"},
      {{pivoted(rng, {}, 0, 0, f)}, {}, "0x0"},
      {{pivoted(rng, {}, 0, 3, f)}, {}, "0x3: no pivots"},
      {{pivoted(rng, {}, 3, 0, f)}, {}, "3x0: no pivots"},
      {{pivoted(rng, {0}, 3, 3, f)}, {}, "empty batch"},
      {{pivoted(rng, {}, 3, 3, f, false)}, no_pivoting, "pivot=False, diagonally dominant"},
      {{pivoted(rng, {2}, 2, 3, f, false)}, no_pivoting, "pivot=False, wide, batched"},
  };
}

std::vector<OpSample> lu_samples(DType f, SampleRng& rng) {
  return {
      {{pivoted(rng, {}, 3, 3, f)}, {}, "3x3, rows swapped"},
      {{pivoted(rng, {2}, 2, 2, f)}, {}, "batch of 2x2"},
      {{pivoted(rng, {}, 3, 2, f)}, {}, "tall 3x2"},
      {{pivoted(rng, {}, 2, 3, f)}, {}, "wide 2x3"},
      {{pivoted(rng, {}, 3, 3, f, true, true)}, {}, "non-contiguous"},
      {{pivoted(rng, {}, 1, 1, f)}, {}, "1x1"},
      {{pivoted(rng, {}, 0, 0, f)}, {}, "0x0"},
      {{pivoted(rng, {0}, 2, 2, f)}, {}, "empty batch"},
      {{pivoted(rng, {}, 3, 3, f, false)}, {{"pivot", false}}, "pivot=False: P is the identity"},
  };
}

// lu_solve's operands: the factors lu_factor gives for a pivoted matrix, and a right-hand side.
// With `transposed` the factors are laid out column-major (a non-contiguous view of the same values).
TensorList factored(SampleRng& rng, const Shape& batch, std::int64_t n, DType f, const Tensor& b,
                    bool transposed = false) {
  const TensorList factors = call("lu_factor", {pivoted(rng, batch, n, n, f)});
  Tensor lu = factors[0];
  if (transposed) {
    const Attrs swap{{"dim0", std::int64_t{-1}}, {"dim1", std::int64_t{-2}}};
    lu = call_one("transpose", {call_one("contiguous", {call_one("transpose", {lu}, swap)})}, swap);
  }
  return {lu, factors[1], b};
}

std::vector<OpSample> lu_solve_samples(DType f, SampleRng& rng) {
  const Attrs right{{"left", false}};
  const Attrs adjoint{{"adjoint", true}};
  const Attrs right_adjoint{{"left", false}, {"adjoint", true}};
  return {
      {factored(rng, {}, 3, f, rng.tensor({3, 1}, f)), {}, "3x3, one right-hand side"},
      {factored(rng, {}, 3, f, rng.tensor({3, 1}, f)), adjoint, "adjoint"},
      {factored(rng, {}, 3, f, rng.tensor({1, 3}, f)), right, "left=False"},
      {factored(rng, {}, 3, f, rng.tensor({1, 3}, f)), right_adjoint, "left=False, adjoint"},
      {factored(rng, {2}, 2, f, rng.tensor({2, 2, 2}, f)), {}, "batch of 2x2"},
      {factored(rng, {2}, 3, f, rng.tensor({3, 2}, f)), {}, "B broadcast over the factors' batch"},
      {factored(rng, {}, 2, f, rng.tensor({3, 2, 1}, f)), {}, "factors broadcast over B's batch"},
      {factored(rng, {}, 3, f, rng.strided_tensor({3, 2}, f), true), {}, "non-contiguous"},
      {factored(rng, {}, 3, f, rng.tensor({3, 0}, f)), {}, "no right-hand sides"},
      {factored(rng, {}, 0, f, rng.tensor({0, 2}, f)), {}, "0x0 system"},
      {factored(rng, {0}, 2, f, rng.tensor({0, 2, 1}, f)), {}, "empty batch"},
      {factored(rng, {}, 1, f, rng.tensor({1, 1}, f)), adjoint, "1x1"},
  };
}

// A skew-symmetric n×n matrix with entries in [-scale, scale): exp of it is a rotation.
Tensor skew(SampleRng& rng, std::int64_t n, double scale, DType dtype) {
  std::vector<double> values(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = i + 1; j < n; ++j) {
      const double v = rng.uniform(-scale, scale);
      values[static_cast<std::size_t>(i * n + j)] = v;
      values[static_cast<std::size_t>(j * n + i)] = -v;
    }
  }
  return from_vector(values, {n, n}, dtype);
}

std::vector<OpSample> matrix_exp_samples(DType f, SampleRng& rng) {
  return {
      // First: what the pr tier's AD families check; 2x2 keeps their block exponentials small.
      {{rng.tensor({2, 2}, f, -1, 1)}, {}, "2x2"},
      {{rng.tensor({3, 3}, f, -1, 1)}, {}, "3x3"},
      {{rng.tensor({2, 2, 2}, f, -1, 1)}, {}, "batch of 2x2"},
      {{rng.strided_tensor({3, 3}, f, -1, 1)}, {}, "non-contiguous"},
      {{from_values({0, 1.5, -2, 0, 0, 0.5, 0, 0, 0}, {3, 3}, f)}, {}, "nilpotent: exp is I + N + N^2/2"},
      {{from_values({0.5, 0, 0, 0, -1.25, 0, 0, 0, 2}, {3, 3}, f)}, {}, "diagonal: exp of each entry"},
      {{from_values({0, -2.5, 2.5, 0}, {2, 2}, f)}, {}, "rotation generator: exp is a rotation by 2.5"},
      {{skew(rng, 3, 2.0, f)}, {}, "skew-symmetric 3x3"},
      {{rng.tensor({2, 2}, f, -6, 6)}, {}, "large norm: up to 5 squarings"},
      {{from_values({0, -20, 20, 0}, {2, 2}, f)}, {}, "rotation by 20: 6 squarings of a bounded result"},
      {{rng.tensor({1, 1}, f)}, {}, "1x1"},
      {{rng.tensor({0, 0}, f)}, {}, "0x0"},
      {{rng.tensor({0, 2, 2}, f)}, {}, "empty batch"},
  };
}

std::vector<OpSample> matrix_exp_frechet_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 2}, f, -1, 1), rng.tensor({2, 2}, f, -1, 1)}, {}, "2x2"},
      {{rng.tensor({2, 2, 2}, f, -1, 1), rng.tensor({2, 2}, f, -1, 1)}, {}, "E broadcast over A's batch"},
      {{rng.strided_tensor({3, 3}, f, -1, 1), rng.tensor({3, 3}, f, -1, 1)}, {}, "non-contiguous A"},
      {{rng.tensor({2, 2}, f, -4, 4), rng.tensor({2, 2}, f)}, {}, "larger norm"},
      {{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, {}, "1x1: exp(a)·e"},
      {{rng.tensor({0, 0}, f), rng.tensor({0, 0}, f)}, {}, "0x0"},
  };
}

// LU with partial pivoting is backward stable: the computed factors are the exact ones of A + ΔA
// with |ΔA| <= γ_n·|L|·|U| (γ_n = n·u/(1 - n·u), u = eps/2), and the pivoting margin of the
// samples above keeps the same pivot sequence in every float type. The samples' entries are at
// most n + 2 <= 6 with multipliers at most 1/2 (so |L|·|U| <= 2·6·n elementwise, growth factor
// at most 2): U's entries are off by at most about n·u·2·6·n <= 4·24·eps = 96 eps absolute,
// measured against the input scale max|A| >= n + 1: 24 eps relative to it (32 stated; measured at
// the default seed: 3 eps in float64, 1 in float32). The ill-conditioned 2x2 sample has one elimination step:
// its U entry 2 - (1/1.5)·3.05 cancels, but its error is still a few u of the inputs (the
// backward error), which the input scale covers. Multipliers are quotients of entries with those
// errors by pivots >= 2, inside the same bound. Pivots are integers and exact.
constexpr OracleTolerance kLuFactorTolerance{32.0, 32.0, 0.0, 1.0};

// lu_solve on the factors of those matrices (n <= 3: cond∞ <= 3.5 as for solve, NOTE in
// linalg_samples.cpp) is two triangular solves with the factors as given, whose backward errors are
// at most n·u relative to |L| and |U| each (the permutation is exact): the forward error is at most
// cond·2n·u·ρ <= 3.5·6·2·u = 21 eps times the solution's size, which is at most 1 for right-hand
// sides in [-2, 2) (||A⁻¹||∞ <= 1/2): 64 eps with a floor of 1, as solve states.
constexpr OracleTolerance kLuSolveTolerance{64.0, 64.0, 1.0, 0.0};

// NOTE: [matrix exponential] makes the truncation error at most eps/4 relative; Horner's rule (q
// steps, each an n-term product by X of norm <= 1/2 divided by k >= 1, which contracts the earlier
// errors) leaves an error E_0 of about 2·(n + 2)·u. A squaring R² of an R off by E is off by
// R·E + E·R plus the product's own rounding n·u·|R|²: with ||R|| <= M the error grows as
// E_(j+1) <= 2·M·E_j + n·u·M², so after s squarings it is about 2^s·(E_0 + s·n·u) relative to the
// squares' norms, which are at most 1 for the rotations and at most the result's norm for the other
// samples. The samples have s <= 6 and n <= 3 (the frechet samples' 2n×2n blocks s <= 5, 2n <= 6):
// 2^6·(10 + 18)·u = 896 eps (the frechet ones 2^5·(16 + 30)·u = 736 eps), measured against the
// result's entries with a floor of 1 (the rotations' entries, at most 1, cancel): 1024 eps stated.
// Measured at the default seed: 80 eps (float64, the skew-symmetric 3x3, s = 3) and 37 (float32).
constexpr OracleTolerance kMatrixExpTolerance{1024.0, 1024.0, 1.0, 0.0};

}  // namespace
}  // namespace linalg_lu_samples

void register_linalg_lu_samples(OpSampleRegistry& registry) {
  using namespace linalg_lu_samples;
  registry.add({"lu_factor", lu_factor_samples, kLuFactorTolerance, ""});
  registry.add({"lu", lu_samples, kLuFactorTolerance, ""});
  registry.add({"lu_solve", lu_solve_samples, kLuSolveTolerance, ""});
  registry.add({"matrix_exp", matrix_exp_samples, kMatrixExpTolerance, ""});
  registry.add({"matrix_exp_frechet", matrix_exp_frechet_samples, kMatrixExpTolerance, ""});
}

}  // namespace funcspec::samples
