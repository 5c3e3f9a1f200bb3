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

}  // namespace

void register_attention_samples(OpSampleRegistry& registry) {
  registry.add({"scaled_dot_product_attention", attention_samples, {64.0, 64.0, 0.0, 1.0}, ""});
}

}  // namespace funcspec::samples
