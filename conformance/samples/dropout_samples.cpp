// Samples of the dropout family (docs/ops/dropout.md). Training samples draw: the value checks
// compare the float draws with the oracle's draws of the same bits (NOTE: [portable
// distributions]); eval, p = 0 and p = 1 draw nothing. Feature dropout's samples cover each rank
// the op reads differently (batched, unbatched, dropout2d's (N, C, L)).
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

Attrs with_p(double p) { return {{"p", p}}; }

std::vector<OpSample> dropout_samples(DType floating, SampleRng& rng) {
  return {
      {{rng.tensor({4, 5}, floating)}, with_p(0.3), "training"},
      {{rng.strided_tensor({4, 3}, floating)}, with_p(0.5), "transposed"},
      {{rng.tensor({}, floating)}, with_p(0.2), "rank 0"},
      {{rng.tensor({0, 4}, floating)}, {}, "size-0 dim"},
      {{rng.tensor({3}, floating)}, with_p(1.0), "p = 1"},
      {{rng.tensor({3}, floating)}, {{"train", false}}, "eval"},
  };
}

// dropout's samples, plus p = 0 and the rejected arguments.
std::vector<OpSample> alpha_dropout_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = dropout_samples(floating, rng);
  out.push_back({{rng.tensor({3}, floating)}, with_p(0.0), "p = 0"});
  out.push_back({{rng.tensor({3}, floating)}, with_p(1.5), "p 1.5 (rejected)"});
  out.push_back({{rng.tensor({3}, DType::Int64, -3, 3)}, {}, "int64 (rejected)"});
  return out;
}

std::vector<OpSample> feature_samples(DType floating, SampleRng& rng, std::int64_t spatial) {
  Shape unbatched{3};
  for (std::int64_t d = 0; d < spatial; ++d) unbatched.push_back(2);
  Shape batched = unbatched;
  batched.insert(batched.begin(), 2);
  std::vector<OpSample> out{
      {{rng.tensor(batched, floating)}, with_p(0.4), "batched"},
      {{rng.tensor(unbatched, floating)}, with_p(0.4), "unbatched"},
      {{rng.tensor(batched, floating)}, with_p(1.0), "p = 1"},
      {{rng.tensor(batched, floating)}, {{"p", 0.5}, {"train", false}}, "eval"},
      {{rng.tensor({0, 3, 2}, floating)}, with_p(0.5), "size-0 batch"},
      {{rng.tensor({3}, floating)}, with_p(2.0), "p 2 (rejected)"},
  };
  if (spatial == 1) {
    out.push_back({{rng.strided_tensor({4, 3}, floating)}, with_p(0.5), "transposed (C, L)"});
    out.push_back({{rng.tensor({2, 3, 2, 2}, floating)}, with_p(0.5), "4-D shape-mismatch"});
  } else {
    out.push_back({{rng.tensor({2, 3, 4}, floating)}, with_p(0.5), "3-D"});
    out.push_back({{rng.tensor({}, floating)}, with_p(0.5), "rank 0 shape-mismatch"});
  }
  out.push_back({{rng.tensor(batched, DType::Int64, -3, 3)}, with_p(0.5), "int64 (rejected)"});
  return out;
}

// gumbel_softmax over every dim and rank it reads, soft and hard, tau above and below 1, an empty
// softmax dim (hard needs an element to pick: argmax's error) and an empty batch.
std::vector<OpSample> gumbel_softmax_samples(DType floating, SampleRng& rng) {
  const auto with = [](double tau, bool hard, std::int64_t dim) {
    return Attrs{{"tau", tau}, {"hard", hard}, {"dim", dim}};
  };
  return {
      {{rng.tensor({3, 4}, floating)}, {}, "soft, defaults"},
      {{rng.strided_tensor({4, 3}, floating)}, with(0.5, false, 0), "transposed, dim 0, tau 0.5"},
      {{rng.tensor({2, 3, 2}, floating)}, with(2.0, true, 1), "hard, 3-D, dim 1, tau 2"},
      {{rng.tensor({5}, floating)}, with(1.0, true, -1), "hard, 1-D"},
      {{rng.tensor({}, floating)}, with(1.0, true, 0), "hard, rank 0"},
      {{rng.tensor({0, 4}, floating)}, with(1.0, true, -1), "hard, size-0 batch"},
      {{rng.tensor({3, 0}, floating)}, with(1.0, false, -1), "soft, empty dim"},
      {{rng.tensor({3, 0}, floating)}, with(1.0, true, -1), "hard, empty dim (rejected)"},
      {{rng.tensor({2, 3}, floating)}, with(1.0, false, 2), "dim out of range (rejected)"},
  };
}

}  // namespace

void register_dropout_samples(OpSampleRegistry& registry) {
  // keep / (1 - p) and the product: two roundings.
  registry.add({"dropout", dropout_samples, {1.0, 1.0, 0.0, 0.0}, ""});
  for (std::int64_t spatial : {1, 2, 3}) {
    registry.add({"dropout" + std::to_string(spatial) + "d",
                  [spatial](DType f, SampleRng& rng) { return feature_samples(f, rng, spatial); },
                  {1.0, 1.0, 0.0, 0.0},
                  ""});
  }
  // x * (keep * a) + b, b from keep, a and constants: four roundings of terms of |x| a and a few.
  registry.add({"alpha_dropout", alpha_dropout_samples, {4.0, 4.0, 0.0, 2.0}, ""});
  // -log of the exponential draw (within a few ulps relatively: an absolute error of a few eps in
  // g, plus log's rounding of |g| <= 45), over tau >= 0.5, then softmax's own error; hard adds
  // one_hot - y + y. Measured against the outputs' scale of 1.
  registry.add({"gumbel_softmax", gumbel_softmax_samples, {16.0, 8.0, 1.0, 0.0}, ""});
  registry.add({"feature_alpha_dropout",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out = feature_samples(f, rng, 2);
                  out.push_back({{rng.tensor({3}, f)}, with_p(0.5), "1-D shape-mismatch"});
                  return out;
                },
                {4.0, 4.0, 0.0, 2.0},
                ""});
}

}  // namespace funcspec::samples
