// Samples of pinv, pinv_with_tolerances, lstsq and matrix_rank: matrices with a stated spectrum, so
// that every singular value lies far from the threshold that keeps or drops it, in every dtype.
//
// The threshold max(atol, rtol·σ_max) is compared with the singular values computed in the call's
// dtype, and the default rtol is eps·max(m, n) of that dtype: the oracle dtype's is about 1e-49, so a
// singular value of the order of float32's rounding (about 1e-7, which rounding the sample to float32
// gives any matrix meant to be singular) is dropped by a float32 call and kept, inverted, by the
// oracle. So a rank-deficient sample either gives a tolerance far above the rounding (atol or rtol of
// 1e-2 and more, against singular values of 1e-1 and more that are kept) or is singular exactly in
// every dtype (small integers, a zero row: the factorizations then find a singular value of the
// order of eps·||A|| of their own dtype, which its default threshold drops).
#include <fmt/format.h>

#include <cmath>

#include "conformance/samples/linalg_derivative_conventions.h"
#include "conformance/samples/linalg_sample_matrices.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

// m×n matrices U·diag(σ)·Vᵀ (σ: min(m, n) values, zeros allowed) with random orthogonal U and V,
// computed in float64 and rounded once to `dtype`; `transposed` stores each matrix column by column
// (a non-contiguous view with the same values).
Tensor with_singular_values(SampleRng& rng, const Shape& batch, std::int64_t m, std::int64_t n,
                            const std::vector<double>& sigma, DType dtype, bool transposed = false) {
  const auto um = static_cast<std::size_t>(m);
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> values;
  for (std::int64_t b = 0; b < numel_of(batch); ++b) {
    const std::vector<double> u = random_orthogonal(rng, m);
    const std::vector<double> v = random_orthogonal(rng, n);
    std::vector<double> a(um * un, 0.0);
    for (std::size_t i = 0; i < um; ++i) {
      for (std::size_t j = 0; j < un; ++j) {
        for (std::size_t k = 0; k < sigma.size(); ++k) a[i * un + j] += u[i * um + k] * sigma[k] * v[j * un + k];
      }
    }
    if (transposed) {
      for (std::size_t j = 0; j < un; ++j) {
        for (std::size_t i = 0; i < um; ++i) values.push_back(a[i * un + j]);
      }
    } else {
      values.insert(values.end(), a.begin(), a.end());
    }
  }
  Shape shape = batch;
  shape.insert(shape.end(),
               transposed ? std::initializer_list<std::int64_t>{n, m} : std::initializer_list<std::int64_t>{m, n});
  const Tensor stored = from_vector(values, shape, dtype);
  if (!transposed) return stored;
  Shape logical = batch;
  logical.insert(logical.end(), {m, n});
  Strides strides = stored.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(stored, logical, strides, 0);
}

// Inputs whose symmetrization A + Aᵀ (the hermitian samples' domain map) has eigenvalues `lambda`:
// half of Q·diag(λ)·Qᵀ plus an antisymmetric part, which the map cancels (so A itself is not
// symmetric and the map is exercised). The halves and the antisymmetric part are exact multiples
// of 1/64 where `exact` (λ and Q then come from small integers: see exactly_singular_symmetric).
Tensor hermitian_input(SampleRng& rng, const Shape& batch, std::int64_t n, const std::vector<double>& lambda,
                       DType dtype) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> values;
  for (std::int64_t b = 0; b < numel_of(batch); ++b) {
    const std::vector<double> q = random_orthogonal(rng, n);
    std::vector<double> s(un * un, 0.0);
    for (std::size_t i = 0; i < un; ++i) {
      for (std::size_t j = i; j < un; ++j) {
        double sum = 0;
        for (std::size_t k = 0; k < un; ++k) sum += q[i * un + k] * lambda[k] * q[j * un + k];
        s[i * un + j] = sum;
        s[j * un + i] = sum;
      }
    }
    std::vector<double> antisymmetric(un * un, 0.0);
    for (std::size_t i = 0; i < un; ++i) {
      for (std::size_t j = i + 1; j < un; ++j) {
        const double x = std::round(rng.uniform(-64.0, 64.0)) / 64.0;
        antisymmetric[i * un + j] = x;
        antisymmetric[j * un + i] = -x;
      }
    }
    for (std::size_t e = 0; e < s.size(); ++e) values.push_back(s[e] / 2 + antisymmetric[e]);
  }
  Shape shape = batch;
  shape.insert(shape.end(), {n, n});
  return from_vector(values, shape, dtype);
}

