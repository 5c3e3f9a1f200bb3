// Samples of the triangular and Cholesky ops of the linalg family (solve_triangular, cholesky,
// cholesky_ex).
#include <fmt/format.h>

#include <cmath>

#include "conformance/samples/linalg_derivative_conventions.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

// A batch of n×n matrices, both triangles filled (so that a triangular op that read the wrong one
// would show), strictly diagonally dominant by rows with margin at least 2: off-diagonal entries in
// [-1, 1), diagonal entries ±[n + 1, n + 2) with random signs. Each triangle T of it (diagonal
// included) is as dominant, so ||T⁻¹||∞ <= 1/2 and ||T||∞ <= 2n + 1. Row i is scaled by
// row_scale^i (1: not at all). `transposed` lays the matrices out column-major (the last two dims'
// strides swapped), which makes them dominant by columns instead.
Tensor dominant_matrices(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed = false,
                         double row_scale = 1.0) {
  Shape shape = batch;
  shape.insert(shape.end(), {n, n});
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (std::size_t e = 0; e < values.size(); ++e) {
    const std::int64_t within = static_cast<std::int64_t>(e) % (n * n);
    const std::int64_t row = within / n;
    if (row == within % n) {
      const double sign = (rng.next_u64() & 1u) ? 1.0 : -1.0;
      values[e] = sign * rng.uniform(static_cast<double>(n + 1), static_cast<double>(n + 2));
    } else {
      values[e] = rng.uniform(-1.0, 1.0);
    }
    values[e] *= std::pow(row_scale, static_cast<double>(row));
  }
  const Tensor a = from_vector(values, shape, dtype);
  if (!transposed) return a;
  Strides strides = a.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(a, shape, strides, 0);
}

// [rows, cols] values in [-2, 2) with row i scaled by row_scale^i.
Tensor graded_rows(SampleRng& rng, std::int64_t rows, std::int64_t cols, DType dtype, double row_scale) {
  std::vector<double> values;
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) {
      values.push_back(rng.uniform(-2.0, 2.0) * std::pow(row_scale, static_cast<double>(i)));
    }
  }
  return from_vector(values, {rows, cols}, dtype);
}

Attrs triangular(bool upper, bool left = true, bool unitriangular = false) {
  Attrs attrs{{"upper", upper}};
  if (!left) attrs.set("left", false);
  if (unitriangular) attrs.set("unitriangular", true);
  return attrs;
}

// solve_triangular by substitution (NOTE: [triangular substitution]) is backward stable: the computed
// x solves (T + ΔT)·x = b with |ΔT| <= γ_n·|T|, γ_n ≈ n·u, so ||x - x̂||∞ <= || |T⁻¹|·|T| ||∞·γ_n·||x||∞
// (to first order; Higham, Accuracy and Stability, Thm 8.5 and §8.2). The samples have n <= 4:
// - a dominant triangle (above): || |T⁻¹|·|T| ||∞ <= (1/2)(2n + 1) = 4.5 and ||x||∞ <= (1/2)·2 = 1
//   for b in [-2, 2), so the error is at most 4.5·4u = 9 eps;
// - a unit triangle (unitriangular: the dominant diagonal is not read) with off-diagonal entries in
//   [-1, 1) and n <= 3: |T⁻¹|'s entries are at most 2^(i-j-1), ||T⁻¹||∞ <= 4, ||T||∞ <= 3, so
//   12·3u = 18 eps of ||x||∞ <= 8;
// - the graded sample scales row i of T and b by 10^-3i: substitution is invariant under row
//   scaling up to the roundings of the scaled inputs, so the bound of the unscaled system holds
//   although cond∞(T) is about 4.5e6.
// With the floor at 8 (the largest ||x||∞) and 32 eps both cases fit with margin; float32 runs the
// same substitution in float32, so the same count of its eps.
constexpr OracleTolerance kTriangularSolveTolerance{32.0, 32.0, 8.0, 0.0};

