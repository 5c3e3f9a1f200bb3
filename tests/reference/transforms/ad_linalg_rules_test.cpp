// Derivative rules of the linalg family: einsum (the products decompose into it), tril, triu,
// det, slogdet, inverse and solve, checked numerically by expect_derivatives_consistent and on
// compositions against hand-derived values.
#include <gtest/gtest.h>

#include <random>

#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/ad_check_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::expect_derivatives_consistent;
using testing_support::expect_same;
using testing_support::values;

Tensor normal(const Shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return testing_support::random_like(ops::zeros(shape, DType::Float64), rng);
}

// Random matrices plus 4 I: the diagonal dominates, so they are well conditioned and the finite
// differences of det, inverse and solve stay accurate.
Tensor well_conditioned(const Shape& shape, std::uint64_t seed) {
  const std::int64_t n = shape.back();
  const Tensor index = ops::arange(n);
  const Tensor identity = ops::to_dtype(ops::eq(ops::unsqueeze(index, 1), index), DType::Float64);
  return ops::add(normal(shape, seed), ops::mul(identity, ops::lit(4.0)));
}

// The last two dims swapped: a non-contiguous input.
Tensor transposed(const Tensor& t) { return ops::transpose(t, -1, -2); }

Attrs equation(const std::string& e) { return {{"equation", e}}; }

PyFunction unary(const std::function<Tensor(const Tensor&)>& f) {
  return [f](const std::vector<PyTree>& args) { return PyTree(f(args.at(0).tensor())); };
}

Tensor apply(const PyFunction& f, const TensorList& args) {
  std::vector<PyTree> trees;
  for (const Tensor& t : args) trees.emplace_back(t);
  return f(trees).tensor();
}

TEST(AdLinalgRules, EinsumContractions) {
  expect_derivatives_consistent("einsum", {transposed(normal({3, 2}, 1)), normal({3, 4}, 2)}, equation("ij,jk->ik"));
  // Implicit output, three operands.
  expect_derivatives_consistent("einsum", {normal({2, 3}, 3), normal({3, 4}, 4), normal({4, 2}, 5)},
                                equation("ij,jk,kl"));
  expect_derivatives_consistent("einsum", {normal({2, 3}, 6), normal({3, 2}, 7)}, equation("ij,ji->"));
  // The same label in two operands and the output (elementwise product), and a permutation.
  expect_derivatives_consistent("einsum", {normal({4}, 8), normal({4}, 9)}, equation("i,i->i"));
  expect_derivatives_consistent("einsum", {normal({2, 3, 4}, 10)}, equation("abc->cab"));
}

TEST(AdLinalgRules, EinsumDiagonalsAndSummedAwayLabels) {
  expect_derivatives_consistent("einsum", {normal({3, 3}, 11)}, equation("ii->i"));
  expect_derivatives_consistent("einsum", {transposed(normal({3, 3}, 12))}, equation("ii->"));
  expect_derivatives_consistent("einsum", {normal({3, 2, 3}, 13)}, equation("iji->j"));
  expect_derivatives_consistent("einsum", {normal({2, 2, 2}, 14)}, equation("iii->i"));
  expect_derivatives_consistent("einsum", {normal({3, 3}, 15), normal({3}, 16)}, equation("ii,i->i"));
  // j occurs only in the second operand: its transpose expands the cotangent along j.
  expect_derivatives_consistent("einsum", {normal({3}, 17), normal({4}, 18)}, equation("i,j->i"));
  expect_derivatives_consistent("einsum", {normal({2, 3}, 19)}, equation("ij->"));
}

