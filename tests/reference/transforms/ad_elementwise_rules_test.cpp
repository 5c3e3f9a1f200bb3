// Derivative rules of the elementwise families (unary, binary, conversion, creation, random,
// dynamic): each differentiable op against finite differences and its own transpose, the
// non-smooth points worked out by hand (PyTorch's choices), the non-differentiable ops giving
// zero gradients, and compositions of transforms through the rules.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/op_rules.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::call1;
using testing_support::expect_derivatives_consistent;
using testing_support::expect_same;
using testing_support::lift;
using testing_support::scalar;
using testing_support::values;

// A [3, 2] float64 tensor that is the transpose of a contiguous [2, 3] one.
Tensor non_contiguous(std::initializer_list<double> six_values) {
  return ops::transpose(from_values(six_values, {2, 3}), 0, 1);
}

Tensor bools(const std::vector<bool>& v, const Shape& shape) {
  std::vector<double> d(v.begin(), v.end());
  return ops::to_dtype(from_vector(d, shape, DType::Float64), DType::Bool);
}

PyFunction lift2(const std::function<Tensor(const Tensor&, const Tensor&)>& f) {
  return [f](const std::vector<PyTree>& args) { return PyTree(f(args.at(0).tensor(), args.at(1).tensor())); };
}

// The gradient of sum(f(x)) with respect to x.
Tensor grad_of_sum(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  return grad(lift([f](const Tensor& t) { return ops::sum(f(t)); }))({PyTree(x)}).tensor();
}

// The gradients of sum(f(a, b)) with respect to a and b.
std::pair<Tensor, Tensor> grads_of_sum(const std::function<Tensor(const Tensor&, const Tensor&)>& f, const Tensor& a,
                                       const Tensor& b) {
  const PyTree g = grad(lift2([f](const Tensor& x, const Tensor& y) { return ops::sum(f(x, y)); }),
                        {Argnums::many({0, 1})})({PyTree(a), PyTree(b)});
  return {g.children().at(0).tensor(), g.children().at(1).tensor()};
}

// ---- unary ----

TEST(AdUnaryRules, SmoothOpsAgreeWithFiniteDifferences) {
  const Tensor any = from_values({0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, {2, 3});
  const Tensor any_strided = non_contiguous({0.5, -0.9, 1.7, -2.2, 0.15, 0.8});
  const Tensor positive = from_values({0.3, 1.2, 2.5, 0.7, 1.9, 0.45}, {2, 3});
  const Tensor positive_strided = non_contiguous({0.6, 2.1, 0.35, 1.4, 3.0, 0.9});
  struct Case {
    std::string op;
    Tensor sample;
    Attrs attrs;
  };
  const std::vector<Case> cases = {
      {"neg", any, {}},
      {"neg", scalar(0.4), {}},
      {"sin", any_strided, {}},
      {"cos", any_strided, {}},
      {"tan", any_strided, {}},
      {"tan", scalar(-0.8), {}},
      {"tanh", any, {}},
      {"tanh", any_strided, {}},
      {"sigmoid", any, {}},
      {"sigmoid", scalar(-2.5), {}},
      {"exp", any, {}},
      {"exp", scalar(0.5), {}},
      {"expm1", any_strided, {}},
      {"expm1", scalar(1e-3), {}},
      {"erf", any, {}},
      {"erf", scalar(0.2), {}},
      {"abs", any, {}},
      {"abs", any_strided, {}},
      {"square", any_strided, {}},
      {"square", scalar(-1.5), {}},
      {"reciprocal", any, {}},
      {"reciprocal", scalar(-0.6), {}},
      {"rsqrt", positive, {}},
      {"rsqrt", positive_strided, {}},
      {"sqrt", positive, {}},
      {"sqrt", scalar(4.0), {}},
      {"log", positive, {}},
      {"log", positive_strided, {}},
      {"log1p", positive_strided, {}},
      {"log1p", scalar(-0.5), {}},
      {"relu", any, {}},
      {"relu", scalar(0.25), {}},
      {"gelu", any, {{"approximate", std::string("none")}}},
      {"gelu", any_strided, {{"approximate", std::string("none")}}},
      {"gelu", any, {{"approximate", std::string("tanh")}}},
      {"gelu", scalar(-0.7), {{"approximate", std::string("tanh")}}},
      {"softplus", any, {{"beta", 1.0}, {"threshold", 20.0}}},
      // beta * x on both sides of the threshold 1.
      {"softplus", non_contiguous({0.3, -0.9, 1.7, -2.2, 0.15, 0.8}), {{"beta", 2.0}, {"threshold", 1.0}}},
  };
  for (const Case& c : cases) expect_derivatives_consistent(c.op, {c.sample}, c.attrs);
}

TEST(AdUnaryRules, KinksFollowPyTorch) {
  // abs'(0) = 0 and relu'(0) = 0.
  const Tensor x = from_values({-2.0, 0.0, 3.0}, {3});
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::abs(t); }, x)), {-1.0, 0.0, 1.0});
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::relu(t); }, x)), {0.0, 0.0, 1.0});
  // sqrt'(0) = inf, as 1 / (2 sqrt(0)).
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::sqrt(t); }, from_values({0.0, 4.0}, {2}))),
              {INFINITY, 0.25});
}

