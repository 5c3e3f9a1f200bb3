// Samples of svd, with its program: the readout of its non-unique factors (NOTE: [non-unique
// results]) and the orthonormality checks of full_matrices' completion (SPEC OPS-8.1, OPS-8.2).
// Rank-deficient inputs, where a zero singular value is a kink that finite differences cannot check
// and fixes no joint sign, are case files (conformance/cases/ops/svd--*.json), not samples.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "conformance/samples/linalg_derivative_conventions.h"
#include "conformance/samples/linalg_sample_matrices.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
// Helpers in a namespace of their own: the unity build compiles this file with the other samples.
namespace svd_samples {
namespace {

// An m×n matrix P·diag(σ)·Qᵀ (P, Q random orthogonal) with singular values σ_i = k − i plus a jitter
// in [0, 1/4) (k = min(m, n)): at least 3/4 apart and at least 1, so each singular pair is
// determined with a margin (also against the zero singular values of the complement of a
// non-square matrix), and σ <= 4.25. `smallest`, when given, replaces the least σ: an
// ill-conditioned matrix that is still well defined (its gaps stay at least 3/4 for a square one).
std::vector<double> gapped_matrix(SampleRng& rng, std::int64_t m, std::int64_t n, double smallest = 0) {
  const std::int64_t k = std::min(m, n);
  const std::vector<double> p = random_orthogonal(rng, m);
  const std::vector<double> q = random_orthogonal(rng, n);
  std::vector<double> sigma(static_cast<std::size_t>(k));
  for (std::int64_t i = 0; i < k; ++i)
    sigma[static_cast<std::size_t>(i)] = static_cast<double>(k - i) + rng.uniform(0.0, 0.25);
  if (smallest > 0 && k > 0) sigma.back() = smallest;
  std::vector<double> a(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::int64_t l = 0; l < k; ++l) {
        sum += p[static_cast<std::size_t>(i * m + l)] * sigma[static_cast<std::size_t>(l)] *
               q[static_cast<std::size_t>(j * n + l)];
      }
      a[static_cast<std::size_t>(i * n + j)] = sum;
    }
  }
  return a;
}

// A batch of gapped m×n matrices; with `transposed`, stored column by column (a transposed view).
Tensor gapped(SampleRng& rng, const Shape& batch, std::int64_t m, std::int64_t n, DType dtype, bool transposed = false,
              double smallest = 0) {
  const std::int64_t count = numel_of(batch);
  std::vector<double> values;
  for (std::int64_t b = 0; b < count; ++b) {
    const std::vector<double> a = gapped_matrix(rng, m, n, smallest);
    if (!transposed) {
      values.insert(values.end(), a.begin(), a.end());
      continue;
    }
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) values.push_back(a[static_cast<std::size_t>(i * n + j)]);
    }
  }
  Shape shape = batch;
  shape.insert(shape.end(), {m, n});
  if (!transposed) return from_vector(values, shape, dtype);
  Shape stored_shape = batch;
  stored_shape.insert(stored_shape.end(), {n, m});
  const Tensor stored = from_vector(values, stored_shape, dtype);
  return call_one("transpose", {stored}, {{"dim0", std::int64_t{-2}}, {"dim1", std::int64_t{-1}}});
}

