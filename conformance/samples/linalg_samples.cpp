#include <fmt/format.h>

#include "conformance/samples/linalg_sample_matrices.h"
#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {

std::vector<double> random_orthogonal(SampleRng& rng, std::int64_t n) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> q(un * un, 0.0);
  for (std::size_t i = 0; i < un; ++i) q[i * un + i] = 1.0;
  for (std::size_t reflection = 0; reflection < un; ++reflection) {
    std::vector<double> v(un);
    double norm2 = 0;
    for (double& x : v) {
      x = rng.uniform(-1.0, 1.0);
      norm2 += x * x;
    }
    if (norm2 < 1e-3) continue;
    for (std::size_t r = 0; r < un; ++r) {
      double dot = 0;
      for (std::size_t k = 0; k < un; ++k) dot += q[r * un + k] * v[k];
      for (std::size_t k = 0; k < un; ++k) q[r * un + k] -= 2.0 * dot * v[k] / norm2;
    }
  }
  return q;
}

Tensor well_conditioned(SampleRng& rng, const Shape& batch, std::int64_t n, DType dtype, bool transposed) {
  Shape shape = batch;
  shape.insert(shape.end(), {n, n});
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (std::size_t e = 0; e < values.size(); ++e) {
    const std::int64_t within = static_cast<std::int64_t>(e) % (n * n);
    if (within / n == within % n) {
      const double sign = (rng.next_u64() & 1u) ? 1.0 : -1.0;
      values[e] = sign * rng.uniform(static_cast<double>(n + 1), static_cast<double>(n + 2));
    } else {
      values[e] = rng.uniform(-1.0, 1.0);
    }
  }
  const Tensor a = from_vector(values, shape, dtype);
  if (!transposed) return a;
  Strides strides = a.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(a, shape, strides, 0);  // column-dominant: cond1 of it is cond∞ of a
}