TEST(AdUnaryRules, SoftplusIsLinearBeyondItsThreshold) {
  // beta x = 2 * 3 = 6 > 5: the identity; beta x = 2 * 2 = 4 <= 5: sigmoid(4).
  const Tensor x = from_values({3.0, 2.0}, {2});
  const Tensor g = grad_of_sum([](const Tensor& t) { return ops::softplus(t, 2.0, 5.0); }, x);
  expect_same(values(g), {1.0, 1.0 / (1.0 + std::exp(-4.0))}, 1e-15);
}

TEST(AdUnaryRules, GeluDerivativesByHand) {
  const double x = 0.8;
  const double exact = 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-x * x / 2) / std::sqrt(2 * M_PI);
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::gelu(t); }, scalar(x))), {exact}, 1e-15);
  const double k = std::sqrt(2 / M_PI);
  const double u = k * (x + 0.044715 * x * x * x);
  const double tanh_form =
      0.5 * (1 + std::tanh(u)) + 0.5 * x * (1 - std::tanh(u) * std::tanh(u)) * k * (1 + 3 * 0.044715 * x * x);
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::gelu(t, "tanh"); }, scalar(x))), {tanh_form}, 1e-15);
}

TEST(AdUnaryRules, PiecewiseConstantOpsHaveZeroGradient) {
  const Tensor x = from_values({-1.5, 0.2, 2.7}, {3});
  for (const auto& op : {ops::floor, ops::ceil, ops::round, ops::sign}) {
    // t's own term gives 1 per element; the rounded term adds nothing.
    const Tensor g = grad_of_sum([op](const Tensor& t) { return ops::add(t, op(t)); }, x);
    expect_same(values(g), {1.0, 1.0, 1.0});
  }
  const Tensor g = grad_of_sum(
      [](const Tensor& t) { return ops::where(ops::logical_not(ops::gt(t, ops::lit(0))), t, ops::lit(0)); }, x);
  expect_same(values(g), {1.0, 0.0, 0.0});
}

TEST(GradUnary, SecondDerivativeOfTanh) {
  const double x = 0.6;
  const PyFunction g2 = grad(grad(lift([](const Tensor& t) { return ops::tanh(t); })));
  const double y = std::tanh(x);
  EXPECT_NEAR(values(g2({PyTree(scalar(x))}).tensor())[0], -2 * y * (1 - y * y), 1e-15);
}

// ---- binary ----