TEST(AdLinalgRules, EinsumEllipsisBroadcastingAndRankZero) {
  // Ellipsis dims [2, 1] and [3] broadcast to [2, 3]: the first operand's size-1 dim sums.
  expect_derivatives_consistent("einsum", {normal({2, 1, 2, 3}, 20), normal({3, 3, 4}, 21)},
                                equation("...ij,...jk->...ik"));
  // The ellipsis summed away, and an implicit output starting with the ellipsis.
  expect_derivatives_consistent("einsum", {normal({2, 3}, 22)}, equation("...->"));
  expect_derivatives_consistent("einsum", {normal({2, 3, 3}, 23)}, equation("...ii"));
  // A label of size 1 in one operand broadcast against size 3.
  expect_derivatives_consistent("einsum", {normal({1}, 24), normal({3}, 25)}, equation("i,i->i"));
  expect_derivatives_consistent("einsum", {normal({4, 1}, 26), normal({1, 3}, 27)}, equation("ij,jk->ik"));
  // Rank-0 operands.
  expect_derivatives_consistent("einsum", {normal({}, 28), normal({3}, 29)}, equation(",i->i"));
  expect_derivatives_consistent("einsum", {normal({}, 30)}, equation("->"));
}

TEST(AdLinalgRules, ProductsDecomposeIntoDifferentiableEinsums) {
  expect_derivatives_consistent("mm", {normal({2, 3}, 31), transposed(normal({4, 3}, 32))});
  expect_derivatives_consistent("bmm", {normal({2, 2, 3}, 33), normal({2, 3, 2}, 34)});
  expect_derivatives_consistent("mv", {normal({2, 3}, 35), normal({3}, 36)});
  expect_derivatives_consistent("dot", {normal({3}, 37), normal({3}, 38)});
  expect_derivatives_consistent("outer", {normal({3}, 39), normal({2}, 40)});
  expect_derivatives_consistent("matmul", {normal({2, 1, 2, 3}, 41), normal({3, 3, 2}, 42)});
  expect_derivatives_consistent("matmul", {normal({3}, 43), normal({2, 3, 4}, 44)});
  expect_derivatives_consistent("trace", {normal({3, 3}, 45)});
}

TEST(AdLinalgRules, TrilTriu) {
  for (const char* op : {"tril", "triu"}) {
    expect_derivatives_consistent(op, {normal({3, 4}, 46)});
    expect_derivatives_consistent(op, {transposed(normal({2, 4, 3}, 47))}, {{"diagonal", std::int64_t{-1}}});
    expect_derivatives_consistent(op, {normal({3, 3}, 48)}, {{"diagonal", std::int64_t{2}}});
  }
}

TEST(AdLinalgRules, TrilGradientIsTheMask) {
  const PyFunction f = unary([](const Tensor& a) { return ops::sum(ops::tril(a)); });
  expect_same(values(apply(grad(f), {normal({2, 3}, 49)})), {1, 0, 0, 1, 1, 0});
}

TEST(AdLinalgRules, Det) {
  expect_derivatives_consistent("det", {well_conditioned({3, 3}, 50)});
  expect_derivatives_consistent("det", {transposed(well_conditioned({2, 4, 4}, 51))});
  expect_derivatives_consistent("det", {normal({1, 1}, 52)});
  expect_derivatives_consistent("det", {normal({2, 2}, 53)});
}

TEST(AdLinalgRules, DetGradientIsTheCofactorMatrixAlsoWhenSingular) {
  const PyFunction g = grad(unary([](const Tensor& a) { return ops::det(a); }));
  // Rank 1: the cofactors [[d, -c], [-b, a]] are the exact gradient.
  expect_same(values(apply(g, {from_values({1, 2, 2, 4}, {2, 2})})), {4, -2, -2, 1});
  // Rank 1 of 3: every 2x2 minor is singular, so the gradient is zero.
  expect_same(values(apply(g, {from_values({1, 2, 3, 2, 4, 6, 3, 6, 9}, {3, 3})})), std::vector<double>(9, 0.0), 1e-15);
  // Invertible: det(A) A^-T.
  const Tensor a = from_values({2, 1, 0, 1, 3, 1, 0, 1, 4}, {3, 3});
  const Tensor want = ops::mul(ops::det(a), transposed(ops::inverse(a)));
  expect_same(values(apply(g, {a})), values(ops::contiguous(want)), 1e-14);
  // 0x0: the constant det 1.
  EXPECT_EQ(apply(g, {ops::zeros({0, 0}, DType::Float64)}).shape(), (Shape{0, 0}));
}

