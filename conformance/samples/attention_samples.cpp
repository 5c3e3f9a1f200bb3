// Samples of scaled_dot_product_attention (docs/ops/attention.md): batched heads and unbatched
// matrices, more or fewer keys than queries, the causal mask in each of those shapes, boolean and
// additive masks broadcast over the heads, a given scale (0 included: uniform weights), grouped
// key/value heads, key heads broadcast, no keys at all, no queries, an empty batch, a transposed
// query and the rejected inputs (a key or mask of another floating dtype than the query is a case
// file, since the oracle runs every floating input in one dtype). Rows with every key masked are
// special points (special_point_declarations.cpp). Tolerance: q kᵀ sums E <= 4 products, so a score errs by
// about E eps |q||k| <= 32 eps for inputs in [-2, 2); softmax turns a score's absolute error into
// the same relative error of its weight, and the weighted sum of S <= 5 values adds S eps: stated
// 64 ulps against max|input|, for float64 and float32 alike (each op rounds to the dtype).
#include <optional>
#include <vector>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

Attrs options(bool is_causal = false, std::optional<double> scale = std::nullopt, bool enable_gqa = false) {
  Attrs attrs{{"is_causal", is_causal}, {"enable_gqa", enable_gqa}};
  if (scale) attrs.set("scale", *scale);
  return attrs;
}

// The mask that hides key j from query i where (i + j) % 3 == 0, so no row is fully masked.
Tensor keep_mask(std::int64_t queries, std::int64_t keys) {
  std::vector<std::int64_t> keep;
  for (std::int64_t i = 0; i < queries; ++i) {
    for (std::int64_t j = 0; j < keys; ++j) keep.push_back((i + j) % 3 != 0 ? 1 : 0);
  }
  return from_vector(keep, {queries, keys}, DType::Bool);
}

std::vector<OpSample> attention_samples(DType f, SampleRng& rng) {
  const auto qkv = [&](Shape q, Shape k, Shape v) {
    return TensorList{rng.tensor(q, f), rng.tensor(k, f), rng.tensor(v, f), Tensor()};
  };
  const auto with_mask = [](TensorList inputs, Tensor mask) {
    inputs[3] = std::move(mask);
    return inputs;
  };
  return {
      {qkv({2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 4}), options(), "batch 2, heads 2, 3 queries, 5 keys"},
      {qkv({3, 2}, {4, 2}, {4, 2}), options(), "unbatched matrices"},
      {qkv({2, 2}, {3, 2}, {3, 2}), options(), "small"},
      {qkv({1, 1, 3, 4}, {1, 1, 4, 4}, {1, 1, 4, 2}), options(), "values with fewer features than the keys"},
      {qkv({1, 2, 3, 3}, {1, 2, 3, 3}, {1, 2, 3, 3}), options(true), "causal, as many keys as queries"},
      {qkv({1, 1, 2, 3}, {1, 1, 4, 3}, {1, 1, 4, 3}), options(true), "causal, more keys: top-left aligned"},
      {qkv({1, 1, 4, 3}, {1, 1, 2, 3}, {1, 1, 2, 3}), options(true), "causal, more queries than keys"},
      {with_mask(qkv({2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 4}), keep_mask(3, 5)), options(),
       "boolean mask broadcast over batch and heads"},
      {with_mask(qkv({2, 2, 3, 4}, {2, 2, 5, 4}, {2, 2, 5, 4}), rng.tensor({2, 1, 3, 5}, f)), options(),
       "additive mask broadcast over the heads"},
      {qkv({1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2, 3, 4}), options(false, 0.5), "scale 0.5"},
      {qkv({1, 1, 3, 2}, {1, 1, 3, 2}, {1, 1, 3, 2}), options(false, 0.0), "scale 0: uniform weights"},
      {qkv({1, 4, 2, 3}, {1, 2, 3, 3}, {1, 2, 3, 3}), options(false, std::nullopt, true),
       "grouped heads: 4 query heads over 2 key/value heads"},
      {qkv({1, 3, 2, 3}, {1, 1, 3, 3}, {1, 1, 3, 3}), options(), "key and value heads broadcast"},
      {qkv({1, 2, 3, 2}, {1, 2, 0, 2}, {1, 2, 0, 2}), options(), "no keys: zeros"},
      {qkv({1, 2, 0, 2}, {1, 2, 3, 2}, {1, 2, 3, 2}), options(), "no queries"},
      {qkv({0, 2, 3, 2}, {0, 2, 3, 2}, {0, 2, 3, 2}), options(), "size-0 batch"},
      {{rng.strided_tensor({2, 3, 4}, f), rng.tensor({2, 5, 4}, f), rng.tensor({2, 5, 4}, f), Tensor()},
       options(),
       "transposed query"},
      {qkv({3}, {3}, {3}), options(), "1-D inputs shape-mismatch"},
      {qkv({2, 3}, {2, 4}, {2, 3}), options(), "features differ shape-mismatch"},
      {qkv({2, 3}, {4, 3}, {3, 3}), options(), "values and keys differ in number shape-mismatch"},
      {{rng.tensor({2, 3}, DType::Int64, -3, 3), rng.tensor({2, 3}, DType::Int64, -3, 3),
        rng.tensor({2, 3}, DType::Int64, -3, 3), Tensor()},
       options(),
       "int64 (rejected)"},
      {with_mask(qkv({2, 3}, {2, 3}, {2, 3}), keep_mask(2, 2)), options(true), "mask with is_causal (rejected)"},
      {qkv({1, 3, 2, 2}, {1, 2, 2, 2}, {1, 2, 2, 2}), options(false, std::nullopt, true),
       "grouped heads that do not divide shape-mismatch"},
  };
}

