// Custom functions (NOTE: [custom functions]): every transform, alone and nested, uses the rules
// the function carries. Each test judges against an oracle that does not go through those rules:
// central differences in the oracle dtype, the loop over the batch, the same formula written with
// plain ops, or values worked out by hand. Rules that differ on purpose from the derivative of the
// forward (straight-through estimators, clipped gradients) show that the rules, not the forward's
// insides, are what the transforms differentiate.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/custom_function.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::call1;
using testing_support::expect_error_kind;
using testing_support::expect_same;
using testing_support::lift;
using testing_support::scalar;
using testing_support::values;

// How often each part of a custom function ran, so that a test sees which one a transform used.
struct RuleCalls {
  int forward = 0;
  int vjp = 0;
  int jvp = 0;
  int vmap = 0;
  bool forward_saw_only_plain_tensors = true;
  const OpDef* self = nullptr;  // for a vmap rule that calls the function on the batch
};

// round(x) with the identity as vjp and jvp: a straight-through estimator. round's own derivative
// is 0 almost everywhere, so a derivative of 1 can only come from the rules.
CustomFunctionDef straight_through_round(const std::shared_ptr<RuleCalls>& calls, bool with_vmap_rule) {
  CustomFunctionDef def;
  def.schema = "test_straight_through_round(Tensor x) -> Tensor";
  def.forward = [calls](const TensorList& inputs, const Attrs&) {
    ++calls->forward;
    calls->forward_saw_only_plain_tensors = calls->forward_saw_only_plain_tensors && inputs[0].payload() == nullptr;
    return TensorList{ops::round(inputs[0])};
  };
  def.vjp = [calls](const CustomContext&, const TensorList& cotangents) {
    ++calls->vjp;
    return cotangents;
  };
  def.jvp = [calls](const CustomContext&, const TensorList& tangents) {
    ++calls->jvp;
    return tangents;
  };
  if (with_vmap_rule) {
    // As PyTorch's examples do: the function itself, on the whole batch (one tensor like any other).
    def.vmap = [calls](const CustomVmapCall& call) {
      ++calls->vmap;
      return BatchedValues{{funcspec::call(*calls->self, {call.inputs[0].value})[0], call.inputs[0].bdim}};
    };
  }
  return def;
}

CustomFunction make_straight_through_round(const std::shared_ptr<RuleCalls>& calls, bool with_vmap_rule) {
  CustomFunction f(straight_through_round(calls, with_vmap_rule));
  calls->self = &f.op();
  return f;
}

// log(1 + exp(x)), stable for large |x|, with the correct vjp and jvp: g * sigmoid(x). The rules
// are written with ops, so that they can themselves be differentiated and batched.
CustomFunctionDef log1pexp(const std::shared_ptr<RuleCalls>& calls, bool with_vjp, bool with_jvp, bool with_vmap_rule) {
  CustomFunctionDef def;
  def.schema = "test_log1pexp(Tensor x) -> Tensor";
  def.forward = [calls](const TensorList& inputs, const Attrs&) {
    ++calls->forward;
    calls->forward_saw_only_plain_tensors = calls->forward_saw_only_plain_tensors && inputs[0].payload() == nullptr;
    const Tensor& x = inputs[0];
    return TensorList{ops::add(ops::relu(x), ops::log1p(ops::exp(ops::neg(ops::abs(x)))))};
  };
  def.setup_context = [](const TensorList& inputs, const TensorList&, const Attrs&) {
    return SavedContext{{inputs[0]}, {}};
  };
  if (with_vjp) {
    def.vjp = [calls](const CustomContext& context, const TensorList& cotangents) {
      ++calls->vjp;
      return TensorList{ops::mul(cotangents[0], ops::sigmoid(context.saved[0]))};
    };
  }
  if (with_jvp) {
    def.jvp = [calls](const CustomContext& context, const TensorList& tangents) {
      ++calls->jvp;
      return TensorList{ops::mul(tangents[0], ops::sigmoid(context.saved[0]))};
    };
  }
  if (with_vmap_rule) {
    def.vmap = [calls](const CustomVmapCall& call) {
      ++calls->vmap;
      const Tensor& x = call.inputs[0].value;
      return BatchedValues{{ops::add(ops::relu(x), ops::log1p(ops::exp(ops::neg(ops::abs(x))))), call.inputs[0].bdim}};
    };
  }
  return def;
}