TEST(AdLinalgRules, Slogdet) {
  // A negative determinant: the sign is -1, logabsdet is still differentiable.
  const Tensor negative = ops::mul(well_conditioned({3, 3}, 54), from_values({-1, 1, 1}, {3, 1}));
  expect_derivatives_consistent("slogdet", {negative});
  expect_derivatives_consistent("slogdet", {transposed(well_conditioned({2, 3, 3}, 55))});
}

TEST(AdLinalgRules, SlogdetSignHasZeroGradient) {
  const PyFunction g = grad(unary([](const Tensor& a) { return ops::slogdet(a).first; }));
  expect_same(values(apply(g, {well_conditioned({2, 2}, 56)})), {0, 0, 0, 0});
}

TEST(AdLinalgRules, Inverse) {
  expect_derivatives_consistent("inverse", {well_conditioned({3, 3}, 57)});
  expect_derivatives_consistent("inverse", {transposed(well_conditioned({2, 2, 2}, 58))});
}

TEST(AdLinalgRules, Solve) {
  for (const bool left : {true, false}) {
    const Attrs attrs{{"left", left}};
    // B is [n, k] for left, [k, n] otherwise.
    const auto rhs = [left](std::int64_t k, std::uint64_t seed) {
      return normal(left ? Shape{3, k} : Shape{k, 3}, seed);
    };
    expect_derivatives_consistent("solve", {well_conditioned({3, 3}, 59), rhs(2, 60)}, attrs);
    expect_derivatives_consistent("solve", {well_conditioned({3, 3}, 61), transposed(rhs(3, 62))}, attrs);
    // Vector right-hand sides, A's batch broadcast against B's.
    expect_derivatives_consistent("solve", {well_conditioned({3, 3}, 63), normal({3}, 64)}, attrs);
    expect_derivatives_consistent("solve", {transposed(well_conditioned({2, 3, 3}, 65)), normal({2, 3}, 66)}, attrs);
    expect_derivatives_consistent("solve", {well_conditioned({2, 1, 3, 3}, 67), normal({4, 3, 3}, 68)}, attrs);
    // With respect to one input only.
    expect_derivatives_consistent("solve", {well_conditioned({3, 3}, 69), rhs(2, 70)}, attrs, {0});
    expect_derivatives_consistent("solve", {well_conditioned({3, 3}, 71), rhs(2, 72)}, attrs, {1});
  }
}

// The Hessian of a function of one [n, n] matrix, forward over reverse: entry [i, j, k, l] is the
// jvp of its gradient along the basis matrix E_kl. (jacfwd(jacrev(f)) computes the same, but its
// assembly of the Jacobian slices and reshapes, whose rules belong to the view family.)
Tensor forward_over_reverse_hessian(const PyFunction& f, const Tensor& a) {
  const std::int64_t n = a.size(0);
  const PyFunction gradient = grad(f);
  TensorList columns;
  for (std::int64_t e = 0; e < n * n; ++e) {
    const Tensor basis = ops::reshape(ops::to_dtype(ops::eq(ops::arange(n * n), ops::lit(e)), DType::Float64), {n, n});
    columns.push_back(jvp(gradient, {PyTree(a)}, {PyTree(basis)}).tangent.tensor());
  }
  // columns[kl][i, j] = H[i, j, k, l].
  return ops::reshape(ops::stack(columns, 2), {n, n, n, n});
}