Tensor scalar_tolerance(double value, DType dtype) { return from_values({value}, {}, dtype); }

const Attrs kHermitian{{"hermitian", true}};

// Where a matrix is rank-deficient the derivative is the constant-rank convention of SPEC OPS-9.3,
// whose second derivative is not symmetric: such samples sit at the op's special point.
OpSample rank_deficient(OpSample sample) {
  sample.special_point = "rank-deficient";
  return sample;
}

// pinv's and matrix_rank's samples share their matrices: inputs (A, atol, rtol), absent tolerances
// undefined. The thresholds of these drop only singular values that are exactly 0 (but for rounding),
// where the constant-rank derivative is the derivative of the function (SPEC OPS-9.3).
std::vector<OpSample> spectral_threshold_samples(DType f, SampleRng& rng) {
  const Tensor none;
  std::vector<OpSample> out{
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.25}, f), none, none}, {}, "tall 3x2, full rank"},
      {{with_singular_values(rng, {}, 2, 3, {1.75, 1.0}, f), none, none}, {}, "wide 2x3, full rank"},
      {{with_singular_values(rng, {}, 3, 3, {2.0, 1.5, 1.0}, f), none, none}, {}, "3x3, full rank"},
      {{with_singular_values(rng, {2}, 2, 2, {1.5, 1.0}, f), none, none}, {}, "batch of 2x2"},
      {{with_singular_values(rng, {2, 1}, 4, 3, {2.0, 1.5, 1.0}, f), none, none}, {}, "batch of 4x3"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f, true), none, none}, {}, "non-contiguous 3x2"},
      rank_deficient({{with_singular_values(rng, {}, 3, 3, {2.0, 1.0, 0.0}, f), scalar_tolerance(0.5, f), none},
                      {},
                      "rank 2 of 3 under atol=0.5"}),
      rank_deficient({{with_singular_values(rng, {}, 2, 3, {2.0, 0.0}, f), none, scalar_tolerance(1e-2, f)},
                      {},
                      "rank 1 of 2 under rtol=0.01"}),
      {{with_singular_values(rng, {}, 3, 2, {2.0, 0.75}, f), scalar_tolerance(0.1, f), scalar_tolerance(0.25, f)},
       {},
       "atol=0.1, rtol=0.25 keep sigma=0.75"},
      rank_deficient({{from_values({1, 2, 2, 4}, {2, 2}, f), scalar_tolerance(0.0, f), none},
                      {},
                      "atol=0 keeps the default rtol"}),
      rank_deficient({{with_singular_values(rng, {}, 3, 3, {2.0, 1.0, 0.0}, f), from_values({0.25, 0.5}, {2}, f), none},
                      {},
                      "atol of shape [2] broadcasts with A's batch"}),
      // Singular exactly: rank 1 in small integers, and a zero row.
      rank_deficient({{from_values({1, 2, 2, 4, 3, 6}, {3, 2}, f), none, none}, {}, "rank 1, exact"}),
      rank_deficient({{from_values({1.5, -2, 0.5, 0, 0, 0}, {2, 3}, f), none, none}, {}, "zero row"}),
      rank_deficient({{from_values({0, 0, 0, 0}, {2, 2}, f), none, none}, {}, "zero matrix"}),
      {{from_values({-0.75}, {1, 1}, f), none, none}, {}, "1x1"},
      {{rng.tensor({0, 0}, f), none, none}, {}, "0x0"},
      {{rng.tensor({3, 0}, f), none, none}, {}, "3x0"},
      {{rng.tensor({0, 2, 3}, f), none, none}, {}, "empty batch"},
      {{hermitian_input(rng, {}, 3, {-2.0, 1.0, 1.5}, f), none, none}, kHermitian, "hermitian 3x3, indefinite"},
      {{hermitian_input(rng, {2}, 2, {1.0, -1.75}, f), none, none}, kHermitian, "hermitian batch of 2x2"},
      rank_deficient({{hermitian_input(rng, {}, 3, {2.0, -1.0, 0.0}, f), scalar_tolerance(0.25, f), none},
                      kHermitian,
                      "hermitian, rank 2 of 3 under atol=0.25"}),
      rank_deficient({{hermitian_input(rng, {}, 3, {-2.0, 1.5, 0.0}, f), none, scalar_tolerance(0.125, f)},
                      kHermitian,
                      "hermitian, rank 2 of 3 under rtol=0.125"}),
      // (A + Aᵀ) of it is [[2, 4, 0], [4, 8, 0], [0, 0, -2]]: rank 2, exactly, and still after the
      // vmap-of-grad family scales A by 1.01 (the second row stays twice the first, bit for bit).
      rank_deficient(
          {{from_values({1, 2, 0, 2, 4, 0, 0, 0, -1}, {3, 3}, f), none, none}, kHermitian, "hermitian, rank 2, exact"}),
  };
  // Off the symmetric matrices: the lower triangle is [[2, 1, 0], [1, 3, 1], [0, 1, 2]]'s (eigenvalues
  // 1, 2, 4), the upper one is never read (SPEC OPS-9.2).
  out.push_back({{from_values({2, 9, -7, 1, 3, 5, 0, 1, 2}, {3, 3}, f), none, none},
                 kHermitian,
                 "hermitian reads the lower triangle of a non-symmetric input"});
  out.back().without_domain_map = true;
  const std::vector<OpSample> failing{
      {{rng.tensor({3, 3}, DType::Int64, -5, 5), none, none}, {}, "int64: dtype_not_supported"},
      {{rng.tensor({3}, f), none, none}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({2, 3}, f), none, none}, kHermitian, "hermitian non-square: shape_mismatch"},
      {{rng.tensor({2, 2, 2}, f), from_values({0.1, 0.2, 0.3}, {3}, f), none},
       {},
       "atol does not broadcast: shape_mismatch"},
  };
  for (OpSample s : failing) {
    s.without_domain_map = true;  // the op's own errors, not the map's
    out.push_back(std::move(s));
  }
  return out;
}

