// Transform rules of the unary family (elementwise ops of one tensor). Batching: the op applies to
// every element of the batched value alike, so the batch dim stays where it is.
#include <functional>
#include <numbers>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

namespace {

constexpr double two_over_sqrt_pi = 2 * std::numbers::inv_sqrtpi;
constexpr double inverse_sqrt_two = std::numbers::sqrt2 / 2;

// The primal-derived factor f'(x) of an elementwise op whose tangent is t * f'(x).
using DerivativeFactor = std::function<Tensor(const Tensor& self, const Tensor& result, const Attrs& attrs)>;

void add_scaling_rule(RuleAttacher& attach, const std::string& op, DerivativeFactor factor) {
  attach.jvp(op, [factor = std::move(factor)](const JvpCall& c) -> TensorList {
    return {ops::mul(c.tangents[0], factor(c.primals[0], c.outputs[0], c.attrs))};
  });
}

// d/dx [x Phi(x)] = Phi(x) + x phi(x), with Phi and phi the standard normal cdf and pdf.
// Phi(x) = (1 + erf(x/sqrt 2)) / 2 cancels in the negative tail (at x = -10 it rounds to 0, where
// Phi is 7.6e-24, and the derivative comes out 1% off). There Phi(x) is gelu(x) / x instead: gelu's
// own kernel keeps its relative accuracy through erfc, and both forms are differentiable ops, so
// every order of derivative follows. Below -1 the division is safe; above, erf does not cancel.
Tensor gelu_exact_derivative(const Tensor& x) {
  const Tensor in_tail = ops::lt(x, ops::lit(-1));
  const Tensor tail_x = ops::where(in_tail, x, ops::lit(-1));  // keeps the unused branch finite
  const Tensor tail_cdf = ops::div(ops::gelu(tail_x), tail_x);
  const Tensor central_cdf =
      ops::mul(ops::add(ops::erf(ops::mul(x, ops::lit(inverse_sqrt_two))), ops::lit(1)), ops::lit(0.5));
  const Tensor cdf = ops::where(in_tail, tail_cdf, central_cdf);
  const double inverse_sqrt_two_pi = two_over_sqrt_pi * inverse_sqrt_two * 0.5;
  const Tensor pdf = ops::mul(ops::exp(ops::mul(ops::square(x), ops::lit(-0.5))), ops::lit(inverse_sqrt_two_pi));
  return ops::add(cdf, ops::mul(x, pdf));
}

// d/dx [x/2 (1 + tanh u)] with u = sqrt(2/pi) (x + k x^3):
// (1 + tanh u)/2 + x/2 (1 - tanh^2 u) sqrt(2/pi) (1 + 3k x^2), PyTorch's arrangement.
Tensor gelu_tanh_derivative(const Tensor& x) {
  const double sqrt_two_over_pi = two_over_sqrt_pi * inverse_sqrt_two;
  const double kappa = 0.044715;
  const Tensor x_squared = ops::square(x);
  const Tensor inner =
      ops::mul(ops::add(x, ops::mul(ops::mul(x_squared, x), ops::lit(kappa))), ops::lit(sqrt_two_over_pi));
  const Tensor tanh_inner = ops::tanh(inner);
  const Tensor left_derivative = ops::mul(ops::add(tanh_inner, ops::lit(1)), ops::lit(0.5));
  const Tensor right_derivative = ops::mul(ops::mul(x, ops::lit(0.5)), ops::sub(ops::lit(1), ops::square(tanh_inner)));
  const Tensor inner_derivative =
      ops::mul(ops::add(ops::mul(x_squared, ops::lit(3 * kappa)), ops::lit(1)), ops::lit(sqrt_two_over_pi));
  return ops::add(left_derivative, ops::mul(right_derivative, inner_derivative));
}

}  // namespace

