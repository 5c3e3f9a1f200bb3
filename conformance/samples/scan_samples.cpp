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

// logcumsumexp: every shape of shaped_inputs (its int64 and bool ones are rejected), large
// magnitudes (no overflow), and -inf prefixes, +inf and NaN on purpose; the special points hold them
// at <= 8 elements for the AD families.
std::vector<OpSample> logcumsumexp_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = along_dim(floating, rng, "dim");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Attrs rows{{"dim", std::int64_t{1}}};
  out.push_back({{rng.tensor({3, 5}, floating, -80.0, 80.0)}, rows, "large magnitudes"});
  out.push_back({{from_values({-inf, -inf, 1, -inf, 2, 1, inf, 2, inf, 0, 1, nan, 2, -inf, 0}, {3, 5}, floating)},
                 rows,
                 "-inf prefix, +inf, NaN"});
  return out;
}

// diff: every dim of shaped_inputs (n = 1; the rank-0 one is an error), every n (0, 2, past the
// size), prepend and append (alone, together, broadcast-free shapes, int64 into floating), bool, and
// each error.
std::vector<OpSample> diff_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = along_dim(floating, rng, "dim");
  for (OpSample& s : out) s.attrs.set("n", std::int64_t{1});
  auto with = [](std::int64_t n, std::int64_t dim) { return Attrs{{"n", n}, {"dim", dim}}; };
  out.push_back({{rng.tensor({3, 5}, floating)}, with(2, 1), "n 2"});
  out.push_back({{rng.tensor({3, 5}, floating)}, with(0, 1), "n 0 is the input"});
  out.push_back({{rng.tensor({3, 4}, floating)}, with(4, 1), "n equal to the size: empty"});
  out.push_back({{rng.tensor({3, 4}, floating)}, with(7, 0), "n past the size: empty"});
  out.push_back({{rng.tensor({3, 4}, floating), rng.tensor({3, 2}, floating)}, with(1, 1), "prepend"});
  out.push_back({{rng.tensor({3, 4}, floating), Tensor(), rng.tensor({1, 4}, floating)}, with(2, 0), "append"});
  out.push_back({{rng.strided_tensor({4, 3}, floating), rng.tensor({1, 3}, floating), rng.tensor({2, 3}, floating)},
                 with(3, 0),
                 "transposed, prepend and append"});
  out.push_back({{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({2, 1}, floating)},
                 with(1, -1),
                 "int64 with a floating prepend"});
  out.push_back({{rng.tensor({6}, DType::Bool)}, with(2, 0), "bool n 2 (not equal)"});
  out.push_back({{rng.tensor({2, 3}, floating)}, with(-1, 1), "negative n"});
  out.push_back({{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, with(1, 1), "prepend of another rank"});
  out.push_back(
      {{rng.tensor({2, 3}, floating), Tensor(), rng.tensor({3, 1}, floating)}, with(1, 1), "append of another shape"});
  return out;
}

// trapezoid.x / cumulative_trapezoid.x: x along dim (1-D), x of y's shape, a lower-rank x that
// broadcasts, repeated abscissae, dims of size 0 and 1, int64 y, and each error.
std::vector<OpSample> trapezoid_x_samples(DType floating, SampleRng& rng) {
  auto dim = [](std::int64_t d) { return Attrs{{"dim", d}}; };
  return {
      {{rng.tensor({2, 5}, floating), rng.tensor({5}, floating)}, dim(-1), "[2,5] with 1-D x"},
      {{rng.tensor({4, 3}, floating), rng.tensor({4}, floating)}, dim(0), "[4,3] dim 0 with 1-D x"},
      {{rng.tensor({2, 3, 4}, floating), rng.tensor({2, 3, 4}, floating)}, dim(1), "x of y's shape"},
      {{rng.tensor({2, 3, 4}, floating), rng.tensor({3, 4}, floating)}, dim(-1), "lower-rank x broadcasts"},
      {{rng.strided_tensor({4, 3}, floating), rng.tensor({3}, floating)}, dim(1), "transposed y"},
      {{rng.tensor({2, 4}, floating), from_values({0, 0, 1, 1}, {4}, floating)}, dim(1), "repeated abscissae"},
      {{rng.tensor({2, 0}, floating), rng.tensor({0}, floating)}, dim(1), "size-0 dim"},
      {{rng.tensor({2, 1}, floating), rng.tensor({1}, floating)}, dim(1), "size-1 dim"},
      {{rng.tensor({2, 3}, DType::Int64, -5, 5), rng.tensor({3}, DType::Int64, -5, 5)}, dim(1), "int64"},
      {{rng.tensor({2, 3}, floating), rng.tensor({2}, floating)}, dim(1), "one x per sample point"},
      {{rng.tensor({3}, DType::Bool), rng.tensor({3}, floating)}, dim(0), "bool y is rejected"},
      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, dim(2), "dim out of range"},
      {{rng.tensor({}, floating), rng.tensor({1}, floating)}, dim(-1), "rank-0 y"},
  };
}

// trapezoid.dx / cumulative_trapezoid.dx: every shape of shaped_inputs along its dim (the rank-0 one
// and the bool one are errors) with dx 1, then other spacings, including 0 and an integer.
std::vector<OpSample> trapezoid_dx_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = along_dim(floating, rng, "dim");
  for (OpSample& s : out) s.attrs.set("dx", Scalar(1.0));
  out.push_back({{rng.tensor({2, 5}, floating)}, {{"dx", Scalar(0.25)}, {"dim", std::int64_t{1}}}, "dx 0.25"});
  out.push_back({{rng.tensor({2, 5}, floating)}, {{"dx", Scalar(std::int64_t{3})}, {"dim", std::int64_t{0}}}, "dx 3"});
  out.push_back({{rng.tensor({2, 5}, floating)}, {{"dx", Scalar(0.0)}, {"dim", std::int64_t{1}}}, "dx 0"});
  out.push_back({{rng.tensor({2, 1}, floating)}, {{"dx", Scalar(1.0)}, {"dim", std::int64_t{1}}}, "size-1 dim"});
  return out;
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
  // logcumsumexp: logsumexp's tolerance (docs/ops/reduce.md): input_scale 1, the shift makes the
  // error absolute in max|x|: 4 ulps both.
  registry.add({"logcumsumexp", logcumsumexp_samples, {4.0, 4.0, 0.0, 1.0}, ""});
  // diff: n <= 3 rounded subtractions of values within input_scale 1; each rounding is within half
  // an ulp of a partial difference below 2^n max|x|: 4 ulps of max|x| both.
  registry.add({"diff", diff_samples, {4.0, 4.0, 0.0, 1.0}, ""});
  // trapezoid: a sum of n <= 24 terms dx (y[i+1] + y[i]), each within 1.5 ulps of itself (the
  // difference, the sum and the product rounded once each) and at most 4 max|input|, accumulated
  // like sum: input_scale 24 makes that 12 ulps float64; float32 rounds every term in float32 before
  // the float64 accumulation: 24 terms of 1.5 ulps of 4 max|input| against 24 max|input| is 6 ulps.
  // cumulative_trapezoid likewise (its prefixes are such sums).
  const OracleTolerance integration{12.0, 6.0, 0.0, kMaxScanLength};
  registry.add({"trapezoid.x", trapezoid_x_samples, integration, ""});
  registry.add({"trapezoid.dx", trapezoid_dx_samples, integration, ""});
  registry.add({"cumulative_trapezoid.x", trapezoid_x_samples, integration, ""});
  registry.add({"cumulative_trapezoid.dx", trapezoid_dx_samples, integration, ""});
}

}  // namespace funcspec::samples