bool hermitian(const OpSample& sample) { return sample.attrs.has("hermitian") && sample.attrs.get_bool("hermitian"); }

// matrix_rank, which has no derivative, also counts under thresholds that drop nonzero singular
// values, far from each (for pinv the constant-rank derivative is not the function's derivative
// there, SPEC OPS-9.3, and the case files check its values and derivatives).
std::vector<OpSample> matrix_rank_samples(DType f, SampleRng& rng) {
  const Tensor none;
  std::vector<OpSample> out = spectral_threshold_samples(f, rng);
  const std::vector<OpSample> dropping{
      {{with_singular_values(rng, {}, 2, 3, {2.0, 1e-3}, f), none, scalar_tolerance(1e-2, f)},
       {},
       "rtol=0.01 drops sigma=1e-3"},
      {{with_singular_values(rng, {}, 2, 2, {2.0, 0.5}, f), none, scalar_tolerance(0.3, f)},
       {},
       "rtol=0.3 is relative: 0.3*2 drops sigma=0.5"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 0.5}, f), scalar_tolerance(0.1, f), scalar_tolerance(0.3, f)},
       {},
       "atol=0.1, rtol=0.3: rtol*sigma_max decides"},
      {{with_singular_values(rng, {}, 3, 3, {2.0, 1.0, 0.5}, f), from_values({0.1, 1.25}, {2}, f), none},
       {},
       "atol of shape [2]: ranks 3 and 1"},
      {{hermitian_input(rng, {}, 3, {-2.0, 1.5, 0.2}, f), none, scalar_tolerance(0.5, f)},
       kHermitian,
       "hermitian, rtol=0.5 drops |lambda|=0.2"},
  };
  out.insert(out.end(), dropping.begin(), dropping.end());
  return out;
}

