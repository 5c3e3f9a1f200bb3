// Samples of the losses of docs/ops/loss.md: every reduction, every option, broadcast and weighted
// forms, transposed operands, rank 0 and empty batches where the loss takes them, and the inputs
// each rejects by shape, dtype or attribute (multi_margin_loss's out-of-range target, a
// data-dependent error meta cannot see, is a case file). Their special points (special_point_declarations.cpp) put
// samples on every kink, margin, threshold, clamp and saturation. Tolerances, in ulps of the result, with the error
// measured against input_scale * max|input| where a loss subtracts terms of its inputs' size:
//   - differences and their squares or absolute values (l1, huber, smooth_l1, margin_ranking,
//     hinge_embedding): a difference cancels (input_scale 1..2), a square, a sum: 8;
//   - one log or logsigmoid per term and a sum (binary_cross_entropy, soft_margin,
//     multilabel_soft_margin, the with-logits form, whose (1 - t) x - logsigmoid(x) cancels for
//     very negative x exactly as PyTorch's does): 8 against max|input|;
//   - kl_div's t (log t - x) and gaussian_nll's log v + d^2 / v cancel two terms of the inputs'
//     size: 8 against 2 max|input|; poisson_nll's exp(x) - t x and Stirling's t log t - t: 8
//     against 8 max|input|;
//   - multi_margin's hinge sums: 8 against 2 max|input|;
//   - cosine_embedding's 1 - cos, cos from three sums and a square root: 16 against max|input|;
//     triplet_margin's difference of two pairwise distances: 16 against 4 max|input|.
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"

namespace funcspec::samples {
namespace {

Attrs reduced(const char* reduction, Attrs attrs = {}) {
  attrs.set("reduction", std::string(reduction));
  return attrs;
}

constexpr const char* kReductions[] = {"none", "sum", "mean"};

// Two same-shaped floating operands (input and target) for the elementwise regression losses.
std::vector<OpSample> regression_samples(DType floating, SampleRng& rng, const Attrs& option) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, -3, 3), rng.tensor({2, 3}, floating, -3, 3)},
                   reduced(reduction, option),
                   std::string("2x3, ") + reduction});
  }
  out.push_back({{rng.tensor({2, 3}, floating, -3, 3), rng.tensor({3}, floating, -3, 3)}, option, "broadcast target"});
  out.push_back(
      {{rng.strided_tensor({3, 4}, floating, -3, 3), rng.tensor({3, 4}, floating, -3, 3)}, option, "transposed input"});
  out.push_back({{rng.tensor({}, floating), rng.tensor({}, floating)}, option, "rank 0"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating)}, reduced("sum", option), "size-0, sum"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating)}, option, "size-0, mean is NaN"});
  out.push_back(
      {{rng.tensor({3}, DType::Int64, -3, 3), rng.tensor({3}, DType::Int64, -3, 3)}, option, "int64 (rejected)"});
  return out;
}

std::vector<OpSample> binary_cross_entropy_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  const Tensor weight = rng.tensor({3}, floating, 0.5, 2);
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, 0.05, 0.95), rng.tensor({2, 3}, floating, 0, 1)},
                   reduced(reduction),
                   std::string("probability targets, ") + reduction});
    out.push_back({{rng.tensor({2, 3}, floating, 0.05, 0.95), rng.tensor({2, 3}, floating, 0, 1), weight},
                   reduced(reduction),
                   std::string("weight broadcast along rows, ") + reduction});
  }
  out.push_back({{rng.strided_tensor({3, 4}, floating, 0.05, 0.95),
                  from_values({0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0}, {3, 4}, floating)},
                 {},
                 "transposed input, 0/1 targets"});
  out.push_back({{rng.tensor({}, floating, 0.1, 0.9), rng.tensor({}, floating, 0, 1)}, {}, "rank 0"});
  out.push_back(
      {{rng.tensor({0, 3}, floating, 0.1, 0.9), rng.tensor({0, 3}, floating, 0, 1)}, reduced("sum"), "size-0, sum"});
  out.push_back({{rng.tensor({2, 3}, floating, 0.1, 0.9), rng.tensor({3}, floating, 0, 1)},
                 {},
                 "target of another shape shape-mismatch"});
  out.push_back(
      {{rng.tensor({2, 3}, floating, 0.1, 0.9), rng.tensor({2, 3}, floating, 0, 1), rng.tensor({2}, floating)},
       {},
       "weight that does not broadcast shape-mismatch"});
  out.push_back({{rng.tensor({3}, floating, 0.1, 0.9), rng.tensor({3}, floating, 0, 1)},
                 {{"reduction", std::string("average")}},
                 "unknown reduction (rejected)"});
  return out;
}

