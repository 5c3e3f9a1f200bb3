// Samples of the special-function family's composites (docs/ops/special.md). Its primitives
// (xlogy, special_xlog1py, hypot, copysign, special_entr) are sampled with the unary and binary
// families, whose sample calls they share. Tolerances (ulps of the result, see OracleTolerance):
//   - clamp_min and clamp_max are clamp: exact;
//   - sinc and logit are measured against a magnitude floor of 1: sinc(n) at an integer n is the
//     rounding error of pi * n (4e-17 in float64, 9e-8 in float32, whose pi differs from the
//     oracle's double one), and logit near 0.5 cancels to an absolute error of an ulp of 1
//     (log(z) - log1p(-z)); a few roundings each (sin or log, the product, the quotient or
//     difference): stated 4;
//   - lerp, addcmul and addcdiv chain two or three roundings (PyTorch's order of operations); the
//     sum cancels where self and the product nearly cancel, so the error is measured against the
//     operands' magnitude (input_scale 1 for lerp; 4, the largest product of two operands of
//     magnitude 2, for addcmul; addcdiv's divisors lie in [0.5, 2]): stated 4.
#include <limits>

#include "conformance/samples/op_samples.h"
#include "conformance/samples/unary_sample_calls.h"

namespace funcspec::samples {
namespace {

Tensor special_lit(const Scalar& value) { return Tensor::wrapped_scalar(value); }

// clamp_min and clamp_max: a bound as a tensor (clamp_min.Tensor) or as a number (clamp_min).
std::vector<OpSample> clamp_bound_samples(DType floating, SampleRng& rng) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  return {
      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, {}, "tensor bound, broadcast"},
      {{rng.tensor({5}, floating), special_lit(0.25)}, {}, "number bound"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2), rng.tensor({4, 1}, floating)}, {}, "transposed self"},
      {{rng.tensor({}, floating), rng.tensor({}, floating)}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating), special_lit(-1.0)}, {}, "size-0 dim"},
      {{from_values({nan, inf, -inf, 0.5, -3.0}, {5}, floating), special_lit(0.0)}, {}, "NaN and infinities in self"},
      {{from_values({0.5, 0.5}, {2}, floating), from_values({nan, 0.0}, {2}, floating)}, {}, "NaN bound"},
      {{rng.tensor({4}, DType::Int64, -9, 9), special_lit(std::int64_t{2})}, {}, "int64"},
      {{rng.tensor({4}, DType::Int64, -9, 9), rng.tensor({4}, floating)}, {}, "int64 with a float bound"},
      {{rng.tensor({4}, DType::Bool), special_lit(true)}, {}, "bool (rejected)"},
  };
}

std::vector<OpSample> lerp_samples(DType floating, SampleRng& rng) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {
      {{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating, -0.5, 1.5)},
       {},
       "tensor weight on both sides of 0.5"},
      {{rng.tensor({4}, floating), rng.tensor({4}, floating), special_lit(0.25)}, {}, "number weight below 0.5"},
      {{rng.tensor({4}, floating), rng.tensor({4}, floating), special_lit(0.75)}, {}, "number weight above 0.5"},
      {{rng.tensor({3, 1}, floating), rng.tensor({4}, floating), rng.tensor({3, 4}, floating, 0, 1)},
       {},
       "all three broadcast"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2), rng.tensor({3, 4}, floating), special_lit(2.0)},
       {},
       "transposed self, extrapolating weight"},
      {{rng.tensor({}, floating), rng.tensor({}, floating), rng.tensor({}, floating, 0, 1)}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating), rng.tensor({3}, floating), special_lit(0.5)}, {}, "size-0 dim"},
      {{from_values({1.0, 2.0}, {2}, floating), from_values({3.0, 4.0}, {2}, floating),
        from_values({nan, -0.5}, {2}, floating)},
       {},
       "NaN and negative weights"},
      {{rng.tensor({3}, DType::Int64, -5, 5), rng.tensor({3}, DType::Int64, -5, 5), special_lit(0.5)},
       {},
       "int64 (rejected)"},
  };
}