TEST(AdLinalgRules, HessianOfLogabsdet) {
  // d/dA log|det A| = A^-T, and d(A^-1)_ji / dA_kl = -(A^-1)_jk (A^-1)_li.
  const Tensor a = well_conditioned({3, 3}, 73);
  const PyFunction f = unary([](const Tensor& m) { return ops::slogdet(m).second; });
  expect_same(values(apply(jacrev(f), {a})), values(ops::contiguous(transposed(ops::inverse(a)))), 1e-14);
  const Tensor hessian = forward_over_reverse_hessian(f, a);
  ASSERT_EQ(hessian.shape(), (Shape{3, 3, 3, 3}));
  const std::vector<double> inv = values(ops::inverse(a));
  std::vector<double> want;
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 3; ++k) {
        for (std::size_t l = 0; l < 3; ++l) want.push_back(-inv[j * 3 + k] * inv[l * 3 + i]);
      }
    }
  }
  expect_same(values(hessian), want, 1e-13);
}

TEST(AdLinalgRules, HessianOfTwoByTwoDet) {
  // det = a d - b c: constant second derivatives.
  const Tensor h = forward_over_reverse_hessian(unary([](const Tensor& m) { return ops::det(m); }), normal({2, 2}, 74));
  std::vector<double> want(16, 0.0);
  want[0 * 4 + 3] = want[3 * 4 + 0] = 1;   // d2/da dd
  want[1 * 4 + 2] = want[2 * 4 + 1] = -1;  // d2/db dc
  expect_same(values(h), want, 1e-14);
}

TEST(AdLinalgRules, HessianOfDet) {
  // d2 det / dA_ij dA_kl = det(A) ((A^-1)_ji (A^-1)_lk - (A^-1)_jk (A^-1)_li): second derivatives go
  // through the cofactors of the cofactors.
  const Tensor a = well_conditioned({3, 3}, 78);
  const Tensor h = forward_over_reverse_hessian(unary([](const Tensor& m) { return ops::det(m); }), a);
  const double det = values(ops::det(a))[0];
  const std::vector<double> inv = values(ops::inverse(a));
  std::vector<double> want;
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      for (std::size_t k = 0; k < 3; ++k) {
        for (std::size_t l = 0; l < 3; ++l) {
          want.push_back(det * (inv[j * 3 + i] * inv[l * 3 + k] - inv[j * 3 + k] * inv[l * 3 + i]));
        }
      }
    }
  }
  expect_same(values(h), want, 1e-12);
}

TEST(AdLinalgRules, VmapOfGradOfDetEqualsTheLoop) {
  const Tensor batch = normal({4, 3, 3}, 75);
  const PyFunction g = grad(unary([](const Tensor& m) { return ops::det(m); }));
  const std::vector<double> got = values(apply(vmap(g), {batch}));
  std::vector<double> loop;
  for (std::int64_t b = 0; b < 4; ++b) {
    for (double v : values(apply(g, {ops::select(batch, 0, b)}))) loop.push_back(v);
  }
  expect_same(got, loop);
}

TEST(AdLinalgRules, GradOfTraceOfInverseTimesMatrix) {
  // d tr(A^-1 B) = -tr(A^-1 dA A^-1 B) + tr(A^-1 dB): grad_A = -(A^-1 B A^-1)^T, grad_B = A^-T.
  const Tensor a = well_conditioned({3, 3}, 76);
  const Tensor b = normal({3, 3}, 77);
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(ops::trace(ops::matmul(ops::inverse(args[0].tensor()), args[1].tensor())));
  };
  const PyTree grads = grad(f, {Argnums::many({0, 1})})({PyTree(a), PyTree(b)});
  const Tensor inv = ops::inverse(a);
  const Tensor want_a = ops::neg(transposed(ops::matmul(ops::matmul(inv, b), inv)));
  expect_same(values(grads.children()[0].tensor()), values(ops::contiguous(want_a)), 1e-13);
  expect_same(values(grads.children()[1].tensor()), values(ops::contiguous(transposed(inv))), 1e-14);
}

}  // namespace
}  // namespace funcspec::transforms
