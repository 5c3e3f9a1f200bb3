// Samples of qr, with its readout (NOTE: [non-unique results]), and of householder_product.
#include <fmt/format.h>

#include <cmath>

#include "conformance/samples/op_samples.h"
#include "reference/backends/common/linalg_qr.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
// Helpers in a namespace of their own: the unity build compiles this file with linalg_samples.cpp.
namespace linalg_qr_samples {
namespace {

// m×n matrices of full rank k = min(m, n) with a wide margin: off-diagonal entries in [-1/2, 1/2),
// the leading diagonal's entries ±[2, 3). With E the off-diagonal part, ||E||₂ <= √(||E||₁·||E||∞)
// <= (max(m, n) − 1)/2 <= 3/2 for m, n <= 4, so the k-th singular value is at least 2 − 3/2 = 1/2
// and the largest at most 3 + 3/2: κ <= 9. Every |R_jj| lies between the extreme singular values
// of A's leading columns, so |R_jj| >= 1/2: the sign of R's diagonal (the readout's sign) is far from
// flipping under a finite-difference step. With `transposed` the values are laid out column-major.
std::vector<double> full_rank_values(SampleRng& rng, std::int64_t count, std::int64_t m, std::int64_t n) {
  std::vector<double> values(static_cast<std::size_t>(count * m * n));
  for (std::int64_t b = 0; b < count; ++b) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        values[static_cast<std::size_t>((b * m + i) * n + j)] =
            i == j ? ((rng.next_u64() & 1u) ? 1.0 : -1.0) * rng.uniform(2.0, 3.0) : rng.uniform(-0.5, 0.5);
      }
    }
  }
  return values;
}

// `values` (count matrices m×n, row-major) as a tensor; with `transposed`, the transposed view of
// their transposes stored row-major (a non-contiguous input with the same values).
Tensor matrices(const std::vector<double>& values, const Shape& batch, std::int64_t m, std::int64_t n, DType dtype,
                bool transposed = false) {
  Shape shape = batch;
  shape.insert(shape.end(), {m, n});
  if (!transposed) return from_vector(values, shape, dtype);
  std::vector<double> swapped(values.size());
  const std::int64_t count = numel_of(batch);
  for (std::int64_t b = 0; b < count; ++b) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        swapped[static_cast<std::size_t>((b * n + j) * m + i)] = values[static_cast<std::size_t>((b * m + i) * n + j)];
      }
    }
  }
  Shape stored_shape = batch;
  stored_shape.insert(stored_shape.end(), {n, m});
  const Tensor stored = from_vector(swapped, stored_shape, dtype);
  Strides strides = stored.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(stored, shape, strides, 0);
}

Tensor full_rank(SampleRng& rng, const Shape& batch, std::int64_t m, std::int64_t n, DType dtype,
                 bool transposed = false) {
  return matrices(full_rank_values(rng, numel_of(batch), m, n), batch, m, n, dtype, transposed);
}

// A 3×3 matrix whose second column is the first plus 1/16 of a random vector in [-1, 1)³ whose part
// orthogonal to the first column has norm >= 1/4 (drawn again otherwise): R_11 is 1/16 of that part's
// norm, so |R_11| >= 1/64 and κ(A) <= ||A||₂/|R_11| <= 4.5·64 ≈ 290, and Q's second column is
// 1/|R_11| times as sensitive to rounding as the first.
Tensor nearly_dependent(SampleRng& rng, DType dtype) {
  std::vector<double> a = full_rank_values(rng, 1, 3, 3);
  for (;;) {
    double off[3];
    for (double& x : off) x = rng.uniform(-1.0, 1.0);
    // The part of `off` orthogonal to column 0.
    double dot = 0, norm2 = 0;
    for (int i = 0; i < 3; ++i) {
      dot += off[i] * a[static_cast<std::size_t>(i * 3)];
      norm2 += a[static_cast<std::size_t>(i * 3)] * a[static_cast<std::size_t>(i * 3)];
    }
    double orthogonal2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double r = off[i] - dot / norm2 * a[static_cast<std::size_t>(i * 3)];
      orthogonal2 += r * r;
    }
    if (orthogonal2 < 1.0 / 16) continue;
    for (int i = 0; i < 3; ++i) {
      a[static_cast<std::size_t>(i * 3 + 1)] = a[static_cast<std::size_t>(i * 3)] + off[i] / 16;
    }
    return from_vector(a, {3, 3}, dtype);
  }
}