std::vector<OpSample> solve_triangular_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  // The first sample of each attribute set is small (12 elements) for the higher-order families.
  for (const bool unitriangular : {false, true}) {
    for (const bool left : {true, false}) {
      for (const bool upper : {false, true}) {
        const Shape b_shape = left ? Shape{3, 1} : Shape{1, 3};
        out.push_back({{dominant_matrices(rng, {}, 3, f), rng.tensor(b_shape, f)},
                       triangular(upper, left, unitriangular),
                       fmt::format("{}{}, {}", upper ? "upper" : "lower", unitriangular ? " unitriangular" : "",
                                   left ? "left" : "right")});
      }
    }
  }
  const Attrs lower = triangular(false);
  const Attrs upper = triangular(true);
  out.push_back({{dominant_matrices(rng, {2}, 3, f), rng.tensor({2, 3, 2}, f)}, lower, "batched"});
  out.push_back({{dominant_matrices(rng, {3}, 4, f), rng.tensor({3, 4, 2}, f)}, upper, "upper, batched 4x4"});
  out.push_back({{dominant_matrices(rng, {}, 3, f), rng.tensor({2, 3, 2}, f)}, lower, "A broadcast over B's batch"});
  out.push_back({{dominant_matrices(rng, {2, 1}, 2, f), rng.tensor({3, 2, 1}, f)}, upper, "batch dims broadcast"});
  out.push_back(
      {{dominant_matrices(rng, {2}, 3, f), rng.tensor({2, 2, 3}, f)}, triangular(true, false), "right, batched"});
  out.push_back({{dominant_matrices(rng, {}, 4, f, true), rng.strided_tensor({4, 2}, f)}, lower, "non-contiguous"});
  out.push_back({{dominant_matrices(rng, {}, 3, f, true), rng.strided_tensor({2, 3}, f)},
                 triangular(true, false, true),
                 "non-contiguous, upper unitriangular, right"});
  out.push_back({{dominant_matrices(rng, {}, 1, f), rng.tensor({1, 2}, f)}, upper, "1x1"});
  out.push_back({{dominant_matrices(rng, {}, 0, f), rng.tensor({0, 2}, f)}, lower, "0x0 system"});
  out.push_back({{dominant_matrices(rng, {}, 3, f), rng.tensor({3, 0}, f)}, lower, "no right-hand sides"});
  out.push_back({{dominant_matrices(rng, {0}, 3, f), rng.tensor({0, 3, 2}, f)}, upper, "empty batch"});
  out.push_back({{dominant_matrices(rng, {}, 3, f, false, 1e-3), graded_rows(rng, 3, 2, f, 1e-3)},
                 lower,
                 "ill-conditioned: rows graded by 1e-3 (cond about 4.5e6)"});
  // A zero on the diagonal is not checked (NOTE: [triangular substitution]): x1 = 0.5 / 0 = inf, and
  // x2 = (1 - 0.5 - inf) / 3 = -inf, as PyTorch's trsm gives.
  out.push_back({{from_values({2, 9, 9, 1, 0, 9, 1, 1, 3}, {3, 3}, f), from_values({1, 1, 1}, {3, 1}, f)},
                 lower,
                 "exactly singular: a zero on the diagonal gives inf"});
  return out;
}

// The values of a batch of symmetric positive-definite n×n matrices M·Mᵀ + n·I, M's entries in
// [-1, 1): the eigenvalues lie in [n, n + n²] (||M||₂ <= n), so cond₂ <= n + 1 and ||A||₂ <= n + n².
// Row and column i are scaled by scale^i (D·A·D, 1: not at all).
std::vector<double> spd_values(SampleRng& rng, std::int64_t count, std::int64_t n, double scale) {
  std::vector<double> values;
  for (std::int64_t b = 0; b < count; ++b) {
    std::vector<double> m(static_cast<std::size_t>(n * n));
    for (double& v : m) v = rng.uniform(-1.0, 1.0);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = i == j ? static_cast<double>(n) : 0.0;
        for (std::int64_t k = 0; k < n; ++k)
          sum += m[static_cast<std::size_t>(i * n + k)] * m[static_cast<std::size_t>(j * n + k)];
        values.push_back(sum * std::pow(scale, static_cast<double>(i + j)));
      }
    }
  }
  return values;
}

Shape matrices_shape(const Shape& batch, std::int64_t n) {
  Shape shape = batch;
  shape.insert(shape.end(), {n, n});
  return shape;
}

// spd_values as a tensor. `transposed` swaps the last two dims' strides (the same values: A is
// symmetric, but laid out column-major).
Tensor spd_matrices(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed = false,
                    double scale = 1.0) {
  const Shape shape = matrices_shape(batch, n);
  const Tensor a = from_vector(spd_values(rng, numel_of(batch), n, scale), shape, dtype);
  if (!transposed) return a;
  Strides strides = a.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(a, shape, strides, 0);
}