TEST(AdBinaryRules, SmoothOpsAgreeWithFiniteDifferences) {
  const Tensor a = from_values({0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, {2, 3});
  const Tensor b = from_values({1.5, 0.25, -0.7, -1.3, 0.9, 2.2}, {2, 3});
  const Tensor a_strided = non_contiguous({0.5, -0.9, 1.7, -2.2, 0.15, 0.8});
  const Tensor b_strided = non_contiguous({-1.1, 0.6, 0.35, 1.4, -3.0, 0.95});
  const Tensor row = from_values({0.8, -1.7, 1.3}, {3});  // broadcast against [2, 3]
  const Tensor pair = from_values({0.8, -1.7}, {2});      // broadcast against [3, 2]
  const Tensor positive = from_values({0.3, 1.2, 2.5, 0.7, 1.9, 0.45}, {2, 3});
  const Tensor positive_strided = non_contiguous({0.6, 2.1, 0.35, 1.4, 3.0, 0.9});

  expect_derivatives_consistent("add", {a, row}, {{"alpha", Scalar(1)}});
  expect_derivatives_consistent("add", {scalar(0.3), scalar(-2.0)}, {{"alpha", Scalar(-0.5)}});
  expect_derivatives_consistent("sub", {a, b}, {{"alpha", Scalar(1)}});
  expect_derivatives_consistent("sub", {a_strided, b_strided}, {{"alpha", Scalar(2.5)}});
  expect_derivatives_consistent("sub", {row, a}, {{"alpha", Scalar(-3)}});
  expect_derivatives_consistent("sub", {a, b}, {{"alpha", Scalar(2.5)}}, {1});
  expect_derivatives_consistent("mul", {a_strided, b_strided});
  expect_derivatives_consistent("mul", {a, row});
  expect_derivatives_consistent("div", {a, b}, {{"rounding_mode", AttrValue()}});
  expect_derivatives_consistent("div", {a_strided, pair}, {{"rounding_mode", AttrValue()}});
  expect_derivatives_consistent("div", {scalar(1.5), scalar(-0.7)}, {{"rounding_mode", AttrValue()}}, {1});
  expect_derivatives_consistent("pow", {positive, a});
  expect_derivatives_consistent("pow", {positive_strided, b_strided});
  expect_derivatives_consistent("pow", {a, from_values({3.0}, {})}, {}, {0});  // negative bases, integral power
  expect_derivatives_consistent("atan2", {a, b});
  expect_derivatives_consistent("atan2", {a_strided, scalar(-0.4)});
  expect_derivatives_consistent("maximum", {a, b});
  expect_derivatives_consistent("maximum", {a_strided, pair});
  expect_derivatives_consistent("minimum", {a, b});
  expect_derivatives_consistent("minimum", {a_strided, b_strided});
  // remainder away from its jumps (where x / y is an integer).
  expect_derivatives_consistent("remainder", {a, b});
  expect_derivatives_consistent("remainder", {a_strided, from_values({0.7}, {})});
  expect_derivatives_consistent("where", {bools({true, false, true, false, false, true}, {2, 3}), a, b});
  expect_derivatives_consistent("where", {bools({true, false, true}, {3, 1}), a_strided, scalar(0.5)}, {}, {}, 1e-6, 3);
  expect_derivatives_consistent("where", {bools({false, true, true}, {3}), a, b}, {}, {2});
}

TEST(AdBinaryRules, ClampAgreesWithFiniteDifferences) {
  // self inside, below and above its bounds; min < max, and min > max in the last column.
  const Tensor self = from_values({0.0, -2.0, 3.0, 0.5, -0.9, 1.6}, {2, 3});
  const Tensor min = from_values({-1.0, -1.0, -1.0, 0.2, -0.5, 2.0}, {2, 3});
  const Tensor max = from_values({1.0, 1.0, 1.0, 0.9, 0.4, 1.0}, {2, 3});
  expect_derivatives_consistent("clamp", {self, min, max});
  expect_derivatives_consistent("clamp", {self, min, Tensor()});
  expect_derivatives_consistent("clamp", {self, Tensor(), max});
  expect_derivatives_consistent("clamp", {non_contiguous({0.3, -2.0, 3.0, 0.5, -0.9, 1.6}), scalar(-0.7), scalar(0.8)});
}

TEST(AdBinaryRules, ClampGradientsByHand) {
  // self below, at min, inside, at max, above; and min > max.
  const Tensor self = from_values({-3.0, -1.0, 0.5, 1.0, 4.0, 0.0}, {6});
  const Tensor min = from_values({-1.0, -1.0, -1.0, -1.0, -1.0, 2.0}, {6});
  const Tensor max = from_values({1.0, 1.0, 1.0, 1.0, 1.0, 1.0}, {6});
  const PyTree g = grad(
      [](const std::vector<PyTree>& args) {
        return PyTree(ops::sum(ops::clamp(args[0].tensor(), args[1].tensor(), args[2].tensor())));
      },
      {Argnums::many({0, 1, 2})})({PyTree(self), PyTree(min), PyTree(max)});
  expect_same(values(g.children()[0].tensor()), {0, 1, 1, 1, 0, 0});
  expect_same(values(g.children()[1].tensor()), {1, 0, 0, 0, 0, 0});
  expect_same(values(g.children()[2].tensor()), {0, 0, 0, 0, 1, 1});
}

TEST(AdBinaryRules, MaximumAndMinimumSplitTiesInHalf) {
  const Tensor a = from_values({1.0, 2.0, 3.0}, {3});
  const Tensor b = from_values({2.0, 2.0, 1.0}, {3});
  const auto [max_a, max_b] = grads_of_sum([](const Tensor& x, const Tensor& y) { return ops::maximum(x, y); }, a, b);
  expect_same(values(max_a), {0.0, 0.5, 1.0});
  expect_same(values(max_b), {1.0, 0.5, 0.0});
  const auto [min_a, min_b] = grads_of_sum([](const Tensor& x, const Tensor& y) { return ops::minimum(x, y); }, a, b);
  expect_same(values(min_a), {1.0, 0.5, 0.0});
  expect_same(values(min_b), {0.0, 0.5, 1.0});
}

TEST(AdBinaryRules, PowAtBaseZeroFollowsPyTorch) {
  // d/dbase: 0 where the exponent is 0 (not 0 * 0^-1 = NaN); 2 * 0 = 0 for exponent 2.
  // d/dexponent: 0 at base 0 with exponent >= 0 (not 0 * log 0 = NaN).
  const Tensor base = from_values({0.0, 0.0, 2.0}, {3});
  const Tensor exponent = from_values({0.0, 2.0, 3.0}, {3});
  const auto [by_base, by_exponent] =
      grads_of_sum([](const Tensor& x, const Tensor& y) { return ops::pow(x, y); }, base, exponent);
  expect_same(values(by_base), {0.0, 0.0, 12.0});
  expect_same(values(by_exponent), {0.0, 0.0, 8.0 * std::log(2.0)}, 1e-15);
  // A literal exponent: only the base has a derivative.
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::pow(t, ops::lit(3)); }, scalar(-2.0))), {12.0});
}