// Steps that write `ok`: whether the columns of `x` (with `rows`: its rows) are orthonormal, as
// a bool per matrix: max |XᵀX − I| <= 2⁻¹². A bool has no derivative, so the generated AD families skip it
// and check only the readout's floating results (SPEC OPS-8.2: the completion's tangent is
// PyTorch's convention, zero, not the derivative of any choice of it). Orthonormal columns computed
// by Jacobi rotations and Gram–Schmidt with reorthogonalization (n <= 4) are within a few hundred
// float32 eps (2⁻¹² is 2048 of them); a column that is not orthogonal to the others, or not of unit
// norm, misses by O(1).
void append_orthonormality_check(std::vector<ProgramStep>& steps, const std::string& x, bool rows,
                                 const std::string& ok) {
  const std::string g = ok + "_gram";
  const std::string d = ok + "_diagonal";
  const std::string ones = ok + "_ones";
  const std::string eye = ok + "_identity";
  const std::string diff = ok + "_difference";
  const std::string size = ok + "_magnitude";
  const std::string defect = ok + "_defect";
  const std::string tol = ok + "_tolerance";
  const std::string gram_equation = rows ? "...ik,...jk->...ij" : "...ki,...kj->...ij";
  const Attrs diagonal_dims{{"offset", std::int64_t{0}}, {"dim1", std::int64_t{-2}}, {"dim2", std::int64_t{-1}}};
  steps.push_back({{g}, "einsum", {x, x}, {{"equation", gram_equation}}});
  steps.push_back({{d}, "diagonal", {g}, diagonal_dims});
  steps.push_back({{ones}, "ones_like", {d}, {}});
  steps.push_back({{eye}, "diag_embed", {ones}, diagonal_dims});
  steps.push_back({{diff}, "sub", {g, eye}, {}});
  steps.push_back({{size}, "abs", {diff}, {}});
  steps.push_back({{defect}, "amax", {size}, {{"dim", std::vector<std::int64_t>{-2, -1}}}});
  steps.push_back({{tol}, "full_like", {defect}, {{"fill_value", Scalar(std::ldexp(1.0, -12))}}});
  steps.push_back({{ok}, "le", {defect, tol}, {}});
}

// svd(A) -> (U, S, Vh) read out as S and the outer products u_k v_kᵀ of the first k = min(m, n)
// columns of U and rows of Vh, plus, where full_matrices adds columns, whether the full U (Vh) is
// orthonormal.
SampleProgram svd_program(const OpSample& sample) {
  SampleProgram p;
  p.clauses = {"OPS-4.1", "OPS-8.1", "OPS-8.2"};
  const Tensor& a = sample.inputs.at(0);
  if (sample.without_domain_map || a.dim() < 2 || !is_floating(a.dtype())) return p;  // the op's own errors
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  const std::int64_t k = std::min(m, n);
  const bool full = !sample.attrs.has("full_matrices") || sample.attrs.get_bool("full_matrices");
  const bool u_extra = full && m > k;
  const bool vh_extra = full && n > k;
  p.op_results = 3;
  std::string ur = "y0";
  std::string vhr = "y2";
  if (u_extra) {
    ur = "u_reduced";
    p.readout.push_back(
        {{ur}, "narrow", {"y0"}, {{"dim", std::int64_t{-1}}, {"start", std::int64_t{0}}, {"length", k}}});
  }
  if (vh_extra) {
    vhr = "vh_reduced";
    p.readout.push_back(
        {{vhr}, "narrow", {"y2"}, {{"dim", std::int64_t{-2}}, {"start", std::int64_t{0}}, {"length", k}}});
  }
  p.readout.push_back({{"outer_products"}, "einsum", {ur, vhr}, {{"equation", std::string("...ik,...kj->...kij")}}});
  p.results = {"y1", "outer_products"};
  if (u_extra) {
    append_orthonormality_check(p.readout, "y0", false, "u_orthonormal");
    p.results.push_back("u_orthonormal");
  }
  if (vh_extra) {
    append_orthonormality_check(p.readout, "y2", true, "vh_orthonormal");
    p.results.push_back("vh_orthonormal");
  }
  p.why_complete =
      "with distinct nonzero singular values (every sample's are at least 3/4 apart and at least 3/4 from 0 where "
      "A is not square) each pair (u_k, v_k) is determined up to a joint sign, and u_k v_kᵀ determines it up to "
      "exactly that sign (u_k spans its column space, v_k its row space, and its norm |u_k||v_k| = 1 checks the "
      "lengths), so (S, u_k v_kᵀ) is invariant to the signs and determines (U, S, Vh) up to them; the outer "
      "products are indexed by k, so a vector paired with another's singular value changes them. The columns "
      "full_matrices adds are any orthonormal completion: a bool checks that the full factor is orthonormal "
      "(which also makes them orthogonal to the reduced part), and nothing else about them is specified";
  return p;
}

