// Samples of the spectral linalg ops (eigh, eigvalsh), with their programs: the domain map onto
// symmetric matrices and eigh's readout (NOTE: [non-unique results]).
#include <fmt/format.h>

#include <cmath>

#include "conformance/samples/linalg_sample_matrices.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

// Symmetric matrices with a known spectrum and gap: eigenvalue k of an n×n matrix is
// k − (n − 1)/2 plus a jitter in [0, 1/4), so consecutive eigenvalues are at least 3/4 apart and
// |λ| <= n/2 + 1/4 (<= 2.25 for n <= 4). Built as Q·diag(λ)·Qᵀ in float64 with Q a product of n
// Householder reflections of random vectors, mirrored so it is symmetric bit for bit, then rounded.
std::vector<double> gapped_symmetric(SampleRng& rng, std::int64_t n) {
  const auto un = static_cast<std::size_t>(n);
  const std::vector<double> q = random_orthogonal(rng, n);
  std::vector<double> lambda(un);
  for (std::size_t k = 0; k < un; ++k) {
    lambda[k] = static_cast<double>(k) - static_cast<double>(n - 1) / 2.0 + rng.uniform(0.0, 0.25);
  }
  std::vector<double> s(un * un);
  for (std::size_t i = 0; i < un; ++i) {
    for (std::size_t j = i; j < un; ++j) {
      double sum = 0;
      for (std::size_t k = 0; k < un; ++k) sum += q[i * un + k] * lambda[k] * q[j * un + k];
      s[i * un + j] = sum;
      s[j * un + i] = sum;
    }
  }
  return s;
}

// A batch of inputs whose symmetrization A + Aᵀ (eigh's domain map) is a gapped symmetric matrix:
// half of one (exact: a power of two) plus an antisymmetric part in [-1, 1), which the map cancels,
// so the samples are not symmetric themselves and the map is exercised.
Tensor domain_input(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed = false) {
  Shape shape = batch;
  shape.insert(shape.end(), {n, n});
  const std::int64_t count = numel_of(batch);
  std::vector<double> values;
  for (std::int64_t b = 0; b < count; ++b) {
    const std::vector<double> s = gapped_symmetric(rng, n);
    std::vector<double> k(s.size(), 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) {
        const double x = rng.uniform(-1.0, 1.0);
        k[static_cast<std::size_t>(i * n + j)] = x;
        k[static_cast<std::size_t>(j * n + i)] = -x;
      }
    }
    for (std::size_t e = 0; e < s.size(); ++e) values.push_back(s[e] / 2 + k[e]);
  }
  const Tensor a = from_vector(values, shape, dtype);
  if (!transposed) return a;
  // The same matrices stored column by column: the transposed view of their transposes.
  std::vector<double> swapped(values.size());
  const auto un = static_cast<std::size_t>(n);
  for (std::size_t b = 0; b < static_cast<std::size_t>(count); ++b) {
    for (std::size_t i = 0; i < un; ++i) {
      for (std::size_t j = 0; j < un; ++j) swapped[b * un * un + j * un + i] = values[b * un * un + i * un + j];
    }
  }
  const Tensor stored = from_vector(swapped, shape, dtype);
  Strides strides = stored.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(stored, shape, strides, 0);
}

// One n×n input whose lower triangle is one gapped symmetric matrix's and whose strict upper
// triangle is another's: eigh reads a different matrix for each UPLO.
Tensor two_triangles(SampleRng& rng, std::int64_t n, DType dtype) {
  const std::vector<double> lower = gapped_symmetric(rng, n);
  const std::vector<double> upper = gapped_symmetric(rng, n);
  std::vector<double> values(lower.size());
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      const auto e = static_cast<std::size_t>(i * n + j);
      values[e] = j <= i ? lower[e] : upper[e];
    }
  }
  return from_vector(values, {n, n}, dtype);
}

