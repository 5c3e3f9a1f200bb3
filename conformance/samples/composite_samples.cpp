// Samples of the composite family. The ops these decompose into (exp, log, sub, mul, div, where,
// amax, sum, mean, gather, matmul, ...) come from other families; where one is missing both runs
// of a check fail alike with unknown_op, so the checks only bite once the catalogue is complete.
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

Tensor targets(std::initializer_list<double> values, const Shape& shape) {
  return from_values(values, shape, DType::Int64);
}

std::vector<OpSample> loss_samples(DType floating, SampleRng& rng, bool probability_targets) {
  std::vector<OpSample> out;
  const Tensor weight = rng.tensor({3}, floating, 0.5, 2);
  for (const char* reduction : {"none", "sum", "mean"}) {
    out.push_back({{rng.tensor({4, 3}, floating), targets({0, -100, 2, 1}, {4})},
                   {{"reduction", std::string(reduction)}},
                   std::string("[4,3] with an ignored target, ") + reduction});
    out.push_back({{rng.tensor({4, 3}, floating), targets({0, 1, 2, 1}, {4}), weight},
                   {{"reduction", std::string(reduction)}},
                   std::string("weighted, ") + reduction});
  }
  out.push_back({{rng.tensor({3}, floating), targets({2}, {})}, {}, "[C] with a rank-0 target"});
  out.push_back({{rng.tensor({2, 3, 2}, floating), targets({0, 2, 1, 1}, {2, 2})}, {}, "[N, C, d]"});
  out.push_back({{rng.strided_tensor({4, 3}, floating), targets({1, 1, 0, 2}, {4})},
                 {{"ignore_index", std::int64_t{1}}},
                 "transposed, ignore_index 1"});
  out.push_back(
      {{rng.tensor({0, 3}, floating), targets({}, {0})}, {{"reduction", std::string("sum")}}, "size-0 batch"});
  if (probability_targets) {
    out.push_back({{rng.tensor({4, 3}, floating), targets({0, -100, 2, 1}, {4}), weight},
                   {{"label_smoothing", 0.2}},
                   "weighted, label smoothing"});
    out.push_back({{rng.tensor({4, 3}, floating), targets({0, -100, 2, 1}, {4})},
                   {{"label_smoothing", 0.1}},
                   "label smoothing with an ignored target"});
    out.push_back({{rng.tensor({4, 3}, floating), rng.tensor({4, 3}, floating, 0, 1)}, {}, "probability targets"});
    out.push_back({{rng.tensor({2, 3, 2}, floating), rng.tensor({2, 3, 2}, floating, 0, 1), weight},
                   {{"label_smoothing", 0.3}, {"reduction", std::string("none")}},
                   "probability targets [N, C, d]"});
  }
  return out;
}

std::vector<OpSample> fill_samples(DType floating, SampleRng& rng, const Attrs& attrs) {
  return {
      {{rng.tensor({2, 3}, floating)}, attrs, "2x3"},
      {{rng.strided_tensor({3, 4}, floating)}, attrs, "transposed"},
      {{rng.tensor({}, floating)}, attrs, "rank 0"},
      {{rng.tensor({0, 3}, floating)}, attrs, "size-0 dim"},
      {{rng.tensor({3}, DType::Int64)}, attrs, "int64 self"},
  };
}

}  // namespace

std::vector<OpSample> softmax_samples(DType floating, SampleRng& rng, double extreme_entry) {
  return {
      {{rng.tensor({2, 5}, floating)}, {{"dim", std::int64_t{1}}}, "2x5 dim 1"},
      {{rng.strided_tensor({3, 4}, floating)}, {{"dim", std::int64_t{0}}}, "transposed dim 0"},
      {{rng.tensor({2, 3, 4}, floating)}, {{"dim", std::int64_t{-2}}}, "rank 3, negative dim"},
      {{rng.tensor({}, floating)}, {{"dim", std::int64_t{0}}}, "rank 0"},
      {{rng.tensor({0, 3}, floating)}, {{"dim", std::int64_t{1}}}, "size-0 dim"},
      {{from_values({extreme_entry, 0, 1}, {3}, floating)},
       {{"dim", std::int64_t{0}}},
       extreme_entry < 0 ? "-inf entry" : "+inf entry"},
      // dtype= converts the input first: an int64 input is computed in the floating dtype.
      {{rng.tensor({2, 4}, DType::Int64, -3, 4)}, {{"dim", std::int64_t{1}}, {"dtype", floating}}, "int64 with dtype"},
      {{rng.tensor({2, 4}, floating)}, {{"dim", std::int64_t{0}}, {"dtype", floating}}, "dtype of the input"},
      {{rng.tensor({3}, floating)}, {{"dim", std::int64_t{0}}, {"dtype", DType::Int64}}, "int64 dtype (rejected)"},
  };
}