// multi_head_attention_forward: (L, N, E) or (L, E) inputs with packed projections, with and
// without biases, self- and cross-attention (S != L), one and several heads, boolean and additive
// key_padding_mask and attn_mask (2-D and per-head 3-D; True hides a key, and no row is fully
// hidden: that row is a special point), weights averaged or per head, an empty batch and the
// rejected shapes. A small call (E = 1) the property laws can draw.
std::vector<OpSample> mha_samples(DType f, SampleRng& rng) {
  const auto call = [&](Shape q, Shape kv, std::int64_t E, bool biases) {
    return TensorList{rng.tensor(q, f),
                      rng.tensor(kv, f),
                      rng.tensor(kv, f),
                      rng.tensor({3 * E, E}, f, -1, 1),
                      biases ? rng.tensor({3 * E}, f) : Tensor(),
                      rng.tensor({E, E}, f, -1, 1),
                      biases ? rng.tensor({E}, f) : Tensor(),
                      Tensor(),
                      Tensor()};
  };
  const auto heads = [](std::int64_t h, bool average = true) {
    return Attrs{{"num_heads", h}, {"average_attn_weights", average}};
  };
  const auto masked = [](TensorList in, Tensor padding, Tensor mask) {
    in[7] = std::move(padding);
    in[8] = std::move(mask);
    return in;
  };
  // Hides key j from query i where (i + j) % 3 == 0 (the opposite sense of sdpa's keep mask).
  const auto hide = [](std::int64_t queries, std::int64_t keys) {
    std::vector<std::int64_t> hidden;
    for (std::int64_t i = 0; i < queries; ++i) {
      for (std::int64_t j = 0; j < keys; ++j) hidden.push_back((i + j) % 3 == 0 ? 1 : 0);
    }
    return from_vector(hidden, {queries, keys}, DType::Bool);
  };
  return {
      {call({2, 1}, {2, 1}, 1, true), heads(1), "small: unbatched, E = 1"},
      {call({3, 2, 4}, {3, 2, 4}, 4, true), heads(2), "self-attention, batch 2, 2 heads"},
      {call({2, 2, 4}, {3, 2, 4}, 4, false), heads(2, false), "cross-attention, no biases, weights per head"},
      {call({3, 4}, {2, 4}, 4, true), heads(4), "unbatched, 4 heads"},
      {masked(call({3, 2, 2}, {4, 2, 2}, 2, true), from_values({0, 0, 1, 0, 1, 0, 0, 0}, {2, 4}, DType::Bool),
              hide(3, 4)),
       heads(1), "boolean key_padding_mask and attn_mask"},
      {masked(call({2, 1, 2}, {3, 1, 2}, 2, true), rng.tensor({1, 3}, f), rng.tensor({2, 2, 3}, f)), heads(2, false),
       "additive masks, a 3-D attn_mask per head"},
      {masked(call({3, 2}, {2, 2}, 2, true), from_values({1, 0}, {2}, DType::Bool), Tensor()), heads(2),
       "unbatched key_padding_mask"},
      {call({2, 0, 2}, {2, 0, 2}, 2, true), heads(1), "size-0 batch"},
      {{rng.strided_tensor({2, 2}, f), rng.tensor({3, 2}, f), rng.tensor({3, 2}, f), rng.tensor({6, 2}, f), Tensor(),
        rng.tensor({2, 2}, f), Tensor(), Tensor(), Tensor()},
       heads(2),
       "transposed query"},
      {call({3, 4}, {2, 4}, 4, true), heads(3), "embed_dim not divisible by num_heads (rejected)"},
      {call({2, 1, 2}, {3, 2, 2}, 2, true), heads(1), "key batch differs shape-mismatch"},
      {call({2}, {2}, 2, true), heads(1), "1-D query shape-mismatch"},
      {masked(call({2, 2}, {3, 2}, 2, true), Tensor(), hide(3, 2)), heads(1), "attn_mask of the wrong shape"},
      {masked(call({2, 2}, {3, 2}, 2, true), from_values({0, 1}, {2}, DType::Bool), Tensor()), heads(1),
       "key_padding_mask of the wrong shape"},
  };
}

}  // namespace

void register_attention_samples(OpSampleRegistry& registry) {
  registry.add({"scaled_dot_product_attention", attention_samples, {64.0, 64.0, 0.0, 1.0}, ""});
  // Three projections of E <= 4 products, then attention as above and a fourth projection: about
  // twice sdpa's error, against max|input|.
  registry.add({"multi_head_attention_forward", mha_samples, {128.0, 128.0, 0.0, 1.0}, ""});
}

}  // namespace funcspec::samples