// (alpha * x * w, sin(x)): two inputs, two outputs, an attribute, and a value setup_context
// computes (cos(x)) besides the inputs it saves.
CustomFunctionDef scaled_product_and_sine() {
  CustomFunctionDef def;
  def.schema = "test_scaled_product_and_sine(Tensor x, Tensor w, float alpha) -> (Tensor, Tensor)";
  def.forward = [](const TensorList& inputs, const Attrs& attrs) {
    const Tensor alpha = ops::lit(attrs.get_float("alpha"));
    return TensorList{ops::mul(ops::mul(inputs[0], inputs[1]), alpha), ops::sin(inputs[0])};
  };
  def.setup_context = [](const TensorList& inputs, const TensorList&, const Attrs&) {
    return SavedContext{{inputs[0], inputs[1], ops::cos(inputs[0])}, {}};
  };
  def.vjp = [](const CustomContext& context, const TensorList& g) {
    const Tensor alpha = ops::lit(context.attrs.get_float("alpha"));
    const Tensor& x = context.saved[0];
    const Tensor& w = context.saved[1];
    const Tensor& cos_x = context.saved[2];
    return TensorList{ops::add(ops::mul(ops::mul(g[0], w), alpha), ops::mul(g[1], cos_x)),
                      ops::mul(ops::mul(g[0], x), alpha)};
  };
  def.jvp = [](const CustomContext& context, const TensorList& t) {
    const Tensor alpha = ops::lit(context.attrs.get_float("alpha"));
    const Tensor& x = context.saved[0];
    const Tensor& w = context.saved[1];
    const Tensor& cos_x = context.saved[2];
    return TensorList{ops::mul(ops::add(ops::mul(t[0], w), ops::mul(x, t[1])), alpha), ops::mul(t[0], cos_x)};
  };
  return def;
}

// --- oracles ---

// The gradient of sum(f(x)) by central differences in the oracle dtype (about 50 digits): with
// h = 1e-20 the truncation error (h^2) and the rounding error (1e-50 / h) lie far below float64's.
std::vector<double> oracle_gradient(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  const double h = 1e-20;
  const Tensor at = ops::to_dtype(x, DType::Oracle);
  std::vector<double> gradient;
  for (std::int64_t i = 0; i < x.numel(); ++i) {
    std::vector<double> step(static_cast<std::size_t>(x.numel()), 0.0);
    step[static_cast<std::size_t>(i)] = h;
    const Tensor e = from_vector(step, x.shape(), DType::Oracle);
    const Tensor difference = ops::sub(ops::sum(f(ops::add(at, e))), ops::sum(f(ops::sub(at, e))));
    gradient.push_back(values(ops::to_dtype(ops::div(difference, ops::lit(2 * h)), DType::Float64))[0]);
  }
  return gradient;
}

// The directional derivative of f at x along t, by central differences in the oracle dtype.
std::vector<double> oracle_directional(const std::function<TensorList(const TensorList&)>& f, const TensorList& x,
                                       const TensorList& t, std::size_t output) {
  const double h = 1e-20;
  TensorList up, down;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Tensor at = ops::to_dtype(x[i], DType::Oracle);
    const Tensor step = ops::mul(ops::to_dtype(t[i], DType::Oracle), ops::lit(h));
    up.push_back(ops::add(at, step));
    down.push_back(ops::sub(at, step));
  }
  const Tensor difference = ops::sub(f(up)[output], f(down)[output]);
  return values(ops::to_dtype(ops::div(difference, ops::lit(2 * h)), DType::Float64));
}

double tensor_inner_product(const Tensor& a, const Tensor& b) {
  return values(ops::sum(ops::mul(ops::to_dtype(a, DType::Float64), ops::to_dtype(b, DType::Float64))))[0];
}

Tensor random_values(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> data(static_cast<std::size_t>(numel_of(shape)));
  for (double& d : data) d = normal(rng);
  return from_vector(data, shape, DType::Float64);
}

PyFunction sum_of(const CustomFunction& f) {
  return lift([f](const Tensor& x) { return ops::sum(f({x})[0]); });
}

// --- declaration and the forward ---

TEST(CustomFunctionDeclaration, IsAnOpOfKindCustomThatRunsItsForward) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f = make_straight_through_round(calls, true);
  EXPECT_EQ(f.op().kind, OpKind::Custom);
  EXPECT_EQ(f.name(), "test_straight_through_round");
  EXPECT_EQ(OpRegistry::instance().find(f.name()), nullptr) << "a user's function stays out of the catalogue";
  expect_same(values(f({from_values({0.4, 1.5, 2.5, -0.6}, {4})})[0]), {0.0, 2.0, 2.0, -1.0});
  EXPECT_EQ(calls->forward, 1);
  EXPECT_EQ(calls->vjp + calls->jvp + calls->vmap, 0);
}