std::vector<OpSample> with_logits_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  const Tensor weight = rng.tensor({2, 1}, floating, 0.5, 2);
  const Tensor pos_weight = rng.tensor({3}, floating, 0.5, 3);
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, -4, 4), rng.tensor({2, 3}, floating, 0, 1)},
                   reduced(reduction),
                   std::string("2x3, ") + reduction});
    out.push_back({{rng.tensor({2, 3}, floating, -4, 4), rng.tensor({2, 3}, floating, 0, 1), weight, pos_weight},
                   reduced(reduction),
                   std::string("weight and pos_weight, ") + reduction});
  }
  out.push_back({{rng.tensor({2, 3}, floating, -4, 4), rng.tensor({2, 3}, floating, 0, 1), Tensor(), pos_weight},
                 {},
                 "pos_weight only (per class, the last dim)"});
  out.push_back({{rng.strided_tensor({3, 4}, floating, -4, 4), rng.tensor({3, 4}, floating, 0, 1)}, {}, "transposed"});
  out.push_back({{rng.tensor({}, floating, -4, 4), rng.tensor({}, floating, 0, 1)}, {}, "rank 0"});
  out.push_back({{rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating, 0, 1), Tensor(), pos_weight},
                 reduced("sum"),
                 "size-0, sum"});
  out.push_back(
      {{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating, 0, 1), Tensor(), rng.tensor({2}, floating)},
       {},
       "pos_weight that does not broadcast shape-mismatch"});
  out.push_back(
      {{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, DType::Int64, 0, 2)}, {}, "int64 target (rejected)"});
  return out;
}

std::vector<OpSample> kl_div_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : {"none", "sum", "mean", "batchmean"}) {
    out.push_back({{rng.tensor({2, 3}, floating, -3, 0), rng.tensor({2, 3}, floating, 0.05, 1)},
                   reduced(reduction),
                   std::string("probability target, ") + reduction});
    out.push_back({{rng.tensor({2, 3}, floating, -3, 0), rng.tensor({2, 3}, floating, -3, 0)},
                   reduced(reduction, {{"log_target", true}}),
                   std::string("log target, ") + reduction});
  }
  out.push_back(
      {{rng.tensor({2, 3}, floating, -3, 0), rng.tensor({3}, floating, 0.05, 1)}, reduced("sum"), "broadcast target"});
  out.push_back({{rng.strided_tensor({3, 4}, floating, -3, 0), rng.tensor({3, 4}, floating, 0.05, 1)},
                 reduced("batchmean"),
                 "transposed, batchmean"});
  out.push_back({{rng.tensor({}, floating, -3, 0), rng.tensor({}, floating, 0.05, 1)},
                 reduced("batchmean"),
                 "rank 0, batchmean is the sum"});
  out.push_back({{rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating, 0.05, 1)},
                 reduced("batchmean"),
                 "size-0 batch, batchmean is 0/0"});
  out.push_back({{rng.tensor({3}, floating), rng.tensor({3}, floating, 0.05, 1)},
                 reduced("batch"),
                 "unknown reduction (rejected)"});
  return out;
}

std::vector<OpSample> gaussian_nll_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating, 0.2, 2)},
                   reduced(reduction),
                   std::string("heteroscedastic, ") + reduction});
  }
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({2, 1}, floating, 0.2, 2)},
                 {{"full", true}},
                 "var with last dim 1, full"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({2}, floating, 0.2, 2)},
                 {{"eps", 0.1}},
                 "var without the last dim, eps 0.1"});
  {
    OpSample clamped{
        {rng.tensor({4}, floating), rng.tensor({4}, floating), from_values({0.5, 0.05, 0.0, 2.0}, {4}, floating)},
        {{"eps", 0.25}, {"reduction", std::string("none")}},
        "var below eps is clamped"};
    clamped.no_derivative =
        "below eps the value is constant in var while var's derivative passes through the clamp (PyTorch's "
        "no_grad clamp, SPEC OPS-14.1); the AD-SPECIAL cases check that convention";
    out.push_back(std::move(clamped));
  }
  out.push_back({{rng.strided_tensor({3, 4}, floating), rng.tensor({3, 4}, floating),
                  rng.strided_tensor({3, 4}, floating, 0.2, 2)},
                 {},
                 "transposed"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating, 0.2, 2)},
                 reduced("sum"),
                 "size-0, sum"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({3, 2}, floating, 0.2, 2)},
                 {},
                 "var of another shape shape-mismatch"});
  out.push_back({{rng.tensor({3}, floating), rng.tensor({3}, floating), from_values({0.5, -0.25, 1.0}, {3}, floating)},
                 reduced("none"),
                 "negative var is NaN"});
  return out;
}