TEST(AdBinaryRules, PowSecondDerivativesAtBaseZeroAgreeInEveryMode) {
  // d2/dx2 sum(x^e) at x = 0 is e (e - 1) 0^(e-2): [2, 0, 0] for e = [2, 1, 3]. The rule's masked
  // branches read stand-ins, so reverse over reverse never forms 0 * inf (it gave NaN where forward
  // over reverse gave these values).
  const Tensor exponent = from_values({2.0, 1.0, 3.0}, {3});
  const PyFunction f = lift([exponent](const Tensor& t) { return ops::sum(ops::pow(t, exponent)); });
  const Tensor x = from_values({0.0, 0.0, 0.0}, {3});
  const std::vector<double> expected{2, 0, 0, 0, 0, 0, 0, 0, 0};
  expect_same(values(call1(jacrev(jacrev(f)), x)), expected);
  expect_same(values(call1(jacfwd(jacrev(f)), x)), expected);
  // The exponent's second derivative at base 0 (exponent >= 0) is 0 in both modes too.
  const Tensor base = from_values({0.0, 0.0}, {2});
  const PyFunction g = lift([base](const Tensor& e) { return ops::sum(ops::pow(base, e)); });
  const Tensor e = from_values({2.0, 0.0}, {2});
  expect_same(values(call1(jacrev(jacrev(g)), e)), {0, 0, 0, 0});
  expect_same(values(call1(jacfwd(jacrev(g)), e)), {0, 0, 0, 0});
}