TEST(CustomFunctionDeclaration, AttributesAreBoundToTheSchema) {
  const CustomFunction f(scaled_product_and_sine());
  const TensorList out = f({from_values({1, 2}, {2}), from_values({3, 4}, {2})}, {{"alpha", 2}});
  expect_same(values(out[0]), {6, 16});
  expect_same(values(out[1]), {std::sin(1.0), std::sin(2.0)});
  expect_error_kind(ErrorKind::InvalidArgument, [&] {
    f({from_values({1}, {1}), from_values({1}, {1})}, {{"beta", 2.0}});
  });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { f({from_values({1}, {1})}, {{"alpha", 2.0}}); });
}

TEST(CustomFunctionDeclaration, RefusesSchemasThatAreNotAFunctionOfTensors) {
  const auto declare = [](const std::string& schema) {
    CustomFunctionDef def;
    def.schema = schema;
    def.forward = [](const TensorList& inputs, const Attrs&) { return inputs; };
    return CustomFunction(def);
  };
  for (const char* schema :
       {"f(Tensor? x) -> Tensor", "f(Tensor[] xs) -> Tensor", "f(Tensor(a!) x) -> Tensor(a!)",
        "f(Tensor x) -> Tensor[]", "f(Tensor x) -> Tensor(a)", "f(Tensor x)", "f(Tensor x, blob y) -> Tensor"}) {
    SCOPED_TRACE(schema);
    expect_error_kind(ErrorKind::InvalidArgument, [&] { declare(schema); });
  }
  CustomFunctionDef no_forward;
  no_forward.schema = "f(Tensor x) -> Tensor";
  expect_error_kind(ErrorKind::InvalidArgument, [&] { CustomFunction{no_forward}; });
}

TEST(CustomFunctionDeclaration, AForwardReturningOtherThanItsSchemaIsAMismatch) {
  CustomFunctionDef def;
  def.schema = "twice(Tensor x) -> (Tensor, Tensor)";
  def.forward = [](const TensorList& inputs, const Attrs&) { return TensorList{inputs[0]}; };
  const CustomFunction f(def);
  expect_error_kind(ErrorKind::CustomRuleMismatch, [&] { f({scalar(1.0)}); });
}

// --- reverse mode ---

TEST(CustomFunctionReverse, GradUsesTheVjpRuleNotTheDerivativeOfTheForward) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(calls, true);
  const Tensor x = from_values({0.4, 1.5, 2.5, -0.6}, {4});
  // round's own derivative: zero.
  expect_same(values(call1(grad(lift([](const Tensor& t) { return ops::sum(ops::round(t)); })), x)), {0, 0, 0, 0});
  expect_same(values(call1(grad(sum_of(ste)), x)), {1, 1, 1, 1});
  EXPECT_EQ(calls->vjp, 1);
  EXPECT_EQ(calls->jvp, 0) << "reverse mode needs no jvp rule when there is a vjp rule";
  // The cotangent reaching the rule is the one f's downstream ops give: d/dx sum(3 * ste(x)^2) = 6 * round(x).
  const PyFunction f = lift([ste](const Tensor& t) {
    const Tensor r = ste({t})[0];
    return ops::sum(ops::mul(ops::mul(r, r), ops::lit(3.0)));
  });
  expect_same(values(call1(grad(f), x)), {0, 12, 12, -6});
}

TEST(CustomFunctionReverse, TheInsideOfTheForwardIsNotRecorded) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, false));
  const LinearizeResult lin = linearize(lift([f](const Tensor& t) { return f({t})[0]; }), {PyTree(scalar(0.3))});
  EXPECT_EQ(lin.linear_ops, 1u) << "one opaque step, not the forward's five ops";
  EXPECT_TRUE(calls->forward_saw_only_plain_tensors);
}

TEST(CustomFunctionReverse, VjpOfACorrectRuleMatchesOracleFiniteDifferences) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, false, false));
  // Where log(1 + exp(x)) written naively overflows (x = 800: exp is inf, its gradient inf / inf)
  // and where it loses every digit (x = -40).
  const Tensor x = from_values({-40, -3, -0.5, 0, 0.5, 3, 40, 800}, {8});
  const std::vector<double> got = values(call1(grad(sum_of(f)), x));
  const std::vector<double> want = oracle_gradient([f](const Tensor& t) { return f({t})[0]; }, x);
  expect_same(got, want, 1e-15);
  const Tensor naive =
      call1(grad(lift([](const Tensor& t) { return ops::sum(ops::log(ops::add(ops::exp(t), ops::lit(1.0)))); })),
            from_values({800}, {1}));
  EXPECT_TRUE(std::isnan(values(naive)[0])) << "the naive gradient at 800 is what the rule avoids";
}