std::vector<OpSample> addc_samples(DType floating, SampleRng& rng, bool division) {
  const double lo = division ? 0.5 : -2.0;
  const auto divisor = [&](const Shape& shape) { return rng.tensor(shape, floating, lo, 2.0); };
  const Attrs scaled{{"value", 2.5}};
  std::vector<OpSample> out = {
      {{rng.tensor({2, 3}, floating), rng.tensor({2, 3}, floating), divisor({2, 3})}, scaled, "value 2.5"},
      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating), divisor({2, 1})}, {}, "broadcast, value 1"},
      {{rng.strided_tensor({3, 4}, floating, -2, 2), rng.tensor({3, 4}, floating), divisor({4})},
       {{"value", std::int64_t{-2}}},
       "transposed self, int value"},
      {{rng.tensor({}, floating), rng.tensor({}, floating), divisor({})}, {}, "rank 0"},
      {{rng.tensor({0, 3}, floating), rng.tensor({3}, floating), divisor({3})}, {}, "size-0 dim"},
      {{rng.tensor({3}, floating), rng.tensor({3}, DType::Int64, 1, 4), divisor({3})}, {}, "float with int64"},
      {{rng.tensor({3}, DType::Bool), rng.tensor({3}, DType::Bool), rng.tensor({3}, DType::Bool)},
       {},
       "bool (rejected)"},
  };
  if (division) {
    out.push_back(
        {{rng.tensor({3}, floating), rng.tensor({3}, DType::Int64, -4, 4), rng.tensor({3}, DType::Int64, 1, 4)},
         {},
         "integer tensor1 and tensor2 (rejected)"});
  } else {
    out.push_back({{rng.tensor({3}, DType::Int64, -4, 4), rng.tensor({3}, DType::Int64, -4, 4),
                    rng.tensor({3}, DType::Int64, -4, 4)},
                   {{"value", std::int64_t{3}}},
                   "int64"});
    out.push_back({{rng.tensor({3}, DType::Int64, -4, 4), rng.tensor({3}, DType::Int64, -4, 4),
                    rng.tensor({3}, DType::Int64, -4, 4)},
                   scaled,
                   "int64 with a float value (truncated)"});
  }
  return out;
}

}  // namespace

void register_special_samples(OpSampleRegistry& registry) {
  const OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  const OracleTolerance unit_floor{4.0, 4.0, 1.0, 0.0};
  registry.add({"clamp_min", clamp_bound_samples, exact, ""});
  registry.add({"clamp_max", clamp_bound_samples, exact, ""});
  // deg2rad: one product with the double constant fl(pi/180) (in float32 that constant rounded
  // again), against the oracle's product with the same double constant: measured 0.47
  // (float64) and 0.5 (float32); stated 0.5 and 1.5 (the float32 constant's own rounding).
  add_unary(registry, "deg2rad", {-360.0, 360.0, true, true}, {0.5, 1.5, 0.0, 0.0});
  add_unary(registry, "sinc", {-3.0, 3.0, true, true}, unit_floor);
  add_unary(registry, "logit", {0.02, 0.98, true, true}, unit_floor, {Attrs{}, Attrs{{"eps", 0.25}}});
  registry.add({"lerp", lerp_samples, {4.0, 4.0, 0.0, 1.0}, ""});
  registry.add(
      {"addcmul", [](DType f, SampleRng& rng) { return addc_samples(f, rng, false); }, {4.0, 4.0, 0.0, 4.0}, ""});
  registry.add(
      {"addcdiv", [](DType f, SampleRng& rng) { return addc_samples(f, rng, true); }, {4.0, 4.0, 0.0, 4.0}, ""});
}

}  // namespace funcspec::samples