TEST(AdBinaryRules, RemainderAndRoundedDivisionByHand) {
  const Tensor x = from_values({7.5, -7.5}, {2});
  const Tensor y = from_values({2.0, 2.0}, {2});
  const auto [dx, dy] = grads_of_sum([](const Tensor& a, const Tensor& b) { return ops::remainder(a, b); }, x, y);
  expect_same(values(dx), {1.0, 1.0});
  expect_same(values(dy), {-3.0, 4.0});  // -floor(x / y)
  for (const char* mode : {"floor", "trunc"}) {
    const auto [gx, gy] = grads_of_sum(
        [mode](const Tensor& a, const Tensor& b) { return ops::add(ops::div(a, b, std::string(mode)), a); }, x, y);
    expect_same(values(gx), {1.0, 1.0});
    expect_same(values(gy), {0.0, 0.0});
  }
}

TEST(AdBinaryRules, ComparisonsAndLogicalOpsHaveZeroGradient) {
  const Tensor a = from_values({1.0, 2.0, 3.0}, {3});
  const Tensor b = from_values({2.0, 2.0, 1.0}, {3});
  for (const auto& op : {ops::eq, ops::ne, ops::lt, ops::le, ops::gt, ops::ge, ops::logical_and, ops::logical_or}) {
    const auto [ga, gb] = grads_of_sum(
        [op](const Tensor& x, const Tensor& y) { return ops::mul(ops::to_dtype(op(x, y), DType::Float64), x); }, a, b);
    // d/dx [c(x, y) x] = c(x, y) for a piecewise constant c; nothing reaches y.
    expect_same(values(ga), values(ops::to_dtype(op(a, b), DType::Float64)));
    expect_same(values(gb), {0.0, 0.0, 0.0});
  }
}

TEST(GradBinary, VmapOfGradWithSubDivPowEqualsTheLoop) {
  // f(x) = sum((x - 2 c)^3 / (x + 3)) per row, c a constant row.
  const Tensor c = from_values({0.1, -0.3, 0.2}, {3});
  const auto f = [c](const Tensor& x) {
    return ops::sum(ops::div(ops::pow(ops::sub(x, c, Scalar(2)), ops::lit(3)), ops::add(x, ops::lit(3))));
  };
  const Tensor xs = from_values({0.5, 1.0, -0.5, 2.0, -1.0, 0.25, 1.5, 0.75, -2.0}, {3, 3});
  const Tensor batched = vmap(grad(lift(f)))({PyTree(xs)}).tensor();
  ASSERT_EQ(batched.shape(), (Shape{3, 3}));
  const std::vector<double> got = values(batched);
  const std::vector<double> cs = values(c);
  for (std::int64_t i = 0; i < 3; ++i) {
    const Tensor row = ops::select(xs, 0, i);
    const std::vector<double> looped = values(grad(lift(f))({PyTree(row)}).tensor());
    const std::vector<double> xv = values(row);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_EQ(got[static_cast<std::size_t>(i) * 3 + j], looped[j]);
      // By hand: d/dx (x - 2c)^3 / (x + 3) = 3 (x - 2c)^2 / (x + 3) - (x - 2c)^3 / (x + 3)^2.
      const double u = xv[j] - 2 * cs[j];
      const double v = xv[j] + 3;
      EXPECT_NEAR(looped[j], 3 * u * u / v - u * u * u / (v * v), 1e-14);
    }
  }
}

TEST(GradBinary, SecondDerivativeThroughAtan2AndWhere) {
  // f(x) = where(x > 0, atan2(x, 1), x^2): f'' = -2x / (1 + x^2)^2 or 2.
  const PyFunction f2 = grad(grad(lift([](const Tensor& t) {
    return ops::where(ops::gt(t, ops::lit(0)), ops::atan2(t, ops::lit(1.0)), ops::square(t));
  })));
  for (double x : {0.5, -1.0, 2.0}) {
    const double want = x > 0 ? -2 * x / ((1 + x * x) * (1 + x * x)) : 2.0;
    EXPECT_NEAR(values(f2({PyTree(scalar(x))}).tensor())[0], want, 1e-15) << x;
  }
}