std::vector<OpSample> svd_samples(DType f, SampleRng& rng) {
  const Attrs reduced{{"full_matrices", false}};
  const Attrs complete{{"full_matrices", true}};
  std::vector<OpSample> out{
      {{gapped(rng, {}, 2, 2, f)}, {}, "2x2"},
      {{gapped(rng, {}, 3, 2, f)}, reduced, "tall 3x2 reduced"},
      {{gapped(rng, {}, 3, 2, f)}, complete, "tall 3x2 full"},
      {{gapped(rng, {}, 2, 3, f)}, reduced, "wide 2x3 reduced"},
      {{gapped(rng, {}, 2, 3, f)}, complete, "wide 2x3 full"},
      {{gapped(rng, {2}, 2, 2, f)}, reduced, "batch of 2x2"},
      {{gapped(rng, {2, 1}, 3, 3, f)}, {}, "batch of 3x3"},
      {{gapped(rng, {}, 4, 3, f)}, reduced, "tall 4x3"},
      {{gapped(rng, {}, 2, 3, f, true)}, reduced, "non-contiguous wide"},
      {{gapped(rng, {}, 3, 2, f, true)}, complete, "non-contiguous tall full"},
      {{gapped(rng, {}, 3, 3, f, false, 1.0 / 1024)}, {}, "ill-conditioned 3x3: smallest singular value 2^-10"},
      {{gapped(rng, {}, 1, 1, f)}, {}, "1x1"},
      {{gapped(rng, {}, 0, 0, f)}, {}, "0x0"},
      {{gapped(rng, {}, 0, 2, f)}, complete, "0x2 full: Vh is a 2x2 basis"},
      {{gapped(rng, {0}, 2, 3, f)}, reduced, "empty batch"},
      {{gapped(rng, {0}, 3, 2, f)}, complete, "empty batch full"},
  };
  const std::vector<OpSample> failing{
      {{rng.tensor({3}, f)}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({2, 2}, DType::Int64, -5, 5)}, {}, "int64: dtype_not_supported"},
  };
  for (OpSample s : failing) {
    s.without_domain_map = true;  // the op's own error: the bare op
    out.push_back(std::move(s));
  }
  return out;
}

// The clause a composite's samples check besides their families' (the bare op: no domain map, no readout).
std::function<SampleProgram(const OpSample&)> checking(std::string clause) {
  return [clause](const OpSample&) {
    SampleProgram p;
    p.clauses = {clause};
    return p;
  };
}

// svdvals on svd's samples but the full_matrices ones (the bare op: its result is unique).
std::vector<OpSample> svdvals_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (OpSample s : svd_samples(f, rng)) {
    // The full_matrices samples repeat the reduced ones' shapes.
    if (s.attrs.has("full_matrices") && s.attrs.get_bool("full_matrices")) continue;
    s.attrs = {};
    s.without_domain_map = false;
    out.push_back(std::move(s));
  }
  return out;
}

Attrs norm_attrs(const std::string& ord, std::vector<std::int64_t> dim = {-2, -1}, bool keepdim = false) {
  return {{"ord", ord}, {"dim", dim}, {"keepdim", keepdim}};
}