void register_unary_rules(RuleAttacher& attach) {
  // Batching.
  for (const OpDef* op : attach.catalogue().all()) {
    if (op->family != "unary" || op->kind != OpKind::Primitive) continue;
    const std::string name = op->name();
    attach.batch(name, [name](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      return {{call_one(name, {in.at(0).value}, attrs), in.at(0).bdim}};
    });
  }

  // Derivatives.
  // Piecewise constant (zero derivative almost everywhere) or bool-valued.
  for (const char* op : {"ceil", "floor", "round", "trunc", "sign", "logical_not", "isnan", "isinf", "isfinite"}) {
    attach.non_differentiable(op);
  }

  attach.jvp("neg", [](const JvpCall& c) -> TensorList { return {ops::neg(c.tangents[0])}; });
  attach.transpose("neg", [](const TransposeCall& c) -> TensorList { return {ops::neg(c.cotangents[0])}; });

  add_scaling_rule(attach, "sin", [](const Tensor& x, const Tensor&, const Attrs&) { return ops::cos(x); });
  add_scaling_rule(attach, "cos", [](const Tensor& x, const Tensor&, const Attrs&) { return ops::neg(ops::sin(x)); });
  add_scaling_rule(attach, "tan",
                   [](const Tensor&, const Tensor& y, const Attrs&) { return ops::add(ops::square(y), ops::lit(1)); });
  // Where these functions saturate their derivatives are tiny, and the forms in y alone (1 - y^2,
  // (1 - y) y, y + 1) cancel to 0 once y rounds to +-1 or -1: tanh'(20) ~ 1.7e-17 would be 0.
  // Small derivatives are held to their own size (docs/SPEC.md AD-8.1), so beyond |x| = 1 tanh's is
  // sech^2 x = 4 a / (1 + a)^2 with a = e^(-2|x|); inside, 1 - y^2, whose own derivative -2 y y'
  // keeps tanh'' ~ -2x accurate near 0 (the exponential form's is 4 a' (1 - a) / (1 + a)^3, which
  // cancels there). sigmoid's is sigmoid(x) sigmoid(-x), expm1's e^x.
  add_scaling_rule(attach, "tanh", [](const Tensor& x, const Tensor& y, const Attrs&) {
    const Tensor magnitude = ops::abs(x);
    const Tensor a = ops::exp(ops::mul(magnitude, ops::lit(-2)));
    const Tensor saturating = ops::div(ops::mul(a, ops::lit(4)), ops::square(ops::add(a, ops::lit(1))));
    return ops::where(ops::lt(magnitude, ops::lit(1)), ops::sub(ops::lit(1), ops::square(y)), saturating);
  });
  // log(sigmoid(x))' = 1 - sigmoid(x) = sigmoid(-x), accurate in both tails.
  add_scaling_rule(attach, "logsigmoid",
                   [](const Tensor& x, const Tensor&, const Attrs&) { return ops::sigmoid(ops::neg(x)); });
  add_scaling_rule(attach, "sigmoid", [](const Tensor& x, const Tensor& y, const Attrs&) {
    return ops::mul(y, ops::sigmoid(ops::neg(x)));
  });
  add_scaling_rule(attach, "exp", [](const Tensor&, const Tensor& y, const Attrs&) { return y; });
  add_scaling_rule(attach, "expm1", [](const Tensor& x, const Tensor&, const Attrs&) { return ops::exp(x); });
  add_scaling_rule(attach, "erf", [](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::mul(ops::exp(ops::neg(ops::square(x))), ops::lit(two_over_sqrt_pi));
  });
  // sign(0) = 0: abs'(0) = 0, as PyTorch.
  add_scaling_rule(attach, "abs", [](const Tensor& x, const Tensor&, const Attrs&) { return ops::sign(x); });
  add_scaling_rule(attach, "square",
                   [](const Tensor& x, const Tensor&, const Attrs&) { return ops::mul(x, ops::lit(2)); });
  add_scaling_rule(attach, "reciprocal",
                   [](const Tensor&, const Tensor& y, const Attrs&) { return ops::neg(ops::square(y)); });
  add_scaling_rule(attach, "rsqrt", [](const Tensor&, const Tensor& y, const Attrs&) {
    return ops::mul(ops::mul(ops::square(y), y), ops::lit(-0.5));
  });
  add_scaling_rule(attach, "gelu", [](const Tensor& x, const Tensor&, const Attrs& attrs) {
    return attrs.get_string("approximate") == "tanh" ? gelu_tanh_derivative(x) : gelu_exact_derivative(x);
  });
  // Beyond the threshold softplus is the identity, and so is its derivative (PyTorch's
  // softplus_backward); below it, d/dx log(1 + e^(beta x)) / beta = sigmoid(beta x).
  add_scaling_rule(attach, "softplus", [](const Tensor& x, const Tensor&, const Attrs& attrs) {
    const Tensor scaled = ops::mul(x, ops::lit(attrs.get_float("beta")));
    return ops::where(ops::gt(scaled, ops::lit(attrs.get_float("threshold"))), ops::lit(1), ops::sigmoid(scaled));
  });

  // special_entr: -(1 + log x), PyTorch's: +inf at 0, NaN below.
  add_scaling_rule(attach, "special_entr", [](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::neg(ops::add(ops::log(x), ops::lit(1)));
  });

  // The inverse trigonometric and hyperbolic functions: PyTorch's formulas (derivatives.yaml), and
  // where x^2 overflows (|x| > 1.3e154, float32 1.8e19) forms that keep a large argument's tiny
  // derivative (PyTorch's give 0; SPEC OPS-21.5): 1/(1 + x^2) is r^2/(1 + r^2) with r = 1/x,
  // rsqrt(x^2 + 1) is 1/hypot(x, 1), and rsqrt(x^2 - 1) is 1/|x| beyond |x| = 1e8 (where the two
  // agree to 5e-17). Near +-1, 1 - x^2 keeps its relative accuracy: x = 1 - d is exact and x^2 =
  // 1 - 2d + d^2 rounds by at most d^2. No factor is a product with a vanishing operand, so no
  // higher derivative at an end of a domain meets 0 * inf: the derivatives are infinite there, as
  // PyTorch's formulas give: asin'(+-1) = +inf, acos'(+-1) = -inf, acosh'(1) = +inf,
  // atanh'(+-1) = +inf.
  const auto one_minus_square = [](const Tensor& x) { return ops::sub(ops::lit(1), ops::square(x)); };
  add_scaling_rule(attach, "asin", [one_minus_square](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::rsqrt(one_minus_square(x));
  });
  add_scaling_rule(attach, "acos", [one_minus_square](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::neg(ops::rsqrt(one_minus_square(x)));
  });
  add_scaling_rule(attach, "atan", [](const Tensor& x, const Tensor&, const Attrs&) {
    const Tensor large = ops::gt(ops::abs(x), ops::lit(1));
    const Tensor inverse = ops::reciprocal(ops::where(large, x, ops::lit(1)));  // the unused branch stays finite
    const Tensor inverse_squared = ops::square(inverse);
    const Tensor outer = ops::div(inverse_squared, ops::add(inverse_squared, ops::lit(1)));
    return ops::where(large, outer, ops::reciprocal(ops::add(ops::square(x), ops::lit(1))));
  });
  add_scaling_rule(attach, "asinh", [](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::reciprocal(call_one("hypot", {x, ops::lit(1)}));
  });
  add_scaling_rule(attach, "acosh", [](const Tensor& x, const Tensor&, const Attrs&) {
    const Tensor large = ops::gt(ops::abs(x), ops::lit(1e8));
    // Each branch reads a harmless stand-in where the other is taken, so neither overflows.
    const Tensor outer = ops::reciprocal(ops::abs(ops::where(large, x, ops::lit(2))));
    const Tensor inner = ops::rsqrt(ops::sub(ops::square(ops::where(large, ops::lit(2), x)), ops::lit(1)));
    return ops::where(large, outer, inner);
  });
  add_scaling_rule(attach, "atanh", [one_minus_square](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::reciprocal(one_minus_square(x));
  });
  add_scaling_rule(attach, "sinh", [](const Tensor& x, const Tensor&, const Attrs&) { return call_one("cosh", {x}); });
  add_scaling_rule(attach, "cosh", [](const Tensor& x, const Tensor&, const Attrs&) { return call_one("sinh", {x}); });
  add_scaling_rule(attach, "exp2", [](const Tensor&, const Tensor& y, const Attrs&) {
    return ops::mul(y, ops::lit(std::numbers::ln2));
  });
  add_scaling_rule(attach, "erfc", [](const Tensor& x, const Tensor&, const Attrs&) {
    return ops::mul(ops::exp(ops::neg(ops::square(x))), ops::lit(-two_over_sqrt_pi));
  });
  // frac = x - trunc(x) with trunc piecewise constant: the tangent itself, at the jumps too
  // (PyTorch's backward is the gradient).
  attach.jvp("frac", [](const JvpCall& c) -> TensorList { return {c.tangents[0]}; });

  // Divisions rather than products with a reciprocal, as PyTorch's formulas.
  attach.jvp("log", [](const JvpCall& c) -> TensorList { return {ops::div(c.tangents[0], c.primals[0])}; });
  attach.jvp("log1p", [](const JvpCall& c) -> TensorList {
    return {ops::div(c.tangents[0], ops::add(c.primals[0], ops::lit(1)))};
  });
  attach.jvp("log2", [](const JvpCall& c) -> TensorList {
    return {ops::div(c.tangents[0], ops::mul(c.primals[0], ops::lit(std::numbers::ln2)))};
  });
  attach.jvp("log10", [](const JvpCall& c) -> TensorList {
    return {ops::div(c.tangents[0], ops::mul(c.primals[0], ops::lit(std::numbers::ln10)))};
  });
  attach.jvp("sqrt", [](const JvpCall& c) -> TensorList {
    return {ops::div(c.tangents[0], ops::mul(c.outputs[0], ops::lit(2)))};
  });
  // relu'(0) = 0, as PyTorch. A select rather than a product with a 0/1 mask, which would turn an
  // infinite tangent where x < 0 into NaN.
  attach.jvp("relu", [](const JvpCall& c) -> TensorList {
    return {ops::where(ops::gt(c.outputs[0], ops::lit(0)), c.tangents[0], ops::lit(0))};
  });
}

}  // namespace funcspec::transforms
