// scaled_dot_product_attention and multi_head_attention_forward (docs/ops/attention.md) against the
// attention formula written out as loops over one head, independently of the composite's matmul/softmax parts: the
// oracle check of the catalogue runs the same composite in another dtype and could not see a wrong mask or head.
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

// x [rows, E] times the `block`-th (E, E) block of w [3E or E, E], transposed, plus that block of b.
std::vector<double> project_rows(const std::vector<double>& x, std::int64_t rows, std::int64_t E,
                                 const std::vector<double>& w, const std::vector<double>& b, std::int64_t block) {
  std::vector<double> out(static_cast<std::size_t>(rows * E));
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t o = 0; o < E; ++o) {
      double acc = b.empty() ? 0.0 : b[block * E + o];
      for (std::int64_t e = 0; e < E; ++e) acc += x[r * E + e] * w[(block * E + o) * E + e];
      out[r * E + o] = acc;
    }
  }
  return out;
}

// The (rows, E) slice of batch element n of an (rows, N, E) tensor's values.
std::vector<double> batch_rows(const std::vector<double>& x, std::int64_t rows, std::int64_t N, std::int64_t E,
                               std::int64_t n) {
  std::vector<double> out;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t e = 0; e < E; ++e) out.push_back(x[(r * N + n) * E + e]);
  }
  return out;
}

TEST(MultiHeadAttentionForward, IsThePackedProjectionsHeadsMasksAndOutputProjection) {
  std::mt19937_64 rng(20261205);
  const std::int64_t L = 3, S = 4, N = 2, E = 4, H = 2, D = E / H;
  const Tensor q = uniform_tensor({L, N, E}, rng), k = uniform_tensor({S, N, E}, rng),
               v = uniform_tensor({S, N, E}, rng);
  const Tensor in_w = uniform_tensor({3 * E, E}, rng), in_b = uniform_tensor({3 * E}, rng);
  const Tensor out_w = uniform_tensor({E, E}, rng), out_b = uniform_tensor({E}, rng);
  const std::vector<std::int64_t> padding{0, 0, 1, 0, 1, 0, 0, 0};             // (N, S): true hides
  const std::vector<std::int64_t> hidden{0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};  // (L, S): true hides
  const TensorList in{q,
                      k,
                      v,
                      in_w,
                      in_b,
                      out_w,
                      out_b,
                      from_vector(padding, {N, S}, DType::Bool),
                      from_vector(hidden, {L, S}, DType::Bool)};
  const TensorList averaged =
      call("multi_head_attention_forward", in, {{"num_heads", H}, {"average_attn_weights", true}});
  const TensorList per_head =
      call("multi_head_attention_forward", in, {{"num_heads", H}, {"average_attn_weights", false}});
  ASSERT_EQ(averaged[0].shape(), Shape({L, N, E}));
  ASSERT_EQ(averaged[1].shape(), Shape({N, L, S}));
  ASSERT_EQ(per_head[1].shape(), Shape({N, H, L, S}));
  const std::vector<double> got = values(averaged[0]), got_mean = values(averaged[1]), got_heads = values(per_head[1]);
  const std::vector<double> w = values(in_w), b = values(in_b), ow = values(out_w), ob = values(out_b);
  for (std::int64_t n = 0; n < N; ++n) {
    const std::vector<double> qp = project_rows(batch_rows(values(q), L, N, E, n), L, E, w, b, 0);
    const std::vector<double> kp = project_rows(batch_rows(values(k), S, N, E, n), S, E, w, b, 1);
    const std::vector<double> vp = project_rows(batch_rows(values(v), S, N, E, n), S, E, w, b, 2);
    std::vector<double> concat(static_cast<std::size_t>(L * E));
    std::vector<double> mean(static_cast<std::size_t>(L * S), 0.0);
    for (std::int64_t h = 0; h < H; ++h) {
      const auto head = [&](const std::vector<double>& x, std::int64_t rows) {
        std::vector<double> out;
        for (std::int64_t r = 0; r < rows; ++r) {
          for (std::int64_t d = 0; d < D; ++d) out.push_back(x[r * E + h * D + d]);
        }
        return out;
      };
      const auto visible = [&](std::int64_t i, std::int64_t j) { return !hidden[i * S + j] && !padding[n * S + j]; };
      const std::vector<double> out =
          direct_attention(head(qp, L), head(kp, S), head(vp, S), L, S, D, D, 1 / std::sqrt(double(D)), visible);
      // The weights alone: the same formula against one-hot values.
      std::vector<double> eye(static_cast<std::size_t>(S * S), 0.0);
      for (std::int64_t j = 0; j < S; ++j) eye[j * S + j] = 1;
      const std::vector<double> weights =
          direct_attention(head(qp, L), head(kp, S), eye, L, S, D, S, 1 / std::sqrt(double(D)), visible);
      for (std::int64_t i = 0; i < L; ++i) {
        for (std::int64_t d = 0; d < D; ++d) concat[i * E + h * D + d] = out[i * D + d];
        for (std::int64_t j = 0; j < S; ++j) {
          mean[i * S + j] += weights[i * S + j] / H;
          EXPECT_NEAR(got_heads[((n * H + h) * L + i) * S + j], weights[i * S + j], 1e-13);
        }
      }
    }
    const std::vector<double> want = project_rows(concat, L, E, ow, ob, 0);
    for (std::int64_t i = 0; i < L; ++i) {
      for (std::int64_t e = 0; e < E; ++e) EXPECT_NEAR(got[(i * N + n) * E + e], want[i * E + e], 1e-13);
      for (std::int64_t j = 0; j < S; ++j) EXPECT_NEAR(got_mean[(n * L + i) * S + j], mean[i * S + j], 1e-13);
    }
  }
}