Attrs mode(const char* name) { return {{"mode", std::string(name)}}; }

// The readout of qr (SPEC OPS-10.2): with s = sign(diag(R)) (k entries), Q's first k columns and R's
// first k rows each multiplied by s (column j of Q and row j of R by s_j), which is the factorization
// with R's diagonal positive; in mode 'complete' with m > n also QᵀQ (the extra columns must be
// orthonormal and orthogonal to the first k, and are otherwise free) and R's rows past k as they are
// (zero); in mode 'r' the empty Q as it is.
SampleProgram qr_program(const OpSample& sample) {
  SampleProgram p;
  if (sample.without_domain_map) return p;  // the op's own errors
  const Tensor& a = sample.inputs.at(0);
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  const std::int64_t k = std::min(m, n);
  const std::string mode_name = sample.attrs.has("mode") ? sample.attrs.get_string("mode") : "reduced";
  const bool complete_tall = mode_name == "complete" && m > n;
  p.op_results = 2;
  p.clauses = {"OPS-4.1", "OPS-10.1", "OPS-10.2"};
  const Attrs last_two{{"offset", std::int64_t{0}}, {"dim1", std::int64_t{-2}}, {"dim2", std::int64_t{-1}}};
  p.readout = {{{"d"}, "diagonal", {"y1"}, last_two},
               {{"s"}, "sign", {"d"}, {}},
               {{"s_row"}, "unsqueeze", {"s"}, {{"dim", std::int64_t{-2}}}},
               {{"s_col"}, "unsqueeze", {"s"}, {{"dim", std::int64_t{-1}}}}};
  const std::string q_lead = complete_tall ? "q_lead" : "y0";
  const std::string r_lead = complete_tall ? "r_lead" : "y1";
  if (complete_tall) {
    p.readout.push_back(
        {{"q_lead"}, "narrow", {"y0"}, {{"dim", std::int64_t{-1}}, {"start", std::int64_t{0}}, {"length", k}}});
    p.readout.push_back(
        {{"r_lead"}, "narrow", {"y1"}, {{"dim", std::int64_t{-2}}, {"start", std::int64_t{0}}, {"length", k}}});
    p.readout.push_back({{"r_rest"}, "narrow", {"y1"}, {{"dim", std::int64_t{-2}}, {"start", k}, {"length", m - k}}});
    p.readout.push_back({{"gram"}, "einsum", {"y0", "y0"}, {{"equation", std::string("...ij,...ik->...jk")}}});
  }
  p.readout.push_back({{"r_signed"}, "mul", {r_lead, "s_col"}, {}});
  if (mode_name == "r") {
    p.results = {"y0", "r_signed"};
  } else {
    p.readout.push_back({{"q_signed"}, "mul", {q_lead, "s_row"}, {}});
    p.results = complete_tall ? std::vector<std::string>{"q_signed", "gram", "r_signed", "r_rest"}
                              : std::vector<std::string>{"q_signed", "r_signed"};
  }
  p.why_complete =
      "every sample's A has full rank k = min(m, n) with |R_jj| >= 1/2, so A's leading k columns have one QR "
      "factorization with R's diagonal positive, and every other is it with column j of Q and row j of R multiplied "
      "by one sign s_j; multiplying them by sign(R_jj) maps each to that one (invariant), and it fixes Q's first k "
      "columns and R's first k rows elementwise (complete: a wrong Q or R, or a sign applied to Q's column alone, "
      "changes them); Q's columns past k (mode 'complete', m > n) are free up to an orthonormal basis of the "
      "complement of the first k, which QᵀQ = I states exactly, and R's rows past k are zero";
  return p;
}

