// Samples for the scans and reorderings (docs/ops/scan.md states the tolerances and their reasons).
#include <limits>

#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

// The longest scan in the samples below; cumsum's tolerance scales with it.
constexpr double kMaxScanLength = 24;

// Tensors of every kind of shape, paired with a dim to work along.
std::vector<std::pair<OpSample, std::int64_t>> shaped_inputs(DType floating, SampleRng& rng) {
  return {
      {{{rng.tensor({2, 3, 4}, floating)}, {}, "[2,3,4] dim 1"}, 1},
      {{{rng.tensor({2, 3, 4}, floating)}, {}, "[2,3,4] dim -1"}, -1},
      {{{rng.tensor({24}, floating)}, {}, "[24]"}, 0},
      {{{rng.strided_tensor({4, 3}, floating)}, {}, "[4,3] transposed dim 0"}, 0},
      {{{rng.strided_tensor({4, 3}, floating)}, {}, "[4,3] transposed dim 1"}, 1},
      {{{rng.tensor({}, floating)}, {}, "rank 0"}, 0},
      {{{rng.tensor({0, 3}, floating)}, {}, "[0,3] dim 0"}, 0},
      {{{rng.tensor({3, 0}, floating)}, {}, "[3,0] dim 0"}, 0},
      {{{rng.tensor({5, 6}, DType::Int64, -3, 3)}, {}, "int64 with ties"}, 1},
      {{{rng.tensor({4, 3}, DType::Bool)}, {}, "bool"}, 0},
      {{{rng.tensor({2, 3}, floating)}, {}, "dim out of range"}, 2},
  };
}

std::vector<OpSample> along_dim(DType floating, SampleRng& rng, const std::string& dim_name) {
  std::vector<OpSample> out;
  for (auto& [sample, dim] : shaped_inputs(floating, rng)) {
    sample.attrs.set(dim_name, dim);
    out.push_back(std::move(sample));
  }
  return out;
}

std::vector<OpSample> scan_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = along_dim(floating, rng, "dim");
  out.push_back({{rng.tensor({3, 2}, DType::Int64, -3, 3)},
                 {{"dim", std::int64_t{0}}, {"dtype", floating}},
                 "int64 with dtype=floating"});
  return out;
}

std::vector<OpSample> flip_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (auto& [sample, dim] : shaped_inputs(floating, rng)) {
    sample.attrs.set("dims", std::vector<std::int64_t>{dim});
    out.push_back(std::move(sample));
  }
  out.push_back({{rng.tensor({2, 3, 4}, floating)}, {{"dims", std::vector<std::int64_t>{0, 2}}}, "dims 0,2"});
  out.push_back({{rng.tensor({2, 3}, floating)}, {{"dims", std::vector<std::int64_t>{}}}, "no dims"});
  out.push_back({{rng.tensor({2, 3}, floating)}, {{"dims", std::vector<std::int64_t>{1, -1}}}, "repeated dim"});
  return out;
}

std::vector<OpSample> roll_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  std::int64_t shift = -4;
  for (auto& [sample, dim] : shaped_inputs(floating, rng)) {
    sample.attrs.set("dims", std::vector<std::int64_t>{dim});
    sample.attrs.set("shifts", std::vector<std::int64_t>{shift++});
    out.push_back(std::move(sample));
  }
  out.push_back({{rng.tensor({2, 3, 4}, floating)},
                 {{"shifts", std::vector<std::int64_t>{1, -7}}, {"dims", std::vector<std::int64_t>{0, 2}}},
                 "two dims"});
  out.push_back({{rng.strided_tensor({4, 3}, floating)}, {{"shifts", std::vector<std::int64_t>{5}}}, "flattened"});
  out.push_back({{rng.tensor({2, 3}, floating)},
                 {{"shifts", std::vector<std::int64_t>{1, 2}}, {"dims", std::vector<std::int64_t>{0}}},
                 "shifts and dims of different lengths"});
  return out;
}

