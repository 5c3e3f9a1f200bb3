// AD transforms on small examples worked out by hand, including the seeds' examples; the gradient
// checks over the whole catalogue are a conformance family.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::error_kind_of;
using testing_support::values;

using Fn1 = std::function<Tensor(const Tensor&)>;

PyFunction lift(const Fn1& f) {
  return [f](const std::vector<PyTree>& args) { return PyTree(f(args.at(0).tensor())); };
}

Tensor call1(const PyFunction& f, const Tensor& x) { return f({PyTree(x)}).tensor(); }

Tensor scalar(double v) { return from_values({v}, {}); }

TEST(Grad, OfSinIsCos) {
  const Tensor x = scalar(0.7);
  EXPECT_NEAR(values(call1(grad(lift([](const Tensor& t) { return ops::sin(t); })), x))[0], std::cos(0.7), 1e-15);
}

TEST(Grad, OfGradOfSinIsMinusSin) {
  const Tensor x = scalar(0.7);
  const PyFunction g = grad(grad(lift([](const Tensor& t) { return ops::sin(t); })));
  EXPECT_NEAR(values(call1(g, x))[0], -std::sin(0.7), 1e-15);
  const PyFunction g3 = grad(grad(grad(lift([](const Tensor& t) { return ops::sin(t); }))));
  EXPECT_NEAR(values(call1(g3, x))[0], -std::cos(0.7), 1e-15);
}

TEST(Grad, NestedClosuresDoNotConfusePerturbations) {
  // d/dx [x * d/dy (x + y)] = d/dx [x * 1] = 1 at any x.
  for (double at : {0.0, 1.5, -3.0}) {
    const PyFunction outer = grad(lift([](const Tensor& x) {
      const PyFunction inner = grad(lift([&x](const Tensor& y) { return ops::add(x, y); }));
      return ops::mul(x, call1(inner, scalar(2.0)));
    }));
    EXPECT_EQ(values(call1(outer, scalar(at)))[0], 1.0);
  }
}

TEST(Grad, VmapOfGradIsPerSampleGradients) {
  const Tensor x = from_values({0.1, 0.2, 0.3}, {3});
  const PyFunction g = vmap(grad(lift([](const Tensor& t) { return ops::mul(ops::sin(t), t); })));
  const std::vector<double> got = values(call1(g, x));
  for (std::size_t i = 0; i < 3; ++i) {
    const double v = 0.1 * static_cast<double>(i + 1);
    EXPECT_NEAR(got[i], std::cos(v) * v + std::sin(v), 1e-15);
  }
}

TEST(Grad, NoGradInsideIsRespectedOutsideIsNot) {
  // f(x) = x - c with c = x*x computed under no_grad: grad is 1.
  const PyFunction f = lift([](const Tensor& x) {
    Tensor c;
    {
      NoGradGuard no_grad;
      c = ops::mul(x, x);
    }
    return ops::sub(x, c);
  });
  EXPECT_EQ(values(call1(grad(f), scalar(3.0)))[0], 1.0);
  NoGradGuard outer;
  EXPECT_EQ(values(call1(grad(lift([](const Tensor& x) { return ops::mul(x, x); })), scalar(3.0)))[0], 6.0);
}

TEST(Jvp, OfSin) {
  const JvpResult r = jvp(lift([](const Tensor& t) { return ops::sin(t); }), {PyTree(scalar(0.5))},
                          {PyTree(scalar(2.0))});
  EXPECT_NEAR(values(r.tangent.tensor())[0], 2 * std::cos(0.5), 1e-15);
  EXPECT_NEAR(values(r.output.tensor())[0], std::sin(0.5), 1e-15);
}

TEST(Linearize, JvpFnDoesNotRunFAgain) {
  int runs = 0;
  const PyFunction f = [&runs](const std::vector<PyTree>& args) {
    ++runs;
    const Tensor& x = args.at(0).tensor();
    return PyTree(ops::sin(ops::mul(x, x)));
  };
  const LinearizeResult r = linearize(f, {PyTree(scalar(0.5))});
  EXPECT_EQ(runs, 1);
  const Tensor t1 = r.jvp_fn({PyTree(scalar(1.0))}).tensor();
  const Tensor t2 = r.jvp_fn({PyTree(scalar(2.0))}).tensor();
  EXPECT_EQ(runs, 1);
  EXPECT_NEAR(values(t1)[0], std::cos(0.25) * 2 * 0.5, 1e-15);
  EXPECT_NEAR(values(t2)[0], 2 * std::cos(0.25) * 2 * 0.5, 1e-15);
}

TEST(Jacobian, JacrevEqualsJacfwd) {
  const Tensor x = from_values({0.1, 0.2, 0.3}, {3});
  const PyFunction f = lift([](const Tensor& t) { return ops::mul(ops::sin(t), ops::sum(t)); });
  const Tensor jr = call1(jacrev(f), x);
  const Tensor jf = call1(jacfwd(f), x);
  EXPECT_EQ(jr.shape(), (Shape{3, 3}));
  EXPECT_EQ(jf.shape(), (Shape{3, 3}));
  const std::vector<double> a = values(jr);
  const std::vector<double> b = values(jf);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-15);
}

TEST(Grad, NonScalarOutputIsAnError) {
  const Tensor x = from_values({0.1, 0.2}, {2});
  EXPECT_EQ(error_kind_of([&] { call1(grad(lift([](const Tensor& t) { return ops::sin(t); })), x); }),
            ErrorKind::AdNonScalarOutput);
}

TEST(AdCheckSupport, SeedRulesAreConsistent) {
  const Tensor x = from_values({0.3, -1.2, 2.0}, {3});
  const Tensor y = from_values({1.5, 0.25, -0.5}, {3});
  testing_support::expect_derivatives_consistent("sin", {x});
  testing_support::expect_derivatives_consistent("mul", {x, y});
  testing_support::expect_derivatives_consistent("add", {x, y}, {{"alpha", Scalar(2.0)}});
  testing_support::expect_derivatives_consistent("sum", {from_values({1, 2, 3, 4, 5, 6}, {2, 3})},
                                                 {{"dim", std::vector<std::int64_t>{1}}});
}

}  // namespace
}  // namespace funcspec::transforms