SampleProgram eigh_program(const OpSample& sample) {
  SampleProgram p;
  if (!sample.without_domain_map) map_input_onto_symmetric_matrices(p);
  p.clauses = {"OPS-4.1", "OPS-4.3", "OPS-4.4"};
  if (!sample.without_domain_map) p.clauses.push_back("OPS-4.2");
  // The readout: the eigenvalues and the projectors P_k = v_k v_kᵀ ([..., k, i, j]).
  p.op_results = 2;
  p.readout = {{{"projectors"}, "einsum", {"y1", "y1"}, {{"equation", std::string("...ik,...jk->...kij")}}}};
  p.results = {"y0", "projectors"};
  p.why_complete =
      "with distinct eigenvalues (every sample's are at least 3/4 apart) each eigenvector is determined up to its "
      "sign, and P_k = v_k v_kᵀ determines v_k up to exactly that sign (v_k is P_k's unit column space, and "
      "trace P_k = |v_k|² = 1 checks its norm), so (λ, P) is invariant to the signs and determines (λ, V) up to them; "
      "the projectors are indexed by k, so an eigenvector paired with another's eigenvalue changes them";
  return p;
}

SampleProgram eigvalsh_program(const OpSample& sample) {
  SampleProgram p;
  if (!sample.without_domain_map) map_input_onto_symmetric_matrices(p);
  p.clauses = {"OPS-4.3", "OPS-4.4"};
  if (!sample.without_domain_map) p.clauses.push_back("OPS-4.2");
  return p;
}

std::vector<OpSample> eigh_samples(DType f, SampleRng& rng) {
  const Attrs upper{{"UPLO", std::string("U")}};
  const Attrs lower{{"UPLO", std::string("L")}};
  const Tensor triangles = two_triangles(rng, 3, f);
  std::vector<OpSample> out{
      {{domain_input(rng, {}, 3, f)}, {}, "3x3 with eigenvalue gap 3/4"},
      {{domain_input(rng, {2}, 2, f)}, {}, "batch of 2x2"},
      {{domain_input(rng, {2, 1}, 4, f)}, {}, "batch of 4x4"},
      {{domain_input(rng, {}, 3, f, true)}, {}, "non-contiguous"},
      {{domain_input(rng, {}, 3, f)}, upper, "UPLO=U"},
      {{domain_input(rng, {}, 1, f)}, {}, "1x1"},
      {{domain_input(rng, {}, 0, f)}, {}, "0x0"},
      {{domain_input(rng, {0}, 3, f)}, {}, "empty batch"},
  };
  out.push_back({{triangles}, lower, "lower triangle of a non-symmetric input"});
  out.back().without_domain_map = true;
  out.push_back({{triangles}, upper, "upper triangle of the same input"});
  out.back().without_domain_map = true;
  const std::vector<OpSample> failing{
      {{rng.tensor({2, 3}, f)}, {}, "non-square: shape_mismatch"},
      {{rng.tensor({3}, f)}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({3, 3}, DType::Int64, -5, 5)}, {}, "int64: dtype_not_supported"},
      {{domain_input(rng, {}, 2, f)}, {{"UPLO", std::string("X")}}, "UPLO=X: invalid_argument"},
  };
  for (OpSample s : failing) {
    s.without_domain_map = true;  // the op's own error, not the map's
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

// eigh and eigvalsh on the gapped matrices above (n <= 4, |λ| <= 2.25, gaps >= 3/4, ||S||_F <= 4.5).
// The cyclic Jacobi algorithm is backward stable: the computed pair is exact for S + E with
// ||E||_2 <= r·γ_6·||S||_F after r rotations (each an orthogonal similarity rounded as a plane
// rotation, Higham §19.6), and for n <= 4 it needs at most 6 sweeps of 6 rotations in float64 and
// float32 alike: ||E|| <= 36·6u·4.5 ≈ 486 eps. Eigenvalues move by at most ||E|| (Weyl); each
// eigenvector by an angle of at most ||E||/gap (Davis–Kahan), so a projector by at most
// 2·486/0.75 ≈ 1300 eps, with the domain map's one rounding (u·|A + Aᵀ|) and the readout's einsum
// (n terms of two factors, 2u) below 20 eps more. Stated 1536 eps of max(|value|, 1): a wrong
// eigenvector (another sign pairing, a permutation) moves a projector by O(1).
constexpr OracleTolerance kSpectralTolerance{1536.0, 1536.0, 1.0, 0.0};

void register_linalg_spectral_samples(OpSampleRegistry& registry) {
  registry.add(
      {"eigh", [](DType f, SampleRng& rng) { return eigh_samples(f, rng); }, kSpectralTolerance, "", eigh_program});
  registry.add({"eigvalsh", [](DType f, SampleRng& rng) { return eigh_samples(f, rng); }, kSpectralTolerance, "",
                eigvalsh_program});
}

}  // namespace funcspec::samples