// ---- conversion ----

TEST(AdConversionRules, AgreeWithFiniteDifferences) {
  const Tensor a = from_values({0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, {2, 3});
  expect_derivatives_consistent("clone", {a});
  expect_derivatives_consistent("clone", {non_contiguous({0.5, -0.9, 1.7, -2.2, 0.15, 0.8})});
  expect_derivatives_consistent("clone", {scalar(0.5)});
  expect_derivatives_consistent("to_dtype", {a}, {{"dtype", DType::Float64}});
  expect_derivatives_consistent("to_dtype", {scalar(-1.5)}, {{"dtype", DType::Float64}});
}

TEST(AdConversionRules, ToDtypeCastsTangentsBothWays) {
  const JvpResult r = jvp(lift([](const Tensor& t) { return ops::to_dtype(t, DType::Float32); }),
                          {PyTree(from_values({1.0, 2.0}, {2}))}, {PyTree(from_values({0.1, 3.0}, {2}))});
  EXPECT_EQ(r.tangent.tensor().dtype(), DType::Float32);
  expect_same(values(r.tangent.tensor()), {static_cast<double>(0.1F), 3.0});
  const Tensor g =
      grad_of_sum([](const Tensor& t) { return ops::to_dtype(t, DType::Float32); }, from_values({1.0, 2.0}, {2}));
  EXPECT_EQ(g.dtype(), DType::Float64);
  expect_same(values(g), {1.0, 1.0});
  // To an integer dtype: no derivative.
  expect_same(
      values(grad_of_sum(
          [](const Tensor& t) { return ops::add(t, ops::to_dtype(ops::to_dtype(t, DType::Int64), DType::Float64)); },
          from_values({1.5, 2.5}, {2}))),
      {1.0, 1.0});
}

TEST(AdConversionRules, CopyInstallsTheSourceTangentOnSelf) {
  // self [2, 3] float32, src [3] float64: the result's tangent is src's, broadcast and cast.
  const Tensor self = ops::to_dtype(from_values({1, 2, 3, 4, 5, 6}, {2, 3}), DType::Float32);
  const Tensor src = from_values({0.5, -1.0, 2.0}, {3});
  const auto f = [](const Tensor& x, const Tensor& y) { return ops::copy_(ops::clone(x), y); };
  const JvpResult r = jvp(lift2(f), {PyTree(self), PyTree(src)},
                          {PyTree(ops::full_like(self, 7.0)), PyTree(from_values({1.0, 2.0, 3.0}, {3}))});
  EXPECT_EQ(r.tangent.tensor().dtype(), DType::Float32);
  expect_same(values(r.tangent.tensor()), {1, 2, 3, 1, 2, 3});
  // Reverse: nothing reaches self (overwritten); src gets each column's two cotangents.
  const PyTree g =
      grad(lift2([f](const Tensor& x, const Tensor& y) {
             return ops::sum(ops::mul(f(x, y), ops::to_dtype(ops::view(ops::arange(6), {2, 3}), DType::Float32)));
           }),
           {Argnums::many({0, 1})})({PyTree(self), PyTree(src)});
  expect_same(values(g.children()[0].tensor()), {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(g.children()[1].tensor().dtype(), DType::Float64);
  expect_same(values(g.children()[1].tensor()), {3, 5, 7});
  // A source without a tangent zeroes self's.
  const Tensor constant_src = from_values({1.0}, {1});
  expect_same(values(grad_of_sum([&](const Tensor& t) { return ops::copy_(ops::mul(t, t), constant_src); },
                                 from_values({2.0, 3.0}, {2}))),
              {0.0, 0.0});
  expect_derivatives_consistent("copy_", {from_values({1, 2, 3, 4, 5, 6}, {2, 3}), from_values({0.5, -1, 2}, {3})});
}

TEST(AdConversionRules, DetachStopsGradients) {
  const Tensor x = from_values({1.5, -2.0, 0.5}, {3});
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::detach(t); }, x)), {0.0, 0.0, 0.0});
  // d/dx [stop(x) * x] = stop(x).
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::mul(ops::detach(t), t); }, x)), values(x));
  const JvpResult r = jvp(lift([](const Tensor& t) { return ops::add(ops::detach(t), ops::mul(t, ops::lit(2))); }),
                          {PyTree(x)}, {PyTree(ops::ones_like(x))});
  expect_same(values(r.tangent.tensor()), {2.0, 2.0, 2.0});
}

