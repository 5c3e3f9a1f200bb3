// scaled_dot_product_attention (docs/ops/attention.md) against the attention formula written out as
// loops over one head, independently of the composite's matmul/softmax parts: the oracle check of
// the catalogue runs the same composite in another dtype and could not see a wrong mask or head.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "reference/ops/dispatch.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::uniform_tensor;
using testing_support::values;

// One head: q [L, E], k [S, E], v [S, Ev] (row-major), visible(i, j) says whether query i sees key j.
template <typename Visible>
std::vector<double> direct_attention(const std::vector<double>& q, const std::vector<double>& k,
                                     const std::vector<double>& v, std::int64_t L, std::int64_t S, std::int64_t E,
                                     std::int64_t Ev, double scale, Visible visible) {
  std::vector<double> out(static_cast<std::size_t>(L * Ev), 0.0);
  for (std::int64_t i = 0; i < L; ++i) {
    std::vector<double> score(static_cast<std::size_t>(S), -std::numeric_limits<double>::infinity());
    double largest = -std::numeric_limits<double>::infinity();
    for (std::int64_t j = 0; j < S; ++j) {
      if (!visible(i, j)) continue;
      double dot = 0;
      for (std::int64_t e = 0; e < E; ++e) dot += q[i * E + e] * k[j * E + e];
      score[j] = dot * scale;
      largest = std::max(largest, score[j]);
    }
    if (largest == -std::numeric_limits<double>::infinity()) continue;  // every key masked: 0
    double total = 0;
    for (double& s : score) total += (s = std::exp(s - largest));
    for (std::int64_t j = 0; j < S; ++j) {
      for (std::int64_t e = 0; e < Ev; ++e) out[i * Ev + e] += score[j] / total * v[j * Ev + e];
    }
  }
  return out;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-13) << i;
}

TEST(ScaledDotProductAttention, CausalMaskIsTopLeftAlignedForEveryShape) {
  std::mt19937_64 rng(20261202);
  for (const auto& [L, S] : {std::pair<std::int64_t, std::int64_t>{3, 3}, {2, 4}, {4, 2}}) {
    const Tensor q = uniform_tensor({L, 3}, rng), k = uniform_tensor({S, 3}, rng), v = uniform_tensor({S, 2}, rng);
    const Tensor got =
        call_one("scaled_dot_product_attention", {q, k, v, Tensor()}, {{"is_causal", true}, {"enable_gqa", false}});
    expect_near_all(values(got), direct_attention(values(q), values(k), values(v), L, S, 3, 2, 1 / std::sqrt(3.0),
                                                  [](std::int64_t i, std::int64_t j) { return j <= i; }));
  }
}

TEST(ScaledDotProductAttention, BooleanMaskHidesKeysAndAFullyMaskedRowIsZero) {
  std::mt19937_64 rng(20261203);
  const Tensor q = uniform_tensor({3, 2}, rng), k = uniform_tensor({4, 2}, rng), v = uniform_tensor({4, 3}, rng);
  const std::vector<std::int64_t> keep{1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0};  // row 1 sees no key
  const Tensor mask = from_vector(keep, {3, 4}, DType::Bool);
  const Tensor got = call_one("scaled_dot_product_attention", {q, k, v, mask},
                              {{"is_causal", false}, {"enable_gqa", false}, {"scale", 0.75}});
  expect_near_all(values(got), direct_attention(values(q), values(k), values(v), 3, 4, 2, 3, 0.75,
                                                [&](std::int64_t i, std::int64_t j) { return keep[i * 4 + j] != 0; }));
}

TEST(ScaledDotProductAttention, GroupedHeadsServeConsecutiveQueryHeads) {
  std::mt19937_64 rng(20261204);
  // 4 query heads over 2 key/value heads: query heads 0, 1 read key head 0; 2, 3 read key head 1.
  const Tensor q = uniform_tensor({4, 2, 3}, rng), k = uniform_tensor({2, 3, 3}, rng),
               v = uniform_tensor({2, 3, 2}, rng);
  const Tensor got =
      call_one("scaled_dot_product_attention", {q, k, v, Tensor()}, {{"is_causal", false}, {"enable_gqa", true}});
  const std::vector<double> qv = values(q), kv = values(k), vv = values(v), all = values(got);
  for (std::int64_t h = 0; h < 4; ++h) {
    const std::int64_t g = h / 2;
    const std::vector<double> want =
        direct_attention(std::vector<double>(qv.begin() + h * 6, qv.begin() + (h + 1) * 6),
                         std::vector<double>(kv.begin() + g * 9, kv.begin() + (g + 1) * 9),
                         std::vector<double>(vv.begin() + g * 6, vv.begin() + (g + 1) * 6), 2, 3, 3, 2,
                         1 / std::sqrt(3.0), [](std::int64_t, std::int64_t) { return true; });
    expect_near_all(std::vector<double>(all.begin() + h * 4, all.begin() + (h + 1) * 4), want);
  }
}

TEST(ScaledDotProductAttention, RejectsWhatPyTorchRejects) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Attrs plain{{"is_causal", false}, {"enable_gqa", false}};
  expect_op_error("scaled_dot_product_attention", {x, from_values({1, 2, 3, 4}, {2, 2}), x, Tensor()}, plain,
                  ErrorKind::ShapeMismatch, "key's features");
  const Tensor mask = from_vector(std::vector<std::int64_t>{1, 1, 1, 1}, {2, 2}, DType::Bool);
  expect_op_error("scaled_dot_product_attention", {x, x, x, mask}, {{"is_causal", true}, {"enable_gqa", false}},
                  ErrorKind::InvalidArgument, "is_causal");
  expect_op_error("scaled_dot_product_attention",
                  {x, call_one("to_dtype", {x}, {{"dtype", DType::Float32}}), x, Tensor()}, plain,
                  ErrorKind::DtypeNotSupported, "one dtype");
}

}  // namespace
}  // namespace funcspec