std::vector<OpSample> poisson_nll_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating, 0, 4)},
                   reduced(reduction),
                   std::string("log input, ") + reduction});
    out.push_back({{rng.tensor({2, 3}, floating, 0.1, 4), rng.tensor({2, 3}, floating, 0, 4)},
                   reduced(reduction, {{"log_input", false}, {"full", true}}),
                   std::string("rates, full, ") + reduction});
  }
  out.push_back(
      {{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating, 0, 4)}, {{"full", true}}, "log input, full"});
  out.push_back({{rng.tensor({2, 3}, floating, 0.1, 4), rng.tensor({3}, floating, 0, 4)},
                 {{"log_input", false}, {"eps", 0.5}},
                 "rates, eps 0.5, broadcast target"});
  out.push_back({{rng.strided_tensor({3, 4}, floating), rng.tensor({3, 4}, floating, 0, 4)}, {}, "transposed"});
  out.push_back({{rng.tensor({}, floating), rng.tensor({}, floating, 0, 4)}, {}, "rank 0"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating, 0, 4)}, reduced("sum"), "size-0, sum"});
  out.push_back({{rng.tensor({3}, DType::Int64, 0, 4), rng.tensor({3}, DType::Int64, 0, 4)}, {}, "int64 (rejected)"});
  return out;
}

Tensor signs(std::initializer_list<double> values, const Shape& shape, DType floating) {
  return from_values(values, shape, floating);
}

std::vector<OpSample> margin_ranking_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({4}, floating), rng.tensor({4}, floating), signs({1, -1, -1, 1}, {4}, floating)},
                   reduced(reduction, {{"margin", 0.5}}),
                   std::string("margin 0.5, ") + reduction});
  }
  out.push_back(
      {{rng.tensor({4}, floating), rng.tensor({4}, floating), signs({1, -1, 1, -1}, {4}, floating)}, {}, "margin 0"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({1, 3}, floating), signs({1, -1, 1}, {1, 3}, floating)},
                 {{"margin", 1.0}},
                 "broadcast"});
  out.push_back({{rng.strided_tensor({3, 2}, floating), rng.tensor({3, 2}, floating),
                  signs({1, -1, 1, 1, -1, -1}, {3, 2}, floating)},
                 {},
                 "transposed"});
  out.push_back({{rng.tensor({0}, floating), rng.tensor({0}, floating), rng.tensor({0}, floating)},
                 reduced("sum"),
                 "size-0, sum"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({3}, floating), signs({1, -1, 1}, {3}, floating)},
                 {},
                 "ranks differ shape-mismatch"});
  return out;
}

std::vector<OpSample> hinge_embedding_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, 0, 3), signs({1, -1, -1, 1, -1, 1}, {2, 3}, floating)},
                   reduced(reduction),
                   std::string("margin 1, ") + reduction});
  }
  out.push_back({{rng.tensor({4}, floating, 0, 3), signs({1, -1, 0, 2}, {4}, floating)},
                 {{"margin", 2.0}},
                 "targets other than +-1 take both pieces"});
  out.push_back({{rng.strided_tensor({3, 2}, floating, 0, 3), signs({-1}, {}, floating)}, {}, "transposed, broadcast"});
  out.push_back({{rng.tensor({}, floating, 0, 3), signs({-1}, {}, floating)}, {{"margin", 0.5}}, "rank 0"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating)}, reduced("sum"), "size-0, sum"});
  out.push_back({{rng.tensor({3}, DType::Int64, 0, 3), signs({1, -1, 1}, {3}, floating)}, {}, "int64 self (rejected)"});
  return out;
}

std::vector<OpSample> soft_margin_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, -4, 4), signs({1, -1, -1, 1, -1, 1}, {2, 3}, floating)},
                   reduced(reduction),
                   std::string("+-1 targets, ") + reduction});
  }
  out.push_back(
      {{rng.tensor({2, 3}, floating, -4, 4), rng.tensor({3}, floating, -1, 1)}, {}, "real targets, broadcast"});
  out.push_back({{rng.strided_tensor({3, 2}, floating, -4, 4), signs({1, -1}, {2}, floating)}, {}, "transposed"});
  out.push_back({{rng.tensor({}, floating, -4, 4), signs({-1}, {}, floating)}, {}, "rank 0"});
  out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating)}, reduced("sum"), "size-0, sum"});
  out.push_back(
      {{rng.tensor({3}, DType::Int64, -3, 3), signs({1, -1, 1}, {3}, floating)}, {}, "int64 self (rejected)"});
  return out;
}