TEST(GradConversion, SecondDerivativeThroughCloneAndCasts) {
  // f(x) = float64(float32(clone(x))^3): f'' = 6x, exact in float32 here.
  const PyFunction f2 = grad(grad(lift([](const Tensor& t) {
    return ops::to_dtype(ops::pow(ops::to_dtype(ops::clone(t), DType::Float32), ops::lit(3)), DType::Float64);
  })));
  const Tensor g = f2({PyTree(scalar(-0.75))}).tensor();
  EXPECT_EQ(g.dtype(), DType::Float64);
  expect_same(values(g), {-4.5});
}

// ---- creation and random ----

TEST(AdCreationRules, CreatedTensorsAreConstants) {
  const Tensor x = from_values({1.0, 2.0, 3.0}, {3});
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::mul(t, ops::arange(0.5, 3.0, 1.0)); }, x)),
              {0.5, 1.5, 2.5});
  expect_same(values(grad_of_sum(
                  [](const Tensor& t) {
                    return ops::add(ops::mul(t, ops::full({3}, 4.0, DType::Float64)), ops::full_like(t, 1.0));
                  },
                  x)),
              {4.0, 4.0, 4.0});
}

TEST(AdRandomRules, DrawsHaveZeroGradient) {
  random::GeneratorScope scope(5);
  const Tensor x = from_values({0.2, 0.6, 0.9}, {3});
  const std::vector<std::function<Tensor(const Tensor&)>> draws = {
      [](const Tensor& t) { return ops::normal(t, ops::mul(t, ops::lit(2))); },
      [](const Tensor& t) { return ops::bernoulli(t); },
      [](const Tensor& t) { return ops::bernoulli(t, 0.3); },
      [](const Tensor& t) { return ops::normal_functional(t, 1.0, 2.0); },
      [](const Tensor& t) { return ops::uniform(t, -1.0, 1.0); },
      [](const Tensor& t) { return ops::normal_(ops::clone(t)); },
      [](const Tensor& t) { return ops::uniform_(ops::mul(t, t)); },
      [](const Tensor& t) { return ops::bernoulli_(ops::clone(t)); },
      [](const Tensor& t) { return ops::to_dtype(ops::multinomial(t, 2), DType::Float64); },
  };
  for (const auto& draw : draws) {
    expect_same(values(grad_of_sum([&](const Tensor& t) { return ops::add(t, ops::sum(draw(t))); }, x)),
                {1.0, 1.0, 1.0});
  }
}

TEST(GradRandom, SecondDerivativeWithAFixedDraw) {
  // f(x) = x^2 r + normal(x, 1) with r drawn once outside: f'' = 2r, the draw inside adds nothing.
  random::GeneratorScope scope(11);
  const Tensor r = ops::rand({}, DType::Float64);
  const PyFunction f2 = grad(grad(
      lift([r](const Tensor& t) { return ops::add(ops::mul(ops::square(t), r), ops::normal(t, ops::lit(1.0))); })));
  expect_same(values(f2({PyTree(scalar(1.5))}).tensor()), {2 * values(r)[0]});
}

// ---- dynamic ----

