// exponential and gumbel_softmax (docs/ops/random.md, docs/ops/dropout.md): the draws against the
// bits of NOTE: [portable distributions] and an independent log1p, gumbel_softmax against the
// formula written out over the same draws, its straight-through derivative, and the Gumbel-max
// law (the argmax of logits + Gumbel noise is drawn with probability softmax(logits)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/random/distributions.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::uniform_tensor;
using testing_support::values;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

// The standard exponential of a block's first 64 bits, from std::log1p of 1 - u1 or std::log of u1,
// both exact to the last bit in the glibc used here, with u1 = (U + 1/2) 2^-64 as the oracle's.
double exponential_of_bits(std::uint64_t bits) {
  const long double u1 = (static_cast<long double>(bits) + 0.5L) * 0x1p-64L;
  const long double v = (static_cast<long double>(~bits) + 0.5L) * 0x1p-64L;
  return static_cast<double>(u1 <= 0.5L ? -std::log(u1) : -std::log1p(-v));
}

TEST(Exponential, DrawIsWithinFourUlpsOfTheExactValueEverywhere) {
  // Blocks with u1 spread over (0, 1), and the extremes: 0, just below 1/2, just above and the top.
  std::vector<std::uint64_t> words{0, 1, 0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL - 1, ~0ULL};
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) words.push_back(rng());
  for (int shift = 1; shift < 64; ++shift) words.push_back(~0ULL - (1ULL << shift));  // u1 towards 1
  for (const std::uint64_t bits : words) {
    const random::PhiloxBlock block{{static_cast<std::uint32_t>(bits >> 32), static_cast<std::uint32_t>(bits), 0, 0}};
    const double got = random::exponential_float64(block);
    const double want = exponential_of_bits(bits);
    ASSERT_GT(got, 0.0) << bits;
    EXPECT_LE(std::abs(got - want), 4 * std::numeric_limits<double>::epsilon() * want) << "bits " << bits;
  }
}

TEST(Exponential, DividesTheDrawByTheRateAndAdvancesTheStreamByNumel) {
  const Tensor like = from_values({0, 0, 0, 0}, {2, 2});
  std::vector<double> unit, fast;
  {
    random::GeneratorScope scope(3);
    unit = values(call_one("exponential", {like}));
    EXPECT_EQ(random::current_generator().offset(), 4u);
  }
  {
    random::GeneratorScope scope(3);
    fast = values(call_one("exponential", {like}, {{"lambd", 4.0}}));
  }
  for (std::size_t i = 0; i < unit.size(); ++i) EXPECT_DOUBLE_EQ(fast[i], unit[i] / 4);
  random::GeneratorScope scope(3);
  EXPECT_EQ(values(call_one("exponential", {like}, {{"lambd", std::numeric_limits<double>::infinity()}})),
            (std::vector<double>{0, 0, 0, 0}));
}