std::vector<OpSample> qr_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out{
      {{full_rank(rng, {}, 3, 3, f)}, {}, "3x3"},
      {{full_rank(rng, {}, 4, 3, f)}, {}, "4x3, more rows"},
      {{full_rank(rng, {}, 2, 4, f)}, {}, "2x4, more columns"},
      {{full_rank(rng, {2}, 3, 2, f)}, {}, "batch of 3x2"},
      {{full_rank(rng, {}, 3, 3, f, true)}, {}, "non-contiguous"},
      {{nearly_dependent(rng, f)}, {}, "ill-conditioned, nearly dependent columns"},
      {{full_rank(rng, {}, 1, 1, f)}, {}, "1x1"},
      {{full_rank(rng, {}, 0, 0, f)}, {}, "0x0"},
      {{full_rank(rng, {0}, 3, 2, f)}, {}, "empty batch"},
      {{full_rank(rng, {}, 2, 3, f)}, mode("complete"), "complete, 2x3 (as reduced)"},
      {{full_rank(rng, {}, 3, 3, f)}, mode("complete"), "complete, 3x3"},
  };
  // Mode 'complete' with more rows than columns, and mode 'r': values only (SPEC OPS-10.3).
  const std::vector<OpSample> not_differentiable{
      {{full_rank(rng, {}, 4, 2, f)}, mode("complete"), "complete, 4x2"},
      {{full_rank(rng, {2}, 3, 2, f, true)}, mode("complete"), "complete, batch of 3x2, non-contiguous"},
      {{full_rank(rng, {}, 3, 0, f)}, mode("complete"), "complete, 3x0: Q = I"},
      {{full_rank(rng, {}, 4, 3, f)}, mode("r"), "r, 4x3"},
      {{full_rank(rng, {2}, 2, 3, f)}, mode("r"), "r, batch of 2x3"},
      {{full_rank(rng, {0}, 2, 2, f)}, mode("r"), "r, empty batch"},
  };
  for (OpSample s : not_differentiable) {
    s.derivative_error = ErrorKind::InvalidArgument;
    out.push_back(std::move(s));
  }
  const std::vector<OpSample> failing{
      {{rng.tensor({3}, f)}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({3, 3}, DType::Int64, -5, 5)}, {}, "int64: dtype_not_supported"},
      {{full_rank(rng, {}, 2, 2, f)}, mode("full"), "mode=full: invalid_argument"},
  };
  for (OpSample s : failing) {
    s.without_domain_map = true;  // the op's own error, not the readout's
    out.push_back(std::move(s));
  }
  return out;
}

// geqrf's output for a full-rank m×n matrix: the packed reflectors and R (NOTE: [Householder QR]),
// computed in float64 and rounded to `dtype`, with its tau; householder_product of the pair is then
// (up to the rounding) the Q of that matrix's QR.
std::pair<Tensor, Tensor> geqrf_pair(SampleRng& rng, std::int64_t m, std::int64_t n, DType dtype) {
  std::vector<double> a = full_rank_values(rng, 1, m, n);
  std::vector<double> tau(static_cast<std::size_t>(std::min(m, n)));
  common::householder_qr_in_place(a.data(), m, n, tau.data());
  return {from_vector(a, {m, n}, dtype), from_vector(tau, {std::min(m, n)}, dtype)};
}

// A 3×2 input with tau = (2/||v_0||², 0): H_0 is the reflection through the hyperplane orthogonal
// to v_0 = (1, a_10, a_20), and H_1 the identity.
std::pair<Tensor, Tensor> reflection_and_identity(SampleRng& rng, DType dtype) {
  const std::vector<double> a = full_rank_values(rng, 1, 3, 2);
  const double norm2 = 1 + a[2] * a[2] + a[4] * a[4];
  return {from_vector(a, {3, 2}, dtype), from_vector(std::vector<double>{2 / norm2, 0.0}, {2}, dtype)};
}

