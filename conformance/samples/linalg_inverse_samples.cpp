// Samples of inv, inv_ex and matrix_power (reference/ops/linalg_inverse.cpp), with inv_ex's readout
// of the inverse where it is specified (NOTE: [non-unique results], SPEC OPS-11.2).
#include <fmt/format.h>

#include "conformance/samples/linalg_derivative_conventions.h"
#include "conformance/samples/linalg_sample_matrices.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
// Helpers in a namespace of their own: the unity build compiles this file with the other linalg samples.
namespace linalg_inverse_samples {
namespace {

// inv and inv_ex run inverse's kernel on the same well-conditioned matrices (n <= 4, cond∞ <= 4.5):
// inverse's tolerance and its analysis (linalg_samples.cpp), 54 eps of ||A⁻¹||max <= 1/2, stated 64 eps
// with that floor. The identity put in place of a singular matrix (inv_ex) is inverted exactly.
constexpr OracleTolerance kInvTolerance{64.0, 64.0, 0.5, 0.0};

// Exactly singular matrices whose zero pivot is exact in every floating dtype, so every backend
// finds the same first one: info = 2 for [[1, 2], [2, 4]] (rows swapped, then 2 - (1/2)·4 = 0
// exactly), info = 3 for a zero middle row (pivot 4, then 0.75 = 2 - (1/4)·5 swapped up, leaving the
// zero row last), info = 2 for a zero second column (it stays zero whatever the multipliers).
Tensor rank_one_2x2(DType f) { return from_values({1, 2, 2, 4}, {2, 2}, f); }
Tensor zero_row_3x3(DType f) { return from_values({1, 2, 3, 0, 0, 0, 4, 5, 6}, {3, 3}, f); }

// A singular matrix's error depends on its values, which meta does not see: the errors of singular
// matrices are case files (conformance/cases/ops/inv--*, inv_ex--*, matrix_power--*).
std::vector<OpSample> inv_samples(DType f, SampleRng& rng) {
  return {
      {{well_conditioned(rng, {}, 3, f)}, {}, "3x3"},
      {{well_conditioned(rng, {2}, 4, f)}, {}, "batch of 4x4"},
      {{well_conditioned(rng, {2, 1}, 2, f, true)}, {}, "non-contiguous batch"},
      {{well_conditioned(rng, {}, 1, f)}, {}, "1x1"},
      {{well_conditioned(rng, {}, 0, f)}, {}, "0x0"},
      {{well_conditioned(rng, {0}, 3, f)}, {}, "empty batch"},
      {{rng.tensor({2, 3}, f)}, {}, "non-square: shape_mismatch"},
      {{rng.tensor({3}, f)}, {}, "1-D: shape_mismatch"},
      {{rng.tensor({2, 2}, DType::Int64, -5, 5)}, {}, "int64: dtype_not_supported"},
  };
}

std::vector<OpSample> inv_ex_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (OpSample& s : inv_samples(f, rng)) out.push_back(std::move(s));
  const Attrs check{{"check_errors", true}};
  out.push_back({{well_conditioned(rng, {2}, 2, f)}, check, "check_errors=True, invertible"});
  const std::string why =
      "exactly singular: info jumps to 0 under almost every perturbation, so neither the inverse nor info has a "
      "derivative here (SPEC OPS-11.2)";
  const std::vector<OpSample> singular{
      {{rank_one_2x2(f)}, {}, "singular: info 2 after a row swap"},
      {{zero_row_3x3(f)}, {}, "singular: a zero row, info 3"},
      {{from_values({1, 0, 2, 3, 0, 4, 5, 0, 6, 4, 1, 0, 1, -5, 1, 0, 1, 4}, {2, 3, 3}, f)},
       {},
       "batch of a singular (a zero column, info 2) and an invertible matrix"},
      {{from_values({0}, {1, 1}, f)}, {}, "singular 1x1: info 1"},
  };
  for (OpSample s : singular) {
    s.no_derivative = why;
    out.push_back(std::move(s));
  }
  return out;
}

// inv_ex's readout: info as it is, and the inverse where info is 0, zeros in place of the
// unspecified inverse of a singular matrix.
SampleProgram inv_ex_program(const OpSample&) {
  SampleProgram p;
  p.op_results = 2;
  const Attrs last{{"dim", std::int64_t{-1}}};
  p.readout = {
      {{"singular"}, "to_dtype", {"y1"}, {{"dtype", DType::Bool}}},
      {{"singular_row"}, "unsqueeze", {"singular"}, last},
      {{"singular_matrix"}, "unsqueeze", {"singular_row"}, last},
      {{"zeros"}, "zeros_like", {"y0"}, {}},
      {{"specified"}, "where", {"singular_matrix", "zeros", "y0"}, {}},
  };
  p.results = {"specified", "y1"};
  p.why_complete =
      "info is read as it is; the inverse is read wherever info is 0, where A is invertible and its inverse unique, "
      "and only where info is not 0 is it replaced by zeros, exactly where the spec leaves it unspecified";
  p.clauses = {"OPS-11.2"};
  return p;
}

// matrix_power multiplies up to five times (n = 6: A², A⁴, A²·A⁴ after inverting for n < 0). The
// samples of positive powers have entries in [-1/2, 1/2) and n <= 3, so || |A| ||∞ <= 3/2, and
// each product's error is at most n·u of the product of the magnitudes: to first order the k-th
// power is off by at most (k - 1)·n·u·|A|^k <= 5·3·u·(3/2)^6 ≈ 86 eps for k = 6 (46 eps for k = 5),
// absolute. float32 products accumulate in float64 and round once (linalg_samples.cpp), so the
// same count of its eps. Negative powers invert a well-conditioned A first (entries of A⁻¹ within 32
// eps of ||A⁻¹||max <= 1/2, as for inverse), and its powers shrink that error with || A⁻¹ ||∞ <=
// 1/2. Stated 16 eps of the floor 8: at most 86/8 ≈ 11 eps.
constexpr OracleTolerance kMatrixPowerTolerance{16.0, 16.0, 8.0, 0.0};

Attrs power(std::int64_t n) { return {{"n", n}}; }

std::vector<OpSample> matrix_power_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  // The first sample of each n is a single 3x3 matrix (9 elements, for the higher-order families).
  for (const std::int64_t n : {2, 3, 5, 6, 1, 0}) {
    out.push_back({{rng.tensor({3, 3}, f, -0.5, 0.5)}, power(n), fmt::format("n={}", n)});
  }
  for (const std::int64_t n : {-1, -2, -3}) {
    out.push_back({{well_conditioned(rng, {}, 3, f)}, power(n), fmt::format("n={}", n)});
  }
  out.push_back({{rng.tensor({2, 2, 2}, f, -0.5, 0.5)}, power(5), "batch, n=5"});
  out.push_back({{well_conditioned(rng, {2, 1}, 2, f)}, power(-2), "batch, n=-2"});
  out.push_back({{rng.strided_tensor({3, 3}, f, -0.5, 0.5)}, power(3), "non-contiguous, n=3"});
  out.push_back({{well_conditioned(rng, {}, 3, f, true)}, power(-1), "non-contiguous, n=-1"});
  out.push_back({{well_conditioned(rng, {}, 1, f)}, power(-3), "1x1, n=-3"});
  out.push_back({{rng.tensor({1, 1}, f, -0.5, 0.5)}, power(5), "1x1, n=5"});
  out.push_back({{well_conditioned(rng, {}, 0, f)}, power(-2), "0x0, n=-2"});
  out.push_back({{rng.tensor({0, 3, 3}, f)}, power(3), "empty batch, n=3"});
  out.push_back({{rng.tensor({2, 0, 0}, f)}, power(0), "batch of 0x0, n=0"});
  out.push_back({{zero_row_3x3(f)}, power(0), "singular, n=0: the identity"});
  out.push_back({{zero_row_3x3(f)}, power(2), "singular, n=2"});
  // Integer matrices are multiplied exactly; bool ones are taken to powers 0 and 1 only.
  out.push_back({{rng.tensor({3, 3}, DType::Int64, -3, 3)}, power(3), "int64, n=3"});
  out.push_back({{rng.tensor({2, 2, 2}, DType::Int64, -3, 3)}, power(5), "int64 batch, n=5"});
  out.push_back({{rng.tensor({3, 3}, DType::Int64, -3, 3)}, power(0), "int64, n=0"});
  out.push_back({{rng.tensor({2, 2}, DType::Int64, -3, 3)}, power(-1), "int64, n=-1: dtype_not_supported"});
  out.push_back({{rng.tensor({2, 2}, DType::Bool)}, power(0), "bool, n=0"});
  out.push_back({{rng.tensor({2, 2}, DType::Bool)}, power(1), "bool, n=1"});
  out.push_back({{rng.tensor({2, 2}, DType::Bool)}, power(2), "bool, n=2: dtype_not_supported"});
  out.push_back({{rng.tensor({2, 3}, f)}, power(2), "non-square: shape_mismatch"});
  out.push_back({{rng.tensor({3}, f)}, power(0), "1-D: shape_mismatch"});
  return out;
}

}  // namespace
}  // namespace linalg_inverse_samples

void register_linalg_inverse_samples(OpSampleRegistry& registry) {
  using namespace linalg_inverse_samples;
  registry.add({"inv", inv_samples, kInvTolerance, ""});
  registry.add({"inv_ex", inv_ex_samples, kInvTolerance, "", inv_ex_program, failed_factorization_convention});
  registry.add({"matrix_power", matrix_power_samples, kMatrixPowerTolerance, ""});
}

}  // namespace funcspec::samples
