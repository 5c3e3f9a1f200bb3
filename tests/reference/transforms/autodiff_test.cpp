// AD transforms on small examples worked out by hand, including the seeds' examples; the gradient
// checks over the whole catalogue are a conformance family.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::call1;
using testing_support::error_kind_of;
using testing_support::Fn1;
using testing_support::lift;
using testing_support::scalar;
using testing_support::values;

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
  const JvpResult r =
      jvp(lift([](const Tensor& t) { return ops::sin(t); }), {PyTree(scalar(0.5))}, {PyTree(scalar(2.0))});
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

// Under randomness='different' each basis direction draws its own values (AD-3.3, VMAP-2.3): column
// j of jacfwd(x * uniform_like(x)) is the jvp along e_j with row j of the draw over [n, *x.shape],
// so the diagonal is the draw's diagonal; aux is the first direction's result.
TEST(Jacobian, JacfwdDifferentDrawsPerBasisDirection) {
  const Tensor x = from_values({0.5, -1.0, 2.0}, {3});
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor y = ops::mul(args[0].tensor(), call_one("uniform", {args[0].tensor()}));
    return PyTree::tuple({PyTree(y), PyTree(y)});
  };
  JacfwdOptions options;
  options.randomness = Randomness::Different;
  options.has_aux = true;
  PyTree result;
  {
    random::GeneratorScope scope(3);
    result = jacfwd(f, options)({PyTree(x)});
  }
  Tensor draw;
  {
    random::GeneratorScope scope(3);
    draw = call_one("uniform", {Tensor::empty({3, 3}, DType::Float64)});
  }
  const std::vector<double> jac = values(result.children()[0].tensor());
  const std::vector<double> r = values(draw);
  const std::vector<double> xs = values(x);
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(jac[i * 3 + j], i == j ? r[j * 3 + j] : 0.0) << i << ", " << j;
  }
  const std::vector<double> aux = values(result.children()[1].tensor());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(aux[i], xs[i] * r[i]) << i;
}

TEST(Grad, NonScalarOutputIsAnError) {
  const Tensor x = from_values({0.1, 0.2}, {2});
  EXPECT_EQ(error_kind_of([&] { call1(grad(lift([](const Tensor& t) { return ops::sin(t); })), x); }),
            ErrorKind::AdNonScalarOutput);
}

TEST(Grad, MixedModeNestingDoesNotConfusePerturbations) {
  // d/dx [x * d/dy (x * y)] = d/dx [x * x] = 2x, with forward mode outside and reverse inside.
  const PyFunction outer = lift([](const Tensor& x) {
    const PyFunction inner = grad(lift([&x](const Tensor& y) { return ops::mul(x, y); }));
    return ops::mul(x, call1(inner, scalar(5.0)));
  });
  const JvpResult r = jvp(outer, {PyTree(scalar(1.5))}, {PyTree(scalar(1.0))});
  EXPECT_EQ(values(r.tangent.tensor())[0], 3.0);
}

TEST(Grad, InPlaceWriteIntoATensorMadeInsideIsDifferentiated) {
  // y = clone(x); y *= x; sum(y) = sum(x^2): gradient 2x.
  const Tensor x = from_values({1.0, -2.0, 0.5}, {3});
  const Tensor g = call1(grad(lift([](const Tensor& t) {
                           const Tensor y = ops::clone(t);
                           ops::mul_(y, t);
                           return ops::sum(y);
                         })),
                         x);
  EXPECT_EQ(values(g), (std::vector<double>{2.0, -4.0, 1.0}));
}

TEST(Grad, InPlaceWriteIntoACapturedTensorIsAnError) {
  const Tensor buffer = from_values({0.0, 0.0}, {2});
  const Tensor x = from_values({1.0, 2.0}, {2});
  EXPECT_EQ(error_kind_of([&] {
              call1(grad(lift([&buffer](const Tensor& t) {
                      ops::copy_(buffer, t);
                      return ops::sum(buffer);
                    })),
                    x);
            }),
            ErrorKind::AdInplaceCaptured);
}

TEST(Grad, InPlaceWriteThroughALiveViewIsAnError) {
  const Tensor x = from_values({1.0, 2.0}, {2});
  EXPECT_EQ(error_kind_of([&] {
              call1(grad(lift([](const Tensor& t) {
                      const Tensor y = ops::clone(t);
                      const Tensor first = ops::select(y, 0, 0);
                      ops::mul_(first, ops::select(t, 0, 1));
                      return ops::sum(y);
                    })),
                    x);
            }),
            ErrorKind::AdInplaceAliased);
}

