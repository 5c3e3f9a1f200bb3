// Derivative rules of the structural families (view, reduce, scan, index): every differentiable
// primitive checked numerically (finite differences, the transpose identity, linearize) on
// several samples, the non-smooth choices on hand-worked values, and compositions of transforms.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::call1;
using testing_support::expect_derivatives_consistent;
using testing_support::expect_same;
using testing_support::Fn1;
using testing_support::lift;
using testing_support::scalar;
using testing_support::values;
using Dims = std::vector<std::int64_t>;

std::vector<double> gradient_of(const Fn1& f, const Tensor& x) { return values(call1(grad(lift(f)), x)); }

// 0.5, 1.5, 2.5, ... with alternating signs: distinct magnitudes, no zeros.
Tensor sample(const Shape& shape) {
  std::vector<double> data(static_cast<std::size_t>(numel_of(shape)));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = (i % 2 == 0 ? 1.0 : -1.0) * (0.5 + static_cast<double>(i));
  return from_vector(data, shape, DType::Float64);
}

// A non-contiguous tensor of `shape`: the transpose of a contiguous one.
Tensor transposed_sample(const Shape& shape) { return ops::transpose(sample({shape[1], shape[0]}), 0, 1); }

Tensor int64_values(const std::vector<std::int64_t>& data, const Shape& shape) {
  return from_vector(data, shape, DType::Int64);
}

// ---- view ----

TEST(AdView, PermuteSqueezeUnsqueezeView) {
  expect_derivatives_consistent("permute", {sample({2, 3, 4})}, {{"dims", Dims{2, 0, 1}}});
  expect_derivatives_consistent("permute", {transposed_sample({3, 2})}, {{"dims", Dims{-1, 0}}});
  expect_derivatives_consistent("permute", {scalar(1.5)}, {{"dims", Dims{}}});
  expect_derivatives_consistent("squeeze", {sample({1, 3, 1})});
  expect_derivatives_consistent("squeeze", {sample({1, 3, 1})}, {{"dim", Dims{0}}});
  expect_derivatives_consistent("squeeze", {scalar(2.5)});
  expect_derivatives_consistent("unsqueeze", {transposed_sample({2, 3})}, {{"dim", std::int64_t{-1}}});
  expect_derivatives_consistent("unsqueeze", {scalar(2.5)}, {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("view", {sample({2, 6})}, {{"size", Dims{3, -1}}});
  // Rows 0 and 2 of a [4, 3]: strided, yet viewable as [2, 1, 3].
  expect_derivatives_consistent("view", {ops::slice(sample({4, 3}), 0, 0, std::nullopt, 2)}, {{"size", Dims{2, 1, 3}}});
  expect_derivatives_consistent("view", {scalar(0.5)}, {{"size", Dims{1, 1}}});
}

TEST(AdView, ExpandSelectSlice) {
  expect_derivatives_consistent("expand", {sample({3, 1})}, {{"size", Dims{2, 3, 4}}});
  expect_derivatives_consistent("expand", {sample({3})}, {{"size", Dims{2, -1}}});
  expect_derivatives_consistent("expand", {scalar(0.5)}, {{"size", Dims{2, 2}}});
  expect_derivatives_consistent("select", {sample({3, 4})}, {{"dim", std::int64_t{1}}, {"index", std::int64_t{-1}}});
  expect_derivatives_consistent("select", {transposed_sample({4, 3})},
                                {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}});
  expect_derivatives_consistent("slice", {sample({5, 3})},
                                {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"end", std::int64_t{4}}});
  expect_derivatives_consistent("slice", {sample({7, 2})}, {{"start", std::int64_t{-6}}, {"step", std::int64_t{2}}});
  expect_derivatives_consistent("slice", {transposed_sample({2, 8})},
                                {{"dim", std::int64_t{1}}, {"end", std::int64_t{-1}}, {"step", std::int64_t{3}}});
  expect_derivatives_consistent("slice", {sample({3})}, {{"start", std::int64_t{2}}, {"end", std::int64_t{1}}});
}