void register_composite_samples(OpSampleRegistry& registry) {
  // exp of x - max (|x - max| <= 4: the shift's rounding costs <= 2 ulps through exp), exp's own
  // bound, a sum of <= 5 positive terms (<= 2.5 ulps) and one division: <= 7 ulps.
  registry.add({"softmax",
                [](DType f, SampleRng& rng) { return softmax_samples(f, rng, -INFINITY); },
                {8.0, 8.0, 0.0, 0.0},
                ""});
  // (x - max) - log(sum): the result can cancel, so the error is measured against max|x| (input_scale 1).
  registry.add({"log_softmax",
                [](DType f, SampleRng& rng) { return softmax_samples(f, rng, -INFINITY); },
                {8.0, 8.0, 0.0, 1.0},
                ""});
  // Sums of <= 6 picked terms |x w| <= 4 and a division: absolute error <= 6 * 4 eps + ... against
  // a magnitude floor of 4 max|input| >= 8.
  registry.add(
      {"nll_loss", [](DType f, SampleRng& rng) { return loss_samples(f, rng, false); }, {8.0, 8.0, 0.0, 4.0}, ""});
  // log_softmax (<= 8 ulps of max|x|) feeding the same sums.
  registry.add({"cross_entropy",
                [](DType f, SampleRng& rng) { return loss_samples(f, rng, true); },
                {16.0, 16.0, 0.0, 4.0},
                ""});
  registry.add(
      {"mse_loss",
       [](DType floating, SampleRng& rng) {
         std::vector<OpSample> out;
         for (const char* reduction : {"none", "sum", "mean"}) {
           out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)},
                          {{"reduction", std::string(reduction)}},
                          std::string("broadcast, ") + reduction});
         }
         out.push_back({{rng.strided_tensor({3, 4}, floating), rng.tensor({3, 4}, floating)}, {}, "transposed"});
         out.push_back({{rng.tensor({}, floating), rng.tensor({}, floating)}, {}, "rank 0"});
         out.push_back({{rng.tensor({0, 2}, floating), rng.tensor({0, 2}, floating)},
                        {{"reduction", std::string("sum")}},
                        "size-0 dim"});
         return out;
       },
       // A difference (0.5 ulp), its square (1.5 ulps) and a sum of <= 12 positive terms.
       {8.0, 8.0, 0.0, 1.0},
       ""});
  registry.add(
      {"linear",
       [](DType floating, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({2, 3}, floating), rng.tensor({4, 3}, floating), rng.tensor({4}, floating)}, {}, "with bias"},
             {{rng.strided_tensor({5, 3}, floating), rng.tensor({2, 3}, floating)}, {}, "transposed input"},
             {{rng.tensor({3}, floating), rng.tensor({2, 3}, floating)}, {}, "1-D input"},
             {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, {}, "1-D weight"},
             {{rng.tensor({0, 3}, floating), rng.tensor({4, 3}, floating), rng.tensor({4}, floating)},
              {},
              "size-0 batch"},
             {{rng.tensor({2, 2, 3}, floating), rng.tensor({1, 3}, floating), rng.tensor({}, floating)}, {}, "batched"},
         };
       },
       // Dot products of <= 3 terms |x w| <= 4 plus a bias: cancellation is measured against 8 max|input|.
       {4.0, 4.0, 0.0, 8.0},
       ""});
  registry.add(
      {"layer_norm",
       [](DType floating, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({2, 4}, floating), rng.tensor({4}, floating), rng.tensor({4}, floating)},
              {{"normalized_shape", Shape{4}}},
              "weight and bias"},
             {{rng.tensor({2, 2, 3}, floating)}, {{"normalized_shape", Shape{2, 3}}, {"eps", 1e-3}}, "two dims"},
             {{rng.strided_tensor({3, 5}, floating)}, {{"normalized_shape", Shape{5}}}, "transposed"},
             {{rng.tensor({0, 3}, floating)}, {{"normalized_shape", Shape{3}}}, "size-0 batch"},
             {{rng.tensor({2, 4}, floating), rng.tensor({4}, floating)},
              {{"normalized_shape", Shape{4}}, {"eps", 1e-4}},
              "weight only"},
             {{rng.tensor({3, 4}, floating), Tensor(), rng.tensor({4}, floating)},
              {{"normalized_shape", Shape{4}}, {"eps", 1e-3}},
              "bias only"},
             {{rng.tensor({5}, floating), rng.tensor({5}, floating), rng.tensor({5}, floating)},
              {{"normalized_shape", Shape{5}}, {"eps", 1e-2}},
              "1-D input, weight and bias"},
             {{rng.tensor({2, 3}, floating)}, {{"normalized_shape", Shape{4}}}, "not a trailing shape shape-mismatch"},
             {{rng.tensor({2, 3}, floating)}, {{"normalized_shape", Shape{}}}, "empty normalized_shape (rejected)"},
             {{rng.tensor({2, 4}, floating), rng.tensor({3}, floating)},
              {{"normalized_shape", Shape{4}}},
              "weight of 3 elements shape-mismatch"},
             {{rng.tensor({2, 4}, DType::Int64, -3, 3)}, {{"normalized_shape", Shape{4}}}, "int64 (rejected)"},
         };
       },
       // Normalized values are O(1); the mean, variance (sums of <= 6 terms) and rsqrt each
       // add a few ulps relative to 1.
       {16.0, 16.0, 1.0, 0.0},
       ""});
  registry.add({"fill_", [](DType f, SampleRng& rng) { return fill_samples(f, rng, {{"value", 2.5}}); }, {}, ""});
  registry.add({"zero_", [](DType f, SampleRng& rng) { return fill_samples(f, rng, {}); }, {}, ""});
}

}  // namespace funcspec::samples