// The hermitian samples are checked through the map A ↦ A + Aᵀ (SPEC OPS-4.2, OPS-9.2): with
// hermitian=True the ops read the symmetric matrix of A's lower triangle, and on symmetric matrices
// (and tangents) every library computes and differentiates the same function. The program also
// names the clauses every case of the op checks.
SampleProgram threshold_program(const OpSample& sample, std::vector<std::string> clauses) {
  SampleProgram p;
  p.clauses = std::move(clauses);
  if (!hermitian(sample)) return p;
  p.clauses.push_back("OPS-9.2");
  if (sample.without_domain_map) return p;
  p.domain = {{{"xt"}, "transpose", {"x0"}, {{"dim0", std::int64_t{-2}}, {"dim1", std::int64_t{-1}}}},
              {{"xs"}, "add", {"x0", "xt"}, {}}};
  p.mapped_inputs = {{0, "xs"}};
  return p;
}

SampleProgram pinv_program(const OpSample& sample) { return threshold_program(sample, {"OPS-9.1", "OPS-9.3"}); }
SampleProgram matrix_rank_program(const OpSample& sample) { return threshold_program(sample, {"OPS-9.5"}); }
SampleProgram lstsq_program(const OpSample& sample) { return threshold_program(sample, {"OPS-9.3", "OPS-9.4"}); }

// pinv_with_tolerances takes both tolerances: pinv's samples with the defaults filled in.
std::vector<OpSample> explicit_tolerance_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (OpSample s : spectral_threshold_samples(f, rng)) {
    if (s.inputs[0].dtype() != f || s.inputs[0].dim() < 2) continue;
    if (!s.inputs[1].defined()) s.inputs[1] = scalar_tolerance(0.0, f);
    if (!s.inputs[2].defined()) s.inputs[2] = scalar_tolerance(1e-4, f);
    s.label += ", rtol 1e-4 unless given";
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<OpSample> lstsq_samples(DType f, SampleRng& rng) {
  const Attrs none;
  auto driver = [](const char* name) { return Attrs{{"driver", std::string(name)}}; };
  // (B of another dtype than A raises dtype_not_supported: the unit tests check it, since the
  // oracle, which runs every floating input in one dtype, cannot.)
  std::vector<OpSample> out{
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.25}, f), rng.tensor({3, 1}, f)}, none, "tall 3x2, full rank"},
      {{with_singular_values(rng, {}, 2, 3, {1.75, 1.0}, f), rng.tensor({2, 2}, f)}, none, "wide 2x3: least norm"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3}, f)}, none, "B a vector"},
      {{with_singular_values(rng, {2}, 3, 2, {2.0, 1.0}, f), rng.tensor({1, 3, 2}, f)}, none, "batch dims broadcast"},
      {{with_singular_values(rng, {2}, 3, 2, {2.0, 1.0}, f), rng.tensor({2, 3}, f)}, none, "batch of vectors"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f, true), rng.strided_tensor({3, 2}, f)},
       none,
       "non-contiguous"},
      rank_deficient(
          {{from_values({1, 2, 2, 4, 3, 6}, {3, 2}, f), rng.tensor({3, 1}, f)}, none, "rank 1, exact: least norm"}),
      rank_deficient({{with_singular_values(rng, {}, 3, 2, {2.0, 0.0}, f), rng.tensor({3, 1}, f)},
                      {{"rcond", 1e-2}},
                      "rank 1 of 2 under rcond=0.01"}),
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3, 1}, f)}, {{"rcond", -1.0}}, "rcond=-1"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3, 1}, f)}, driver("gels"), "driver=gels"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3, 1}, f)}, driver("gelsy"), "driver=gelsy"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3, 1}, f)}, driver("gelsd"), "driver=gelsd"},
      {{with_singular_values(rng, {}, 3, 2, {2.0, 1.0}, f), rng.tensor({3, 1}, f)}, driver("gelss"), "driver=gelss"},
      {{from_values({-0.75}, {1, 1}, f), rng.tensor({1, 2}, f)}, none, "1x1"},
      {{rng.tensor({0, 2}, f), rng.tensor({0, 1}, f)}, none, "no equations: zero solution"},
      {{rng.tensor({0, 3, 2}, f), rng.tensor({0, 3, 1}, f)}, none, "empty batch"},
      {{rng.tensor({3, 2}, f), rng.tensor({2, 1}, f)}, none, "rows differ: shape_mismatch"},
      {{rng.tensor({3, 2}, f), rng.tensor({2, 3, 1}, f)}, none, "B with more dims than A: shape_mismatch"},
      {{rng.tensor({3, 2}, f), rng.tensor({3, 1}, f)}, driver("gelsx"), "driver=gelsx: invalid_argument"},
      {{rng.tensor({3, 2}, DType::Int64, -5, 5), rng.tensor({3, 1}, DType::Int64, -5, 5)},
       none,
       "int64: dtype_not_supported"},
  };
  return out;
}

}  // namespace

