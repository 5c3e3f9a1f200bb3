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

// max.dim, min.dim, median.dim, nanmedian.dim: `int dim, bool keepdim`, values and indices. Ties,
// NaN and infinities are special points (special_point_declarations.cpp) and the NaN rows below.
std::vector<OpSample> selection_samples(DType floating, SampleRng& rng, bool bool_ok) {
  auto dim = [](std::int64_t d, bool keepdim = false) { return Attrs{{"dim", d}, {"keepdim", keepdim}}; };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<OpSample> out = {
      {{rng.tensor({2, 3, 4}, floating)}, dim(1), "[2,3,4] dim 1"},
      {{rng.tensor({2, 3, 4}, floating)}, dim(-1, true), "[2,3,4] dim -1 keepdim"},
      {{rng.tensor({5, 4}, floating)}, dim(0), "[5,4] dim 0 (odd count)"},
      {{rng.strided_tensor({4, 3}, floating)}, dim(0), "[4,3] transposed dim 0"},
      {{rng.strided_tensor({4, 3}, floating)}, dim(1, true), "[4,3] transposed dim 1 keepdim"},
      {{rng.tensor({}, floating)}, dim(0), "rank 0"},
      {{rng.tensor({}, floating)}, dim(-1, true), "rank 0 dim -1 keepdim"},
      {{rng.tensor({0, 3}, floating)}, dim(1), "[0,3] kept size-0 dim"},
      {{from_values({1, nan, 2, nan, -inf, 0.5, inf, -1}, {2, 4}, floating)}, dim(1), "NaN and infinities"},
      {{from_values({nan, nan, nan, 1, 3, 2}, {2, 3}, floating)}, dim(1), "a row of NaN"},
      {{rng.tensor({5, 6}, DType::Int64, -2, 2)}, dim(-1), "int64 with ties"},
      {{rng.tensor({0, 3}, floating)}, dim(0), "[0,3] reduced size-0 dim"},
      {{rng.tensor({2, 3}, floating)}, dim(2), "dim out of range"},
  };
  out.push_back({{rng.tensor({2, 3}, DType::Bool)}, dim(0), bool_ok ? "bool" : "bool is rejected"});
  return out;
}

// aminmax: `int? dim, bool keepdim`; every dim when None. Ties and NaN are special points; the
// empty reductions are errors.
std::vector<OpSample> aminmax_samples(DType floating, SampleRng& rng) {
  auto dim = [](std::optional<std::int64_t> d, bool keepdim = false) {
    Attrs attrs{{"keepdim", keepdim}};
    if (d) attrs.set("dim", *d);
    return attrs;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {
      {{rng.tensor({2, 3, 4}, floating)}, dim(1), "[2,3,4] dim 1"},
      {{rng.tensor({2, 3, 4}, floating)}, dim(-1, true), "[2,3,4] dim -1 keepdim"},
      {{rng.tensor({2, 3, 4}, floating)}, dim(std::nullopt), "[2,3,4] every dim"},
      {{rng.tensor({2, 3}, floating)}, dim(std::nullopt, true), "[2,3] every dim keepdim"},
      {{rng.strided_tensor({4, 3}, floating)}, dim(0), "[4,3] transposed dim 0"},
      {{rng.tensor({}, floating)}, dim(0), "rank 0"},
      {{rng.tensor({}, floating)}, dim(std::nullopt), "rank 0 every dim"},
      {{rng.tensor({0, 3}, floating)}, dim(1), "[0,3] kept size-0 dim"},
      {{from_values({1, nan, 2, nan, -inf, 0.5, inf, -1}, {2, 4}, floating)}, dim(1), "NaN and infinities"},
      {{rng.tensor({5, 6}, DType::Int64, -2, 2)}, dim(-1), "int64 with ties"},
      {{rng.tensor({2, 3}, DType::Bool)}, dim(0), "bool"},
      {{rng.tensor({0, 3}, floating)}, dim(0), "[0,3] reduced size-0 dim"},
      {{rng.tensor({0, 3}, floating)}, dim(std::nullopt), "empty, every dim"},
      {{rng.tensor({2, 3}, floating)}, dim(2), "dim out of range"},
  };
}

std::vector<OpSample> extreme_along_samples(DType floating, SampleRng& rng) {
  return selection_samples(floating, rng, true);
}
std::vector<OpSample> median_along_samples(DType floating, SampleRng& rng) {
  return selection_samples(floating, rng, false);
}

// median() and nanmedian(): every element.
std::vector<OpSample> median_all_samples(DType floating, SampleRng& rng) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {
      {{rng.tensor({2, 3, 4}, floating)}, {}, "[2,3,4] (even count)"},
      {{rng.tensor({5, 3}, floating)}, {}, "[5,3] (odd count)"},
      {{rng.strided_tensor({4, 3}, floating)}, {}, "[4,3] transposed"},
      {{rng.tensor({}, floating)}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating)}, {}, "empty gives NaN"},
      {{from_values({1, nan, -inf, 0.5, inf, 2}, {6}, floating)}, {}, "NaN and infinities"},
      {{rng.tensor({5, 6}, DType::Int64, -2, 2)}, {}, "int64 with ties"},
      {{rng.tensor({0}, DType::Int64)}, {}, "empty int64 is rejected"},
      {{rng.tensor({2, 3}, DType::Bool)}, {}, "bool is rejected"},
  };
}