// matrix_norm at every ord, over other dims, with keepdim; at ties of the row and column sums and at
// zero, where its derivative is PyTorch's (SPEC OPS-8.4); the orders through the singular values
// on gapped matrices (their derivative needs distinct singular values).
std::vector<OpSample> matrix_norm_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* ord : {"fro", "1", "-1", "inf", "-inf"}) {
    out.push_back({{rng.tensor({2, 3}, f)}, norm_attrs(ord), fmt::format("2x3 ord={}", ord)});
  }
  for (const char* ord : {"nuc", "2", "-2"}) {
    out.push_back({{gapped(rng, {}, 2, 3, f)}, norm_attrs(ord), fmt::format("2x3 ord={}", ord)});
  }
  out.push_back({{rng.tensor({2, 2, 2}, f)}, norm_attrs("fro"), "batch of 2x2"});
  out.push_back({{rng.tensor({2, 3, 2}, f)}, norm_attrs("1", {0, 2}), "dim=(0, 2)"});
  out.push_back({{rng.tensor({3, 2, 2}, f)}, norm_attrs("inf", {-1, 0}, true), "dim=(-1, 0) keepdim"});
  out.push_back({{rng.strided_tensor({3, 2}, f)}, norm_attrs("-inf"), "transposed"});
  out.push_back(
      {{call_one("transpose", {gapped(rng, {2}, 2, 3, f)}, {{"dim0", std::int64_t{-2}}, {"dim1", std::int64_t{-1}}})},
       norm_attrs("nuc", {-1, -2}, true),
       "nuc over dim=(-1, -2) of a transposed batch, keepdim"});
  out.push_back({{gapped(rng, {}, 3, 3, f)}, norm_attrs("2", {1, 0}), "2 over dim=(1, 0)"});
  out.push_back({{rng.tensor({1, 1}, f)}, norm_attrs("-2"), "1x1"});
  out.push_back({{rng.tensor({0, 0}, f)}, norm_attrs("fro"), "0x0 fro"});
  out.push_back({{rng.tensor({0, 0}, f)}, norm_attrs("nuc"), "0x0 nuc"});
  out.push_back({{rng.tensor({0, 2, 2}, f)}, norm_attrs("1"), "empty batch"});
  // Ties: |row| sums 3 and 3 (inf), |column| sums 3 and 3 (1), and the least of each (-inf, -1).
  const std::vector<double> tie{1, -2, 2, 1};
  for (const char* ord : {"inf", "1", "-inf", "-1"}) {
    OpSample s{{from_vector(tie, {2, 2}, f)}, norm_attrs(ord), fmt::format("tie of the sums, ord={}", ord)};
    s.special_point = "tie of the row or column sums of |A|";
    out.push_back(std::move(s));
  }
  for (const char* ord : {"fro", "inf", "1", "-inf", "-1"}) {
    OpSample s{{from_vector(std::vector<double>(4, 0.0), {2, 2}, f)}, norm_attrs(ord), fmt::format("zero ord={}", ord)};
    s.special_point = "zero matrix";
    out.push_back(std::move(s));
  }
  out.push_back({{rng.tensor({2, 2}, f)}, norm_attrs("3"), "ord=3: invalid_argument"});
  out.push_back({{rng.tensor({2, 2}, f)}, norm_attrs("fro", {0, 0}), "dim=(0, 0): invalid_argument"});
  out.push_back({{rng.tensor({2, 2}, f)}, norm_attrs("fro", {0, 2}), "dim=(0, 2) of a matrix: dim_out_of_range"});
  out.push_back({{rng.tensor({3}, f)}, norm_attrs("fro", {0, 0}), "1-D: shape_mismatch"});
  out.push_back({{rng.tensor({2, 2}, DType::Int64, -5, 5)}, norm_attrs("fro"), "int64: dtype_not_supported"});
  return out;
}

Attrs cond_p(const std::string& p) { return {{"p", p}}; }

// cond at every p: the spectral ones on any m×n, the others on square well-conditioned matrices. A
// singular input's singular_matrix is data-dependent (meta cannot raise it): a case file.
std::vector<OpSample> cond_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out{
      {{gapped(rng, {}, 3, 3, f)}, {}, "3x3 p=None"},
      {{gapped(rng, {}, 2, 3, f)}, cond_p("2"), "2x3 p=2"},
      {{gapped(rng, {}, 3, 2, f)}, cond_p("-2"), "3x2 p=-2"},
      {{gapped(rng, {2}, 2, 2, f)}, {}, "batch of 2x2"},
      {{gapped(rng, {}, 3, 3, f, true)}, cond_p("2"), "transposed"},
      {{gapped(rng, {}, 1, 1, f)}, {}, "1x1"},
      {{gapped(rng, {}, 0, 0, f)}, {}, "0x0 is 0"},
      {{gapped(rng, {0}, 2, 2, f)}, cond_p("fro"), "empty batch"},
  };
  for (const char* p : {"fro", "nuc", "1", "-1", "inf", "-inf"}) {
    out.push_back({{gapped(rng, {}, 2, 2, f)}, cond_p(p), fmt::format("2x2 p={}", p)});
  }
  out.push_back({{gapped(rng, {}, 2, 3, f)}, cond_p("fro"), "2x3 p=fro: shape_mismatch"});
  out.push_back({{gapped(rng, {}, 2, 2, f)}, cond_p("3"), "p=3: invalid_argument"});
  out.push_back({{rng.tensor({2, 2}, DType::Int64, -5, 5)}, {}, "int64: dtype_not_supported"});
  return out;
}

}  // namespace
}  // namespace svd_samples