TEST(CustomFunctionReverse, SeveralInputsAndOutputsAgreeWithOracleFiniteDifferences) {
  const CustomFunction f(scaled_product_and_sine());
  const Attrs attrs{{"alpha", 1.5}};
  const Tensor x = random_values({3}, 1);
  const Tensor w = random_values({3}, 2);
  const Tensor v0 = random_values({3}, 3);
  const Tensor v1 = random_values({3}, 4);
  const PyFunction g = [f, attrs](const std::vector<PyTree>& args) {
    const TensorList out = f({args[0].tensor(), args[1].tensor()}, attrs);
    return PyTree::tuple({PyTree(out[0]), PyTree(out[1])});
  };
  const VjpResult r = vjp(g, {PyTree(x), PyTree(w)});
  const PyTree pulled = r.vjp_fn(PyTree::tuple({PyTree(v0), PyTree(v1)}));
  // Oracle: the gradient of <v0, out0> + <v1, out1>, by finite differences for each input.
  const auto weighted = [&](const Tensor& xx, const Tensor& ww) {
    const TensorList out = f({xx, ww}, attrs);
    const Tensor v0o = ops::to_dtype(v0, xx.dtype());
    const Tensor v1o = ops::to_dtype(v1, xx.dtype());
    return ops::add(ops::sum(ops::mul(out[0], v0o)), ops::sum(ops::mul(out[1], v1o)));
  };
  expect_same(values(pulled.children()[0].tensor()),
              oracle_gradient([&](const Tensor& t) { return weighted(t, ops::to_dtype(w, t.dtype())); }, x), 1e-14);
  expect_same(values(pulled.children()[1].tensor()),
              oracle_gradient([&](const Tensor& t) { return weighted(ops::to_dtype(x, t.dtype()), t); }, w), 1e-14);
  // vjp_fn runs the rule again for new cotangents, without the forward.
  const PyTree again = r.vjp_fn(PyTree::tuple({PyTree(v0), PyTree(ops::zeros_like(v1))}));
  expect_same(values(again.children()[1].tensor()), values(ops::mul(ops::mul(v0, x), ops::lit(1.5))), 1e-15);
}

TEST(CustomFunctionReverse, WithOnlyAJvpRuleTheVjpIsItsTranspose) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, false, true, false));
  const Tensor x = from_values({-2, 0, 1.5}, {3});
  expect_same(values(call1(grad(sum_of(f)), x)), oracle_gradient([f](const Tensor& t) { return f({t})[0]; }, x), 1e-15);
  EXPECT_EQ(calls->jvp, 1) << "the jvp rule's ops were recorded and transposed";
  EXPECT_EQ(calls->vjp, 0);
}

TEST(CustomFunctionReverse, NonFloatingInputsGetNoCotangent) {
  // x * n for an int64 n: the rule's cotangent for n is ignored, whatever it is.
  CustomFunctionDef def;
  def.schema = "scale_by_count(Tensor x, Tensor n) -> Tensor";
  def.forward = [](const TensorList& in, const Attrs&) { return TensorList{ops::mul(in[0], in[1])}; };
  def.setup_context = [](const TensorList& in, const TensorList&, const Attrs&) { return SavedContext{{in[1]}, {}}; };
  def.vjp = [](const CustomContext& context, const TensorList& g) {
    return TensorList{ops::mul(g[0], context.saved[0]), from_values({7, 7, 7}, {3})};
  };
  const CustomFunction f(def);
  const Tensor n = from_vector(std::vector<std::int64_t>{1, 2, 3}, {3}, DType::Int64);
  const PyFunction g = [f, n](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(f({args[0].tensor(), n})[0]));
  };
  const Tensor x = from_values({5, 5, 5}, {3});
  expect_same(values(g({PyTree(x)}).tensor()), {30});
  expect_same(values(grad(g)({PyTree(x)}).tensor()), {1, 2, 3});
}

TEST(CustomFunctionReverse, SavedNonTensorValuesReachTheRule) {
  CustomFunctionDef def;
  def.schema = "scale_by_size(Tensor x) -> Tensor";
  def.forward = [](const TensorList& in, const Attrs&) {
    return TensorList{ops::mul(in[0], ops::lit(static_cast<double>(in[0].numel())))};
  };
  def.setup_context = [](const TensorList& in, const TensorList&, const Attrs&) {
    return SavedContext{{}, {{"size", in[0].numel()}}};
  };
  def.vjp = [](const CustomContext& context, const TensorList& g) {
    return TensorList{ops::mul(g[0], ops::lit(static_cast<double>(context.values.get_int("size"))))};
  };
  const CustomFunction f(def);
  expect_same(values(call1(grad(sum_of(f)), from_values({1, 2, 3, 4}, {4}))), {4, 4, 4, 4});
}