TEST(AdDynamicRules, MaskedSelectAgreesWithFiniteDifferences) {
  const Tensor a = from_values({0.3, -1.2, 2.0, 0.7, -0.4, 1.1}, {2, 3});
  expect_derivatives_consistent("masked_select", {a, bools({true, false, true, true, false, true}, {2, 3})});
  expect_derivatives_consistent("masked_select", {non_contiguous({0.5, -0.9, 1.7, -2.2, 0.15, 0.8}),
                                                  bools({false, true, true, false, true, true}, {3, 2})});
  expect_derivatives_consistent("masked_select", {a, bools({false, true, true}, {3})});  // broadcast mask
  expect_derivatives_consistent("masked_select", {scalar(0.4), bools({true}, {})});
  expect_derivatives_consistent("masked_select", {a, bools({false, false, false}, {3})});
}

TEST(AdDynamicRules, MaskedSelectScattersCotangentsBack) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor mask = bools({true, false, true, false, true, true}, {2, 3});
  const Tensor w = from_values({10, 20, 30, 40}, {4});
  const Tensor g = grad_of_sum([&](const Tensor& t) { return ops::mul(ops::masked_select(t, mask), w); }, x);
  expect_same(values(g), {10, 0, 20, 0, 30, 40});
  // A broadcast self: each element's cotangent is the sum over the rows that select it.
  const Tensor row = from_values({1, 2, 3}, {3});
  const Tensor g_row = grad_of_sum([&](const Tensor& t) { return ops::mul(ops::masked_select(t, mask), w); }, row);
  expect_same(values(g_row), {10, 30, 60});
}

TEST(AdDynamicRules, IndicesAndHostValuesCarryNoDerivative) {
  // nonzero's indices, used as values, are constants.
  expect_same(values(grad_of_sum(
                  [](const Tensor& t) { return ops::mul(t, ops::to_dtype(ops::sum(ops::nonzero(t)), DType::Float64)); },
                  from_values({5.0, 0.0, 7.0}, {3}))),
              {2.0, 2.0, 2.0});
  // item is a host value: a constant for every transform.
  expect_same(values(grad_of_sum([](const Tensor& t) { return ops::mul(t, ops::item(t)); }, scalar(2.5))), {2.5});
}

TEST(JacDynamic, JacobiansThroughMaskedSelect) {
  // f(x) = masked_select(x, m)^3: the Jacobian is 3x^2 at the selected positions. jacfwd runs the
  // rule under vmap over the basis tangents.
  const Tensor x = from_values({0.5, -1.0, 2.0}, {3});
  const Tensor mask = bools({true, false, true}, {3});
  const PyFunction f = lift([mask](const Tensor& t) { return ops::pow(ops::masked_select(t, mask), ops::lit(3)); });
  expect_same(values(jacfwd(f)({PyTree(x)}).tensor()), {0.75, 0, 0, 0, 0, 12.0});
  expect_same(values(jacrev(f)({PyTree(x)}).tensor()), {0.75, 0, 0, 0, 0, 12.0});
}

TEST(JvpDynamic, ForwardOverForwardThroughMaskedSelect) {
  // The second directional derivative of masked_select(x, m)^3 along u and v: 6 x u v, selected.
  const Tensor x = from_values({0.5, -1.0, 2.0}, {3});
  const Tensor mask = bools({true, false, true}, {3});
  const Tensor u = from_values({1.0, 2.0, -1.0}, {3});
  const PyFunction inner = lift([&](const Tensor& t) {
    const PyFunction f = lift([mask](const Tensor& s) { return ops::pow(ops::masked_select(s, mask), ops::lit(3)); });
    return jvp(f, {PyTree(t)}, {PyTree(u)}).tangent.tensor();
  });
  const JvpResult r = jvp(inner, {PyTree(x)}, {PyTree(from_values({3.0, 5.0, 0.5}, {3}))});
  expect_same(values(r.tangent.tensor()), {6 * 0.5 * 1.0 * 3.0, 6 * 2.0 * -1.0 * 0.5});
}

// ---- coverage ----

TEST(AdElementwiseRules, TheLinearOpsTheRulesApplyToTangentsHaveTransposeRules) {
  for (const char* op : {"neg", "add", "sub", "mul", "div", "where", "clone", "to_dtype"}) {
    EXPECT_NE(transpose_rule(OpRegistry::instance().get(op)), nullptr) << op;
  }
}

}  // namespace
}  // namespace funcspec::transforms