namespace {

Attrs equation(const std::string& eq) { return {{"equation", eq}}; }

// Contractions (einsum and the products built on it). Sample values lie in [-2, 2). With m summed
// terms of k factors each, recursive summation is off by at most (m + k - 2)·u·S, S = Σ|terms|
// (u = eps/2). The largest sample case is three factors and four terms: (4 + 1)·u·32 = 80 eps, so
// with an absolute floor of 32 the float64 error is under 2.5 eps: stated 4. float32 is carried in
// float64 and rounded once: at most 0.5 eps relative plus a float64 error 2^-29 times smaller.
constexpr OracleTolerance kContractionTolerance{4.0, 0.51, 32.0, 0.0};

// LU-based ops on the well-conditioned matrices above with n <= 4 (so ||A||∞ <= 9, cond∞ <= 4.5).
// LU with partial pivoting is backward stable with |ΔA| <= 3n·ρ·u·|L||U|; diagonal dominance keeps
// the growth factor ρ <= 2. Normwise forward error of inverse/solve: cond·3n·ρ·u <= 4.5·12·2·u =
// 54 eps times the size of the result (stated 64 eps with the floor set to that size: ||A⁻¹||max <=
// 1/2; a solution of a right-hand side in [-2, 2) has entries <= 1). det's relative error is about
// n·||A⁻¹||·||ΔA|| <= 4·0.5·24·u·9 = 216 eps (stated 256), which log|det| turns into an absolute
// error (floor 1).
constexpr OracleTolerance kInverseTolerance{64.0, 64.0, 0.5, 0.0};
constexpr OracleTolerance kSolveTolerance{64.0, 64.0, 1.0, 0.0};
constexpr OracleTolerance kDetTolerance{256.0, 256.0, 0.0, 0.0};
constexpr OracleTolerance kSlogdetTolerance{256.0, 256.0, 1.0, 0.0};

// The scaled products beta·self + alpha·product: the product as above, then beta·self and the
// fused add (self + alpha·p, one rounding) add at most 1.5 u of the magnitudes involved. With
// |beta|, |alpha| <= 2 and the floor of 32 (products of at most six terms) float64 stays under
// 2.5 + 1.5 eps (stated 4); float32 rounds the product once, then twice more: 1.5 eps (stated 2).
constexpr OracleTolerance kScaledProductTolerance{4.0, 2.0, 32.0, 0.0};

Attrs scales(Scalar beta, Scalar alpha) { return {{"beta", beta}, {"alpha", alpha}}; }

// The samples every scaled product shares, given how to draw (self, operand 1, operand 2) for a
// self of `self_shape` and the product's shape: broadcast selves, every kind of beta and alpha.
struct ScaledProductShapes {
  Shape operand1, operand2, product;
};

std::vector<OpSample> scaled_product_samples(DType f, SampleRng& rng, const ScaledProductShapes& s,
                                             const std::vector<Shape>& broadcast_selves) {
  auto call = [&](const Shape& self, bool int64 = false) {
    if (int64) {
      return TensorList{rng.tensor(self, DType::Int64, -5, 5), rng.tensor(s.operand1, DType::Int64, -5, 5),
                        rng.tensor(s.operand2, DType::Int64, -5, 5)};
    }
    return TensorList{rng.tensor(self, f), rng.tensor(s.operand1, f), rng.tensor(s.operand2, f)};
  };
  std::vector<OpSample> out{{call(s.product), {}, "self of the product's shape"}};
  for (const Shape& self : broadcast_selves) {
    out.push_back({call(self), {}, fmt::format("self of shape {} broadcast", shape_to_string(self))});
  }
  out.push_back({call(s.product), scales(0.5, 2.0), "beta=0.5, alpha=2"});
  out.push_back({call({1}), scales(0.5, 2.0), "beta=0.5, alpha=2, self broadcast"});
  out.push_back({call(s.product), scales(std::int64_t{0}, -1.5), "beta=0 (self ignored), alpha=-1.5"});
  out.push_back({call(s.product), scales(0.0, std::int64_t{1}), "beta=0.0 (self ignored)"});
  out.push_back({call(s.product), scales(std::int64_t{-2}, std::int64_t{0}), "beta=-2, alpha=0"});
  out.push_back({call(s.product, true), scales(std::int64_t{2}, std::int64_t{-1}), "int64, beta=2, alpha=-1"});
  out.push_back({call(s.product, true), {}, "int64"});
  return out;
}

std::vector<OpSample> einsum_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3}, f), rng.tensor({3, 4}, f)}, equation("ij,jk->ik"), "matrix product"},
      {{rng.tensor({2, 3}, f), rng.tensor({3, 4}, f)}, equation("ij,jk"), "implicit output"},
      {{rng.tensor({3, 2}, f), rng.tensor({2, 3}, f)}, equation("ba,ab -> a b"), "spaces, reordered output"},
      {{rng.tensor({3, 3}, f)}, equation("ii->i"), "diagonal"},
      {{rng.tensor({3, 3}, f)}, equation("ii"), "implicit trace"},
      {{rng.tensor({2, 3}, f)}, equation("ij->ji"), "transpose"},
      {{rng.tensor({2, 3}, f)}, equation("ij->i"), "row sums"},
      {{rng.tensor({3}, f), rng.tensor({4}, f)}, equation("i,j->ij"), "outer"},
      {{rng.tensor({2, 2, 3}, f), rng.tensor({2, 3, 2}, f)}, equation("bij,bjk->bik"), "batched product"},
      {{rng.tensor({2, 1, 2, 3}, f), rng.tensor({3, 3, 2}, f)},
       equation("...ij,...jk->...ik"),
       "ellipsis with broadcast batch"},
      {{rng.tensor({2, 3, 4}, f)}, equation("...j->j"), "ellipsis summed when absent from the output"},
      {{rng.tensor({2, 3}, f)}, equation("..."), "implicit ellipsis alone"},
      {{rng.tensor({2, 1}, f), rng.tensor({1, 3}, f)}, equation("ij,ij->ij"), "size-1 dims broadcast"},
      {{rng.tensor({2, 2}, f), rng.tensor({2, 2}, f), rng.tensor({2, 3}, f)},
       equation("ij,jk,kl->il"),
       "three operands"},
      {{rng.tensor({}, f), rng.tensor({}, f)}, equation(",->"), "rank 0"},
      {{rng.tensor({3}, f), rng.tensor({}, f)}, equation("i,->i"), "vector times rank 0"},
      {{rng.tensor({2, 0}, f), rng.tensor({0, 3}, f)}, equation("ij,jk->ik"), "empty contraction gives zeros"},
      {{rng.tensor({0, 3}, f), rng.tensor({3, 2}, f)}, equation("ij,jk->ik"), "size-0 output dim"},
      {{rng.strided_tensor({3, 2}, f), rng.strided_tensor({2}, f)}, equation("ij,j->i"), "non-contiguous"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({3}, DType::Int64, -5, 5)}, equation("ij,j->i"), "int64"},
      {{rng.tensor({2, 3}, f), rng.tensor({3}, DType::Int64, -5, 5)}, equation("ij,j->i"), "int64 promoted"},
  };
}