TEST(MultiHeadAttentionForward, AFullyHiddenRowIsNanAndUnbatchedInputsDropTheBatch) {
  const Tensor q = from_values({0.5, -1}, {2, 1}), k = from_values({1.5, 0.25}, {2, 1}),
               v = from_values({2, -0.5}, {2, 1});
  const Tensor in_w = from_values({1, 1, 1}, {3, 1}), out_w = from_values({1}, {1, 1});
  const Tensor hide = from_vector(std::vector<std::int64_t>{0, 0, 1, 1}, {2, 2}, DType::Bool);
  const TensorList got =
      call("multi_head_attention_forward", {q, k, v, in_w, Tensor(), out_w, Tensor(), Tensor(), hide},
           {{"num_heads", 1}, {"average_attn_weights", true}});
  ASSERT_EQ(got[0].shape(), Shape({2, 1}));
  ASSERT_EQ(got[1].shape(), Shape({2, 2}));
  const std::vector<double> out = values(got[0]), weights = values(got[1]);
  EXPECT_NEAR(out[0], 1.1283871616651355, 1e-15);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_NEAR(weights[0], 0.6513548646660542, 1e-15);
  EXPECT_TRUE(std::isnan(weights[2]) && std::isnan(weights[3]));
}

TEST(MultiHeadAttentionForward, RejectsWhatPyTorchRejects) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {3, 2});
  const Tensor in_w = from_values({1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1}, {6, 2}),
               out_w = from_values({1, 0, 0, 1}, {2, 2});
  const auto mha = [&](TensorList in, std::int64_t heads, ErrorKind kind, const char* needle) {
    expect_op_error("multi_head_attention_forward", in, {{"num_heads", heads}, {"average_attn_weights", true}}, kind,
                    needle);
  };
  mha({x, x, x, in_w, Tensor(), out_w, Tensor(), Tensor(), Tensor()}, 3, ErrorKind::InvalidArgument, "divisible");
  mha({x, x, x, from_values({1, 2}, {1, 2}), Tensor(), out_w, Tensor(), Tensor(), Tensor()}, 1,
      ErrorKind::ShapeMismatch, "in_proj_weight");
  mha({x, x, x, in_w, Tensor(), out_w, Tensor(), from_vector(std::vector<std::int64_t>{0, 1}, {2}, DType::Bool),
       Tensor()},
      1, ErrorKind::ShapeMismatch, "key_padding_mask");
  mha({x, x, x, in_w, Tensor(), out_w, Tensor(), Tensor(), from_values({0, 0, 0}, {3, 1})}, 1, ErrorKind::ShapeMismatch,
      "attn_mask");
  mha({x, call_one("to_dtype", {x}, {{"dtype", DType::Float32}}), x, in_w, Tensor(), out_w, Tensor(), Tensor(),
       Tensor()},
      1, ErrorKind::DtypeNotSupported, "query's dtype");
}

}  // namespace
}  // namespace funcspec
