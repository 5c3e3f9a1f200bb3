// Samples of the unary elementwise ops. Tolerances (ulps of the result, see OracleTolerance);
// "measured" is the largest error over seeds 1..8 and the default smoke seed:
//   - correctly rounded ops state 0.5: neg, abs, sign, square, relu, floor, ceil, round, sqrt,
//     reciprocal (one IEEE operation or none);
//   - rsqrt is two roundings (sqrt, then 1/x): at most about 1 ulp; measured 0.73, stated 1.5;
//   - libm functions (exp, expm1, log, log1p, sin, cos, tan, tanh, erf) are within about 1 ulp in
//     glibc for float and double; measured 1.09 at most (tanh, float32), stated 2;
//   - sigmoid and softplus chain a libm call with a few roundings; measured 1.09, stated 4;
//   - gelu states 24: its exact form measures 1.87 (seeds 1..40), but the tanh form,
//     x * sigmoid(2u) with u = sqrt(2/pi) (x + 0.044715 x^3), has a condition number of |2u| (up
//     to 11 on the sampled range [-4, 4]) in the negative tail, multiplying the roughly 2 ulps of
//     rounding in u; measured 11.1 (float64) and 9.14 (float32) over seeds 1..40.
#include <cmath>
#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

Tensor special_values(DType floating) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  return from_values({nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5}, {10}, floating);
}

struct UnaryDomain {
  double lo = -2.0;
  double hi = 2.0;
  bool takes_integers = true;  // int64 and bool inputs are accepted (possibly converted)
  bool takes_bool = true;
};

std::vector<OpSample> unary_samples(DType floating, SampleRng& rng, const UnaryDomain& domain, const Attrs& attrs) {
  const double lo = domain.lo, hi = domain.hi;
  std::vector<OpSample> out = {
      {{rng.tensor({2, 3}, floating, lo, hi)}, attrs, "2x3"},
      {{rng.tensor({64}, floating, lo, hi)}, attrs, "64 values"},
      {{rng.tensor({64}, floating, -2.0, 2.0)}, attrs, "64 values in [-2, 2]"},
      {{rng.strided_tensor({3, 4}, floating, lo, hi)}, attrs, "transposed 3x4"},
      {{rng.strided_tensor({5}, floating, lo, hi)}, attrs, "stride-2 rank 1"},
      {{rng.tensor({}, floating, lo, hi)}, attrs, "rank 0"},
      {{rng.tensor({0, 3}, floating, lo, hi)}, attrs, "size-0 dim"},
      {{special_values(floating)}, attrs, "NaN, infinities, signed zeros"},
  };
  // Rejected dtypes are sampled too: cpu, meta and the oracle must raise the same error.
  out.push_back({{rng.tensor({4}, DType::Int64, -3, 4)}, attrs, domain.takes_integers ? "int64" : "int64 (rejected)"});
  out.push_back({{rng.tensor({4}, DType::Bool)}, attrs, domain.takes_bool ? "bool" : "bool (rejected)"});
  return out;
}

// Every sample is generated once per attribute set in `variants`.
void add_unary(OpSampleRegistry& registry, const std::string& op, UnaryDomain domain, OracleTolerance tolerance,
               std::vector<Attrs> variants = {Attrs{}}) {
  registry.add({op,
                [domain, variants](DType floating, SampleRng& rng) {
                  std::vector<OpSample> all;
                  for (const Attrs& attrs : variants) {
                    for (OpSample& s : unary_samples(floating, rng, domain, attrs)) {
                      if (!attrs.values().empty()) s.label += " (" + attrs.to_string() + ")";
                      all.push_back(std::move(s));
                    }
                  }
                  return all;
                },
                tolerance, ""});
}

}  // namespace

void register_unary_samples(OpSampleRegistry& registry) {
  const OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  const OracleTolerance two_roundings{1.5, 1.5, 0.0, 0.0};
  const OracleTolerance libm{2.0, 2.0, 0.0, 0.0};
  const OracleTolerance chained{4.0, 4.0, 0.0, 0.0};
  const UnaryDomain wide{-2.0, 2.0, true, true};
  const UnaryDomain numeric{-2.0, 2.0, true, false};
  const UnaryDomain floating_only{-4.0, 4.0, false, false};
  const UnaryDomain positive{0.05, 4.0, true, true};

  add_unary(registry, "neg", numeric, exact);
  add_unary(registry, "abs", numeric, exact);
  add_unary(registry, "sign", wide, exact);
  add_unary(registry, "square", {-3.0, 3.0, true, true}, exact);
  add_unary(registry, "relu", numeric, exact);
  add_unary(registry, "floor", {-5.0, 5.0, true, false}, exact);
  add_unary(registry, "ceil", {-5.0, 5.0, true, false}, exact);
  add_unary(registry, "round", {-5.0, 5.0, true, false}, exact);
  add_unary(registry, "sqrt", positive, exact);
  add_unary(registry, "rsqrt", positive, two_roundings);
  add_unary(registry, "reciprocal", wide, exact);
  add_unary(registry, "exp", {-6.0, 6.0, true, true}, libm);
  add_unary(registry, "expm1", {-3.0, 3.0, true, true}, libm);
  add_unary(registry, "log", positive, libm);
  add_unary(registry, "log1p", {-0.95, 4.0, true, true}, libm);
  add_unary(registry, "sin", {-6.0, 6.0, true, true}, libm);
  add_unary(registry, "cos", {-6.0, 6.0, true, true}, libm);
  add_unary(registry, "tan", {-1.4, 1.4, true, true}, libm);
  add_unary(registry, "tanh", {-4.0, 4.0, true, true}, libm);
  add_unary(registry, "erf", {-3.0, 3.0, true, true}, libm);
  add_unary(registry, "sigmoid", {-8.0, 8.0, true, true}, chained);
  const OracleTolerance gelu_tail{24.0, 24.0, 0.0, 0.0};
  add_unary(registry, "gelu", floating_only, gelu_tail, {Attrs{}, Attrs{{"approximate", std::string("tanh")}}});
  // beta 2 and threshold 3 put some samples past the threshold (beta * x > 3 for x > 1.5).
  add_unary(registry, "softplus", floating_only, chained,
            {Attrs{}, Attrs{{"beta", 2.0}, {"threshold", 3.0}}, Attrs{{"beta", 0.5}}});
  add_unary(registry, "logical_not", wide, exact);
}

}  // namespace funcspec::samples