TEST(Exponential, RefusesARateThatIsNotPositiveAndIntegerTensors) {
  expect_op_error("exponential", {from_values({0}, {1})}, {{"lambd", 0.0}}, ErrorKind::InvalidArgument, "lambd");
  expect_op_error("exponential", {from_values({0}, {1})}, {{"lambd", -1.0}}, ErrorKind::InvalidArgument, "lambd");
  expect_op_error("exponential_", {from_values({0}, {1}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "self");
}

// softmax((x + g) / tau) over the last dim of a [rows, n] x, with g = -log(e) of the given draws.
std::vector<double> soft_sample(const std::vector<double>& x, const std::vector<double>& e, std::int64_t n,
                                double tau) {
  std::vector<double> out(x.size());
  for (std::size_t row = 0; row * n < x.size(); ++row) {
    double largest = -std::numeric_limits<double>::infinity();
    std::vector<double> z(static_cast<std::size_t>(n));
    for (std::int64_t j = 0; j < n; ++j) {
      const std::size_t i = row * n + j;
      z[j] = (x[i] - std::log(e[i])) / tau;
      largest = std::max(largest, z[j]);
    }
    double total = 0;
    for (double& v : z) total += (v = std::exp(v - largest));
    for (std::int64_t j = 0; j < n; ++j) out[row * n + j] = z[j] / total;
  }
  return out;
}

TEST(GumbelSoftmax, IsTheSoftmaxOfLogitsPlusGumbelNoiseOverTau) {
  std::mt19937_64 rng(5);
  const Tensor x = uniform_tensor({3, 4}, rng);
  std::vector<double> e, got;
  {
    random::GeneratorScope scope(17);
    e = values(call_one("exponential", {x}));
  }
  {
    random::GeneratorScope scope(17);
    got = values(call_one("gumbel_softmax", {x}, {{"tau", 0.5}}));
  }
  const std::vector<double> want = soft_sample(values(x), e, 4, 0.5);
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-14) << i;
}

TEST(GumbelSoftmax, HardIsTheOneHotOfTheSoftSamplesArgmaxWithItsDerivative) {
  std::mt19937_64 rng(6);
  const Tensor x = uniform_tensor({5, 3}, rng);
  const Tensor weights = uniform_tensor({5, 3}, rng);
  const auto sample = [&](bool hard) {
    random::GeneratorScope scope(23);
    return values(call_one("gumbel_softmax", {x}, {{"hard", hard}}));
  };
  const std::vector<double> soft = sample(false), hard = sample(true);
  for (std::size_t row = 0; row < 5; ++row) {
    std::size_t best = row * 3;
    for (std::size_t j = row * 3; j < row * 3 + 3; ++j) {
      if (soft[j] > soft[best]) best = j;
    }
    for (std::size_t j = row * 3; j < row * 3 + 3; ++j) EXPECT_NEAR(hard[j], j == best ? 1.0 : 0.0, 1e-15) << j;
  }
  // The straight-through estimator: the gradient of sum(w * hard) is the soft sample's.
  const auto gradient = [&](bool hard_sample) {
    random::GeneratorScope scope(23);
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      return PyTree(call_one(
          "sum",
          {call_one("mul", {call_one("gumbel_softmax", {args[0].tensor()}, {{"hard", hard_sample}}), weights})}));
    };
    return values(grad(f)({PyTree(x)}).tensor());
  };
  const std::vector<double> soft_gradient = gradient(false), hard_gradient = gradient(true);
  for (std::size_t i = 0; i < soft_gradient.size(); ++i) EXPECT_NEAR(hard_gradient[i], soft_gradient[i], 1e-15) << i;
}

TEST(GumbelSoftmax, HardPicksEachClassWithItsSoftmaxProbability) {
  // The Gumbel-max law over 8192 rows of logits [0, 1, 2]: class k is picked with probability
  // softmax(logits)_k. Hoeffding at 1e-9 per class: |frequency - p| <= sqrt(ln(2e9) / (2 * 8192)).
  const std::int64_t rows = 8192;
  std::vector<double> logits;
  for (std::int64_t r = 0; r < rows; ++r) logits.insert(logits.end(), {0.0, 1.0, 2.0});
  random::GeneratorScope scope(2026);
  const std::vector<double> picks =
      values(call_one("gumbel_softmax", {from_vector(logits, {rows, 3}, DType::Float64)}, {{"hard", true}}));
  const double total = 1 + std::exp(1.0) + std::exp(2.0);
  const double bound = std::sqrt(std::log(2e9) / (2.0 * static_cast<double>(rows)));
  for (std::int64_t k = 0; k < 3; ++k) {
    double count = 0;
    for (std::int64_t r = 0; r < rows; ++r) count += picks[r * 3 + k];
    EXPECT_NEAR(count / static_cast<double>(rows), std::exp(static_cast<double>(k)) / total, bound) << "class " << k;
  }
}

TEST(GumbelSoftmax, RefusesIntegerLogitsAndHardOverAnEmptyDim) {
  // Integer logits are refused by the draw, which comes first as in PyTorch (exponential_'s error).
  expect_op_error("gumbel_softmax", {from_values({1, 2}, {2}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported,
                  "exponential");
  try {
    call("gumbel_softmax", {from_vector(std::vector<double>{}, {2, 0}, DType::Float64)}, {{"hard", true}});
    ADD_FAILURE() << "hard over an empty dim has no class to pick";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument) << e.what();
  }
}

}  // namespace
}  // namespace funcspec