TEST(AdView, Diagonal) {
  expect_derivatives_consistent("diagonal", {sample({3, 4})});
  expect_derivatives_consistent("diagonal", {sample({3, 4})},
                                {{"offset", std::int64_t{1}}, {"dim1", std::int64_t{1}}, {"dim2", std::int64_t{0}}});
  expect_derivatives_consistent("diagonal", {transposed_sample({4, 3})}, {{"offset", std::int64_t{-2}}});
  expect_derivatives_consistent("diagonal", {sample({2, 3, 4})},
                                {{"offset", std::int64_t{-1}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{2}}});
  expect_derivatives_consistent("diagonal", {sample({2, 3})}, {{"offset", std::int64_t{5}}});
}

TEST(AdView, TransposesPlaceTheCotangentExactly) {
  // The gradient of the sum of a view is 1 exactly where the view reads, 0 elsewhere.
  const Tensor x = sample({3, 4});
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::diagonal(t, 1)); }, x),
              {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::slice(t, 1, 1, std::nullopt, 2)); }, x),
              {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1});
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::select(t, 0, -2)); }, x),
              {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0});
}

TEST(AdView, HessianThroughDiagonal) {
  // f(x) = sum(diag(x)^2): d2f/dx_ii^2 = 2, every other second derivative 0.
  const PyFunction f = lift([](const Tensor& t) {
    const Tensor d = ops::diagonal(t);
    return ops::sum(ops::mul(d, d));
  });
  const Tensor h = call1(jacfwd(jacrev(f)), sample({2, 2}));
  ASSERT_EQ(h.shape(), (Shape{2, 2, 2, 2}));
  std::vector<double> want(16, 0.0);
  want[0] = 2;   // (0,0),(0,0)
  want[15] = 2;  // (1,1),(1,1)
  expect_same(values(h), want);
}

// ---- reduce ----

TEST(AdReduce, Sum) {
  expect_derivatives_consistent("sum", {sample({2, 3})});
  expect_derivatives_consistent("sum", {transposed_sample({2, 3})}, {{"dim", Dims{}}, {"keepdim", true}});
  expect_derivatives_consistent("sum", {sample({2, 3, 2})}, {{"dim", Dims{-1, 0}}});
  expect_derivatives_consistent("sum", {scalar(1.5)}, {{"dim", Dims{0}}});
  expect_derivatives_consistent("sum", {scalar(1.5)}, {{"dim", Dims{-1}}, {"keepdim", true}});
}

TEST(AdReduce, Prod) {
  expect_derivatives_consistent("prod", {sample({2, 3})}, {{"dim", Dims{1}}});
  expect_derivatives_consistent("prod", {sample({2, 3})});
  expect_derivatives_consistent("prod", {transposed_sample({3, 2})}, {{"dim", Dims{0}}, {"keepdim", true}});
  expect_derivatives_consistent("prod", {sample({2, 3, 2})}, {{"dim", Dims{2, 0}}});
  expect_derivatives_consistent("prod", {scalar(-1.5)});
  // A product is a polynomial: finite differences apply at zeros too.
  expect_derivatives_consistent("prod", {from_values({2, 0, 3, 0, 0, 5}, {2, 3})}, {{"dim", Dims{1}}});
  expect_derivatives_consistent("prod", {from_values({2, 0, 3, 1, 4, 5}, {2, 3})});
}

TEST(AdReduce, ProdWithZerosIsThePartialProduct) {
  const Fn1 prod = [](const Tensor& t) { return ops::prod(t); };
  // d/dx_i = product of the others: one zero keeps its partial product, two zeros give 0 everywhere.
  expect_same(gradient_of(prod, from_values({2, 0, 3}, {3})), {0, 6, 0});
  expect_same(gradient_of(prod, from_values({0, 0, 3}, {3})), {0, 0, 0});
  expect_same(
      gradient_of([](const Tensor& t) { return ops::sum(ops::prod(t, Dims{0})); }, from_values({0, 2, 4, 3}, {2, 2})),
      {4, 3, 0, 2});
  // Second order: d2/dx_i dx_j prod(x) = product of the third element (0 on the diagonal).
  const Tensor h = call1(hessian(lift(prod)), from_values({2, 3, 4}, {3}));
  expect_same(values(h), {0, 4, 3, 4, 0, 2, 3, 2, 0});
}