// Inputs whose image under the domain map A ↦ A + Aᵀ (SPEC OPS-4.2) is symmetric positive-definite:
// half of spd_values' matrix (exact) plus an antisymmetric part in [-1, 1), which the map cancels up
// to roundings far inside the eigenvalues' margin n. Not symmetric themselves, so the map is exercised.
Tensor spd_domain_input(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype) {
  std::vector<double> values = spd_values(rng, numel_of(batch), n, 1.0);
  for (std::size_t offset = 0; offset < values.size(); offset += static_cast<std::size_t>(n * n)) {
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) {
        const double k = rng.uniform(-1.0, 1.0);
        values[offset + static_cast<std::size_t>(i * n + j)] += 2 * k;
        values[offset + static_cast<std::size_t>(j * n + i)] -= 2 * k;
      }
    }
  }
  for (double& v : values) v /= 2;
  return from_vector(values, matrices_shape(batch, n), dtype);
}

// Cholesky is backward stable: L̂·L̂ᵀ = A + ΔA with |ΔA| <= γ_{n+1}·|L̂|·|L̂ᵀ| and
// || |L||Lᵀ| ||₂ <= n·||A||₂ (Higham, Thm 10.3, 10.4), and Sun's perturbation bound gives
// ||ΔL||_F <= 2^-1/2·cond₂(A)·||L||₂·||ΔA||_F / ||A||₂ to first order. For the samples above with
// n <= 4: cond₂ <= 5, γ_5 = 2.5 eps, and ||ΔA||_F <= 2·n·γ_5·||A||₂ (a factor 2 for Frobenius against
// the 2-norm at n = 4): ||ΔL|| <= 0.71·5·20·eps·||L||₂ = 71 eps·||L||₂, ||L||₂ <= (n + n²)^1/2 <= 4.5.
// Stated 80 eps of the floor 4.5. The graded sample (D·A·D, D = diag(1, 1e-2, 1e-4), cond₂ about
// 5e8) has the factor D·L, computed with the same relative roundings (Cholesky is invariant under
// symmetric diagonal scaling, Demmel), so its errors are D times those of the unscaled A. float32
// runs the same algorithm in float32: the same count of its eps.
constexpr OracleTolerance kCholeskyTolerance{80.0, 80.0, 4.5, 0.0};

// cholesky reads one triangle and differentiates as the function of it (SPEC OPS-5.2), on any input
// whose triangle defines a positive-definite matrix: the samples below are checked as they are
// (without_domain_map), tangents and all, which is where PyTorch's derivative differs. The last ones
// go through the domain map onto symmetric matrices (OPS-4.2), where PyTorch, JAX and the spec agree,
// so a backend's derivative on the symmetric matrices is checked apart from that difference.
std::vector<OpSample> cholesky_samples(DType f, SampleRng& rng) {
  const Attrs upper{{"upper", true}};
  std::vector<OpSample> out{
      {{spd_matrices(rng, {}, 3, f)}, {}, "3x3"},
      {{spd_matrices(rng, {}, 3, f)}, upper, "upper, 3x3"},
      {{spd_matrices(rng, {2}, 3, f)}, {}, "batched"},
      {{spd_matrices(rng, {2, 2}, 4, f)}, upper, "upper, batched 4x4"},
      {{spd_matrices(rng, {}, 4, f, true)}, {}, "non-contiguous"},
      {{spd_matrices(rng, {}, 3, f, true)}, upper, "upper, non-contiguous"},
      {{spd_matrices(rng, {}, 1, f)}, {}, "1x1"},
      {{spd_matrices(rng, {}, 0, f)}, {}, "0x0"},
      {{spd_matrices(rng, {0}, 3, f)}, upper, "empty batch"},
      {{spd_matrices(rng, {}, 3, f, false, 1e-2)}, {}, "ill-conditioned: graded by 1e-2 (cond about 5e8)"},
      // Only the lower triangle is read: the upper one holds values that would make A indefinite.
      {{from_values({4, -9, 9, 2, 5, -9, 2, 1, 6}, {3, 3}, f)}, {}, "the other triangle is not read"},
      {{from_values({4, 2, 2, -9, 5, 1, 9, -9, 6}, {3, 3}, f)}, upper, "upper, the other triangle is not read"},
  };
  for (OpSample& s : out) s.without_domain_map = true;
  // upper=False spelled out: its own attribute set, so the pr tier checks a mapped sample too.
  out.push_back({{spd_domain_input(rng, {}, 3, f)}, {{"upper", false}}, "on the symmetric matrices (A + Aᵀ)"});
  out.push_back({{spd_domain_input(rng, {2}, 2, f)}, upper, "upper, batched, on the symmetric matrices (A + Aᵀ)"});
  return out;
}

// cholesky's program: the domain map for the samples on it, the bare op for the others.
SampleProgram cholesky_program(const OpSample& sample) {
  SampleProgram p;
  if (sample.without_domain_map) return p;
  map_input_onto_symmetric_matrices(p);
  p.clauses = {"OPS-4.2"};
  return p;
}