TEST(CustomFunctionReverse, NoGradAroundTheCallStopsTheDerivative) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(calls, true);
  const PyFunction f = lift([ste](const Tensor& x) {
    Tensor r;
    {
      NoGradGuard no_grad;
      r = ste({x})[0];
    }
    return ops::sum(ops::add(r, x));
  });
  expect_same(values(call1(grad(f), from_values({0.2, 1.7}, {2}))), {1, 1});
  EXPECT_EQ(calls->vjp, 0);
}

// --- forward mode ---

TEST(CustomFunctionForward, JvpUsesTheJvpRule) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(calls, true);
  const JvpResult r = jvp(lift([ste](const Tensor& t) { return ste({t})[0]; }), {PyTree(from_values({0.4, 2.6}, {2}))},
                          {PyTree(from_values({3, -5}, {2}))});
  expect_same(values(r.output.tensor()), {0, 3});
  expect_same(values(r.tangent.tensor()), {3, -5});
  EXPECT_EQ(calls->jvp, 1);
  EXPECT_EQ(calls->vjp, 0);
}

TEST(CustomFunctionForward, JvpOfACorrectRuleMatchesOracleFiniteDifferences) {
  const CustomFunction f(scaled_product_and_sine());
  const Attrs attrs{{"alpha", -0.75}};
  const TensorList x{random_values({4}, 5), random_values({4}, 6)};
  const TensorList t{random_values({4}, 7), random_values({4}, 8)};
  const PyFunction g = [f, attrs](const std::vector<PyTree>& args) {
    const TensorList out = f({args[0].tensor(), args[1].tensor()}, attrs);
    return PyTree::tuple({PyTree(out[0]), PyTree(out[1])});
  };
  const JvpResult r = jvp(g, {PyTree(x[0]), PyTree(x[1])}, {PyTree(t[0]), PyTree(t[1])});
  const auto plain = [f, attrs](const TensorList& in) { return f(in, attrs); };
  for (std::size_t k = 0; k < 2; ++k) {
    expect_same(values(r.tangent.children()[k].tensor()), oracle_directional(plain, x, t, k), 1e-14);
  }
}

TEST(CustomFunctionForward, JvpIsTheTransposeOfVjp) {
  const CustomFunction f(scaled_product_and_sine());
  const Attrs attrs{{"alpha", 2.5}};
  const PyFunction g = [f, attrs](const std::vector<PyTree>& args) {
    const TensorList out = f({args[0].tensor(), args[1].tensor()}, attrs);
    return PyTree::tuple({PyTree(out[0]), PyTree(out[1])});
  };
  const std::vector<PyTree> primals{PyTree(random_values({2, 3}, 9)), PyTree(random_values({2, 3}, 10))};
  const Tensor u0 = random_values({2, 3}, 11), u1 = random_values({2, 3}, 12);
  const Tensor v0 = random_values({2, 3}, 13), v1 = random_values({2, 3}, 14);
  const JvpResult forward = jvp(g, primals, {PyTree(u0), PyTree(u1)});
  const PyTree backward = vjp(g, primals).vjp_fn(PyTree::tuple({PyTree(v0), PyTree(v1)}));
  const double jvp_side = tensor_inner_product(forward.tangent.children()[0].tensor(), v0) +
                          tensor_inner_product(forward.tangent.children()[1].tensor(), v1);
  const double vjp_side = tensor_inner_product(u0, backward.children()[0].tensor()) +
                          tensor_inner_product(u1, backward.children()[1].tensor());
  EXPECT_NEAR(jvp_side, vjp_side, 1e-12 * (1 + std::abs(jvp_side)));
}

TEST(CustomFunctionForward, JacfwdUsesTheJvpRuleAndJacrevTheVjpRule) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(calls, true);
  const PyFunction f = lift([ste](const Tensor& t) { return ste({t})[0]; });
  const Tensor x = from_values({0.2, 1.6, -2.4}, {3});
  const std::vector<double> identity{1, 0, 0, 0, 1, 0, 0, 0, 1};
  expect_same(values(call1(jacfwd(f), x)), identity);
  EXPECT_EQ(calls->jvp, 1);
  EXPECT_EQ(calls->vjp, 0);
  expect_same(values(call1(jacrev(f), x)), identity);
  EXPECT_EQ(calls->vjp, 1) << "jacrev transposes the one recorded step, batched over the basis";
}