std::vector<OpSample> multilabel_soft_margin_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  const Tensor weight = rng.tensor({3}, floating, 0.5, 2);
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({2, 3}, floating, -4, 4), signs({1, 0, 0, 1, 1, 0}, {2, 3}, floating)},
                   reduced(reduction),
                   std::string("0/1 targets, ") + reduction});
    out.push_back({{rng.tensor({2, 3}, floating, -4, 4), rng.tensor({2, 3}, floating, 0, 1), weight},
                   reduced(reduction),
                   std::string("weighted, soft targets, ") + reduction});
  }
  out.push_back({{rng.strided_tensor({4, 3}, floating, -4, 4), rng.tensor({4, 3}, floating, 0, 1)}, {}, "transposed"});
  out.push_back({{rng.tensor({3}, floating, -4, 4), rng.tensor({3}, floating, 0, 1)}, {}, "one sample, [C]"});
  out.push_back({{rng.tensor({2, 2, 3}, floating, -4, 4), rng.tensor({2, 2, 3}, floating, 0, 1)}, {}, "rank 3"});
  out.push_back({{rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating, 0, 1)}, reduced("sum"), "size-0, sum"});
  out.push_back({{rng.tensor({}, floating), rng.tensor({}, floating, 0, 1)}, {}, "rank 0 dim-out-of-range"});
  return out;
}

Tensor class_indices(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Int64);
}

std::vector<OpSample> multi_margin_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  const Tensor weight = rng.tensor({3}, floating, 0.5, 2);
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({4, 3}, floating), class_indices({0, 2, 1, 2}, {4})},
                   reduced(reduction),
                   std::string("p 1, ") + reduction});
    out.push_back({{rng.tensor({4, 3}, floating), class_indices({1, 0, 2, 2}, {4}), weight},
                   reduced(reduction, {{"p", Scalar(std::int64_t{2})}, {"margin", Scalar(0.5)}}),
                   std::string("p 2, margin 0.5, weighted, ") + reduction});
  }
  out.push_back({{rng.tensor({3}, floating), class_indices({1}, {})}, {}, "[C] with a rank-0 target"});
  out.push_back({{rng.strided_tensor({2, 4}, floating), class_indices({3, 0}, {2})},
                 {{"margin", Scalar(std::int64_t{2})}},
                 "transposed, margin 2"});
  out.push_back({{rng.tensor({0, 3}, floating), class_indices({}, {0})}, reduced("sum"), "size-0 batch, sum"});
  out.push_back(
      {{rng.tensor({2, 3}, floating), class_indices({0, 1}, {2})}, {{"p", Scalar(std::int64_t{3})}}, "p 3 (rejected)"});
  out.push_back({{rng.tensor({2, 0}, floating), class_indices({0, 0}, {2})}, {}, "no classes shape-mismatch"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({2}, floating)}, {}, "floating target (rejected)"});
  return out;
}

std::vector<OpSample> cosine_embedding_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating), signs({1, -1, -1, 1}, {4}, floating)},
                   reduced(reduction, {{"margin", 0.2}}),
                   std::string("margin 0.2, ") + reduction});
  }
  out.push_back({{rng.tensor({3}, floating), rng.tensor({3}, floating), signs({-1}, {}, floating)},
                 {{"margin", -0.5}},
                 "vectors, rank-0 target, margin -0.5"});
  out.push_back({{rng.strided_tensor({3, 2}, floating), rng.tensor({3, 2}, floating), signs({1, 0, -1}, {3}, floating)},
                 {},
                 "transposed, a target 0 contributes 0"});
  out.push_back({{rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating), rng.tensor({0}, floating)},
                 reduced("sum"),
                 "size-0 batch, sum"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({3}, floating), signs({1, -1}, {2}, floating)},
                 {},
                 "ranks differ shape-mismatch"});
  return out;
}