std::vector<OpSample> cholesky_ex_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out = cholesky_samples(f, rng);
  out.push_back({{spd_matrices(rng, {}, 3, f)}, {{"check_errors", true}}, "check_errors=True, positive-definite"});
  out.back().without_domain_map = true;
  // A matrix that is not positive-definite has an info and a partial factor (NOTE: [Cholesky
  // factorization]) but no derivative: OPS-SEMANTICS/cholesky_ex/* checks its values, not the
  // sample families, whose AD checks would differentiate it.
  return out;
}

// cholesky_solve and cholesky_inverse take a factor: the dominant matrices above, whose triangles are
// dominant by rows and by columns (|diagonal| >= n + 1 > the n - 1 off-diagonal magnitudes of a row
// or a column, margin 2), so ||T⁻¹||∞ and ||T⁻¹||₁ = ||T⁻ᵀ||∞ are at most 1/2. cholesky_solve is two
// substitutions: Y = T⁻¹·B with error <= 9 eps·||Y||∞ (||Y||∞ <= 1, as for solve_triangular), then
// X = T⁻ᵀ·Y, which carries that error times ||T⁻ᵀ||∞ <= 1/2 and adds its own 9 eps·||X||∞
// (||X||∞ <= 1/2): under 10 eps absolute, stated 32 of the floor 1. cholesky_inverse is M = T⁻¹
// (columns within 9 eps of ||M|| <= 1/2), then Mᵀ·M or M·Mᵀ as an einsum (float32 carried in float64):
// entries <= 1/4 within about 2·9·(1/2)·eps + n·u/4: stated 32 of the floor 1 too.
constexpr OracleTolerance kCholeskySolveTolerance{32.0, 32.0, 1.0, 0.0};

std::vector<OpSample> cholesky_solve_samples(DType f, SampleRng& rng) {
  const Attrs upper{{"upper", true}};
  return {
      {{rng.tensor({3, 1}, f), dominant_matrices(rng, {}, 3, f)}, {}, "3x3"},
      {{rng.tensor({3, 1}, f), dominant_matrices(rng, {}, 3, f)}, upper, "upper, 3x3"},
      {{rng.tensor({2, 3, 2}, f), dominant_matrices(rng, {2}, 3, f)}, {}, "batched"},
      {{rng.tensor({2, 4, 2}, f), dominant_matrices(rng, {}, 4, f)}, upper, "upper, factor broadcast over B's batch"},
      {{rng.tensor({3, 1, 2}, f), dominant_matrices(rng, {2, 1}, 1, f)}, {}, "batch dims broadcast, 1x1"},
      {{rng.strided_tensor({4, 2}, f), dominant_matrices(rng, {}, 4, f, true)}, {}, "non-contiguous"},
      {{rng.tensor({0, 2}, f), dominant_matrices(rng, {}, 0, f)}, {}, "0x0 factor"},
      {{rng.tensor({0, 3, 2}, f), dominant_matrices(rng, {0}, 3, f)}, upper, "empty batch"},
  };
}

std::vector<OpSample> cholesky_inverse_samples(DType f, SampleRng& rng) {
  const Attrs upper{{"upper", true}};
  return {
      {{dominant_matrices(rng, {}, 3, f)}, {}, "3x3"},
      {{dominant_matrices(rng, {}, 3, f)}, upper, "upper, 3x3"},
      {{dominant_matrices(rng, {2}, 3, f)}, {}, "batched"},
      {{dominant_matrices(rng, {2}, 4, f, true)}, upper, "upper, non-contiguous"},
      {{dominant_matrices(rng, {}, 1, f)}, {}, "1x1"},
      {{dominant_matrices(rng, {}, 0, f)}, {}, "0x0"},
      {{dominant_matrices(rng, {0}, 3, f)}, {}, "empty batch"},
  };
}

}  // namespace

void register_linalg_triangular_samples(OpSampleRegistry& registry) {
  registry.add({"solve_triangular", solve_triangular_samples, kTriangularSolveTolerance, ""});
  registry.add({"cholesky", cholesky_samples, kCholeskyTolerance, "", cholesky_program});
  registry.add(
      {"cholesky_ex", cholesky_ex_samples, kCholeskyTolerance, "", cholesky_program, failed_factorization_convention});
  registry.add({"cholesky_solve", cholesky_solve_samples, kCholeskySolveTolerance, ""});
  registry.add({"cholesky_inverse", cholesky_inverse_samples, kCholeskySolveTolerance, ""});
}

}  // namespace funcspec::samples
