// The special points of the catalogue's ops (NOTE: [special points]). docs/ops/<family>.md,
// "Special points", lists them and states which one-sided derivative is specified at each; the AD
// checks take that value where no limit exists (SPEC AD-8.12). Ops without an entry have none: linear ops (add, sub,
// the views, cat, gather, the scatters, cumsum, flip, roll, sum, mean, trace, tril, triu, diag_embed), bilinear ones
// (mul, einsum and the products, kron, vecdot, linear, the convolutions; unfold and fold are linear; the scaled
// products declare only beta = 0), ops whose results carry no derivative and whose values have no point of their own
// (comparisons, logical ops, creation, random draws, the dynamic-shape ops), and where, whose condition is a bool.
//
// Points near a pole stay 1e-8 away from it: the gradient checks' finite differences step by
// 1e-20 and 1e-17 in the oracle dtype, and a point closer than that would see the pole inside
// its stencil. Points whose float32 region lies elsewhere (overflow thresholds) say so.
#include <limits>

#include "conformance/samples/special_points.h"
#include "reference/core/error.h"

namespace funcspec::samples {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

PointOperand at(std::vector<double> values) { return {std::move(values)}; }
PointOperand at(std::vector<double> values, Shape shape) { return {std::move(values), {}, std::move(shape)}; }
// The float64 point and where float32 meets the same region.
PointOperand at_by_dtype(std::vector<double> values64, std::vector<double> values32) {
  return {std::move(values64), std::move(values32)};
}
PointOperand class_targets(std::vector<double> values, Shape shape) {
  return {std::move(values), {}, std::move(shape), DType::Int64};
}
// Flat positions (max_unpool's indices): int64 as class targets are.
PointOperand positions(std::vector<double> values, Shape shape) {
  return class_targets(std::move(values), std::move(shape));
}
PointOperand omitted() { return {{}, {}, std::nullopt, std::nullopt, true}; }
PointOperand literal(double value) { return {{value}, {}, std::nullopt, std::nullopt, false, true}; }

SpecialPoint point(std::string name, std::vector<PointOperand> operands, Attrs attrs = {}) {
  return {std::move(name), std::move(operands), std::move(attrs)};
}

Attrs reduce_dims(std::vector<std::int64_t> dims) { return {{"dim", std::move(dims)}}; }
Attrs norm_order(double p) { return {{"p", Scalar(p)}}; }
Attrs rounding(const char* mode) { return {{"rounding_mode", std::string(mode)}}; }

std::map<std::string, std::vector<SpecialPoint>> unary_points() {
  const double half_pi64 = 1.5707963267948966;         // the double nearest pi/2, just below it
  const double half_pi32 = 1.57079637050628662109375;  // the float nearest pi/2, just above it
  return {
      {"abs", {point("kink at 0", {at({0.0, -0.0})})}},
      {"relu", {point("kink at 0", {at({0.0, -0.0})})}},
      {"sign", {point("jump at 0", {at({0.0, -0.0})})}},
      {"floor", {point("jumps at integers", {at({-1.0, 0.0, -0.0, 2.0})})}},
      {"ceil", {point("jumps at integers", {at({-1.0, 0.0, -0.0, 2.0})})}},
      {"round", {point("ties to even", {at({0.5, 1.5, 2.5, -0.5, -2.5})})}},
      {"sqrt", {point("zero (infinite slope)", {at({0.0})}), point("near 0 x=1e-8", {at({1e-8, 4e-8})})}},
      {"rsqrt", {point("pole at 0", {at({0.0, -0.0})}), point("pole neighbourhood x=1e-8", {at({1e-8, 4e-8})})}},
      {"reciprocal",
       {point("pole at 0", {at({0.0, -0.0})}), point("pole neighbourhood x=+-1e-8", {at({1e-8, -1e-8})})}},
      {"log", {point("pole at 0", {at({0.0, -0.0})}), point("pole neighbourhood x=1e-8", {at({1e-8, 3e-8})})}},
      {"log1p",
       {point("series near 0 x=+-1e-20", {at({1e-20, -1e-20})}), point("pole at -1", {at({-1.0})}),
        // -1 + 2^-30 (float32: -1 + 2^-20, its spacing there being 2^-24).
        point("pole neighbourhood x=-1+2^-30 (float32 -1+2^-20)", {at_by_dtype({-1.0 + 0x1p-30}, {-1.0 + 0x1p-20})})}},
      {"exp",
       {point("near overflow x=+700 (float32 +80)", {at_by_dtype({700.0}, {80.0})}),
        point("overflow x=+710 (float32 +89)", {at_by_dtype({710.0}, {89.0})}),
        point("underflow to subnormal x=-740 (float32 -100)", {at_by_dtype({-740.0}, {-100.0})}),
        point("underflow to zero x=-750 (float32 -110)", {at_by_dtype({-750.0}, {-110.0})})}},
      {"expm1",
       {point("series near 0 x=+-1e-20", {at({1e-20, -1e-20})}),
        point("saturation x=-40 (float32 -20)", {at_by_dtype({-40.0}, {-20.0})}),
        point("overflow x=+710 (float32 +89)", {at_by_dtype({710.0}, {89.0})})}},
      {"sin", {point("large argument x=1e22", {at({1e22, -1e22})})}},
      {"cos", {point("large argument x=1e22", {at({1e22, -1e22})})}},
      {"tan", {point("pole neighbourhood x=fl(pi/2)", {at_by_dtype({half_pi64}, {half_pi32})})}},
      {"tanh",
       {point("series near 0 x=+-1e-20", {at({1e-20, -1e-20})}),
        point("saturation x=+-20 (float32 +-10)", {at_by_dtype({20.0, -20.0}, {10.0, -10.0})})}},
      {"sigmoid",
       {point("saturation x=+-40 (float32 +-20)", {at_by_dtype({40.0, -40.0}, {20.0, -20.0})}),
        point("underflow to subnormal x=-740 (float32 -100)", {at_by_dtype({-740.0}, {-100.0})})}},
      {"erf",
       {point("series near 0 x=+-1e-20", {at({1e-20, -1e-20})}),
        point("saturation x=+-6 (float32 +-4)", {at_by_dtype({6.0, -6.0}, {4.0, -4.0})})}},
      // The tanh form's tail (x < -4) is left out: its argument u is rounded before sigmoid(2u),
      // whose condition number |2u| there exceeds the op's stated 24 ulps (docs/ops/unary.md).
      {"gelu",
       {point("negative tail x=-10", {at({-10.0})}), point("underflow x=-40", {at({-40.0})}),
        point("saturation x=+40", {at({40.0})}, {{"approximate", std::string("tanh")}}),
        point("underflow x=-40", {at({-40.0})}, {{"approximate", std::string("tanh")}})}},
      // asin, acos: the ends of the domain, one element each (the infinite slope times a basis
      // tangent's 0 is NaN in forward mode), and just inside, where a relative tolerance catches
      // a wrong huge derivative (1 - 2^-30: 2^14.5; float32 1 - 2^-20: 2^9.5).
      {"asin",
       {point("end of the domain x=1 (infinite slope)", {at({1.0})}),
        point("end of the domain x=-1 (infinite slope)", {at({-1.0})}),
        point("just inside x=+-(1-2^-30) (float32 1-2^-20)",
              {at_by_dtype({1.0 - 0x1p-30, -1.0 + 0x1p-30}, {1.0 - 0x1p-20, -1.0 + 0x1p-20})})}},
      {"acos",
       {point("end of the domain x=1 (infinite slope)", {at({1.0})}),
        point("end of the domain x=-1 (infinite slope)", {at({-1.0})}),
        point("just inside x=+-(1-2^-30) (float32 1-2^-20)",
              {at_by_dtype({1.0 - 0x1p-30, -1.0 + 0x1p-30}, {1.0 - 0x1p-20, -1.0 + 0x1p-20})})}},
      // atan, asinh: where x^2 overflows, the derivatives are tiny (1/x^2, 1/|x|) and relative.
      {"atan", {point("saturation x=+-1e200 (float32 +-1e20)", {at_by_dtype({1e200, -1e200}, {1e20, -1e20})})}},
      {"asinh",
       {point("series near 0 x=+-1e-20", {at({1e-20, -1e-20})}),
        point("large x=+-1e200 (float32 +-1e20)", {at_by_dtype({1e200, -1e200}, {1e20, -1e20})})}},
      {"acosh",
       {point("end of the domain x=1 (infinite slope)", {at({1.0})}),
        point("just above 1 x=1+2^-30 (float32 1+2^-20)", {at_by_dtype({1.0 + 0x1p-30}, {1.0 + 0x1p-20})}),
        point("below the domain x<1 (NaN)", {at({0.5, -2.0})}),
        point("large x=1e200 (float32 1e20)", {at_by_dtype({1e200}, {1e20})})}},
      {"atanh",
       {point("pole x=1", {at({1.0})}), point("pole x=-1", {at({-1.0})}),
        point("pole neighbourhood x=+-(1-2^-30) (float32 1-2^-20)",
              {at_by_dtype({1.0 - 0x1p-30, -1.0 + 0x1p-30}, {1.0 - 0x1p-20, -1.0 + 0x1p-20})})}},
      // sinh, cosh: near overflow and past it (710.48; float32 89.42). The near points keep 1% of
      // margin, so that vmap-of-grad's examples scaled by 1.01 stay finite: 703 (1.0e305; float32
      // 88, 8.3e37).
      {"sinh",
       {point("near overflow x=+-703 (float32 +-88)", {at_by_dtype({703.0, -703.0}, {88.0, -88.0})}),
        point("overflow x=+-711 (float32 +-90)", {at_by_dtype({711.0, -711.0}, {90.0, -90.0})})}},
      {"cosh",
       {point("minimum at 0 (derivative 0)", {at({0.0, -0.0})}),
        point("near overflow x=+-703 (float32 +-88)", {at_by_dtype({703.0, -703.0}, {88.0, -88.0})}),
        point("overflow x=+-711 (float32 +-90)", {at_by_dtype({711.0, -711.0}, {90.0, -90.0})})}},
      // exp2: near overflow with the same 1% margin (2^1013 = 1.1e305; float32 2^126.5 = 1.2e38).
      {"exp2",
       {point("near overflow x=1013 (float32 126.5)", {at_by_dtype({1013.0}, {126.5})}),
        point("overflow x=1024 (float32 128)", {at_by_dtype({1024.0}, {128.0})}),
        point("underflow to subnormal x=-1060 (float32 -140)", {at_by_dtype({-1060.0}, {-140.0})}),
        point("underflow to zero x=-1075 (float32 -150)", {at_by_dtype({-1075.0}, {-150.0})})}},
      {"log2",
       {point("pole at 0", {at({0.0, -0.0})}), point("pole neighbourhood x=1e-8", {at({1e-8, 3e-8})}),
        point("powers of 2", {at({0.5, 1.0, 1024.0})})}},
      {"log10",
       {point("pole at 0", {at({0.0, -0.0})}), point("pole neighbourhood x=1e-8", {at({1e-8, 3e-8})}),
        point("powers of 10", {at({0.001, 1.0, 1000.0})})}},
      // erfc: the positive tail, where only a relative tolerance sees the tiny value and derivative
      // -2/sqrt(pi) e^(-x^2), down to a subnormal value (x = 27; float32 10), and saturation at 2.
      {"erfc",
       {point("positive tail x=10 (float32 9)", {at_by_dtype({10.0}, {9.0})}),
        point("underflow to subnormal x=27 (float32 10)", {at_by_dtype({27.0}, {10.0})}),
        point("saturation x=-6 (float32 -4)", {at_by_dtype({-6.0}, {-4.0})})}},
      {"frac", {point("jumps at integers and zeros (derivative 1)", {at({1.0, -2.0, 0.0, -0.0})})}},
      {"trunc", {point("jumps at integers and zeros", {at({1.0, -2.0, 0.0, -0.0, 2.5, -2.5})})}},
      // The switch to the linear region at beta x = threshold, for each sampled attribute set.
      {"softplus",
       {point("threshold switch beta*x=threshold", {at({20.0})}),
        point("threshold switch beta*x=threshold", {at({1.5})}, {{"beta", 2.0}, {"threshold", 3.0}}),
        point("threshold switch beta*x=threshold", {at({40.0})}, {{"beta", 0.5}}),
        point("negative tail x=-40", {at({-40.0})}), point("underflow x=-800", {at({-800.0})})}},
  };
}

std::map<std::string, std::vector<SpecialPoint>> binary_points() {
  return {
      {"div",
       {point("pole neighbourhood: divisor +-1e-8", {at({1.5, -2.0}), at({1e-8, -1e-8})}),
        point("jumps at integer quotients", {at({3.0, -3.0, 4.5}), at({1.5, 1.5, -1.5})}, rounding("trunc")),
        point("jumps at integer quotients", {at({3.0, -3.0, 4.5}), at({1.5, 1.5, -1.5})}, rounding("floor"))}},
      {"remainder", {point("jumps at integer quotients", {at({3.0, -3.0, 4.5}), at({1.5, 1.5, -1.5})})}},
      {"pow",
       // Exponents of at least 2: at (0, 1) the specified one-sided first derivatives make the
       // mixed second derivatives differ (1 one way, 0 the other), and no Hessian is symmetric.
       {point("zero base, positive exponents", {at({0.0, 0.0}), at({2.0, 3.0})}),
        point("zero base, zero exponent (0^0 = 1)", {at({0.0}), at({0.0})}),
        // Smooth there: self's derivative b a^(b-1) is 0, and its derivative in b, 1/a, is the
        // mixed second derivative a mask of every b == 0 would lose (PyTorch's Hessian is asymmetric).
        point("nonzero base, zero exponent (mixed derivative 1/a)", {at({2.0, 0.25}), at({0.0, -0.0})}),
        // One element and a literal exponent: forward mode's Jacobian of an infinite slope holds
        // 0 * inf = NaN wherever the basis tangent is 0 (another element, the exponent), which
        // reverse mode never forms.
        point("zero base, exponent 0.5 (infinite slope)", {at({0.0}), literal(0.5)})}},
      {"maximum", {point("tie", {at({1.5, -0.5, 0.0}), at({1.5, -0.5, -0.0})})}},
      {"minimum", {point("tie", {at({1.5, -0.5, 0.0}), at({1.5, -0.5, -0.0})})}},
      {"atan2",
       {point("origin", {at({0.0, 0.0, -0.0}), at({0.0, -0.0, -0.0})}),
        point("branch cut y=+-0, x<0", {at({0.0, -0.0}), at({-1.0, -1.0})})}},
      {"clamp",
       {point("x at the lower bound", {at({-1.0, 0.5}), at({-1.0, 0.5}), at({1.0, 2.0})}),
        point("x at the upper bound", {at({1.0, 0.5}), at({-1.0, -2.0}), at({1.0, 0.5})}),
        point("min equals max", {at({0.5, 1.0, 2.0}), at({1.0}), at({1.0})}),
        point("x at min, no max", {at({-1.0, 0.5}), at({-1.0, 0.5}), omitted()}),
        point("x at max, no min", {at({1.0, 0.5}), omitted(), at({1.0, 0.5})})}},
  };
}

std::map<std::string, std::vector<SpecialPoint>> reduce_points() {
  const Attrs rows = reduce_dims({1});
  const PointOperand ties = at({1.5, 1.5, -0.5, -0.5, 0.25, 0.25, 0.25, 0.25}, {2, 4});
  const PointOperand nan_row = at({1.0, kNan, 2.0, kNan}, {4});
  return {
      {"amax",
       {point("tie", {ties}, rows), point("row of -inf", {at({-kInf, -kInf, 1.0, 2.0}, {2, 2})}, rows),
        point("NaN", {nan_row})}},
      {"amin",
       {point("tie", {ties}, rows), point("row of +inf", {at({kInf, kInf, 1.0, 2.0}, {2, 2})}, rows),
        point("NaN", {nan_row})}},
      {"argmax", {point("tie", {ties}, {{"dim", std::int64_t{1}}}), point("NaN", {nan_row})}},
      {"argmin", {point("tie", {ties}, {{"dim", std::int64_t{1}}}), point("NaN", {nan_row})}},
      {"prod", {point("one zero", {at({2.0, 0.0, 1.5, -1.0})}), point("two zeros", {at({0.0, 2.0, 0.0, 1.5})})}},
      {"norm",
       {point("zero vector", {at({0.0, 0.0, 0.0})}, norm_order(2.0)),
        point("zero vector", {at({0.0, 0.0, 0.0})}, norm_order(1.0)),
        point("zero vector", {at({0.0, 0.0, 0.0})}, norm_order(3.0)),
        point("zero vector", {at({0.0, 0.0, 0.0})}, norm_order(kInf)),
        point("zero element", {at({0.0, 1.5, -2.0})}, norm_order(0.5)),
        point("tie of |x|", {at({1.5, -1.5, 0.5})}, norm_order(kInf)),
        point("tie of |x|", {at({0.5, -0.5, 1.5})}, norm_order(-kInf))}},
      {"var", {point("zero variance", {at({1.5, 1.5, 1.5})})}},
      // Zeros: a constant whose scaled copies (vmap(grad)'s batch) still have an exact zero variance.
      {"std", {point("zero variance", {at({0.0, 0.0, 0.0})})}},
      {"logsumexp",
       {point("saturation x=+-1000", {at({1000.0, 1000.0, 0.0, -1000.0}, {2, 2})}, rows),
        point("row of -inf", {at({-kInf, -kInf, 1.0, 2.0}, {2, 2})}, rows)}},
  };
}

std::map<std::string, std::vector<SpecialPoint>> other_points() {
  const Attrs last{{"dim", std::int64_t{-1}}};
  const Attrs mean{{"reduction", std::string("mean")}};
  const Attrs beta_zero{{"beta", Scalar(std::int64_t{0})}};
  return {
      {"softmax",
       {point("saturation x=+-1000", {at({1000.0, 0.0, -1000.0})}, last),
        point("row of -inf", {at({-kInf, -kInf, 1.0, 2.0}, {2, 2})}, last)}},
      {"log_softmax",
       {point("saturation x=+-1000", {at({1000.0, 0.0, -1000.0})}, last),
        point("row of -inf", {at({-kInf, -kInf, 1.0, 2.0}, {2, 2})}, last)}},
      {"cross_entropy",
       {point("saturation x=+-1000", {at({1000.0, 0.0, -1000.0}, {1, 3}), class_targets({0}, {1})}),
        point("every target ignored (mean is 0/0)", {at({0.5, -1.0, 2.0}, {1, 3}), class_targets({-100}, {1})}, mean)}},
      {"nll_loss",
       {point("every target ignored (mean is 0/0)", {at({0.5, -1.0, 2.0}, {1, 3}), class_targets({-100}, {1})}, mean)}},
      {"layer_norm", {point("zero variance", {at({1.5, 1.5, 1.5, 1.5})}, {{"normalized_shape", Shape{4}}})}},
      {"cumprod",
       {point("one zero", {at({2.0, 0.0, 1.5, -1.0})}, {{"dim", std::int64_t{0}}}),
        point("two zeros", {at({0.0, 2.0, 0.0, 1.5})}, {{"dim", std::int64_t{0}}}),
        // One zero at each position of a row of 3, and several zeros (adjacent, first and last).
        point("one zero first and last", {at({0.0, 2.0, 1.5, 2.0, 1.5, 0.0}, {2, 3})}, {{"dim", std::int64_t{1}}}),
        point("several zeros", {at({0.0, 0.0, 2.0, 1.5, 2.0, 0.0, -1.5, 0.0}, {2, 4})}, {{"dim", std::int64_t{1}}}),
        point("every element zero", {at({0.0, 0.0, 0.0})}, {{"dim", std::int64_t{0}}})}},
      {"sort",
       {point("ties", {at({1.5, -0.5, 1.5, 0.0, -0.5, -0.0})}),
        point("ties", {at({1.5, -0.5, 1.5, 0.0, -0.5, -0.0})}, {{"descending", true}})}},
      {"topk", {point("tie at the k-th value", {at({1.5, 0.5, 1.5, 0.5})}, {{"k", std::int64_t{3}}})}},
      // A singular matrix: det's derivative is the adjugate (rank n-1) or zero (rank <= n-2).
      {"det",
       {point("singular, rank n-1", {at({1.0, 2.0, 2.0, 4.0}, {2, 2})}),
        point("singular, rank n-2 (zero)", {at({0.0, 0.0, 0.0, 0.0}, {2, 2})})}},
      {"slogdet", {point("singular", {at({1.0, 2.0, 2.0, 4.0}, {2, 2})})}},
      // Where the rank changes pinv jumps; its derivative is the constant-rank one (SPEC OPS-9.1).
      {"pinv",
       {point("rank-deficient, rank 1 of 2", {at({1.0, 2.0, 2.0, 4.0}, {2, 2}), omitted(), omitted()}),
        point("zero matrix, rank 0", {at({0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, {2, 3}), omitted(), omitted()}),
        point("hermitian, rank-deficient, rank 1 of 2", {at({1.0, 2.0, 2.0, 4.0}, {2, 2}), omitted(), omitted()},
              {{"hermitian", true}})}},
      {"lstsq", {point("rank-deficient A, rank 1 of 2", {at({1.0, 2.0, 2.0, 4.0}, {2, 2}), at({1.0, -0.5}, {2, 1})})}},
      // beta = 0: self is not read (NOTE: [beta = 0 ignores self]), so a NaN or inf in it reaches
      // neither the value nor any derivative.
      {"addmm",
       {point("beta=0 ignores a NaN self",
              {at({kNan, kInf, 1.0, -kInf}, {2, 2}), at({0.5, -1.0}, {2, 1}), at({1.5, 2.0}, {1, 2})}, beta_zero)}},
      {"addmv",
       {point("beta=0 ignores a NaN self",
              {at({kNan, kInf}, {2}), at({0.5, -1.0, 1.5, 2.0}, {2, 2}), at({-0.5, 1.0}, {2})}, beta_zero)}},
      {"addr",
       {point("beta=0 ignores a NaN self",
              {at({kNan, kInf, 1.0, -kInf}, {2, 2}), at({0.5, -1.0}, {2}), at({1.5, 2.0}, {2})}, beta_zero)}},
      {"baddbmm",
       {point("beta=0 ignores a NaN self",
              {at({kNan, kInf}, {2, 1, 1}), at({0.5, -1.0}, {2, 1, 1}), at({1.5, 2.0}, {2, 1, 1})}, beta_zero)}},
      {"addbmm",
       {point("beta=0 ignores a NaN self", {at({kNan}, {1, 1}), at({0.5, -1.0}, {2, 1, 1}), at({1.5, 2.0}, {2, 1, 1})},
              beta_zero)}},
      {"custom.log1pexp", {point("saturation x=+40", {at({40.0})}), point("negative tail x=-40", {at({-40.0})})}},
  };
}

// The norms and distances (docs/ops/distance.md, Special points): where the norm is 0, where an
// element is 0 for orders below 1, where |x| ties for the inf-norms, and renorm's threshold.
std::map<std::string, std::vector<SpecialPoint>> distance_points() {
  auto ord = [](double p) { return Attrs{{"ord", Scalar(p)}}; };
  auto p_of = [](double p) { return Attrs{{"p", Scalar(p)}}; };
  auto distance_p = [](double p) { return Attrs{{"p", p}}; };
  const Attrs at_threshold{{"p", Scalar(2.0)}, {"dim", std::int64_t{0}}, {"maxnorm", Scalar(5.0)}};
  return {
      {"vector_norm",
       {point("zero vector", {at({0.0, 0.0, 0.0})}, ord(2.0)), point("zero vector", {at({0.0, 0.0, 0.0})}, ord(1.0)),
        point("zero vector", {at({0.0, 0.0, 0.0})}, ord(kInf)), point("zero vector", {at({0.0, 0.0, 0.0})}, ord(0.5)),
        point("zero element", {at({0.0, 1.5, -2.0})}, ord(-1.0)),
        point("zero element", {at({1.5, -0.0, -2.0})}, ord(-0.5)),
        point("tie of |x|", {at({1.5, -1.5, 0.5})}, ord(kInf)),
        point("tie of |x|", {at({0.5, -0.5, 1.5})}, ord(-kInf))}},
      {"dist",
       {point("zero distance", {at({1.5, -2.0, 0.5}), at({1.5, -2.0, 0.5})}, p_of(2.0)),
        point("zero distance", {at({1.5, -2.0, 0.5}), at({1.5, -2.0, 0.5})}, p_of(kInf)),
        point("one equal element", {at({1.5, -2.0, 0.5}), at({1.0, -2.0, 0.0})}, p_of(-1.0))}},
      {"renorm", {point("norm equals maxnorm", {at({3.0, 4.0, 0.6, 0.8}, {2, 2})}, at_threshold)}},
      // cdist and pdist at a zero distance (derivative 0, every p) and at a tie of the inf-norm,
      // where each tied element gets the whole sign (NOTE: [cdist and pdist derivatives]). The
      // matrix-product mode is not sampled at a zero distance: its value there is of order sqrt(eps).
      {"cdist",
       {point("zero distance", {at({1.5, -2.0, 0.5, 1.0}, {2, 2}), at({1.5, -2.0}, {1, 2})}, distance_p(2.0)),
        point("zero distance", {at({1.5, -2.0, 0.5, 1.0}, {2, 2}), at({1.5, -2.0}, {1, 2})}, distance_p(1.0)),
        point("zero distance", {at({1.5, -2.0, 0.5, 1.0}, {2, 2}), at({1.5, -2.0}, {1, 2})}, distance_p(0.5)),
        point("zero distance", {at({1.5, -2.0, 0.5, 1.0}, {2, 2}), at({1.5, -2.0}, {1, 2})}, distance_p(3.0)),
        point("zero distance", {at({1.5, -2.0, 0.5, 1.0}, {2, 2}), at({1.5, -2.0}, {1, 2})}, distance_p(kInf)),
        point("tie of |x1 - x2|", {at({0.0, 0.0}, {1, 2}), at({1.0, -1.0}, {1, 2})}, distance_p(kInf))}},
      {"pdist",
       {point("zero distance", {at({1.5, -2.0, 1.5, -2.0, 0.5, 1.0}, {3, 2})}, distance_p(2.0)),
        point("zero distance", {at({1.5, -2.0, 1.5, -2.0, 0.5, 1.0}, {3, 2})}, distance_p(kInf)),
        point("tie of |x_i - x_j|", {at({0.0, 0.0, 1.0, -1.0}, {2, 2})}, distance_p(kInf))}},
      // cosine_similarity at a zero vector: the norm is clamped to eps in value, and the derivative
      // treats the divisor as the norm (NOTE: [cosine_similarity eps]).
      {"cosine_similarity", {point("zero vector", {at({0.0, 0.0, 1.5, -2.0}, {2, 2}), at({3.0, 4.0}, {2})})}},
      // pairwise_distance at equal inputs: eps keeps the difference off 0; with eps = 0 the norm's
      // rule gives 0.
      {"pairwise_distance",
       {point("equal inputs", {at({1.5, -2.0, 0.5}), at({1.5, -2.0, 0.5})}),
        point("equal inputs, eps=0", {at({1.5, -2.0, 0.5}), at({1.5, -2.0, 0.5})}, Attrs{{"eps", 0.0}})}},
  };
}

}  // namespace

// The activation functions (docs/ops/activation.md, Special points): every kink, bound, threshold
// and jump at the attribute sets sampled, and the tails where a derivative is a tiny normal number.
std::map<std::string, std::vector<SpecialPoint>> activation_points() {
  const Attrs alpha_half{{"alpha", 0.5}}, alpha_two{{"alpha", 2.0}};
  const Attrs hardtanh_bounds{{"min_val", Scalar(-0.5)}, {"max_val", Scalar(2.0)}};
  return {
      {"logsigmoid",
       {point("positive tail x=40 (value -e^-40)", {at({40.0})}), point("negative tail x=-40", {at({-40.0})}),
        point("underflow x=800 (float32 x=110)", {at_by_dtype({800.0}, {110.0})})}},
      {"elu",
       {point("kink at 0", {at({0.0, -0.0})}), point("kink at 0", {at({0.0, -0.0})}, alpha_half),
        point("kink at 0", {at({0.0, -0.0})}, alpha_two), point("saturation x=-40", {at({-40.0})})}},
      {"selu", {point("kink at 0", {at({0.0, -0.0})}), point("saturation x=-40", {at({-40.0})})}},
      {"celu", {point("saturation x=-40", {at({-40.0})}, alpha_half), point("saturation x=-40", {at({-40.0})})}},
      {"leaky_relu",
       {point("kink at 0", {at({0.0, -0.0})}), point("kink at 0", {at({0.0, -0.0})}, {{"negative_slope", -0.5}})}},
      {"hardtanh", {point("bounds", {at({-1.0, 1.0})}), point("bounds", {at({-0.5, 2.0})}, hardtanh_bounds)}},
      {"relu6", {point("bounds 0 and 6", {at({0.0, -0.0, 6.0})})}},
      {"hardsigmoid", {point("kinks at -3 and 3", {at({-3.0, 3.0})})}},
      {"hardswish", {point("kinks at -3 and 3", {at({-3.0, 3.0})})}},
      {"silu",
       {point("negative tail x=-40", {at({-40.0})}),
        point("underflow x=-800 (float32 x=-110)", {at_by_dtype({-800.0}, {-110.0})})}},
      {"mish", {point("negative tail x=-40", {at({-40.0})}), point("softplus threshold x=20", {at({20.0})})}},
      {"glu", {point("gate saturation b=-40", {at({1.5, -40.0})}, {{"dim", std::int64_t{-1}}})}},
      {"softsign", {point("kink of the second derivative at 0", {at({0.0, -0.0})})}},
      {"softshrink",
       {point("kinks at +-lambd", {at({0.5, -0.5})}), point("kinks at +-lambd", {at({1.5, -1.5})}, {{"lambd", 1.5}}),
        point("kinks at +-lambd", {at({0.0, -0.0})}, {{"lambd", 0.0}})}},
      {"hardshrink",
       {point("jumps at +-lambd", {at({0.5, -0.5})}), point("jumps at +-lambd", {at({1.5, -1.5})}, {{"lambd", 1.5}}),
        point("identity at lambd=0", {at({0.0, -0.0})}, {{"lambd", 0.0}})}},
      {"threshold",
       {point("jump at the threshold", {at({0.5})}, {{"threshold", Scalar(0.5)}, {"value", Scalar(-2.0)}}),
        point("jump at the threshold", {at({1.5})}, {{"threshold", Scalar(1.5)}, {"value", Scalar(2.5)}})}},
      {"prelu", {point("kink at 0", {at({0.0, -0.0, 0.0, 1.0}, Shape{2, 2}), at({0.25, -0.5})})}},
      {"rrelu", {point("kink at 0", {at({0.0, -0.0})}), point("kink at 0", {at({0.0, -0.0})}, {{"training", true}})}},
  };
}

std::map<std::string, std::vector<SpecialPoint>> loss_points() {
  const Attrs none{{"reduction", std::string("none")}};
  const Attrs margin_one{{"margin", 1.0}, {"reduction", std::string("none")}};
  return {
      // x at 0 and 1: the clamped logs are -100 and constant there (SPEC OPS-14.1).
      {"binary_cross_entropy",
       {point("x at 0 and 1 (the logs clamped at -100)", {at({0.0, 1.0, 0.0, 1.0}), at({0.0, 1.0, 1.0, 0.0})}, none)}},
      {"binary_cross_entropy_with_logits",
       {point("saturation x=+-1000", {at({1000.0, -1000.0, 1000.0, -1000.0}), at({0.0, 1.0, 1.0, 0.0})}, none)}},
      // t == 0: 0 log 0 = 0, and t's derivative there is 0 (SPEC OPS-14.1; PyTorch's is NaN).
      {"kl_div", {point("zero target", {at({-1.5, -0.25, -2.0}), at({0.0, 0.6, 0.0})}, none)}},
      {"huber_loss",
       {point("|d| at delta and 0", {at({1.0, -1.0, 0.5}), at({0.0, 0.0, 0.5})}, none),
        point("|d| at delta", {at({2.5, -2.5}), at({0.0, 0.0})},
              {{"delta", 2.5}, {"reduction", std::string("none")}})}},
      {"smooth_l1_loss",
       {point("|d| at beta and 0", {at({1.0, -1.0, 0.5}), at({0.0, 0.0, 0.5})}, none),
        point("beta 0 at d = 0 (l1)", {at({0.5, -1.0}), at({0.5, 1.0})},
              {{"beta", 0.0}, {"reduction", std::string("none")}})}},
      {"l1_loss", {point("kink at d = 0", {at({0.5, -1.0, 0.0}), at({0.5, 1.0, -0.0})}, none)}},
      // var at eps: the clamp's kink, where var's derivative is the one passed through the clamp
      // (eps 0.5, exact in every dtype, so the oracle meets the same point).
      {"gaussian_nll_loss",
       {point("var at eps", {at({0.5, -0.5}), at({0.0, 0.25}), at({0.5, 0.5})},
              {{"eps", 0.5}, {"reduction", std::string("none")}})}},
      {"poisson_nll_loss",
       {point("targets around the Stirling mask t <= 1", {at({0.5, -0.5, 1.0}), at({0.0, 1.0, 1.5})},
              {{"full", true}, {"reduction", std::string("none")}}),
        point("rate 0 (log of eps)", {at({0.0, 2.0}), at({1.0, 0.0})},
              {{"log_input", false}, {"reduction", std::string("none")}})}},
      {"margin_ranking_loss",
       {point("at the margin (slope 0)", {at({1.0, 0.0}), at({0.0, 1.0}), at({1.0, -1.0})}, margin_one)}},
      {"hinge_embedding_loss",
       {point("x at the margin (slope 0)", {at({1.0, 1.0, 2.0}), class_targets({-1, 0, -1}, {3})}, none)}},
      {"soft_margin_loss",
       {point("saturation yx=+-1000", {at({1000.0, -1000.0, 1000.0}), at({1.0, 1.0, -1.0})}, none)}},
      {"multilabel_soft_margin_loss",
       {point("saturation x=+-1000", {at({1000.0, -1000.0, 0.0}, Shape{1, 3}), at({0.0, 1.0, 1.0}, Shape{1, 3})},
              none)}},
      // z = margin - x[y] + x[i] == 0: the hinge adds nothing and has slope 0 there (PyTorch's z > 0),
      // as every margin loss's hinge at its kink.
      {"multi_margin_loss",
       {point("hinge at its kink", {at({1.0, 0.0, 2.0}, Shape{1, 3}), class_targets({0}, {1})}, none),
        point("hinge at its kink", {at({1.0, 0.5, 2.0}, Shape{1, 3}), class_targets({0}, {1})},
              {{"p", Scalar(std::int64_t{2})}, {"margin", Scalar(0.5)}, {"reduction", std::string("none")}})}},
      // A zero vector: cos is 0 / sqrt(1e-12 |x|^2), finite with a finite derivative; with target
      // -1 and margin 0 also the hinge's kink, slope 0. The targets are labels, int64, so that no
      // derivative check moves them off +-1.
      {"cosine_embedding_loss",
       {point("zero input1", {at({0.0, 0.0, 0.0}), at({1.0, 2.0, 0.5}), class_targets({1}, {})}, none),
        point("zero input2 at margin 0", {at({1.0, 2.0, 0.0}), at({0.0, 0.0, 0.0}), class_targets({-1}, {})}, none)}},
      {"triplet_margin_loss",
       {point("at the margin (slope 0)",
              {at({0.0, 0.0}, Shape{1, 2}), at({1.0, 0.0}, Shape{1, 2}), at({0.0, 2.0}, Shape{1, 2})},
              {{"margin", 1.0}, {"eps", 0.0}, {"reduction", std::string("none")}}),
        point("swap tie d(a, n) == d(p, n)",
              {at({0.0, 0.0}, Shape{1, 2}), at({2.0, 0.0}, Shape{1, 2}), at({1.0, 3.0}, Shape{1, 2})},
              {{"swap", true}, {"margin", 2.0}, {"eps", 0.0}, {"reduction", std::string("none")}})}},
  };
}

// The max pools' picks (SPEC OPS-17.1): ties (the first of the largest gets the whole derivative),
// two NaNs in a window (the last), and a window of -inf beside the padding (its first input element).
// lp_pool's window of zeros is not one: its forward and reverse derivatives differ there (docs/ops/pooling.md).
std::map<std::string, std::vector<SpecialPoint>> pooling_points() {
  const auto window = [](std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride,
                         std::vector<std::int64_t> padding) {
    return Attrs{{"kernel_size", std::move(kernel)}, {"stride", std::move(stride)}, {"padding", std::move(padding)}};
  };
  std::map<std::string, std::vector<SpecialPoint>> points;
  for (const char* suffix : {"", "_with_indices"}) {
    points[std::string("max_pool1d") + suffix] = {
        point("ties in a window", {at({1.5, 1.5, -0.5, -0.5, 0.25, 0.25}, Shape{1, 1, 6})}, window({2}, {2}, {0})),
        point("two NaNs in a window", {at({kNan, 2.0, kNan, 1.0, 0.5, -1.0}, Shape{1, 1, 6})}, window({3}, {3}, {0})),
        point("window of -inf beside padding", {at({-kInf, -kInf, 3.0, 4.0}, Shape{1, 1, 4})}, window({2}, {2}, {1}))};
    points[std::string("max_pool2d") + suffix] = {
        point("three-way tie in a window", {at({0.5, 0.5, 0.5, 0.25, 1.0, 2.0, 2.0, 1.0}, Shape{1, 2, 2, 2})},
              window({2}, {2}, {0})),
        point("overlapping windows share a tie", {at({1.0, 2.0, 2.0, 1.0, 0.0, 2.0, -1.0, 0.5}, Shape{1, 2, 4})},
              window({2}, {1}, {0}))};
    points[std::string("max_pool3d") + suffix] = {
        point("tie in a window", {at({1.0, 1.0, 0.0, 1.0, -1.0, 0.5, 1.0, 0.0}, Shape{1, 1, 2, 2, 2})},
              window({2}, {2}, {0}))};
  }
  for (const char* suffix : {"", "_with_indices"}) {
    points[std::string("adaptive_max_pool1d") + suffix] = {point("tie shared by overlapping windows",
                                                                 {at({2.0, 2.0, 1.0, 1.0, 1.0}, Shape{1, 1, 5})},
                                                                 {{"output_size", std::vector<std::int64_t>{3}}})};
    points[std::string("adaptive_max_pool2d") + suffix] = {
        point("ties and a NaN in overlapping windows", {at({1.0, 1.0, 0.0, 1.0, 1.0, 0.0, kNan, -1.0}, Shape{1, 2, 4})},
              {{"output_size", std::vector<std::int64_t>{1, 3}}})};
  }
  // Positions named twice: the last element writes the output, the first has derivative 0 (OPS-17.4).
  const auto unpool = [](std::vector<std::int64_t> kernel, std::vector<std::int64_t> stride) {
    return Attrs{{"kernel_size", std::move(kernel)},
                 {"stride", std::move(stride)},
                 {"padding", std::vector<std::int64_t>{0}},
                 {"output_size", std::vector<std::int64_t>{}}};
  };
  points["max_unpool1d"] = {point("repeated positions",
                                  {at({1.5, -0.5, 2.0, 0.25}, Shape{1, 1, 4}), positions({1, 1, 3, 1}, Shape{1, 1, 4})},
                                  unpool({2}, {1}))};
  points["max_unpool2d"] = {point("repeated positions",
                                  {at({1.5, -0.5, 2.0, 0.25}, Shape{1, 2, 2}), positions({0, 0, 5, 5}, Shape{1, 2, 2})},
                                  unpool({2}, {2}))};
  points["max_unpool3d"] = {point("repeated positions",
                                  {at({1.5, -0.5, 2.0, 0.25, 1.0, -1.0, 0.5, 3.0}, Shape{1, 2, 2, 2}),
                                   positions({0, 7, 7, 0, 1, 1, 2, 3}, Shape{1, 2, 2, 2})},
                                  unpool({2}, {2}))};
  return points;
}

// scatter's duplicate targets (the last write stays and alone gets the derivative, OPS-22.1) and
// scatter_reduce's data-dependent derivatives (OPS-22.3): zeros of a product (one, two, and one of
// them self's), ties of amax/amin (self among them, and self equal to the result but left out), the
// mean's count with and without self. self: 3 elements, index and src: 4 along dim 0.
std::map<std::string, std::vector<SpecialPoint>> index_points() {
  const auto reduce = [](const char* name, bool include_self) {
    return Attrs{{"dim", std::int64_t{0}}, {"reduce", std::string(name)}, {"include_self", include_self}};
  };
  const auto targets = [](std::vector<double> values) { return positions(std::move(values), Shape{4}); };
  std::map<std::string, std::vector<SpecialPoint>> points;
  points["scatter"] = {point("duplicate targets",
                             {at({1.0, 2.0, 3.0}), targets({0, 0, 2, 0}), at({0.5, -1.0, 2.0, 4.0})},
                             {{"dim", std::int64_t{0}}})};
  points["scatter_reduce"] = {
      point("prod, one zero", {at({2.0, 0.5, -1.0}), targets({0, 0, 2, 2}), at({0.0, 1.5, 3.0, -2.0})},
            reduce("prod", true)),
      point("prod, two zeros with self's", {at({0.0, 1.5, 2.0}), targets({0, 0, 1, 1}), at({0.0, 3.0, 0.5, 2.0})},
            reduce("prod", true)),
      point("prod, zeros, self left out", {at({0.0, 2.0, -1.0}), targets({0, 0, 2, 2}), at({0.0, 1.5, 0.0, 0.0})},
            reduce("prod", false)),
      point("amax, three-way tie with self", {at({1.0, 2.0, -1.0}), targets({0, 0, 1, 2}), at({1.0, 1.0, 0.5, 3.0})},
            reduce("amax", true)),
      point("amax, self ties but is left out",
            {at({2.0, 0.5, -1.0}), targets({0, 0, 2, 2}), at({2.0, 1.0, -1.0, -1.0})}, reduce("amax", false)),
      point("amin, ties", {at({1.0, -2.0, 0.0}), targets({0, 0, 1, 1}), at({1.0, 3.0, -2.0, -2.0})},
            reduce("amin", true)),
      point("mean, duplicates, self left out", {at({1.0, 2.0, 3.0}), targets({2, 2, 2, 0}), at({0.5, -1.0, 2.0, 4.0})},
            reduce("mean", false)),
  };
  // index_reduce and index_copy take both rows of a [2, 2] source into a [2, 2] self (index 2 long).
  const auto rows = [](std::vector<double> values) { return positions(std::move(values), Shape{2}); };
  const auto row_reduce = [](const char* name, bool include_self) {
    return Attrs{{"dim", std::int64_t{0}}, {"reduce", std::string(name)}, {"include_self", include_self}};
  };
  points["index_reduce"] = {
      point("prod, one and two zeros in a row",
            {at({0.0, 2.0, 1.5, -1.0}, Shape{2, 2}), rows({0, 0}), at({0.0, 3.0, 0.5, 0.0}, Shape{2, 2})},
            row_reduce("prod", true)),
      point("amax, ties with self",
            {at({1.0, 2.0, 1.5, -1.0}, Shape{2, 2}), rows({0, 0}), at({1.0, 2.0, 1.0, 0.5}, Shape{2, 2})},
            row_reduce("amax", true)),
  };
  points["index_copy"] = {point(
      "duplicate rows", {at({1.0, 2.0, 3.0, 4.0}, Shape{2, 2}), rows({1, 1}), at({0.5, -1.0, 2.0, 4.0}, Shape{2, 2})},
      {{"dim", std::int64_t{0}}})};
  points["put"] = {point("duplicate positions",
                         {at({1.0, 2.0, 3.0}), targets({2, -1, 0, 2}), at({0.5, -1.0, 2.0, 4.0})},
                         {{"accumulate", false}})};
  return points;
}

// Rows whose every key is masked give 0 and pass no derivative (OPS-20.1); a row whose scores
// saturate softmax (scores +-1000, float32 +-60: the other weights underflow to 0, as at softmax's
// own point).
std::map<std::string, std::vector<SpecialPoint>> attention_points() {
  const PointOperand mask_second_row{{1, 1, 0, 0}, {}, Shape{2, 2}, DType::Bool};
  const PointOperand no_mask = omitted();
  Attrs none{{"is_causal", false}, {"enable_gqa", false}};
  return {{"scaled_dot_product_attention",
           {point("every key of a row masked",
                  {at({0.5, -1.0}, Shape{2, 1}), at({1.5, 0.25}, Shape{2, 1}), at({2.0, -0.5}, Shape{2, 1}),
                   mask_second_row},
                  none),
            point("every key of a row at -inf",
                  {at({0.5, -1.0}, Shape{2, 1}), at({1.5, 0.25}, Shape{2, 1}), at({2.0, -0.5}, Shape{2, 1}),
                   at({0.0, -kInf}, Shape{2, 1})},
                  none),
            point("saturated softmax",
                  {PointOperand{{40.0, -40.0}, {10.0, -10.0}, Shape{2, 1}},
                   PointOperand{{25.0, -25.0}, {6.0, -6.0}, Shape{2, 1}}, at({2.0, -0.5}, Shape{2, 1}), no_mask},
                  none)}}};
}

// The normalization family (docs/ops/normalization.md): a channel, instance or group of equal values
// (variance exactly 0: x - mean is exactly 0 and the derivative (g - mean(g)) / sqrt(eps) is finite
// thanks to eps; the other channels of these samples hold at least 3 values, since two values per
// channel make derivatives of size eps that cancel in float32), normalize's zero vector (the clamp at eps takes it: x /
// eps, derivative 1 / eps) and its norm exactly at eps (the clamp passes the norm's derivative at its bound), an
// inf-norm tie (split evenly, as norm's), a row norm exactly at max_norm (kept, the identity's derivative), and
// embedding_bag's max picks: a tie (the first), a NaN first in its bag (kept) and after (ignored).
std::map<std::string, std::vector<SpecialPoint>> normalization_points() {
  const Attrs training{{"training", true}};
  const auto unit = [](std::vector<double> v) { return at(std::move(v), Shape{1, 2}); };
  const Attrs max{{"mode", std::string("max")}};
  return {
      {"batch_norm",
       {point("constant channel (variance 0)",
              {at({0.5, 1.0, 0.5, -1.0, 0.5, 2.0}, {3, 2}), omitted(), omitted(), omitted(), omitted()}, training)}},
      {"batch_norm_functional",
       {point("constant channel (variance 0)",
              {at({0.5, 0.5, 0.5, 0.5}, {4, 1}), at({0.25}), at({1.5}), omitted(), omitted()}, training)}},
      {"instance_norm",
       {point("constant instance (variance 0)",
              {at({0.5, 0.5, 0.5, 1.0, -1.0, 2.0}, {1, 2, 3}), omitted(), omitted(), omitted(), omitted()})}},
      {"instance_norm_functional",
       {point("constant instance (variance 0)",
              {at({0.5, 0.5, 0.5, 0.5}, {1, 1, 4}), at({0.25}), at({1.5}), omitted(), omitted()})}},
      {"group_norm",
       {point("constant group (variance 0)", {at({0.5, 0.5, 0.5, 1.0, -1.0, 2.0}, {1, 2, 3})},
              {{"num_groups", std::int64_t{2}}})}},
      {"normalize",
       {point("zero vector p=2", {at({0.0, 0.0, 0.0}, {1, 3})}),
        point("zero vector p=1", {at({0.0, -0.0, 0.0}, {1, 3})}, {{"p", 1.0}}),
        point("zero vector p=inf", {at({0.0, 0.0}, {1, 2})}, {{"p", kInf}}),
        point("norm exactly eps p=2", {unit({3.0, 4.0})}, {{"eps", 5.0}}),
        point("norm exactly eps p=1", {unit({1.5, -0.5})}, {{"p", 1.0}, {"eps", 2.0}}),
        point("inf-norm tie", {at({2.0, -2.0, 1.0}, {1, 3})}, {{"p", kInf}})}},
      {"embedding_renorm",
       {point("row norm exactly max_norm", {at({3.0, 4.0, 1.0, 0.5}, {2, 2}), class_targets({0, 1}, {2})},
              {{"max_norm", 5.0}, {"norm_type", 2.0}})}},
      {"embedding_bag",
       {point("max tie (the first)",
              {class_targets({0, 1}, {2}), at({1.0, 2.0, 1.0, 0.5}, {2, 2}), class_targets({0}, {1}), omitted()}, max),
        point("max NaN first (kept) and after (ignored)",
              {class_targets({0, 1, 1, 0}, {4}), at({kNan, 1.0, 2.0, 3.0}, {2, 2}), class_targets({0, 2}, {2}),
               omitted()},
              max),
        point("mean of a bag of padding only",
              {class_targets({1, 1, 0}, {3}), at({1.0, 2.0, 3.0, 4.0}, {2, 2}), class_targets({0, 2}, {2}), omitted()},
              {{"mode", std::string("mean")}, {"padding_idx", std::int64_t{1}}})}},
  };
}

// grid_sample's grid derivative where the source position has a kink or a jump (SPEC OPS-19.4): a
// grid point exactly on a pixel (floor's tie: the segment to the right, as PyTorch's corner
// weights), on a border of border padding and on a reflection point of reflection padding (slope 0,
// PyTorch's clip_coordinates_set_grad, which counts a border as outside), and nearest's ties at .5
// (round half to even). The other resampling ops are linear in their tensors, and bicubic's
// weights are continuously differentiable across pixels.
std::map<std::string, std::vector<SpecialPoint>> resampling_points() {
  const auto sampling = [](const char* mode, const char* padding_mode, bool align_corners) {
    return Attrs{
        {"mode", std::string(mode)}, {"padding_mode", std::string(padding_mode)}, {"align_corners", align_corners}};
  };
  const PointOperand square = at({1.5, -0.5, 2.0, 0.25}, Shape{1, 1, 2, 2});
  return {
      {"grid_sample",
       {// align_corners=False, W = H = 2: ix = x + 0.5, so x = -0.5 is pixel 0 and x = 0.5 the last pixel.
        point("grid points on pixels", {square, at({-0.5, 0.5, 0.5, -0.5}, Shape{1, 1, 2, 2})},
              sampling("bilinear", "zeros", false)),
        // align_corners=True, W = H = 2: ix = (x + 1) / 2, so x = -1 and 1 are the borders.
        point("grid points on borders", {square, at({-1.0, 1.0, 1.0, -0.5}, Shape{1, 1, 2, 2})},
              sampling("bilinear", "border", true)),
        // x = 3 (ix = 2) reflects to the border 0 and y = -3 (iy = -1) to 1; x = 1 is the border itself.
        point("grid points on reflection points", {square, at({3.0, -3.0, 1.0, 0.0}, Shape{1, 1, 2, 2})},
              sampling("bilinear", "reflection", true)),
        // align_corners=False: ix = x + 0.5 reflects at -0.5 (x = -1) and 1.5 (x = 1); x = -0.5 is the
        // clip's edge 0 after the reflection.
        point("grid points on reflection points", {square, at({-1.0, 1.0, -0.5, 0.25}, Shape{1, 1, 2, 2})},
              sampling("bilinear", "reflection", false)),
        // W = 4, H = 1, align_corners=False: ix = 2x + 1.5, iy = y / 2: x = -0.5 and 0.5 are ties at 0.5
        // and 2.5, both rounded to the even neighbour.
        point("nearest ties at .5",
              {at({1.5, -0.5, 2.0, 0.25}, Shape{1, 1, 1, 4}), at({-0.5, 0.0, 0.5, 0.0}, Shape{1, 1, 2, 2})},
              sampling("nearest", "zeros", false)),
        // 5-D: D = 1, H = W = 2, align_corners=True: x = -1 and y = 1 are pixels, z any.
        point("grid point on a voxel",
              {at({1.5, -0.5, 2.0, 0.25}, Shape{1, 1, 1, 2, 2}), at({-1.0, 1.0, 0.5}, Shape{1, 1, 1, 1, 3})},
              sampling("bilinear", "zeros", true))}},
  };
}

// The selections (max.dim, min.dim, median, nanmedian, kthvalue) and the cumulative extremes:
// exact ties (the derivative goes to the returned index alone, or splits evenly for median()
// without a dim), NaN (which wins, at its index) and infinities (SPEC OPS-23.x).
std::map<std::string, std::vector<SpecialPoint>> selection_points() {
  const Attrs rows{{"dim", std::int64_t{1}}};
  const Attrs lane{{"dim", std::int64_t{0}}};
  const PointOperand ties = at({1.5, 1.5, -0.5, -0.5, 0.25, 0.25, 0.25, 0.25}, {2, 4});
  const PointOperand nan_row = at({1.0, kNan, 2.0, kNan}, {4});
  const PointOperand infinite_rows = at({-kInf, -kInf, kInf, kInf}, {2, 2});
  // Rows whose lower medians are tied with other elements: [2, 1, 2, 1] and [1, 1, 1, 1].
  const PointOperand median_ties = at({2.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {2, 4});
  const PointOperand five_ties = at({2.0, 1.0, 2.0, 1.0, 2.0});
  const Attrs k3{{"k", std::int64_t{3}}, {"dim", std::int64_t{0}}};
  std::map<std::string, std::vector<SpecialPoint>> points;
  for (const char* name : {"max.dim", "min.dim"}) {
    points[name] = {point("tie", {ties}, rows), point("NaN", {nan_row}, lane),
                    point("rows of -inf and +inf", {infinite_rows}, rows)};
  }
  for (const char* name : {"median.dim", "nanmedian.dim"}) {
    points[name] = {point("tie", {median_ties}, rows), point("NaN", {nan_row}, lane),
                    point("a row of NaN", {at({kNan, kNan, kNan, 1.0, kNan, 2.0}, {2, 3})}, rows)};
  }
  points["median"] = {point("tie", {five_ties}), point("NaN", {nan_row}),
                      point("tie at +inf", {at({kInf, 1.0, kInf})})};
  points["nanmedian"] = {point("tie", {five_ties}), point("NaN beside a tie", {at({1.0, kNan, 1.0, 2.0, kNan})}),
                         point("every element NaN", {at({kNan, kNan})}),
                         point("tie at -inf", {at({-kInf, 1.0, -kInf})})};
  points["kthvalue"] = {point("tie", {five_ties}, k3), point("tie", {at({1.0, 1.0, 1.0, 1.0})}, k3),
                        point("NaN", {at({3.0, kNan, 1.0, kNan})}, k3)};
  for (const char* name : {"cummax", "cummin"}) {
    points[name] = {point("ties", {at({3.0, 1.0, 3.0, 1.0, 3.0, 1.0})}, lane),
                    point("NaN", {at({1.0, kNan, 2.0, kNan, 0.0})}, lane),
                    point("infinities", {at({-kInf, -kInf, 1.0, kInf, kInf, 1.0}, {2, 3})}, rows)};
  }
  // NaN counts as 0 in nansum and is left out of nanmean's count: its derivative is 0.
  for (const char* name : {"nansum", "nanmean"})
    points[name] = {point("NaN", {nan_row}), point("NaN row", {at({kNan, kNan, 1.0, 2.0}, {2, 2})},
                                                   Attrs{{"dim", std::vector<std::int64_t>{1}}})};
  return points;
}

// The special-function family (docs/ops/special.md, SPEC OPS-21.x): the exact zeros where PyTorch's
// derivative is a masked formula (xlogy and xlog1py at self = 0, copysign at self = 0, hypot at the
// origin, sinc at 0), the bounds and ties where one piece is chosen (clamp_min and clamp_max at
// their bound, logit at its eps bounds, lerp's switch at weight 0.5), the poles and infinite slopes
// (logit at 0, special_entr at 0, addcdiv near a zero divisor), and the tails where only a
// relative tolerance sees a wrong tiny value (xlogy of a tiny self).
std::map<std::string, std::vector<SpecialPoint>> special_family_points() {
  const Attrs eps{{"eps", 0.25}};
  return {
      {"xlogy",
       {point("self 0, other > 0 (derivative log(other))", {at({0.0, 0.0}), at({0.5, 2.0})}),
        point("tiny self, large and tiny other (float32 1e-10, 1e10)",
              {at_by_dtype({1e-20, -1e-20}, {1e-10, -1e-10}), at_by_dtype({1e20, 1e-20}, {1e10, 1e-10})})}},
      {"special_xlog1py",
       {point("self 0, other > -1 (derivative log1p(other))", {at({0.0, 0.0}), at({-0.5, 2.0})}),
        point("other near 0 (log1p's series)", {at({1.5, -2.0}), at({1e-20, -1e-20})})}},
      {"hypot",
       {point("origin (derivative 0)", {at({0.0}), at({0.0})}),
        point("one operand 0", {at({0.0, 0.0}), at({2.0, -1.5})})}},
      {"copysign",
       {point("self 0 (derivative 0)", {at({0.0, -0.0}), at({1.5, -2.0})}),
        point("jump at other = +-0", {at({1.5, -1.5}), at({0.0, -0.0})})}},
      {"clamp_min", {point("self at the bound", {at({-1.0, 0.5}), at({-1.0, 0.5})})}},
      {"clamp_max", {point("self at the bound", {at({1.0, 0.5}), at({1.0, 0.5})})}},
      {"special_entr",
       {point("zero (infinite slope)", {at({0.0})}), point("near 0 x=1e-8", {at({1e-8, 4e-8})}),
        point("large x=1e20", {at({1e20})})}},
      {"sinc",
       {point("zero (value 1, derivative 0)", {at({0.0})}),
        point("series switch |x|=0.03 (float32 0.2)", {at_by_dtype({0.03, -0.03}, {0.2, -0.2})}),
        point("zeros at integers", {at({1.0, -2.0})})}},
      {"logit",
       {point("pole at 0 (infinite slope)", {at({0.0})}), point("zero at 0.5", {at({0.5})}),
        point("self at eps and 1-eps", {at({0.25, 0.75})}, eps),
        point("self outside [eps, 1-eps] (derivative 0)", {at({0.125, 0.875})}, eps)}},
      {"lerp",
       {point("weight at the switch 0.5", {at({1.0, -2.0}), at({3.0, 0.5}), at({0.5, 0.5})}),
        point("weight 0 and 1", {at({1.0, -2.0}), at({3.0, 0.5}), at({0.0, 1.0})})}},
      {"addcdiv", {point("pole neighbourhood: tensor2 +-1e-8", {at({1.0, 1.0}), at({1.5, -2.0}), at({1e-8, -1e-8})})}},
  };
}

// Issue 23's second batch (SPEC OPS-23.9 - OPS-23.13): logaddexp's ties and infinities (1/2 each at
// a finite tie, NaN at equal infinities, 1 and 0 with one infinite operand), logcumsumexp's -inf
// prefixes, +inf and NaN, aminmax's ties and NaN, diff's and trapezoid's exact zeros and repeated
// abscissae.
std::map<std::string, std::vector<SpecialPoint>> stats_points() {
  const Attrs lane{{"dim", std::int64_t{0}}};
  std::map<std::string, std::vector<SpecialPoint>> points;
  for (const char* name : {"logaddexp", "logaddexp2"}) {
    points[name] = {point("tie (1/2 each)", {at({2.0, -1.5, 0.0}), at({2.0, -1.5, 0.0})}),
                    point("equal infinities (NaN derivatives)", {at({-kInf, kInf}), at({-kInf, kInf})}),
                    point("one operand infinite", {at({kInf, 1.0, -kInf, 0.5}), at({1.0, kInf, 0.5, -kInf})}),
                    point("NaN", {at({kNan, 1.0}), at({1.0, kNan})})};
  }
  points["logcumsumexp"] = {point("-inf prefix", {at({-kInf, -kInf, 1.0, -kInf, 2.0})}, lane),
                            point("+inf", {at({1.0, kInf, 2.0, kInf})}, lane),
                            point("NaN", {at({1.0, kNan, 2.0})}, lane),
                            point("every element -inf", {at({-kInf, -kInf})}, lane)};
  points["aminmax"] = {
      point("ties", {at({1.5, 1.5, -0.5, -0.5, 0.25, 0.25, 0.25, 0.25}, {2, 4})}, Attrs{{"dim", std::int64_t{1}}}),
      point("ties, every dim", {at({1.5, -0.5, 1.5, -0.5})}),
      point("NaN", {at({1.0, kNan, 2.0, -1.0, 0.5, 3.0}, {2, 3})}, Attrs{{"dim", std::int64_t{1}}})};
  points["diff"] = {point("equal neighbours (exact zeros)", {at({1.5, 1.5, 1.5, -0.5})},
                          Attrs{{"n", std::int64_t{2}}, {"dim", std::int64_t{0}}})};
  const PointOperand y = at({1.0, 2.0, 4.0, 0.5});
  const PointOperand repeated = at({0.0, 0.0, 1.0, 1.0});
  points["trapezoid.x"] = {point("repeated abscissae (zero-width intervals)", {y, repeated}, lane)};
  points["cumulative_trapezoid.x"] = {point("repeated abscissae (zero-width intervals)", {y, repeated}, lane)};
  return points;
}

const std::map<std::string, std::vector<SpecialPoint>>& special_point_declarations() {
  static const std::map<std::string, std::vector<SpecialPoint>> declarations = [] {
    std::map<std::string, std::vector<SpecialPoint>> all;
    for (auto* family : {&unary_points, &binary_points, &reduce_points, &other_points, &distance_points,
                         &activation_points, &loss_points, &pooling_points, &attention_points, &normalization_points,
                         &resampling_points, &selection_points, &special_family_points, &index_points, &stats_points}) {
      for (auto& [op, points] : (*family)()) {
        FUNCSPEC_INTERNAL_ASSERT(all.emplace(op, std::move(points)).second, "special points declared twice for an op");
      }
    }
    return all;
  }();
  return declarations;
}

}  // namespace funcspec::samples