TEST(CustomFunctionForward, LinearizeEvaluatesTheJvpRuleWithoutTheForward) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, false));
  const Tensor x = from_values({-1, 0.5}, {2});
  const LinearizeResult lin = linearize(lift([f](const Tensor& t) { return f({t})[0]; }), {PyTree(x)});
  EXPECT_EQ(calls->forward, 1);
  const Tensor t = from_values({2, -4}, {2});
  const std::vector<double> got = values(lin.jvp_fn({PyTree(t)}).tensor());
  EXPECT_EQ(calls->forward, 1) << "jvp_fn runs the jvp rule, not the forward";
  EXPECT_EQ(calls->jvp, 1);
  expect_same(got, oracle_directional([f](const TensorList& in) { return f(in); }, {x}, {t}, 0), 1e-15);
  // A second call gives a second answer from the same tape.
  expect_same(values(lin.jvp_fn({PyTree(ops::mul(t, ops::lit(-0.5)))}).tensor()),
              values(ops::mul(from_vector(got, {2}, DType::Float64), ops::lit(-0.5))), 1e-15);
}

// --- missing rules ---

TEST(CustomFunctionMissingRules, AVjpOnlyFunctionRefusesForwardMode) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, false, false));
  const PyFunction g = lift([f](const Tensor& t) { return f({t})[0]; });
  const Tensor x = from_values({0.5, 1.0}, {2});
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { jvp(g, {PyTree(x)}, {PyTree(x)}); });
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { call1(jacfwd(g), x); });
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { call1(hessian(sum_of(f)), x); });
  // linearize records the step; evaluating it forward is what needs the jvp rule.
  const LinearizeResult lin = linearize(g, {PyTree(x)});
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { lin.jvp_fn({PyTree(x)}); });
  // Reverse mode is fine.
  EXPECT_NO_THROW(call1(grad(sum_of(f)), x));
}

TEST(CustomFunctionMissingRules, AFunctionWithoutDerivativeRulesRefusesEveryDerivative) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, false, false, false));
  const Tensor x = from_values({0.5}, {1});
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { call1(grad(sum_of(f)), x); });
  expect_error_kind(ErrorKind::CustomRuleMissing,
                    [&] { jvp(lift([f](const Tensor& t) { return f({t})[0]; }), {PyTree(x)}, {PyTree(x)}); });
  // Without a tangent there is nothing to differentiate: grad with respect to another argument.
  const PyFunction h = [f](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::mul(f({args[0].tensor()})[0], args[1].tensor())));
  };
  expect_same(values(grad(h, {Argnums::one(1)})({PyTree(x), PyTree(from_values({2}, {1}))}).tensor()),
              {std::log1p(std::exp(0.5))}, 1e-15);
}

TEST(CustomFunctionMissingRules, RulesReturningTheWrongShapeOrDtypeAreMismatches) {
  CustomFunctionDef def;
  def.schema = "bad_rules(Tensor x) -> Tensor";
  def.forward = [](const TensorList& in, const Attrs&) { return TensorList{ops::clone(in[0])}; };
  def.vjp = [](const CustomContext&, const TensorList& g) { return TensorList{ops::sum(g[0])}; };
  def.jvp = [](const CustomContext&, const TensorList& t) { return TensorList{ops::to_dtype(t[0], DType::Float32)}; };
  def.vmap = [](const CustomVmapCall& call) {
    return BatchedValues{{ops::slice(call.inputs[0].value, 0, 0, 1), std::int64_t{0}}};
  };
  const CustomFunction f(def);
  const PyFunction g = lift([f](const Tensor& t) { return f({t})[0]; });
  const Tensor x = from_values({1, 2}, {2});
  expect_error_kind(ErrorKind::CustomRuleMismatch, [&] { call1(grad(sum_of(f)), x); });
  expect_error_kind(ErrorKind::CustomRuleMismatch, [&] { jvp(g, {PyTree(x)}, {PyTree(x)}); });
  expect_error_kind(ErrorKind::CustomRuleMismatch, [&] { call1(vmap(g), from_values({1, 2, 3, 4}, {2, 2})); });
}

// --- vmap ---

TEST(CustomFunctionVmap, UsesTheVmapRuleWithoutFallingBack) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, true));
  const Tensor x = from_values({-1, 0, 1, 2, 3, 4}, {3, 2});
  VmapFallbackLog log;
  VmapOptions options;
  options.in_dims = PyTree(1);
  const Tensor got = call1(vmap(lift([f](const Tensor& t) { return f({t})[0]; }), options), x);
  EXPECT_TRUE(log.counts().empty());
  EXPECT_EQ(calls->vmap, 1);
  EXPECT_EQ(calls->forward, 0) << "the rule computed the batch itself";
  // The loop: the function on each example (a column), stacked at dim 0.
  EXPECT_EQ(got.shape(), (Shape{2, 3}));
  for (std::int64_t b = 0; b < 2; ++b) {
    expect_same(values(ops::select(got, 0, b)), values(f({ops::select(x, 1, b)})[0]));
  }
}

