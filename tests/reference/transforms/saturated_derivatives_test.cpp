// Derivatives where a function saturates are tiny, and the reference computes them to their own
// size (docs/SPEC.md AD-8.1, small derivatives): tanh'(20) is not 1 - tanh(20)^2 = 0 in float64.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::lift;

// d/dx f at x in `dtype`, by reverse mode, and by forward mode.
std::pair<double, double> slopes(const std::function<Tensor(const Tensor&)>& f, double x, DType dtype) {
  const Tensor at = ops::to_dtype(from_values({x}, {}), dtype);
  const double reverse = ops::to_dtype(grad(lift(f))({PyTree(at)}).tensor(), DType::Float64).to_vector<double>().at(0);
  const JvpResult pushed = jvp(lift(f), {PyTree(at)}, {PyTree(ops::ones_like(at))});
  const double forward = ops::to_dtype(pushed.tangent.tensor(), DType::Float64).to_vector<double>().at(0);
  return {reverse, forward};
}

void expect_relatively_near(double got, double expected, double rtol) {
  EXPECT_NEAR(got, expected, rtol * std::abs(expected)) << "expected " << expected << ", got " << got;
}

TEST(SaturatedDerivatives, TanhAt20IsSechSquaredNotZero) {
  for (double x : {20.0, -20.0}) {
    const auto [reverse, forward] = slopes([](const Tensor& t) { return ops::tanh(t); }, x, DType::Float64);
    expect_relatively_near(reverse, 1.6993417021166355e-17, 1e-14);
    expect_relatively_near(forward, 1.6993417021166355e-17, 1e-14);
  }
  const auto [reverse32, forward32] = slopes([](const Tensor& t) { return ops::tanh(t); }, 10.0, DType::Float32);
  expect_relatively_near(reverse32, 8.2446144e-09, 1e-5);  // sech^2(10)
  expect_relatively_near(forward32, 8.2446144e-09, 1e-5);
}

TEST(SaturatedDerivatives, SigmoidIsTinyOnBothSides) {
  for (double x : {40.0, -40.0}) {
    const auto [reverse, forward] = slopes([](const Tensor& t) { return ops::sigmoid(t); }, x, DType::Float64);
    expect_relatively_near(reverse, 4.248354255291589e-18, 1e-14);  // e^-40 / (1 + e^-40)^2
    expect_relatively_near(forward, 4.248354255291589e-18, 1e-14);
  }
}

TEST(SaturatedDerivatives, Expm1InItsNegativeTailIsExp) {
  const auto [reverse, forward] = slopes([](const Tensor& t) { return ops::expm1(t); }, -40.0, DType::Float64);
  expect_relatively_near(reverse, 4.248354255291589e-18, 1e-14);  // e^-40
  expect_relatively_near(forward, 4.248354255291589e-18, 1e-14);
}

TEST(SaturatedDerivatives, GeluInItsNegativeTailKeepsPhi) {
  // gelu'(x) = Phi(x) + x phi(x); at -10, Phi = 7.6e-24 is 1% of the sum, and (1 + erf(x/sqrt 2)) / 2
  // rounds it to 0.
  const auto [reverse, forward] = slopes([](const Tensor& t) { return ops::gelu(t); }, -10.0, DType::Float64);
  expect_relatively_near(reverse, -7.618400096464815e-22, 1e-13);
  expect_relatively_near(forward, -7.618400096464815e-22, 1e-13);
  // Across the switch at -1 the two forms of Phi agree.
  const auto [below, below_forward] =
      slopes([](const Tensor& t) { return ops::gelu(t); }, -1.0 - 1e-12, DType::Float64);
  const auto [above, above_forward] =
      slopes([](const Tensor& t) { return ops::gelu(t); }, -1.0 + 1e-12, DType::Float64);
  expect_relatively_near(below, -0.0833154705876863, 1e-11);  // Phi(-1) - phi(-1)
  expect_relatively_near(above, -0.0833154705876863, 1e-11);
  EXPECT_EQ(below, below_forward);
  EXPECT_EQ(above, above_forward);
}

TEST(SaturatedDerivatives, TheSecondDerivativeOfTanhIsAccurateNearZero) {
  // tanh'' = -2 tanh sech^2 ~ -2x near 0: the rule's own derivative must neither cancel there nor
  // make a kink of the |x| it holds.
  const auto second = [](double x) {
    const PyFunction first = grad(lift([](const Tensor& t) { return ops::tanh(t); }));
    const PyFunction second_order = grad([first](const std::vector<PyTree>& args) { return first(args); });
    return ops::to_dtype(second_order({PyTree(from_values({x}, {}))}).tensor(), DType::Float64)
        .to_vector<double>()
        .at(0);
  };
  EXPECT_EQ(second(0.0), 0.0);
  expect_relatively_near(second(1e-20), -2e-20, 1e-14);  // the exponential form would give 0 here
  expect_relatively_near(second(0.5), -2 * std::tanh(0.5) / std::pow(std::cosh(0.5), 2), 1e-14);
  expect_relatively_near(second(-0.5), 2 * std::tanh(0.5) / std::pow(std::cosh(0.5), 2), 1e-14);
}

}  // namespace
}  // namespace funcspec::transforms