std::vector<OpSample> sort_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (bool descending : {false, true}) {
    for (auto& [sample, dim] : shaped_inputs(floating, rng)) {
      sample.attrs.set("dim", dim);
      sample.attrs.set("descending", descending);
      if (descending) sample.label += " descending";
      out.push_back(std::move(sample));
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.push_back({{from_values({2, nan, -1, 2, nan, 0}, {6}, floating)}, {}, "NaN and ties"});
  return out;
}

std::vector<OpSample> topk_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  std::int64_t k = 0;
  for (bool largest : {true, false}) {
    for (auto& [sample, dim] : shaped_inputs(floating, rng)) {
      // k runs over 0, 1, 2, ... clamped to the dim's size; size 0 dims take k = 0.
      const std::int64_t size = sample.inputs[0].dim() == 0    ? 1
                                : dim < sample.inputs[0].dim() ? sample.inputs[0].size(dim)
                                                               : 1;
      sample.attrs.set("k", std::min(k++ % 4, size));
      sample.attrs.set("dim", dim);
      sample.attrs.set("largest", largest);
      if (!largest) sample.label += " smallest";
      out.push_back(std::move(sample));
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.push_back({{from_values({2, nan, -1, 2, nan, 0}, {6}, floating)}, {{"k", std::int64_t{3}}}, "NaN and ties"});
  out.push_back({{rng.tensor({2, 3}, floating)}, {{"k", std::int64_t{4}}}, "k larger than the dim"});
  return out;
}

// cummax, cummin: every shape, then ties (the last index wins), NaN (the last NaN so far) and
// infinities on purpose; the special points hold the same at <= 8 elements for the AD families.
std::vector<OpSample> cumulative_extreme_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = along_dim(floating, rng, "dim");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  out.push_back({{from_values({3, 1, 3, nan, 2, nan, -inf, -inf, 1, inf, 1, inf}, {2, 6}, floating)},
                 {{"dim", std::int64_t{1}}},
                 "ties, NaN and infinities"});
  return out;
}

// sort's calls, the last with -0.0 beside 0 too: argsort shows the order it keeps among equal keys.
std::vector<OpSample> argsort_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = sort_samples(floating, rng);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.back() = {
      {from_values({2, nan, -1, 2, nan, 0, -0.0}, {7}, floating)}, {{"dim", std::int64_t{0}}}, "NaN and ties"};
  return out;
}

std::vector<OpSample> argsort_stable_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = argsort_samples(floating, rng);
  for (OpSample& s : out) s.attrs.set("stable", true);
  return out;
}

std::vector<OpSample> msort_samples(DType floating, SampleRng& rng) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {
      {{rng.tensor({4, 3}, floating)}, {}, "[4,3]"},
      {{rng.strided_tensor({4, 3}, floating)}, {}, "[4,3] transposed"},
      {{rng.tensor({}, floating)}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating)}, {}, "[0,3]"},
      {{from_values({2, nan, -1, 2, nan, 0}, {6}, floating)}, {}, "NaN and ties"},
      {{rng.tensor({5, 6}, DType::Int64, -3, 3)}, {}, "int64 with ties"},
  };
}

}  // namespace

void register_scan_samples(OpSampleRegistry& registry) {
  // cumsum: each prefix is a sequential sum of at most kMaxScanLength terms (see reduce_samples.cpp):
  // 12 ulps of kMaxScanLength·max|x| in float64; float32 accumulates in float64 and rounds once.
  registry.add({"cumsum", scan_samples, {12.0, 0.51, 0.0, kMaxScanLength}, ""});
  // cumprod: n-1 roundings of a product, relative: (n-1)·u.
  registry.add({"cumprod", scan_samples, {12.0, 0.51, 0.0, 0.0}, ""});
  // Reorderings move values without arithmetic: exact.
  registry.add({"flip", flip_samples, {}, ""});
  registry.add({"roll", roll_samples, {}, ""});
  registry.add({"sort", sort_samples, {}, ""});
  registry.add({"topk", topk_samples, {}, ""});
  // cummax, cummin return input elements: exact.
  registry.add({"cummax", cumulative_extreme_samples, {}, ""});
  registry.add({"cummin", cumulative_extreme_samples, {}, ""});
  registry.add({"argsort", argsort_samples, {}, ""});
  registry.add({"argsort.stable", argsort_stable_samples, {}, ""});
  registry.add({"msort", msort_samples, {}, ""});
}

}  // namespace funcspec::samples