TEST(CustomFunctionVmap, ARuleThatDiffersFromTheLoopIsWhatVmapReturns) {
  // The rule is taken at its word: one that adds 100 shows in the result.
  CustomFunctionDef def;
  def.schema = "marked(Tensor x) -> Tensor";
  def.forward = [](const TensorList& in, const Attrs&) { return TensorList{ops::clone(in[0])}; };
  def.vmap = [](const CustomVmapCall& call) {
    return BatchedValues{{ops::add(call.inputs[0].value, ops::lit(100.0)), call.inputs[0].bdim}};
  };
  const CustomFunction f(def);
  expect_same(values(call1(vmap(lift([f](const Tensor& t) { return f({t})[0]; })), from_values({1, 2}, {2}))),
              {101, 102});
}

TEST(CustomFunctionVmap, WithoutAVmapRuleFallsBackToTheCountedLoop) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, false));
  const Tensor x = from_values({-1, 0, 1, 2, 3, 4}, {3, 2});
  VmapFallbackLog log;
  const Tensor got = call1(vmap(lift([f](const Tensor& t) { return f({t})[0]; })), x);
  EXPECT_EQ(log.counts().at("test_log1pexp"), 1);
  EXPECT_EQ(calls->forward, 3) << "once per example";
  for (std::int64_t b = 0; b < 3; ++b)
    expect_same(values(ops::select(got, 0, b)), values(f({ops::select(x, 0, b)})[0]));
}

TEST(CustomFunctionVmap, UnbatchedInputsAndResultsOfTheRule) {
  // (x * w, w): w unbatched; the rule says the second result is the same for every example.
  CustomFunctionDef def;
  def.schema = "times_and_weight(Tensor x, Tensor w) -> (Tensor, Tensor)";
  def.forward = [](const TensorList& in, const Attrs&) {
    return TensorList{ops::mul(in[0], in[1]), ops::clone(in[1])};
  };
  def.vmap = [](const CustomVmapCall& call) {
    EXPECT_FALSE(call.inputs[1].batched());
    EXPECT_EQ(call.batch_size, 2);
    const Tensor x = ops::movedim(call.inputs[0].value, {*call.inputs[0].bdim}, {0});
    return BatchedValues{{ops::mul(x, call.inputs[1].value), std::int64_t{0}},
                         {ops::clone(call.inputs[1].value), std::nullopt}};
  };
  const CustomFunction f(def);
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const PyTree out = vmap(
      [f](const std::vector<PyTree>& args) {
        const TensorList r = f({args[0].tensor(), args[1].tensor()});
        return PyTree::tuple({PyTree(r[0]), PyTree(r[1])});
      },
      options)({PyTree(from_values({1, 2, 3, 4}, {2, 2})), PyTree(from_values({10, 20}, {2}))});
  expect_same(values(out.children()[0].tensor()), {10, 40, 30, 80});
  expect_same(values(out.children()[1].tensor()), {10, 20, 10, 20});
}

// --- nesting ---

TEST(CustomFunctionNesting, VmapOfGradEqualsTheLoopOfGradWithAndWithoutAVmapRule) {
  for (const bool with_vmap_rule : {true, false}) {
    SCOPED_TRACE(with_vmap_rule ? "vmap rule" : "fallback");
    auto calls = std::make_shared<RuleCalls>();
    const CustomFunction f(log1pexp(calls, true, false, with_vmap_rule));
    const Tensor x = from_values({-3, -1, 0, 0.5, 2, 7}, {3, 2});
    const PyFunction g = grad(sum_of(f));
    const Tensor batched = call1(vmap(g), x);
    for (std::int64_t b = 0; b < 3; ++b) {
      expect_same(values(ops::select(batched, 0, b)), values(call1(g, ops::select(x, 0, b))), 1e-15);
    }
  }
}

TEST(CustomFunctionNesting, GradOfVmapUsesTheRulesInsideTheBatch) {
  for (const bool with_vmap_rule : {true, false}) {
    SCOPED_TRACE(with_vmap_rule ? "vmap rule" : "fallback");
    auto calls = std::make_shared<RuleCalls>();
    const CustomFunction ste = make_straight_through_round(calls, with_vmap_rule);
    const PyFunction f = lift([ste](const Tensor& x) {
      const PyFunction per_example = lift([ste](const Tensor& e) { return ops::sum(ste({e})[0]); });
      return ops::sum(call1(vmap(per_example), x));
    });
    expect_same(values(call1(grad(f), from_values({0.3, 0.6, 1.2, 2.9}, {2, 2}))), {1, 1, 1, 1});
    EXPECT_EQ(calls->vmap > 0, with_vmap_rule);
  }
}