std::vector<OpSample> triplet_margin_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduction : kReductions) {
    out.push_back({{rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating)},
                   reduced(reduction),
                   std::string("p 2, margin 1, ") + reduction});
  }
  out.push_back({{rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating)},
                 {{"swap", true}, {"margin", 2.0}},
                 "swap, margin 2"});
  out.push_back({{rng.tensor({3, 2}, floating), rng.tensor({3, 2}, floating), rng.tensor({3, 2}, floating)},
                 {{"p", 1.0}, {"eps", 1e-3}},
                 "p 1, eps 1e-3"});
  out.push_back({{rng.strided_tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({1, 3}, floating)},
                 {{"p", 3.0}},
                 "transposed anchor, broadcast negative, p 3"});
  out.push_back({{rng.tensor({3}, floating), rng.tensor({3}, floating), rng.tensor({3}, floating)}, {}, "vectors"});
  out.push_back({{rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating), rng.tensor({0, 3}, floating)},
                 reduced("sum"),
                 "size-0 batch, sum"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({3}, floating), rng.tensor({2, 3}, floating)},
                 {},
                 "ranks differ shape-mismatch"});
  return out;
}

}  // namespace

void register_loss_samples(OpSampleRegistry& registry) {
  const OracleTolerance difference_and_square{8.0, 8.0, 0.0, 1.0};
  registry.add(
      {"l1_loss", [](DType f, SampleRng& rng) { return regression_samples(f, rng, {}); }, difference_and_square, ""});
  registry.add({"huber_loss",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out = regression_samples(f, rng, {});
                  for (double delta : {0.5, 2.5}) {
                    out.push_back({{rng.tensor({2, 3}, f, -3, 3), rng.tensor({2, 3}, f, -3, 3)},
                                   {{"delta", delta}},
                                   fmt::format("delta {}", delta)});
                  }
                  out.push_back({{rng.tensor({3}, f), rng.tensor({3}, f)}, {{"delta", 0.0}}, "delta 0 (rejected)"});
                  return out;
                },
                difference_and_square, ""});
  registry.add({"smooth_l1_loss",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out = regression_samples(f, rng, {});
                  for (double beta : {0.5, 2.5, 0.0}) {
                    out.push_back({{rng.tensor({2, 3}, f, -3, 3), rng.tensor({2, 3}, f, -3, 3)},
                                   {{"beta", beta}},
                                   fmt::format("beta {}", beta)});
                  }
                  out.push_back({{rng.tensor({3}, f), rng.tensor({3}, f)}, {{"beta", -1.0}}, "beta -1 (rejected)"});
                  return out;
                },
                difference_and_square, ""});
  registry.add({"binary_cross_entropy", binary_cross_entropy_samples, {8.0, 8.0, 0.0, 0.0}, ""});
  registry.add({"binary_cross_entropy_with_logits", with_logits_samples, {8.0, 8.0, 0.0, 1.0}, ""});
  registry.add({"kl_div", kl_div_samples, {8.0, 8.0, 0.0, 2.0}, ""});
  registry.add({"gaussian_nll_loss",
                gaussian_nll_samples,
                {8.0, 8.0, 0.0, 2.0},
                "",
                {},
                [](const TensorList& inputs, const Attrs& attrs, const TensorList&) -> std::string {
                  const double eps = attrs.has("eps") ? attrs.get_float("eps") : 1e-6;
                  const Tensor var = inputs.at(2);
                  for (double v : call_one("to_dtype", {var}, {{"dtype", DType::Float64}}).to_vector<double>()) {
                    if (v < eps) return "var below eps: var's derivative passes through the clamp (SPEC OPS-14.1)";
                  }
                  return "";
                }});
  registry.add({"poisson_nll_loss", poisson_nll_samples, {8.0, 8.0, 0.0, 8.0}, ""});
  registry.add({"margin_ranking_loss", margin_ranking_samples, {8.0, 8.0, 0.0, 2.0}, ""});
  registry.add({"hinge_embedding_loss", hinge_embedding_samples, {8.0, 8.0, 0.0, 1.0}, ""});
  registry.add({"soft_margin_loss", soft_margin_samples, {8.0, 8.0, 0.0, 1.0}, ""});
  registry.add({"multilabel_soft_margin_loss", multilabel_soft_margin_samples, {8.0, 8.0, 0.0, 1.0}, ""});
  registry.add({"multi_margin_loss", multi_margin_samples, {8.0, 8.0, 0.0, 2.0}, ""});
  registry.add({"cosine_embedding_loss", cosine_embedding_samples, {16.0, 16.0, 0.0, 1.0}, ""});
  registry.add({"triplet_margin_loss", triplet_margin_samples, {16.0, 16.0, 0.0, 4.0}, ""});
}

}  // namespace funcspec::samples
