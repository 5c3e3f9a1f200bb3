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
#include "conformance/samples/unary_sample_calls.h"

namespace funcspec::samples {

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
  // min(x, 0) - log1p(e^-|x|): exp and log1p each within 1 ulp, the subtraction adds magnitudes.
  add_unary(registry, "logsigmoid", {-8.0, 8.0, false, false}, chained);
  const OracleTolerance gelu_tail{24.0, 24.0, 0.0, 0.0};
  add_unary(registry, "gelu", floating_only, gelu_tail, {Attrs{}, Attrs{{"approximate", std::string("tanh")}}});
  // beta 2 and threshold 3 put some samples past the threshold (beta * x > 3 for x > 1.5).
  add_unary(registry, "softplus", floating_only, chained,
            {Attrs{}, Attrs{{"beta", 2.0}, {"threshold", 3.0}}, Attrs{{"beta", 0.5}}});
  // special_entr: -x log x, a libm log and a product (docs/ops/special.md).
  add_unary(registry, "special_entr", {0.02, 3.0, true, true}, chained);
  // The inverse trigonometric and hyperbolic functions, exp2, log2, log10 and erfc are libm calls,
  // within about 1 ulp in glibc: measured 1.08 at most (log10, float32), stated 2 as the other libm
  // functions; glibc's double erfc is within about 2: measured 2.11 (CatalogueOp's seeds), stated
  // 4; frac (x - trunc x, exact by Sterbenz) and trunc are exact. asin, acos and atanh sample inside
  // (-1, 1), acosh above 1; the "64 values in [-2, 2]" sample reaches off their domains (NaN).
  const UnaryDomain inside_unit{-0.95, 0.95, true, true};
  add_unary(registry, "asin", inside_unit, libm);
  add_unary(registry, "acos", inside_unit, libm);
  add_unary(registry, "atan", {-4.0, 4.0, true, true}, libm);
  add_unary(registry, "sinh", {-4.0, 4.0, true, true}, libm);
  add_unary(registry, "cosh", {-4.0, 4.0, true, true}, libm);
  add_unary(registry, "asinh", {-4.0, 4.0, true, true}, libm);
  add_unary(registry, "acosh", {1.05, 4.0, true, true}, libm);
  add_unary(registry, "atanh", inside_unit, libm);
  add_unary(registry, "exp2", {-6.0, 6.0, true, true}, libm);
  add_unary(registry, "log2", positive, libm);
  add_unary(registry, "log10", positive, libm);
  add_unary(registry, "erfc", {-2.0, 5.0, true, true}, chained);
  add_unary(registry, "frac", {-5.0, 5.0, false, false}, exact);
  add_unary(registry, "trunc", {-5.0, 5.0, true, false}, exact);
  for (const char* op : {"isnan", "isinf", "isfinite"}) add_unary(registry, op, wide, exact);
  add_unary(registry, "logical_not", wide, exact);
}

}  // namespace funcspec::samples