TEST(CustomFunctionNesting, GradOfGradDifferentiatesTheVjpRule) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, false));
  const PyFunction second = grad(grad(lift([f](const Tensor& t) { return f({t})[0]; })));
  for (double at : {-4.0, -0.5, 0.0, 1.25, 30.0}) {
    const double s = 1 / (1 + std::exp(-at));
    EXPECT_NEAR(values(call1(second, scalar(at)))[0], s * (1 - s), 1e-15) << "at " << at;
  }
  // The straight-through estimator's vjp is the identity, whose derivative is zero.
  auto ste_calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(ste_calls, true);
  EXPECT_EQ(values(call1(grad(grad(lift([ste](const Tensor& t) { return ste({t})[0]; }))), scalar(1.3)))[0], 0.0);
}

TEST(CustomFunctionNesting, HessianAndForwardOverReverse) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, true));
  const Tensor x = from_values({-1, 0.5, 2}, {3});
  const Tensor h = call1(hessian(sum_of(f)), x);
  std::vector<double> want(9, 0.0);
  for (std::size_t i = 0; i < 3; ++i) {
    const double s = 1 / (1 + std::exp(-values(x)[i]));
    want[i * 4] = s * (1 - s);
  }
  expect_same(values(h), want, 1e-15);
  // jvp of grad: the Hessian-vector product.
  const Tensor v = from_values({1, -2, 0.5}, {3});
  const JvpResult hvp = jvp(grad(sum_of(f)), {PyTree(x)}, {PyTree(v)});
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(values(hvp.tangent.tensor())[i], want[i * 4] * values(v)[i], 1e-15);
}

TEST(CustomFunctionNesting, NestedVmapsUseTheRuleAtEachLevel) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction ste = make_straight_through_round(calls, true);
  VmapFallbackLog log;
  const Tensor x = from_values({0.4, 1.6, 2.5, 3.5, -0.2, -1.7}, {2, 3});
  const Tensor got = call1(vmap(vmap(lift([ste](const Tensor& t) { return ste({t})[0]; }))), x);
  EXPECT_TRUE(log.counts().empty());
  EXPECT_EQ(calls->vmap, 2);
  expect_same(values(got), {0, 2, 2, 4, -0.0, -2});
}

TEST(CustomFunctionNesting, TheForwardNeverSeesATransformsTensor) {
  auto calls = std::make_shared<RuleCalls>();
  const CustomFunction f(log1pexp(calls, true, true, false));
  const PyFunction inner = grad(sum_of(f));
  const Tensor x = from_values({0.1, 0.2, 0.3, 0.4}, {2, 2});
  call1(vmap(lift(
            [&](const Tensor& t) { return jvp(inner, {PyTree(t)}, {PyTree(ops::ones_like(t))}).tangent.tensor(); })),
        x);
  EXPECT_GT(calls->forward, 0);
  EXPECT_TRUE(calls->forward_saw_only_plain_tensors);
}

// --- the spec-defined custom functions (custom_ops.cpp) ---

TEST(CustomCatalogue, DeclaresTheSpecDefinedFunctionsAsCustomOps) {
  for (const char* name :
       {"custom.straight_through_round", "custom.straight_through_sign", "custom.log1pexp", "custom.clip_gradient"}) {
    const OpDef* op = OpRegistry::instance().find(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->kind, OpKind::Custom) << name;
    EXPECT_EQ(op->family, "custom") << name;
  }
}

TEST(CustomCatalogue, ClipGradientClipsTheCotangentAndHasNoJvp) {
  const PyFunction f = lift([](const Tensor& x) {
    const Tensor clipped = call_one("custom.clip_gradient", {x}, {{"min", -0.5}, {"max", 1.0}});
    return ops::sum(ops::mul(clipped, from_values({3, -2, 0.25}, {3})));
  });
  const Tensor x = from_values({1, 2, 3}, {3});
  expect_same(values(call1(grad(f), x)), {1, -0.5, 0.25});
  expect_error_kind(ErrorKind::CustomRuleMissing, [&] { jvp(f, {PyTree(x)}, {PyTree(x)}); });
  expect_error_kind(ErrorKind::InvalidArgument, [] {
    call_one("custom.clip_gradient", {from_values({1}, {1})}, {{"min", 1.0}, {"max", 0.0}});
  });
}

TEST(CustomCatalogue, StraightThroughSignTransposesItsJvp) {
  const PyFunction f = lift([](const Tensor& x) {
    return ops::sum(ops::mul(call_one("custom.straight_through_sign", {x}), from_values({2, -3}, {2})));
  });
  expect_same(values(call1(grad(f), from_values({-0.7, 0.1}, {2}))), {2, -3});
}

}  // namespace
}  // namespace funcspec::transforms