TEST(AdReduce, AmaxAmin) {
  expect_derivatives_consistent("amax", {sample({2, 3})});
  expect_derivatives_consistent("amax", {transposed_sample({3, 2})}, {{"dim", Dims{1}}, {"keepdim", true}});
  expect_derivatives_consistent("amin", {sample({2, 3, 2})}, {{"dim", Dims{0, 2}}});
  expect_derivatives_consistent("amin", {scalar(0.25)});
}

TEST(AdReduce, TiesSplitTheGradientEvenly) {
  expect_same(gradient_of([](const Tensor& t) { return ops::amax(t); }, from_values({1, 3, 3}, {3})), {0, 0.5, 0.5});
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::amin(t, Dims{1})); },
                          from_values({1, 1, 1, 2, 0, 5}, {2, 3})),
              {1.0 / 3, 1.0 / 3, 1.0 / 3, 0, 1, 0});
  // A NaN extreme equals no element: every element of its row gets 0/0 = NaN, as PyTorch (SPEC OPS-23.6).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_same(gradient_of([](const Tensor& t) { return ops::amax(t); }, from_values({1, nan, 3}, {3})),
              {nan, nan, nan});
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::amin(t, Dims{1})); },
                          from_values({1, nan, 3, 2, 0, 5}, {2, 3})),
              {nan, nan, nan, 0, 1, 0});
}

TEST(AdReduce, Norm) {
  for (double p : {2.0, 1.0, 3.0, 0.5, 1.5}) {
    expect_derivatives_consistent("norm", {sample({2, 3})}, {{"p", Scalar(p)}});
    expect_derivatives_consistent("norm", {transposed_sample({3, 2})}, {{"p", Scalar(p)}, {"dim", Dims{0}}});
  }
  const double inf = std::numeric_limits<double>::infinity();
  expect_derivatives_consistent("norm", {sample({2, 3})}, {{"p", Scalar(inf)}, {"dim", Dims{1}}, {"keepdim", true}});
  expect_derivatives_consistent("norm", {sample({2, 3})}, {{"p", Scalar(-inf)}});
  expect_derivatives_consistent("norm", {scalar(-1.5)}, {{"p", Scalar(std::int64_t{2})}});
}

TEST(AdReduce, NormAtItsKinks) {
  const Tensor zeros = from_values({0, 0, 0}, {3});
  for (double p : {2.0, 1.0, 3.0, 1.5, 0.5}) {
    SCOPED_TRACE(p);
    expect_same(gradient_of([p](const Tensor& t) { return ops::norm(t, p); }, zeros), {0, 0, 0});
  }
  const double inf = std::numeric_limits<double>::infinity();
  expect_same(gradient_of([inf](const Tensor& t) { return ops::norm(t, inf); }, from_values({-3, 1, 3}, {3})),
              {-0.5, 0, 0.5});
  expect_same(gradient_of([](const Tensor& t) { return ops::norm(t, 1); }, from_values({-2, 0, 3}, {3})), {-1, 0, 1});
  // p < 1: a zero element gets 0, the others sign(x) |x|^(p-1) norm^(1-p); here the norm is 9.
  const std::vector<double> half =
      gradient_of([](const Tensor& t) { return ops::norm(t, 0.5); }, from_values({4, 0, 1}, {3}));
  expect_same(half, {std::pow(4.0, -0.5) * 3, 0, 3}, 1e-15);
  expect_same(gradient_of([](const Tensor& t) { return ops::norm(t, 0); }, from_values({4, 0, 1}, {3})), {0, 0, 0});
}

TEST(AdReduce, NormSecondDerivativesAtZeroAgreeInEveryMode) {
  // At the zero vector the first derivative is specified as 0, so the masked formulas read 1 in
  // place of the zero norm: reverse over reverse then gives the Hessian forward over reverse does
  // (0), instead of NaN from 0 * inf in the branch the mask drops.
  const Tensor zeros = from_values({0, 0, 0}, {3});
  const std::vector<double> zero_hessian(9, 0.0);
  for (double p : {2.0, 3.0}) {
    SCOPED_TRACE(p);
    const PyFunction f = lift([p](const Tensor& t) { return ops::norm(t, p); });
    expect_same(values(call1(jacrev(jacrev(f)), zeros)), zero_hessian);
    expect_same(values(call1(jacfwd(jacrev(f)), zeros)), zero_hessian);
  }
}