// Tolerances. Every matrix that is not exact has its kept singular values (|eigenvalues|) in
// [0.5, 2] and m, n <= 4, so ||P||₂ <= 2 and
// ||A||_F <= 2.7; the exact ones (rank 1 of norm √70, the zero row of norm 2.55) have ||P||₂ < 1/2.
// svd's one-sided Jacobi (and eigh's Jacobi) is backward stable: the computed factors are exact for
// A + E with ||E||₂ <= r·γ_{6m}·||A||_F after r <= 36 rotations (the bound in
// linalg_svd_samples.cpp), about 1200 eps here. The dropped singular values stay dropped and the
// kept ones kept (the thresholds are far from both), so the result is the pseudo-inverse of the
// same rank of A + E, which moves by at most √2·||P||₂·||P̃||₂·||E||₂ <= 5.7·1200 eps (Wedin), plus
// the final einsum's rounding (k <= 3 terms, 2u of |P| each). Stated 8192 eps of max(|value|, 1).
// lstsq multiplies by B (entries in [-2, 2), ||B||₂ <= 3.5): stated 8192 eps of max(|value|, 4).
// A wrong rank moves an entry by at least 1/2 (a dropped or kept 1/σ with σ <= 2).
constexpr OracleTolerance kPinvTolerance{8192.0, 8192.0, 1.0, 0.0};
constexpr OracleTolerance kLstsqTolerance{8192.0, 8192.0, 4.0, 0.0};
// matrix_rank's result is an integer: exact.
constexpr OracleTolerance kRankTolerance{0.5, 0.5, 0.0, 0.0};

void register_linalg_pinv_samples(OpSampleRegistry& registry) {
  registry.add({"pinv", spectral_threshold_samples, kPinvTolerance, "", pinv_program, pinv_threshold_convention});
  registry.add({"pinv_with_tolerances", explicit_tolerance_samples, kPinvTolerance, "", pinv_program});
  registry.add({"matrix_rank", matrix_rank_samples, kRankTolerance, "", matrix_rank_program});
  registry.add({"lstsq", lstsq_samples, kLstsqTolerance, "", lstsq_program, lstsq_threshold_convention});
}

}  // namespace funcspec::samples
