// Samples of the spec-defined custom functions (docs/SPEC.md, CUSTOM-3.x). Their forwards are
// ops of the catalogue, so their tolerances follow from those ops' (unary_samples.cpp):
//   - straight_through_round, straight_through_sign and clip_gradient compute round, sign and a
//     copy: correctly rounded, 0.5 ulps;
//   - log1pexp is relu(x) + log1p(exp(-|x|)): exp is within 2 ulps, log1p within 2 more and does
//     not amplify relative error (its condition number u / ((1 + u) log1p(u)) is at most 1 on
//     [0, 1]), and the sum adds two non-negative terms (no cancellation) with one rounding, so the
//     result is within 4.5 ulps; stated 6.
#include <cmath>
#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

std::vector<OpSample> custom_elementwise_samples(DType floating, SampleRng& rng, double lo, double hi,
                                                 const Attrs& attrs) {
  return {
      {{rng.tensor({2, 3}, floating, lo, hi)}, attrs, "2x3"},
      {{rng.tensor({64}, floating, lo, hi)}, attrs, "64 values"},
      {{rng.strided_tensor({3, 4}, floating, lo, hi)}, attrs, "transposed 3x4"},
      {{rng.strided_tensor({5}, floating, lo, hi)}, attrs, "stride-2 rank 1"},
      {{rng.tensor({}, floating, lo, hi)}, attrs, "rank 0"},
      {{rng.tensor({0, 3}, floating, lo, hi)}, attrs, "size-0 dim"},
  };
}

Tensor custom_special_values(std::initializer_list<double> extra, DType floating) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  std::vector<double> values{nan, inf, -inf, 0.0, -0.0, 1.0, -1.0};
  values.insert(values.end(), extra.begin(), extra.end());
  return from_vector(values, {static_cast<std::int64_t>(values.size())}, floating);
}

// round and sign take int64 too (an integer result carries no derivative) and refuse bool.
std::vector<OpSample> rounding_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = custom_elementwise_samples(floating, rng, -5.0, 5.0, {});
  out.push_back({{custom_special_values({0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994}, floating)},
                 {},
                 "NaN, infinities, signed zeros, ties"});
  out.push_back({{rng.tensor({4}, DType::Int64, -3, 4)}, {}, "int64"});
  out.push_back({{rng.tensor({4}, DType::Bool)}, {}, "bool (rejected)"});
  return out;
}

std::vector<OpSample> log1pexp_samples(DType floating, SampleRng& rng) {
  std::vector<OpSample> out = custom_elementwise_samples(floating, rng, -6.0, 6.0, {});
  // Where the naive log(1 + exp(x)) overflows (x = 100, 1000) or loses every digit (x = -30, -80).
  // -80 is as low as a float32 result stays normal (exp(-80) = 1.8e-35): below, the result is
  // subnormal, its spacing far coarser than ulps of its magnitude, and -1000 gives exactly 0.
  out.push_back({{custom_special_values({30.0, -30.0, 100.0, -80.0, 1000.0, -1000.0, 1e-10}, floating)},
                 {},
                 "NaN, infinities, signed zeros, large magnitudes"});
  return out;
}

std::vector<OpSample> clip_gradient_samples(DType floating, SampleRng& rng) {
  const Attrs unit{{"min", -1.0}, {"max", 1.0}};
  std::vector<OpSample> out = custom_elementwise_samples(floating, rng, -3.0, 3.0, unit);
  out.push_back({{custom_special_values({}, floating)}, unit, "NaN, infinities, signed zeros"});
  out.push_back({{rng.tensor({3}, floating)}, {{"min", 0.5}, {"max", 0.5}}, "empty-width interval"});
  out.push_back({{rng.tensor({3}, floating)}, {{"min", 1.0}, {"max", -1.0}}, "min above max (rejected)"});
  return out;
}

}  // namespace

void register_custom_samples(OpSampleRegistry& registry) {
  const OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  registry.add({"custom.straight_through_round", rounding_samples, exact, ""});
  registry.add({"custom.straight_through_sign", rounding_samples, exact, ""});
  registry.add({"custom.log1pexp", log1pexp_samples, {6.0, 6.0, 0.0, 0.0}, ""});
  registry.add({"custom.clip_gradient", clip_gradient_samples, exact, ""});
}

}  // namespace funcspec::samples