TEST(AdReduce, IndexAndBoolReductionsCarryNoDerivative) {
  const Tensor x = from_values({0.5, -2, 3, 0}, {4});
  const Fn1 f = [](const Tensor& t) {
    Tensor total = ops::sum(t);
    for (const Tensor& flat : {ops::argmax(t), ops::argmin(t, 0), ops::all(t), ops::any(t, Dims{0})})
      total = ops::add(total, ops::to_dtype(flat, DType::Float64));
    return total;
  };
  expect_same(gradient_of(f, x), {1, 1, 1, 1});
}

TEST(AdReduce, VmapOfGradEqualsTheLoop) {
  // f(x) = sum(gather(x, [0, 2, 2])) * amax(x) + sum(x)
  const Tensor index = int64_values({0, 2, 2}, {3});
  const Fn1 f = [index](const Tensor& t) {
    return ops::add(ops::mul(ops::sum(ops::gather(t, 0, index)), ops::amax(t)), ops::sum(t));
  };
  const Tensor rows = from_values({1, 4, -2, 4, 0.5, 0.25, 3, -1, 2, 2, 2, -5}, {3, 4});
  const std::vector<double> batched = values(call1(vmap(grad(lift(f))), rows));
  std::vector<double> looped;
  for (std::int64_t r = 0; r < 3; ++r) {
    for (double g : gradient_of(f, ops::select(rows, 0, r))) looped.push_back(g);
  }
  expect_same(batched, looped);
  // Row 0 by hand: s = x0 + 2 x2 = -3, m = 4 tied at x1 and x3: s * 0.5 each, plus m at 0 and 2m at 2.
  expect_same(std::vector<double>(looped.begin(), looped.begin() + 4), {1 + 4, 1 - 1.5, 1 + 8, 1 - 1.5});
}

// ---- scan ----