// svd on the gapped matrices above (m, n <= 4, σ in [1, 4.25] and at least 3/4 apart, ||A||_F <= 7;
// the ill-conditioned sample's smallest σ is 2⁻¹⁰, square, with its gaps still >= 3/4). One-sided
// Jacobi is backward stable: the computed factors are exact for A + E with
// ||E||_2 <= r·γ_{6m}·||A||_F after r rotations (each a plane rotation of two columns, rounded;
// Higham §19.6, Demmel–Veselić), and for n <= 4 it needs at most 6 sweeps of 6 rotations:
// ||E|| <= 36·24u·7 ≈ 3000 u ≈ 1500 eps. Singular values move by at most ||E|| (Weyl); a singular pair
// by an angle of at most ||E||/δ (Wedin), δ >= 3/4 the gap to every other singular value (and to 0
// where A is not square), so an outer product by at most 2·1500/0.75 ≈ 4000 eps, with the
// readout's einsum (k terms, 2u) well below that. Stated 4096 eps of max(|value|, 1): a wrong pair
// (another sign pairing, a permutation) moves an outer product by O(1).
constexpr OracleTolerance kSvdTolerance{4096.0, 4096.0, 1.0, 0.0};

// matrix_norm: 'fro' and ±1/±inf are sums of |a_ij| (or their squares) over at most 6 entries in
// [-2, 2), with a square root: a few eps of the result (or of the largest entry, where the sums
// cancel nothing: they add magnitudes). 'nuc' and ±2 add or pick singular values, each within svd's
// ||E|| <= 1500 eps of ||A||_F <= 7 (Weyl; here in absolute terms, measured against max(|value|, 1)).
// Stated: svd's 4096 eps of max(|value|, 1), which covers both.
constexpr OracleTolerance kMatrixNormTolerance{4096.0, 4096.0, 1.0, 0.0};
// cond on gapped matrices (σ in [1, 4.25], so cond <= 4.25): a ratio of two singular values, each
// within svd's ||E|| <= 1500 eps·||A||_F <= 10⁴ eps absolute, so relative errors of at most 10⁴ eps
// each and 2·10⁴ eps for the ratio; or a product of two norms, A's (a few eps) and its inverse's
// (LU: about n³·cond·eps <= 120 eps relative). Stated 2¹⁵ eps of max(|value|, 1). No
// ill-conditioned sample: the least singular value's absolute error, relative to a tiny σ_min,
// would need a tolerance growing with cond².
constexpr OracleTolerance kCondTolerance{32768.0, 32768.0, 1.0, 0.0};

void register_linalg_svd_samples(OpSampleRegistry& registry) {
  registry.add({"svd", [](DType f, SampleRng& rng) { return svd_samples::svd_samples(f, rng); }, kSvdTolerance, "",
                svd_samples::svd_program, svd_completion_convention});
  registry.add({"svdvals", [](DType f, SampleRng& rng) { return svd_samples::svdvals_samples(f, rng); }, kSvdTolerance,
                "", svd_samples::checking("OPS-8.3")});
  registry.add({"matrix_norm", [](DType f, SampleRng& rng) { return svd_samples::matrix_norm_samples(f, rng); },
                kMatrixNormTolerance, "", svd_samples::checking("OPS-8.4")});
  registry.add({"cond", [](DType f, SampleRng& rng) { return svd_samples::cond_samples(f, rng); }, kCondTolerance, "",
                svd_samples::checking("OPS-8.5")});
}

}  // namespace funcspec::samples