std::vector<OpSample> kthvalue_samples(DType floating, SampleRng& rng) {
  auto at = [](std::int64_t k, std::int64_t d, bool keepdim = false) {
    return Attrs{{"k", k}, {"dim", d}, {"keepdim", keepdim}};
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {
      {{rng.tensor({2, 3, 4}, floating)}, at(2, -1), "[2,3,4] k=2 dim -1"},
      {{rng.tensor({2, 3, 4}, floating)}, at(1, 1, true), "[2,3,4] k=1 dim 1 keepdim"},
      {{rng.tensor({2, 3, 4}, floating)}, at(4, 2), "[2,3,4] k=4 (the largest)"},
      {{rng.strided_tensor({4, 3}, floating)}, at(3, 0), "[4,3] transposed dim 0"},
      {{rng.tensor({}, floating)}, at(1, 0), "rank 0"},
      {{rng.tensor({0, 3}, floating)}, at(2, 1), "[0,3] kept size-0 dim"},
      {{from_values({3, nan, 1, 2, nan, 0}, {6}, floating)}, at(5, 0), "NaN sorts last"},
      {{rng.tensor({5, 6}, DType::Int64, -2, 2)}, at(3, -1), "int64 with ties"},
      {{rng.tensor({2, 3}, floating)}, at(0, 1), "k=0 is out of range"},
      {{rng.tensor({2, 3}, floating)}, at(4, 1), "k above the dim's size is out of range"},
      {{rng.tensor({}, floating)}, at(2, 0), "rank 0 k=2 is out of range"},
      {{rng.tensor({2, 3}, floating)}, at(1, 2), "dim out of range"},
      {{rng.tensor({2, 3}, DType::Bool)}, at(1, 0), "bool is rejected"},
  };
}

// nansum, nanmean: sum's shapes, then NaN on purpose (a NaN row, a row of NaN only).
std::vector<OpSample> nan_sum_samples(DType floating, SampleRng& rng, bool integers) {
  std::vector<OpSample> out = integers ? sum_like_samples(floating, rng) : dims_samples(floating, rng);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.push_back({{from_values({1, nan, 2, nan, nan, nan}, {2, 3}, floating)},
                 dims(std::vector<std::int64_t>{1}),
                 "NaN, and a row of NaN only"});
  out.push_back({{from_values({1, nan, -2, 0.5}, {4}, floating)}, dims(std::nullopt), "NaN, all dims"});
  if (!integers) out.push_back({{rng.tensor({3}, DType::Int64)}, {}, "int64 is rejected"});
  return out;
}
std::vector<OpSample> nansum_samples(DType floating, SampleRng& rng) { return nan_sum_samples(floating, rng, true); }
std::vector<OpSample> nanmean_samples(DType floating, SampleRng& rng) { return nan_sum_samples(floating, rng, false); }

std::vector<OpSample> count_nonzero_samples(DType floating, SampleRng& rng) {
  auto dim = [](std::optional<std::int64_t> d) { return Attrs{{"dim", d ? AttrValue(*d) : AttrValue()}}; };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {
      {{from_values({0, 1, -0.0, nan, 2, 0}, {2, 3}, floating)}, dim(std::nullopt), "zeros, -0 and NaN, all dims"},
      {{from_values({0, 1, -0.0, nan, 2, 0}, {2, 3}, floating)}, dim(1), "zeros, -0 and NaN, dim 1"},
      {{rng.strided_tensor({4, 3}, floating)}, dim(0), "[4,3] transposed dim 0"},
      {{rng.tensor({}, floating)}, dim(std::nullopt), "rank 0"},
      {{rng.tensor({0, 3}, floating)}, dim(0), "[0,3] reduced size-0 dim"},
      {{rng.tensor({5, 6}, DType::Int64, -1, 1)}, dim(-1), "int64"},
      {{rng.tensor({3, 4}, DType::Bool)}, dim(0), "bool"},
      {{rng.tensor({2, 3}, floating)}, dim(2), "dim out of range"},
  };
}

// std_mean: var's samples but those whose variance is exactly 0 (rank 0): there std's derivative is
// NaN (0/0, docs/ops/reduce.md), and reverse mode's zero cotangent for std times its infinite slope
// also makes the mean's Jacobian NaN, which jacrev's families would read as a wrong derivative.
std::vector<OpSample> std_mean_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out;
  for (OpSample& s : var_samples(floating, rng)) {
    if (s.label.find("rank 0") == std::string::npos) out.push_back(std::move(s));
  }
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
  // The selections return input elements: exact.
  registry.add({"max.dim", extreme_along_samples, exact, ""});
  registry.add({"min.dim", extreme_along_samples, exact, ""});
  registry.add({"median.dim", median_along_samples, exact, ""});
  registry.add({"nanmedian.dim", median_along_samples, exact, ""});
  registry.add({"median", median_all_samples, exact, ""});
  registry.add({"nanmedian", median_all_samples, exact, ""});
  registry.add({"kthvalue", kthvalue_samples, exact, ""});
  registry.add({"aminmax", aminmax_samples, exact, ""});
  // nansum and nanmean: sum's and mean's tolerances (NaN contributes an exact 0).
  registry.add({"nansum", nansum_samples, summation, ""});
  registry.add({"nanmean", nanmean_samples, {12.0, 1.01, 0.0, 1.0}, ""});
  registry.add({"count_nonzero", count_nonzero_samples, exact, ""});
  // var_mean and std_mean: var's (std's) and mean's results, each within its own op's tolerance;
  // the pair takes the larger of the two (var's relative 16 / 3 ulps covers mean's input_scale-1 bound
  // only where |mean| is not far below max|x|, so mean's input_scale 1 is kept).
  registry.add({"var_mean", var_samples, {16.0, 3.0, 0.0, 1.0}, ""});
  registry.add({"std_mean", std_mean_samples, {16.0, 3.0, 0.0, 1.0}, ""});
}

}  // namespace funcspec::samples