TEST(AdScan, CumsumFlipRoll) {
  expect_derivatives_consistent("cumsum", {sample({4})}, {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("cumsum", {transposed_sample({2, 3})}, {{"dim", std::int64_t{-1}}});
  expect_derivatives_consistent("cumsum", {scalar(0.5)}, {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("flip", {sample({2, 3})}, {{"dims", Dims{0, 1}}});
  expect_derivatives_consistent("flip", {transposed_sample({3, 2})}, {{"dims", Dims{-1}}});
  expect_derivatives_consistent("roll", {sample({2, 3})}, {{"shifts", Dims{1}}});
  expect_derivatives_consistent("roll", {transposed_sample({3, 4})}, {{"shifts", Dims{1, -2}}, {"dims", Dims{0, 1}}});
}

TEST(AdScan, Cumprod) {
  expect_derivatives_consistent("cumprod", {sample({4})}, {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("cumprod", {transposed_sample({2, 3})}, {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("cumprod", {sample({2, 3, 2})}, {{"dim", std::int64_t{1}}});
  expect_derivatives_consistent("cumprod", {scalar(-2.5)}, {{"dim", std::int64_t{0}}});
  // Polynomial: finite differences apply at zeros.
  expect_derivatives_consistent("cumprod", {from_values({2, 0, 3, 0, 5}, {5})}, {{"dim", std::int64_t{0}}});
}

TEST(AdScan, CumprodWithZerosIsExact) {
  // y = (2, 0, 0): dy0 = t0, dy1 = 2 t1, dy2 = 6 t1, so the gradient of the sum is (1, 8, 0).
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::cumprod(t, 0)); }, from_values({2, 0, 3}, {3})),
              {1, 8, 0});
}

TEST(AdScan, SortTopk) {
  const Tensor x = from_values({0.5, -2, 3, 1.25, -0.75}, {5});
  expect_derivatives_consistent("sort", {x});
  expect_derivatives_consistent("sort", {transposed_sample({2, 3})}, {{"dim", std::int64_t{0}}, {"descending", true}});
  expect_derivatives_consistent("sort", {scalar(1.5)});
  expect_derivatives_consistent("topk", {x}, {{"k", std::int64_t{2}}});
  expect_derivatives_consistent("topk", {sample({3, 4})},
                                {{"k", std::int64_t{2}}, {"dim", std::int64_t{0}}, {"largest", false}});
  expect_derivatives_consistent("topk", {scalar(1.5)}, {{"k", std::int64_t{1}}});
  // The values come from the input's elements at the indices; the indices carry nothing.
  expect_same(gradient_of([](const Tensor& t) { return ops::sum(ops::topk(t, 2).first); }, x), {0, 0, 1, 1, 0});
}

TEST(AdScan, HessianOfSumOfCumsumTimesX) {
  // sum_i x_i sum_{j<=i} x_j = ((sum x)^2 + sum x^2) / 2: the Hessian is 1 + identity.
  const PyFunction f = lift([](const Tensor& t) { return ops::sum(ops::mul(ops::cumsum(t, 0), t)); });
  const Tensor h = call1(jacfwd(jacrev(f)), from_values({0.5, -1, 2}, {3}));
  expect_same(values(h), {2, 1, 1, 1, 2, 1, 1, 1, 2});
}

// ---- index ----

TEST(AdIndex, Cat) {
  expect_derivatives_consistent("cat", {sample({2, 3}), sample({1, 3})});
  expect_derivatives_consistent("cat", {transposed_sample({2, 3}), sample({2, 1}), sample({2, 2})},
                                {{"dim", std::int64_t{-1}}});
  // Only the middle piece differentiated; a legacy empty tensor takes no part.
  expect_derivatives_consistent("cat", {sample({2, 2}), from_values({}, {0}), sample({3, 2})}, {}, {2});
}

TEST(AdIndex, GatherIndexSelect) {
  const Tensor index = int64_values({0, 2, 1, 1, 3, 0}, {3, 2});
  expect_derivatives_consistent("gather", {sample({3, 4}), index}, {{"dim", std::int64_t{1}}});
  expect_derivatives_consistent("gather", {transposed_sample({4, 2}), int64_values({3, 0, 3}, {3, 1})},
                                {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("index_select", {sample({4, 3}), int64_values({2, 0, 2}, {3})},
                                {{"dim", std::int64_t{0}}});
  expect_derivatives_consistent("index_select", {transposed_sample({2, 3}), int64_values({1}, {})},
                                {{"dim", std::int64_t{1}}});
}

TEST(AdIndex, IndexAddScatterAdd) {
  expect_derivatives_consistent("index_add", {sample({4, 3}), int64_values({0, 2, 0}, {3}), sample({3, 3})},
                                {{"dim", std::int64_t{0}}, {"alpha", Scalar(2.5)}});
  expect_derivatives_consistent("index_add", {transposed_sample({2, 3}), int64_values({1, 1}, {2}), sample({2, 2})},
                                {{"dim", std::int64_t{1}}});
  expect_derivatives_consistent("index_add", {sample({4, 3}), int64_values({0, 2, 0}, {3}), sample({3, 3})},
                                {{"dim", std::int64_t{0}}}, {2});
  // The index covers only part of src: the rest of src gets no cotangent.
  expect_derivatives_consistent("scatter_add",
                                {sample({3, 4}), int64_values({0, 3, 3, 1, 1, 1}, {2, 3}), sample({3, 4})},
                                {{"dim", std::int64_t{1}}});
  expect_derivatives_consistent("scatter_add",
                                {transposed_sample({2, 3}), int64_values({1, 0, 1, 1, 1, 0}, {2, 3}), sample({2, 3})},
                                {{"dim", std::int64_t{0}}}, {0});
}

TEST(AdIndex, MaskedFill) {
  const Tensor mask = from_values({1, 0, 0, 1, 1, 0}, {2, 3}, DType::Bool);
  expect_derivatives_consistent("masked_fill", {sample({2, 3}), mask, scalar(0.75)});
  // self broadcast against the mask.
  expect_derivatives_consistent("masked_fill", {sample({3}), mask, scalar(-2.0)});
  expect_derivatives_consistent("masked_fill", {sample({3}), mask, scalar(-2.0)}, {}, {2});
  // A literal value is a constant.
  expect_derivatives_consistent("masked_fill", {transposed_sample({2, 3}), mask, ops::lit(4.0)}, {}, {0});
  // The value's gradient counts the filled positions.
  const Tensor x = sample({2, 3});
  const std::vector<double> value_gradient =
      values(call1(grad(lift([&](const Tensor& v) { return ops::sum(ops::masked_fill(x, mask, v)); })), scalar(1.0)));
  expect_same(value_gradient, {3});
}

// ---- second order in every mode ----

void expect_near(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.shape(), want.shape());
  const std::vector<double> a = values(got);
  const std::vector<double> b = values(want);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * (1 + std::abs(b[i]))) << "element " << i;
}

TEST(AdStructural, SecondDerivativesAgreeInEveryMode) {
  // Forward over forward runs the jvp rules of the jvp rules; forward over reverse the jvp rules of
  // the transposes; reverse over reverse the transposes of the transposes.
  const Tensor index = int64_values({0, 3, 2, 2, 1, 0}, {3, 2});
  const Tensor columns = int64_values({3, 1}, {2});
  const Tensor rows = int64_values({2, 0}, {2});
  const Tensor mask = from_values({1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1}, {3, 4}, DType::Bool);
  const std::vector<std::pair<std::string, Fn1>> functions = {
      {"views",
       [](const Tensor& x) {
         const Tensor a = ops::mul(ops::diagonal(x, 1), ops::select(x, 1, 2));
         const Tensor b =
             ops::permute(ops::view(ops::slice(ops::select(x, 0, 1), 0, 0, std::nullopt, 2), {2, 1}), {1, 0});
         const Tensor c = ops::squeeze(ops::expand(ops::unsqueeze(x, 0), {2, 3, 4}), {1});
         return ops::add(ops::add(ops::sum(ops::mul(a, a)), ops::sum(ops::mul(b, ops::flip(b, {0})))),
                         ops::sum(ops::mul(c, c)));
       }},
      {"reductions",
       [](const Tensor& x) {
         const Tensor p = ops::prod(ops::slice(x, 1, 1, 3), Dims{1});
         const Tensor q = ops::prod(ops::mul(x, ops::sum(x, Dims{}, true)), Dims{0, 1}, true);
         return ops::add(ops::sum(ops::mul(p, p)), ops::sum(ops::mul(q, ops::sum(x, Dims{1}, true))));
       }},
      {"scans",
       [](const Tensor& x) {
         const Tensor running = ops::mul(ops::cumprod(x, 1), ops::roll(x, {1}, {0}));
         const Tensor sorted = ops::mul(ops::sort(x, 1).first, ops::cumsum(x, 0));
         return ops::add(ops::sum(running), ops::sum(ops::mul(sorted, ops::topk(x, 4, 1).first)));
       }},
      {"indexing",
       [&](const Tensor& x) {
         const Tensor g = ops::mul(ops::gather(x, 1, index), ops::index_select(x, 1, columns));
         const Tensor joined = ops::cat({x, ops::mul(x, x)}, 0);
         const Tensor added = ops::index_add(x, 0, rows, ops::mul(ops::slice(x, 0, 0, 2), ops::lit(1.5)));
         const Tensor scattered = ops::scatter_add(x, 1, index, ops::mul(x, x));
         const Tensor filled = ops::masked_fill(ops::mul(x, x), mask, ops::sum(x));
         Tensor total = ops::sum(ops::mul(g, g));
         for (const Tensor& t : {joined, added, scattered, filled}) total = ops::add(total, ops::sum(ops::mul(t, t)));
         return total;
       }},
  };
  const Tensor x = sample({3, 4});
  for (const auto& [name, f] : functions) {
    SCOPED_TRACE(name);
    const Tensor forward_over_reverse = call1(jacfwd(jacrev(lift(f))), x);
    expect_near(call1(jacrev(jacrev(lift(f))), x), forward_over_reverse);
    expect_near(call1(jacfwd(jacfwd(lift(f))), x), forward_over_reverse);
  }
}

}  // namespace
}  // namespace funcspec::transforms