// A and tau of different dtypes are a case file (conformance/cases/ops/householder_product--*.json):
// the oracle runs a sample with every floating input in its own dtype, where they agree.
std::vector<OpSample> householder_product_samples(DType f, SampleRng& rng) {
  const auto [geqrf_a, geqrf_tau] = geqrf_pair(rng, 3, 3, f);
  const auto [tall_a, tall_tau] = geqrf_pair(rng, 4, 2, f);
  const auto [reflection_a, reflection_tau] = reflection_and_identity(rng, f);
  return {
      {{geqrf_a, geqrf_tau}, {}, "3x3 from geqrf: Q"},
      {{tall_a, tall_tau}, {}, "4x2 from geqrf: reduced Q"},
      {{reflection_a, reflection_tau}, {}, "tau = (2/|v|^2, 0): a reflection and the identity"},
      {{rng.tensor({3, 2}, f), rng.tensor({2}, f, -1.5, 1.5)}, {}, "3x2, arbitrary tau"},
      {{rng.tensor({2, 3, 2}, f), rng.tensor({2, 1}, f, -1.5, 1.5)}, {}, "batch of 3x2, one reflector"},
      {{rng.strided_tensor({3, 3}, f), rng.tensor({2}, f, -1.5, 1.5)}, {}, "non-contiguous"},
      {{rng.tensor({3, 2}, f), rng.tensor({0}, f)}, {}, "no reflector: I"},
      {{rng.tensor({1, 1}, f), rng.tensor({1}, f, -1.5, 1.5)}, {}, "1x1"},
      {{rng.tensor({0, 0}, f), rng.tensor({0}, f)}, {}, "0x0"},
      {{rng.tensor({0, 3, 2}, f), rng.tensor({0, 2}, f)}, {}, "empty batch"},
      {{rng.tensor({2, 3}, f), rng.tensor({2}, f)}, {}, "fewer rows than columns: shape_mismatch"},
      {{rng.tensor({3, 2}, f), rng.tensor({3}, f)}, {}, "more reflectors than columns: shape_mismatch"},
      {{rng.tensor({2, 3, 2}, f), rng.tensor({3, 2}, f)}, {}, "tau's batch dims differ: shape_mismatch"},
      {{rng.tensor({3, 2}, f), rng.tensor({1, 2}, f)}, {}, "tau of A's rank: shape_mismatch"},
      {{rng.tensor({3}, f), rng.tensor({}, f)}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({3, 2}, DType::Int64, -3, 3), rng.tensor({2}, DType::Int64, -3, 3)},
       {},
       "int64: dtype_not_supported"},
  };
}

}  // namespace
}  // namespace linalg_qr_samples

// qr on the matrices above (m, n <= 4, κ <= 9, |R_jj| >= 1/2, entries <= 3 in magnitude), and one of
// κ <= 290. Householder QR is backward stable column by column: the computed R is the exact R of
// A + ΔA and the computed Q within γ_cmn of orthonormal, |Δa_j| <= γ_cmn·|a_j| (Higham, Thm 19.4),
// γ_cmn about 2mn·u = 32u for m, n <= 4. The sign-normalized factors move by at most about
// κ·(that relative perturbation) (Sun's perturbation bounds for QR: ||ΔR||/||R|| and ||ΔQ|| <=
// c·κ·||ΔA||/||A||, c <= 2), i.e. 2·9·32 ≈ 580 eps of the entries' scale (R's entries scale with
// A's: input_scale 1; Q's with 1: absolute_floor 1); the nearly dependent sample's κ <= 290 gives
// 2·290·32 ≈ 18600 eps. Stated 2^15 eps, against which a wrong factor (a sign applied to Q's column
// without R's row, another orthonormal basis) misses by O(1). Measured at the default seed and its
// two redraws: at most 8 eps (float32) and 3 eps (float64) of the floor, on the nearly dependent
// sample.
constexpr OracleTolerance kQrTolerance{32768.0, 32768.0, 1.0, 1.0};

// householder_product: each step X ← X − τ v (vᵀX) rounds every entry about (m + 2) times and
// multiplies the error so far by at most ||H_i||₂ <= 1 + |τ|·||v||². The samples with arbitrary τ
// (|τ| < 1.5, |v| entries < 2, m <= 3, k <= 2) have ||v||² < 9, so the error is at most
// k·(m + 2)·u·(1 + 1.5·9)² ≈ 2100u ≈ 1050 eps absolute; geqrf's reflectors and the true reflection
// are orthogonal (||H_i|| = 1), with errors of a few eps. Stated 2048 eps of max(|value|, 1).
// Measured at the default seed and its two redraws: at most 4 eps.
constexpr OracleTolerance kHouseholderProductTolerance{2048.0, 2048.0, 1.0, 0.0};

void register_linalg_qr_samples(OpSampleRegistry& registry) {
  using namespace linalg_qr_samples;
  registry.add({"qr", [](DType f, SampleRng& rng) { return qr_samples(f, rng); }, kQrTolerance, "", qr_program});
  registry.add({"householder_product", [](DType f, SampleRng& rng) { return householder_product_samples(f, rng); },
                kHouseholderProductTolerance, ""});
}

}  // namespace funcspec::samples