TEST(Grad, ArgnumsOutOfRangeOrRepeatedAreErrors) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::mul(args[0].tensor(), args[1].tensor())));
  };
  const std::vector<PyTree> args{PyTree(scalar(1.0)), PyTree(scalar(2.0))};
  EXPECT_EQ(error_kind_of([&] { grad(f, {Argnums::one(2), false})(args); }), ErrorKind::AdInvalidArgnums);
  EXPECT_EQ(error_kind_of([&] { grad(f, {Argnums::many({0, -2}), false})(args); }), ErrorKind::AdInvalidArgnums);
  const PyTree g = grad(f, {Argnums::many({1, 0}), false})(args);  // argnums order, not argument order
  EXPECT_EQ(values(g.children()[0].tensor())[0], 1.0);
  EXPECT_EQ(values(g.children()[1].tensor())[0], 2.0);
}

TEST(Grad, HasAuxNeedsAPairAndReturnsAuxUntouched) {
  const PyFunction pair = [](const std::vector<PyTree>& args) {
    const Tensor& x = args[0].tensor();
    return PyTree::tuple({PyTree(ops::mul(x, x)), PyTree(ops::sin(x))});
  };
  const PyTree r = grad(pair, {Argnums::one(0), true})({PyTree(scalar(3.0))});
  EXPECT_EQ(values(r.children()[0].tensor())[0], 6.0);
  EXPECT_NEAR(values(r.children()[1].tensor())[0], std::sin(3.0), 1e-15);
  EXPECT_EQ(r.children()[1].tensor().payload(), nullptr);  // a plain tensor, not a wrapper
  EXPECT_EQ(error_kind_of([&] {
              grad(lift([](const Tensor& t) { return ops::sin(t); }), {Argnums::one(0), true})({PyTree(scalar(1.0))});
            }),
            ErrorKind::AdAuxStructure);
}

TEST(Grad, IntegerInputIsNotDifferentiable) {
  const Tensor i = ops::to_dtype(from_values({2.0}, {}), DType::Int64);
  EXPECT_EQ(
      error_kind_of([&] { call1(grad(lift([](const Tensor& t) { return ops::to_dtype(t, DType::Float64); })), i); }),
      ErrorKind::AdNonDifferentiableInput);
}

TEST(Jvp, TangentOfAnotherShapeOrDtypeIsAnError) {
  const PyFunction f = lift([](const Tensor& t) { return ops::sin(t); });
  const Tensor x = from_values({1.0, 2.0}, {2});
  EXPECT_EQ(error_kind_of([&] { jvp(f, {PyTree(x)}, {PyTree(from_values({1.0}, {1}))}); }),
            ErrorKind::AdTangentMismatch);
  EXPECT_EQ(error_kind_of([&] { jvp(f, {PyTree(x)}, {PyTree(ops::to_dtype(x, DType::Float32))}); }),
            ErrorKind::AdTangentMismatch);
}

TEST(Vjp, VjpFnCanBeCalledAgain) {
  const Tensor x = from_values({0.5, 1.0}, {2});
  const VjpResult r = vjp(lift([](const Tensor& t) { return ops::mul(ops::sin(t), t); }), {PyTree(x)});
  const PyTree once = r.vjp_fn(PyTree(from_values({1.0, 1.0}, {2})));
  const PyTree twice = r.vjp_fn(PyTree(from_values({2.0, 2.0}, {2})));
  const std::vector<double> a = values(once.children()[0].tensor());
  const std::vector<double> b = values(twice.children()[0].tensor());
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(b[i], 2 * a[i]);
}

TEST(Jacobian, ChunkSizeDoesNotChangeJacrev) {
  const Tensor x = from_values({0.1, 0.2, 0.3, 0.4, 0.5}, {5});
  const PyFunction f = lift([](const Tensor& t) { return ops::mul(ops::sin(t), ops::sum(t)); });
  const std::vector<double> whole = values(call1(jacrev(f), x));
  for (std::int64_t chunk : {1, 2, 8}) {
    JacrevOptions options;
    options.chunk_size = chunk;
    EXPECT_EQ(values(call1(jacrev(f, options), x)), whole) << "chunk_size " << chunk;
  }
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
