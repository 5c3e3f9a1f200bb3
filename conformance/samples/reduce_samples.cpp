// Samples for the reductions (docs/ops/reduce.md states the tolerances and their reasons).
#include <fmt/format.h>

#include <limits>

#include "conformance/samples/op_samples.h"
#include "reference/ops/registry.h"

namespace funcspec::samples {
namespace {

// The most terms any sample below reduces into one element; sum-like tolerances scale with it.
constexpr double kMaxReducedTerms = 24;

Attrs dims(std::optional<std::vector<std::int64_t>> dim, bool keepdim = false) {
  return {{"dim", dim ? AttrValue(*dim) : AttrValue()}, {"keepdim", keepdim}};
}

// The shapes and dims every `int[]? dim` reduction is tried on.
std::vector<OpSample> dims_samples(DType dtype, SampleRng& rng, double lo = -2.0, double hi = 2.0) {
  return {
      {{rng.tensor({2, 3, 4}, dtype, lo, hi)}, dims(std::nullopt), "[2,3,4] all dims"},
      {{rng.tensor({2, 3, 4}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{1}, true), "[2,3,4] dim 1 keepdim"},
      {{rng.tensor({2, 3, 4}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{0, -1}), "[2,3,4] dims 0,-1"},
      {{rng.tensor({3, 8}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{}), "[3,8] empty dim list = all"},
      {{rng.tensor({24}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{0}), "[24] 24 terms"},
      {{rng.strided_tensor({4, 3}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{0}), "[4,3] transposed dim 0"},
      {{rng.strided_tensor({4, 3}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{1}, true), "[4,3] transposed dim 1"},
      {{rng.tensor({}, dtype, lo, hi)}, dims(std::nullopt), "rank 0"},
      {{rng.tensor({}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{-1}, true), "rank 0 dim -1 keepdim"},
      {{rng.tensor({0, 3}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{1}), "[0,3] kept size-0 dim"},
      {{rng.tensor({0, 3}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{0}, true), "[0,3] reduced size-0 dim"},
      {{rng.tensor({2, 3}, dtype, lo, hi)}, dims(std::vector<std::int64_t>{2}), "dim out of range"},
  };
}

std::vector<OpSample> with_integer_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = dims_samples(floating, rng);
  out.push_back({{rng.tensor({3, 4}, DType::Int64, -3, 3)}, dims(std::vector<std::int64_t>{1}), "int64"});
  out.push_back({{rng.tensor({3, 4}, DType::Bool)}, dims(std::vector<std::int64_t>{0}), "bool"});
  return out;
}

std::vector<OpSample> sum_like_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = with_integer_samples(floating, rng);
  Attrs to_floating = dims(std::vector<std::int64_t>{0});
  to_floating.set("dtype", floating);
  out.push_back({{rng.tensor({5, 2}, DType::Int64, -3, 3)}, to_floating, "int64 with dtype=floating"});
  return out;
}

std::vector<OpSample> arg_samples(DType floating, SampleRng& rng) {
  auto dim = [](std::optional<std::int64_t> d, bool keepdim = false) {
    return Attrs{{"dim", d ? AttrValue(*d) : AttrValue()}, {"keepdim", keepdim}};
  };
  // Values drawn from a few integers, so that ties are common.
  return {
      {{rng.tensor({2, 3, 4}, floating)}, dim(std::nullopt), "[2,3,4] flattened"},
      {{rng.tensor({2, 3, 4}, floating)}, dim(std::nullopt, true), "[2,3,4] flattened keepdim"},
      {{rng.tensor({2, 3, 4}, floating)}, dim(1, true), "[2,3,4] dim 1 keepdim"},
      {{rng.tensor({5, 6}, DType::Int64, -2, 2)}, dim(-1), "int64 with ties"},
      {{rng.strided_tensor({4, 3}, floating)}, dim(0), "[4,3] transposed"},
      {{rng.tensor({}, floating)}, dim(0), "rank 0"},
      {{rng.tensor({0, 3}, floating)}, dim(1), "[0,3] kept size-0 dim"},
      {{rng.tensor({0, 3}, floating)}, dim(0), "[0,3] reduced size-0 dim"},
      {{rng.tensor({2, 3}, DType::Bool)}, dim(0), "bool is rejected"},
  };
}

std::vector<OpSample> norm_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (double p :
       {0.0, 1.0, 2.0, 3.0, 0.5, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    for (OpSample& s : dims_samples(floating, rng)) {
      s.attrs.set("p", Scalar(p));
      s.label += fmt::format(" p={}", p);
      out.push_back(std::move(s));
    }
  }
  out.push_back({{rng.tensor({3}, DType::Int64)}, {}, "int64 is rejected"});
  out.push_back({{rng.tensor({3}, floating)}, {{"p", Scalar(-1.0)}}, "p=-1 is rejected"});
  return out;
}

// Inputs drawn from a narrower range than usual, so that variances do not all look alike.
std::vector<OpSample> var_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = dims_samples(floating, rng, 1.0, 3.0);
  std::vector<OpSample> corrected = dims_samples(floating, rng, -1.0, 1.0);
  for (OpSample& s : corrected) {
    s.attrs.set("correction", Scalar(0));
    s.label += " correction=0";
    out.push_back(std::move(s));
  }
  Attrs big_correction = dims(std::vector<std::int64_t>{1});
  big_correction.set("correction", Scalar(5.5));
  out.push_back({{rng.tensor({2, 4}, floating)}, big_correction, "N - correction < 0 gives inf"});
  out.push_back({{rng.tensor({3}, DType::Int64)}, {}, "int64 is rejected"});
  return out;
}

std::vector<OpSample> logsumexp_samples(DType floating, SampleRng& rng) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<OpSample> out;
  for (OpSample& s : dims_samples(floating, rng, -20.0, 20.0)) {
    if (s.attrs.is_none("dim")) s.attrs.set("dim", std::vector<std::int64_t>{});
    out.push_back(std::move(s));
  }
  Attrs last = {{"dim", std::vector<std::int64_t>{1}}};
  out.push_back({{from_values({-inf, -inf, 1.0, 2.0, inf, 3.0}, {2, 3}, floating)}, last, "rows of -inf and +inf"});
  out.push_back({{rng.tensor({2, 3}, DType::Int64, -5, 5)}, last, "int64 computes in float32"});
  return out;
}

}  // namespace

void register_reduce_samples(OpSampleRegistry& registry) {
  // Sequential summation of n <= kMaxReducedTerms terms errs by at most (n-1)·u·sum|x| (u = eps/2), so
  // with magnitude >= kMaxReducedTerms·max|x| float64 stays within 11.5 ulps plus 0.5 for the final
  // rounding; float32 accumulates in float64 and is rounded once: 0.5 ulps plus a negligible term.
  const OracleTolerance summation{12.0, 0.51, 0.0, kMaxReducedTerms};
  // Products do not cancel: the relative error of n-1 roundings is (n-1)·u, the same 12 / 0.51.
  const OracleTolerance product{12.0, 0.51, 0.0, 0.0};
  const OracleTolerance exact{};
  registry.add({"sum", sum_like_samples, summation, ""});
  registry.add({"prod", sum_like_samples, product, ""});
  registry.add({"amax", with_integer_samples, exact, ""});
  registry.add({"amin", with_integer_samples, exact, ""});
  registry.add({"all", with_integer_samples, exact, ""});
  registry.add({"any", with_integer_samples, exact, ""});
  registry.add({"argmax", arg_samples, exact, ""});
  registry.add({"argmin", arg_samples, exact, ""});
  // norm: float64 accumulates like sum (relative, no cancellation: 11.5 ulps) plus the pow/sqrt
  // roundings; float32 computes in float64 and rounds once.
  registry.add({"norm", norm_samples, {16.0, 0.51, 0.0, 0.0}, ""});
  // mean = sum / n: the sum's error divided by n is within 11.5 ulps of max|x| (input_scale 1),
  // plus the division's rounding; float32 rounds the sum and the quotient: 1 ulp.
  registry.add({"mean", sum_like_samples, {12.0, 1.01, 0.0, 1.0}, ""});
  registry.add({"var", var_samples, {16.0, 3.0, 0.0, 0.0}, ""});
  registry.add({"std", var_samples, {16.0, 3.0, 0.0, 0.0}, ""});
  registry.add({"logsumexp", logsumexp_samples, {4.0, 4.0, 0.0, 1.0}, ""});
}

}  // namespace funcspec::samples