std::vector<OpSample> tril_triu_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (std::int64_t diagonal : {0, 1, -1, 5, -5}) {
    out.push_back({{rng.tensor({3, 4}, f)}, {{"diagonal", diagonal}}, fmt::format("3x4 diagonal {}", diagonal)});
  }
  out.push_back({{rng.tensor({2, 3, 3}, f)}, {}, "batched"});
  out.push_back({{rng.tensor({0, 3}, f)}, {}, "size-0 rows"});
  out.push_back({{rng.tensor({2, 0, 3, 2}, f)}, {}, "size-0 batch"});
  out.push_back({{rng.strided_tensor({4, 3}, f)}, {{"diagonal", 1}}, "non-contiguous"});
  out.push_back({{rng.tensor({3, 3}, DType::Int64, -5, 5)}, {}, "int64"});
  out.push_back({{rng.tensor({3, 3}, DType::Bool)}, {}, "bool"});
  return out;
}

}  // namespace

void register_linalg_samples(OpSampleRegistry& registry) {
  registry.add({"einsum", einsum_samples, kContractionTolerance, ""});
  registry.add({"mm",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, f), rng.tensor({3, 4}, f)}, {}, "2x3 by 3x4"},
                      {{rng.strided_tensor({3, 2}, f), rng.strided_tensor({2, 3}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({2, 0}, f), rng.tensor({0, 3}, f)}, {}, "empty inner dim"},
                      {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({3, 2}, DType::Int64, -5, 5)}, {}, "int64"},
                  };
                },
                kContractionTolerance, ""});
  registry.add({"bmm",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 2, 3}, f), rng.tensor({2, 3, 4}, f)}, {}, "batch of 2"},
                      {{rng.strided_tensor({3, 3, 2}, f), rng.tensor({3, 2, 2}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({0, 2, 3}, f), rng.tensor({0, 3, 4}, f)}, {}, "empty batch"},
                  };
                },
                kContractionTolerance, ""});
  registry.add({"mv",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, {}, "2x3 by 3"},
                      {{rng.strided_tensor({4, 2}, f), rng.strided_tensor({2}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({0, 3}, f), rng.tensor({3}, f)}, {}, "no rows"},
                  };
                },
                kContractionTolerance, ""});
  registry.add({"dot",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({4}, f), rng.tensor({4}, f)}, {}, "length 4"},
                      {{rng.strided_tensor({3}, f), rng.tensor({3}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({0}, f), rng.tensor({0}, f)}, {}, "empty"},
                  };
                },
                kContractionTolerance, ""});
  registry.add(
      {"outer",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({3}, f), rng.tensor({4}, f)}, {}, "3 by 4"},
             {{rng.strided_tensor({2}, f), rng.tensor({3}, DType::Int64, -5, 5)}, {}, "non-contiguous, promoted"},
             {{rng.tensor({0}, f), rng.tensor({2}, f)}, {}, "empty"},
         };
       },
       kContractionTolerance, ""});
  registry.add({"matmul",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({3}, f), rng.tensor({3}, f)}, {}, "1-D by 1-D"},
                      {{rng.tensor({2, 3}, f), rng.tensor({3}, f)}, {}, "2-D by 1-D"},
                      {{rng.tensor({3}, f), rng.tensor({3, 2}, f)}, {}, "1-D by 2-D"},
                      {{rng.tensor({2, 3}, f), rng.tensor({3, 2}, f)}, {}, "2-D by 2-D"},
                      {{rng.tensor({2, 1, 2, 3}, f), rng.tensor({3, 3, 2}, f)}, {}, "batch dims broadcast"},
                      {{rng.tensor({2, 2, 3}, f), rng.tensor({3}, f)}, {}, "3-D by 1-D"},
                      {{rng.tensor({3}, f), rng.tensor({2, 3, 2}, f)}, {}, "1-D by 3-D"},
                      {{rng.strided_tensor({2, 3, 2}, f), rng.tensor({2, 3}, f)}, {}, "non-contiguous, 3-D by 2-D"},
                      {{rng.tensor({0, 2, 3}, f), rng.tensor({3, 2}, f)}, {}, "empty batch"},
                  };
                },
                kContractionTolerance, ""});
  registry.add({"trace",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out{
                      {{rng.tensor({3, 3}, f)}, {}, "3x3"},
                      {{rng.strided_tensor({4, 4}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({0, 0}, f)}, {}, "0x0"},
                      {{rng.tensor({3, 3}, DType::Int64, -5, 5)}, {}, "int64"},
                  };
                  out.push_back({{rng.tensor({2, 4}, f)}, {}, "non-square"});
                  return out;
                },
                kContractionTolerance, ""});
  registry.add(
      {"addmm",
       [](DType f, SampleRng& rng) {
         std::vector<OpSample> out = scaled_product_samples(f, rng, {{2, 3}, {3, 4}, {2, 4}}, {{4}, {2, 1}, {1}, {}});
         out.push_back({{rng.strided_tensor({3, 2}, f), rng.strided_tensor({3, 4}, f), rng.strided_tensor({4, 2}, f)},
                        {},
                        "transposed operands"});
         out.push_back({{rng.strided_tensor({2, 3}, f), rng.tensor({2, 4}, f), rng.strided_tensor({4, 3}, f)},
                        scales(std::int64_t{0}, 2.0),
                        "transposed operands, beta=0"});
         out.push_back({{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, {}, "1x1"});
         out.push_back({{rng.tensor({2, 3}, f), rng.tensor({2, 0}, f), rng.tensor({0, 3}, f)},
                        scales(0.5, 2.0),
                        "empty inner dim: beta * self"});
         out.push_back({{rng.tensor({3}, f), rng.tensor({0, 2}, f), rng.tensor({2, 3}, f)}, {}, "no rows"});
         return out;
       },
       kScaledProductTolerance, ""});
  registry.add({"addmv",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out = scaled_product_samples(f, rng, {{2, 3}, {3}, {2}}, {{1}, {}});
                  out.push_back(
                      {{rng.strided_tensor({3}, f), rng.strided_tensor({3, 4}, f), rng.strided_tensor({4}, f)},
                       {},
                       "non-contiguous operands"});
                  out.push_back({{rng.tensor({1}, f), rng.tensor({1, 1}, f), rng.tensor({1}, f)}, {}, "1x1"});
                  out.push_back({{rng.tensor({2}, f), rng.tensor({2, 0}, f), rng.tensor({0}, f)},
                                 scales(0.5, 2.0),
                                 "empty inner dim: beta * self"});
                  out.push_back({{rng.tensor({0}, f), rng.tensor({0, 3}, f), rng.tensor({3}, f)}, {}, "no rows"});
                  return out;
                },
                kScaledProductTolerance, ""});
  registry.add(
      {"addr",
       [](DType f, SampleRng& rng) {
         std::vector<OpSample> out = scaled_product_samples(f, rng, {{2}, {3}, {2, 3}}, {{3}, {2, 1}, {}});
         out.push_back({{rng.strided_tensor({2, 3}, f), rng.strided_tensor({2}, f), rng.strided_tensor({3}, f)},
                        {},
                        "non-contiguous operands"});
         out.push_back(
             {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({2}, f), rng.tensor({3}, DType::Int64, -5, 5)},
              scales(std::int64_t{3}, 0.5),
              "int64 operands promoted"});
         out.push_back({{rng.tensor({1, 1}, f), rng.tensor({1}, f), rng.tensor({1}, f)}, {}, "1x1"});
         out.push_back({{rng.tensor({0, 3}, f), rng.tensor({0}, f), rng.tensor({3}, f)}, {}, "empty"});
         return out;
       },
       kScaledProductTolerance, ""});
  registry.add(
      {"baddbmm",
       [](DType f, SampleRng& rng) {
         std::vector<OpSample> out =
             scaled_product_samples(f, rng, {{2, 2, 3}, {2, 3, 2}, {2, 2, 2}}, {{2, 1}, {2, 1, 1}, {}});
         out.push_back({{rng.tensor({3, 2, 2}, f), rng.strided_tensor({3, 2, 3}, f), rng.strided_tensor({3, 3, 2}, f)},
                        {},
                        "transposed operands"});
         out.push_back({{rng.tensor({1, 1, 1}, f), rng.tensor({1, 1, 1}, f), rng.tensor({1, 1, 1}, f)}, {}, "1x1x1"});
         out.push_back(
             {{rng.tensor({2, 2}, f), rng.tensor({0, 2, 3}, f), rng.tensor({0, 3, 2}, f)}, {}, "empty batch"});
         out.push_back({{rng.tensor({2, 2, 2}, f), rng.tensor({2, 2, 0}, f), rng.tensor({2, 0, 2}, f)},
                        scales(0.5, 2.0),
                        "empty inner dim: beta * self"});
         return out;
       },
       kScaledProductTolerance, ""});
  registry.add(
      {"addbmm",
       [](DType f, SampleRng& rng) {
         std::vector<OpSample> out = scaled_product_samples(f, rng, {{2, 2, 3}, {2, 3, 2}, {2, 2}}, {{2}, {2, 1}, {}});
         out.push_back({{rng.tensor({2, 2}, f), rng.strided_tensor({3, 2, 3}, f), rng.strided_tensor({3, 3, 2}, f)},
                        {},
                        "transposed operands"});
         out.push_back({{rng.tensor({1, 1}, f), rng.tensor({1, 1, 1}, f), rng.tensor({1, 1, 1}, f)}, {}, "1x1"});
         out.push_back({{rng.tensor({2, 2}, f), rng.tensor({0, 2, 3}, f), rng.tensor({0, 3, 2}, f)},
                        scales(0.5, 2.0),
                        "empty batch: beta * self"});
         return out;
       },
       kScaledProductTolerance, ""});
  registry.add(
      {"tensordot",
       [](DType f, SampleRng& rng) {
         // torch.tensordot's dims=k is dims_self = [-k, ..., -1], dims_other = [0, ..., k-1].
         auto dims = [](std::vector<std::int64_t> self, std::vector<std::int64_t> other) {
           return Attrs{{"dims_self", std::move(self)}, {"dims_other", std::move(other)}};
         };
         return std::vector<OpSample>{
             {{rng.tensor({2, 3, 4}, f), rng.tensor({3, 4, 2}, f)}, dims({1, 2}, {0, 1}), "dims=2"},
             {{rng.tensor({2, 3}, f), rng.tensor({3, 4}, f)}, dims({-1}, {0}), "dims=1 (a matrix product)"},
             {{rng.tensor({2, 3}, f), rng.tensor({4}, f)}, dims({}, {}), "dims=0 (an outer product)"},
             {{rng.tensor({2, 3, 4}, f), rng.tensor({4, 3}, f)}, dims({1, 2}, {1, 0}), "two lists, crossed"},
             {{rng.tensor({3, 2}, f), rng.tensor({2, 3, 2}, f)}, dims({-1, 0}, {-1, 1}), "negative dims"},
             {{rng.strided_tensor({3, 4}, f), rng.strided_tensor({2, 3}, f)}, dims({0}, {1}), "transposed operands"},
             {{rng.tensor({2, 1}, f), rng.tensor({3, 2}, f)}, dims({1}, {0}), "a size-1 dim contracted with 3"},
             {{rng.tensor({2, 0}, f), rng.tensor({0, 3}, f)}, dims({1}, {0}), "empty contraction gives zeros"},
             {{rng.tensor({}, f), rng.tensor({2}, f)}, dims({}, {}), "rank 0"},
             {{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, dims({0, 1}, {0, 1}), "1x1, fully contracted"},
             {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({3, 2}, DType::Int64, -5, 5)},
              dims({1}, {0}),
              "int64"},
         };
       },
       kContractionTolerance, ""});
  // One product per element, correctly rounded: exact in the oracle's sense.
  registry.add({"kron",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, f), rng.tensor({2, 2}, f)}, {}, "2x3 by 2x2"},
                      {{rng.tensor({3}, f), rng.tensor({2, 2}, f)}, {}, "ranks differ"},
                      {{rng.tensor({2, 1, 2}, f), rng.tensor({2}, f)}, {}, "3-D by 1-D"},
                      {{rng.tensor({}, f), rng.tensor({3}, f)}, {}, "rank 0 by 1-D"},
                      {{rng.tensor({}, f), rng.tensor({}, f)}, {}, "rank 0"},
                      {{rng.tensor({1, 1}, f), rng.tensor({1, 1}, f)}, {}, "1x1"},
                      {{rng.strided_tensor({2, 3}, f), rng.strided_tensor({3, 2}, f)}, {}, "transposed operands"},
                      {{rng.tensor({0, 2}, f), rng.tensor({2, 3}, f)}, {}, "empty"},
                      {{rng.tensor({2, 2}, f), rng.tensor({2}, DType::Int64, -5, 5)}, {}, "int64 promoted"},
                      {{rng.tensor({2}, DType::Bool), rng.tensor({2, 2}, DType::Bool)}, {}, "bool (the logical and)"},
                      {{rng.tensor({2, 2}, DType::Int64, -5, 5), rng.tensor({2, 1}, DType::Int64, -5, 5)}, {}, "int64"},
                  };
                },
                {},
                ""});
  // Products rounded once each (0.5 u of each term), then summed in float64 for float32: the
  // floor of 32 covers at most 8 terms of magnitude <= 4 (stated {4, 2}, as the scaled products).
  registry.add({"vecdot",
                [](DType f, SampleRng& rng) {
                  const Attrs dim0{{"dim", std::int64_t{0}}};
                  return std::vector<OpSample>{
                      {{rng.tensor({3, 4}, f), rng.tensor({3, 4}, f)}, {}, "last dim"},
                      {{rng.tensor({2, 1, 3}, f), rng.tensor({4, 3}, f)}, {}, "batch dims broadcast"},
                      {{rng.tensor({3, 1}, f), rng.tensor({3, 4}, f)}, {}, "size-1 dim broadcast along dim"},
                      {{rng.tensor({4}, f), rng.tensor({4}, f)}, {}, "1-D"},
                      {{rng.strided_tensor({3, 4}, f), rng.strided_tensor({3, 4}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({2, 0}, f), rng.tensor({2, 0}, f)}, {}, "empty reduced dim gives zeros"},
                      {{rng.tensor({0, 3}, f), rng.tensor({0, 3}, f)}, {}, "empty batch"},
                      {{rng.tensor({3, 4}, f), rng.tensor({3, 4}, f)}, dim0, "dim=0"},
                      {{rng.tensor({2, 3, 4}, f), rng.tensor({3, 4}, f)}, {{"dim", std::int64_t{-2}}}, "dim=-2"},
                  };
                },
                kScaledProductTolerance, ""});
  // Copies and zeros: exact.
  registry.add({"diag_embed",
                [](DType f, SampleRng& rng) {
                  auto attrs = [](std::int64_t offset, std::int64_t dim1, std::int64_t dim2) {
                    return Attrs{{"offset", offset}, {"dim1", dim1}, {"dim2", dim2}};
                  };
                  return std::vector<OpSample>{
                      {{rng.tensor({3}, f)}, {}, "vector"},
                      {{rng.tensor({2, 3}, f)}, {}, "batch of vectors"},
                      {{rng.tensor({3}, f)}, attrs(1, -2, -1), "offset 1"},
                      {{rng.tensor({2, 2}, f)}, attrs(-2, -2, -1), "offset -2"},
                      {{rng.tensor({2, 3}, f)}, attrs(0, 0, 2), "dim1=0, dim2=2"},
                      {{rng.tensor({2, 3}, f)}, attrs(1, -1, 0), "dim1 after dim2, offset 1"},
                      {{rng.strided_tensor({3, 2}, f)}, {}, "non-contiguous"},
                      {{rng.tensor({1}, f)}, {}, "1x1"},
                      {{rng.tensor({0}, f)}, {}, "empty"},
                      {{rng.tensor({0, 2}, f)}, attrs(1, -2, -1), "empty batch, offset 1"},
                      {{rng.tensor({2, 3}, DType::Int64, -5, 5)}, {}, "int64"},
                      {{rng.tensor({3}, DType::Bool)}, {}, "bool"},
                  };
                },
                {},
                ""});
  // Triangular masks copy or zero each element: exact.
  registry.add({"tril", tril_triu_samples, {}, ""});
  registry.add({"triu", tril_triu_samples, {}, ""});

  registry.add({"det",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{well_conditioned(rng, {}, 3, f)}, {}, "3x3"},
                      {{well_conditioned(rng, {2, 3}, 4, f)}, {}, "batch of 4x4"},
                      {{well_conditioned(rng, {2}, 3, f, true)}, {}, "non-contiguous"},
                      {{well_conditioned(rng, {}, 1, f)}, {}, "1x1"},
                      {{well_conditioned(rng, {}, 0, f)}, {}, "0x0 has determinant 1"},
                      {{well_conditioned(rng, {0}, 3, f)}, {}, "empty batch"},
                      {{from_values({1, 2, 3, 0, 0, 0, 4, 5, 6}, {3, 3}, f)}, {}, "singular: a zero row"},
                  };
                },
                kDetTolerance, ""});
  registry.add({"slogdet",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{well_conditioned(rng, {}, 3, f)}, {}, "3x3"},
                      {{well_conditioned(rng, {3}, 4, f)}, {}, "batch of 4x4"},
                      {{well_conditioned(rng, {2}, 3, f, true)}, {}, "non-contiguous"},
                      {{well_conditioned(rng, {}, 0, f)}, {}, "0x0"},
                      {{well_conditioned(rng, {0}, 2, f)}, {}, "empty batch"},
                      {{from_values({1, 2, 3, 0, 0, 0, 4, 5, 6}, {3, 3}, f)}, {}, "singular: a zero row"},
                  };
                },
                kSlogdetTolerance, ""});
  registry.add({"inverse",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{well_conditioned(rng, {}, 3, f)}, {}, "3x3"},
                      {{well_conditioned(rng, {2}, 4, f)}, {}, "batch of 4x4"},
                      {{well_conditioned(rng, {}, 4, f, true)}, {}, "non-contiguous"},
                      {{well_conditioned(rng, {}, 1, f)}, {}, "1x1"},
                      {{well_conditioned(rng, {}, 0, f)}, {}, "0x0"},
                      {{well_conditioned(rng, {0}, 3, f)}, {}, "empty batch"},
                  };
                },
                kInverseTolerance, ""});
  registry.add({"solve",
                [](DType f, SampleRng& rng) {
                  const Attrs right{{"left", false}};
                  return std::vector<OpSample>{
                      {{well_conditioned(rng, {}, 3, f), rng.tensor({3, 2}, f)}, {}, "matrix right-hand side"},
                      {{well_conditioned(rng, {}, 3, f), rng.tensor({3}, f)}, {}, "1-D right-hand side"},
                      {{well_conditioned(rng, {2}, 3, f), rng.tensor({2, 3}, f)}, {}, "batch of vectors"},
                      {{well_conditioned(rng, {2}, 3, f), rng.tensor({3, 2}, f)}, {}, "B broadcast over A's batch"},
                      {{well_conditioned(rng, {1}, 4, f), rng.tensor({3, 4, 1}, f)}, {}, "batch dims broadcast"},
                      {{well_conditioned(rng, {}, 3, f), rng.tensor({2, 3}, f)}, right, "left=False"},
                      {{well_conditioned(rng, {2}, 3, f), rng.tensor({3}, f)}, right, "left=False, vector"},
                      {{well_conditioned(rng, {}, 4, f, true), rng.strided_tensor({4, 2}, f)}, {}, "non-contiguous"},
                      {{well_conditioned(rng, {}, 3, f), rng.tensor({3, 0}, f)}, {}, "no right-hand sides"},
                      {{well_conditioned(rng, {0}, 3, f), rng.tensor({0, 3, 2}, f)}, {}, "empty batch"},
                      {{well_conditioned(rng, {}, 0, f), rng.tensor({0, 2}, f)}, {}, "0x0 system"},
                  };
                },
                kSolveTolerance, ""});
  register_linalg_triangular_samples(registry);
  register_linalg_inverse_samples(registry);
  register_linalg_qr_samples(registry);
}

}  // namespace funcspec::samples
