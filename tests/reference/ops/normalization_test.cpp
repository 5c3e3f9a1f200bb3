// Tests of the normalization family (docs/ops/normalization.md) against PyTorch's cpu kernels and
// F.* formulas written out here as direct loops, independently of the composites (the oracle check
// of the catalogue runs the same composites in another dtype and could not see a wrong statistic,
// window or pick), and of what the family writes and refuses: the running statistics, the famous
// vmap error with nothing written, the gradient conventions of embedding and embedding_bag.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace normalization_test {
namespace {

using testing_support::expect_error_kind;
using testing_support::expect_same;
using testing_support::values;
using transforms::PyFunction;
using transforms::PyTree;

using Ints = std::vector<std::int64_t>;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Tensor random_tensor(const Shape& shape, std::mt19937_64& rng, double lo = -2, double hi = 2) {
  std::int64_t count = 1;
  for (std::int64_t s : shape) count *= s;
  std::uniform_real_distribution<double> uniform(lo, hi);
  std::vector<double> data(static_cast<std::size_t>(count));
  for (double& v : data) v = uniform(rng);
  return from_vector(data, shape, DType::Float64);
}

Tensor int_tensor(const std::vector<std::int64_t>& v, const Shape& shape) {
  std::vector<double> d(v.begin(), v.end());
  return from_vector(d, shape, DType::Int64);
}

// ---- batch_norm ---------------------------------------------------------------------------------

struct DirectNorm {
  std::vector<double> out, running_mean, running_var;
};

// PyTorch's batch_norm_cpu: per channel c the values x[n, c, s...] over n and s; mean, var_sum, the
// biased var for the output, momentum * var_sum / (n - 1) + (1 - momentum) * running for the update.
DirectNorm direct_batch_norm(const Tensor& input, const std::vector<double>& rm, const std::vector<double>& rv,
                             const std::vector<double>& w, const std::vector<double>& b, bool training, double momentum,
                             double eps) {
  const std::vector<double> x = values(input);
  const std::int64_t n = input.size(0), c = input.size(1);
  std::int64_t inner = 1;
  for (std::int64_t d = 2; d < input.dim(); ++d) inner *= input.size(d);
  DirectNorm r{std::vector<double>(x.size()), rm, rv};
  for (std::int64_t ch = 0; ch < c; ++ch) {
    const auto at = [&](std::int64_t i, std::int64_t s) { return static_cast<std::size_t>((i * c + ch) * inner + s); };
    double mean = 0, invstd = 0;
    if (training) {
      double sum = 0;
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t s = 0; s < inner; ++s) sum += x[at(i, s)];
      const double count = static_cast<double>(n * inner);
      mean = sum / count;
      double var_sum = 0;
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t s = 0; s < inner; ++s) var_sum += (x[at(i, s)] - mean) * (x[at(i, s)] - mean);
      invstd = 1 / std::sqrt(var_sum / count + eps);
      if (!rm.empty()) {
        r.running_mean[ch] = momentum * mean + (1 - momentum) * rm[ch];
        r.running_var[ch] = momentum * var_sum / (count - 1) + (1 - momentum) * rv[ch];
      }
    } else {
      mean = rm[ch];
      invstd = 1 / std::sqrt(rv[ch] + eps);
    }
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t s = 0; s < inner; ++s) {
        double v = (x[at(i, s)] - mean) * invstd;
        if (!w.empty()) v *= w[ch];
        if (!b.empty()) v += b[ch];
        r.out[at(i, s)] = v;
      }
    }
  }
  return r;
}

Attrs bn_attrs(bool training, double momentum = 0.1, double eps = 1e-5) {
  return {{"training", training}, {"momentum", momentum}, {"eps", eps}};
}

TEST(BatchNorm, AgreesWithPyTorchsKernelAndWritesTheRunningStatistics) {
  std::mt19937_64 rng(22);
  for (const Shape& shape : {Shape{5, 3}, Shape{2, 3, 4}, Shape{2, 3, 2, 3}, Shape{2, 2, 2, 2, 3}}) {
    for (const bool training : {true, false}) {
      for (const bool affine : {true, false}) {
        const std::int64_t c = shape[1];
        const Tensor x = random_tensor(shape, rng);
        const Tensor rm = random_tensor({c}, rng, -0.5, 0.5), rv = random_tensor({c}, rng, 0.5, 2);
        const Tensor w = affine ? random_tensor({c}, rng) : Tensor(), b = affine ? random_tensor({c}, rng) : Tensor();
        const DirectNorm want = direct_batch_norm(x, values(rm), values(rv), affine ? values(w) : std::vector<double>{},
                                                  affine ? values(b) : std::vector<double>{}, training, 0.3, 1e-3);
        const std::vector<double> rm_before = values(rm);
        const Tensor mean = ops::clone(rm), var = ops::clone(rv);
        const Tensor out = call_one("batch_norm", {x, mean, var, w, b}, bn_attrs(training, 0.3, 1e-3));
        expect_same(values(out), want.out, 1e-13);
        expect_same(values(mean), want.running_mean, 1e-15);
        expect_same(values(var), want.running_var, 1e-15);
        // The functional form computes the same and writes nothing.
        const TensorList functional = call("batch_norm_functional", {x, rm, rv, w, b}, bn_attrs(training, 0.3, 1e-3));
        expect_same(values(functional[0]), values(out), 0);
        expect_same(values(functional[1]), values(mean), 0);
        expect_same(values(functional[2]), values(var), 0);
        EXPECT_FALSE(functional[1].is_same(rm));
        expect_same(values(rm), rm_before, 0);
      }
    }
  }
}

TEST(BatchNorm, WithoutRunningStatisticsNormalizesByTheBatchInEveryMode) {
  std::mt19937_64 rng(23);
  const Tensor x = random_tensor({4, 2, 3}, rng);
  const DirectNorm want = direct_batch_norm(x, {}, {}, {}, {}, true, 0.1, 1e-5);
  expect_same(values(call_one("batch_norm", {x, Tensor(), Tensor()}, bn_attrs(true))), want.out, 1e-13);
  testing_support::expect_op_error("batch_norm", {x, Tensor(), Tensor()}, bn_attrs(false), ErrorKind::InvalidArgument,
                                   "evaluation mode");
}

TEST(BatchNorm, AnEmptyBatchLeavesTheRunningStatisticsAndOneValuePerChannelIsRefused) {
  const Tensor rm = testing_support::f64({0.5, -1}), rv = testing_support::f64({2, 3});
  const Tensor empty = from_vector(std::vector<double>{}, {0, 2}, DType::Float64);
  EXPECT_EQ(call_one("batch_norm", {empty, rm, rv}, bn_attrs(true)).shape(), (Shape{0, 2}));
  expect_same(values(rm), {0.5, -1}, 0);
  expect_same(values(rv), {2, 3}, 0);
  testing_support::expect_op_error("batch_norm", {from_values({1, 2}, {1, 2}), rm, rv}, bn_attrs(true),
                                   ErrorKind::InvalidArgument, "more than 1 value per channel");
  expect_same(values(rm), {0.5, -1}, 0);
  // In evaluation one value per channel is fine.
  expect_same(values(call_one("batch_norm", {from_values({0.5, 2}, {1, 2}), rm, rv}, bn_attrs(false, 0.1, 0))),
              {0, 3 / std::sqrt(3.0)}, 1e-15);
}

TEST(BatchNorm, MixedDtypesAreRefused) {
  // The oracle runs every floating input in one dtype, so samples cannot carry this.
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2}, DType::Float32);
  const Tensor w = testing_support::f64({1, 1});
  testing_support::expect_op_error("batch_norm", {x, Tensor(), Tensor(), w}, bn_attrs(true),
                                   ErrorKind::DtypeNotSupported, "weight");
  testing_support::expect_op_error("group_norm", {ops::reshape(x, {1, 2, 2}), Tensor(), w}, {{"num_groups", 1}},
                                   ErrorKind::DtypeNotSupported, "bias");
  testing_support::expect_op_error("layer_norm", {x, w}, {{"normalized_shape", Shape{2}}}, ErrorKind::DtypeNotSupported,
                                   "weight");
  testing_support::expect_op_error("embedding_bag",
                                   {int_tensor({0, 1}, {2}), from_values({1, 2, 3, 4}, {2, 2}, DType::Float32),
                                    int_tensor({0}, {1}), testing_support::f64({1, 1})},
                                   {{"mode", std::string("sum")}}, ErrorKind::DtypeNotSupported, "per_sample_weights");
}

// functorch's "Batch norm got a batched tensor as input while the running_mean or running_var, which
// will be updated in place, were not batched": vmap_inplace_unbatched, and nothing is written, also
// when only running_var is unbatched (running_mean is written last).
TEST(BatchNormUnderVmap, TrainingWithUnbatchedRunningStatisticsIsRefusedBeforeAnyWrite) {
  std::mt19937_64 rng(24);
  const Tensor x = random_tensor({3, 4, 2}, rng);  // three examples, each a batch of 4
  const Tensor rm = testing_support::f64({0.25, -0.5}), rv = testing_support::f64({1.5, 0.5});
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    return PyTree(call_one("batch_norm", {args[0].tensor(), rm, rv}, bn_attrs(true)));
  };
  expect_error_kind(ErrorKind::VmapInplaceUnbatched, [&] { (void)transforms::vmap(f)({PyTree(x)}); });
  expect_same(values(rm), {0.25, -0.5}, 0);
  expect_same(values(rv), {1.5, 0.5}, 0);

  // The input and running_mean batched, running_var not: still refused, running_mean untouched.
  const Tensor stacked_mean = random_tensor({3, 2}, rng);
  const std::vector<double> before = values(stacked_mean);
  const PyFunction g = [&](const std::vector<PyTree>& args) {
    return PyTree(call_one("batch_norm", {args[0].tensor(), args[1].tensor(), rv}, bn_attrs(true)));
  };
  expect_error_kind(ErrorKind::VmapInplaceUnbatched, [&] {
    (void)transforms::vmap(g)({PyTree(x), PyTree(stacked_mean)});
  });
  expect_same(values(stacked_mean), before, 0);
  expect_same(values(rv), {1.5, 0.5}, 0);

  // Evaluation only reads them, and the functional form returns per-example statistics.
  const PyFunction eval = [&](const std::vector<PyTree>& args) {
    return PyTree(call_one("batch_norm", {args[0].tensor(), rm, rv}, bn_attrs(false)));
  };
  const Tensor evaluated = transforms::vmap(eval)({PyTree(x)}).tensor();
  const PyFunction functional = [&](const std::vector<PyTree>& args) {
    return PyTree(call("batch_norm_functional", {args[0].tensor(), rm, rv}, bn_attrs(true))[1]);
  };
  const Tensor means = transforms::vmap(functional)({PyTree(x)}).tensor();
  for (std::int64_t e = 0; e < 3; ++e) {
    const Tensor example = ops::select(x, 0, e);
    expect_same(values(ops::select(evaluated, 0, e)),
                values(call_one("batch_norm", {example, rm, rv}, bn_attrs(false))), 1e-15);
    expect_same(values(ops::select(means, 0, e)),
                values(call("batch_norm_functional", {example, rm, rv}, bn_attrs(true))[1]), 1e-15);
  }
  expect_same(values(rm), {0.25, -0.5}, 0);
}

TEST(BatchNormUnderVmap, BatchedRunningStatisticsTakeEachExamplesUpdate) {
  std::mt19937_64 rng(25);
  const Tensor x = random_tensor({3, 4, 2}, rng);
  const Tensor rm = random_tensor({3, 2}, rng), rv = random_tensor({3, 2}, rng, 0.5, 2);
  const Tensor loop_mean = ops::clone(rm), loop_var = ops::clone(rv);
  for (std::int64_t e = 0; e < 3; ++e) {
    (void)call_one("batch_norm", {ops::select(x, 0, e), ops::select(loop_mean, 0, e), ops::select(loop_var, 0, e)},
                   bn_attrs(true));
  }
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    return PyTree(call_one("batch_norm", {args[0].tensor(), args[1].tensor(), args[2].tensor()}, bn_attrs(true)));
  };
  (void)transforms::vmap(f)({PyTree(x), PyTree(rm), PyTree(rv)});
  expect_same(values(rm), values(loop_mean), 1e-15);
  expect_same(values(rv), values(loop_var), 1e-15);
}

TEST(BatchNorm, GradientAtAConstantChannelIsFiniteAndThatOfTheComposite) {
  // Variance 0: d out / d x = (I - 1/n) / sqrt(eps) per channel (PyTorch's backward gives the same).
  const Tensor x = from_values({0.5, 1, 0.5, -1, 0.5, 2}, {3, 2});
  const Tensor weights = from_values({1, 0, 2, 0, -3, 0}, {3, 2});
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    return PyTree(
        ops::sum(ops::mul(call_one("batch_norm", {args[0].tensor(), Tensor(), Tensor()}, bn_attrs(true)), weights)));
  };
  const Tensor g = transforms::grad(f)({PyTree(x)}).tensor();
  const double scale = 1 / std::sqrt(1e-5);
  EXPECT_NEAR(values(g)[0], scale * (1 - 0), 1e-9);
  EXPECT_NEAR(values(g)[2], scale * (2 - 0), 1e-9);
  EXPECT_NEAR(values(g)[4], scale * (-3 - 0), 1e-9);
}

// ---- instance_norm ------------------------------------------------------------------------------

TEST(InstanceNorm, IsBatchNormOfEachInstanceAndWritesTheMeanOfTheUpdates) {
  std::mt19937_64 rng(26);
  const Tensor x = random_tensor({3, 2, 5}, rng);
  const Tensor rm = random_tensor({2}, rng), rv = random_tensor({2}, rng, 0.5, 2);
  const Tensor w = random_tensor({2}, rng), b = random_tensor({2}, rng);
  std::vector<double> want_out, want_mean(2, 0), want_var(2, 0);
  for (std::int64_t i = 0; i < 3; ++i) {
    // Instance i is a batch of one: PyTorch's repeated running statistics, updated per instance.
    const DirectNorm one = direct_batch_norm(ops::unsqueeze(ops::select(x, 0, i), 0), values(rm), values(rv), values(w),
                                             values(b), true, 0.2, 1e-4);
    want_out.insert(want_out.end(), one.out.begin(), one.out.end());
    for (std::size_t c = 0; c < 2; ++c) {
      want_mean[c] += one.running_mean[c] / 3;
      want_var[c] += one.running_var[c] / 3;
    }
  }
  const Tensor mean = ops::clone(rm), var = ops::clone(rv);
  const Attrs attrs{{"use_input_stats", true}, {"momentum", 0.2}, {"eps", 1e-4}};
  expect_same(values(call_one("instance_norm", {x, mean, var, w, b}, attrs)), want_out, 1e-13);
  expect_same(values(mean), want_mean, 1e-14);
  expect_same(values(var), want_var, 1e-14);
  // Without input statistics it reads the running ones and writes nothing.
  const Tensor kept = ops::clone(rm);
  const Attrs eval{{"use_input_stats", false}};
  const DirectNorm read = direct_batch_norm(x, values(rm), values(rv), {}, {}, false, 0.1, 1e-5);
  expect_same(values(call_one("instance_norm", {x, kept, rv}, eval)), read.out, 1e-13);
  expect_same(values(kept), values(rm), 0);
}

// ---- group_norm ---------------------------------------------------------------------------------

TEST(GroupNorm, AgreesWithPyTorchsKernelLoop) {
  std::mt19937_64 rng(27);
  for (const auto& [shape, groups] : std::vector<std::pair<Shape, std::int64_t>>{
           {{2, 6, 3}, 3}, {{3, 4}, 2}, {{2, 4, 2, 2}, 4}, {{1, 6, 2, 1, 2}, 1}}) {
    const Tensor x = random_tensor(shape, rng);
    const std::int64_t n = shape[0], c = shape[1];
    const Tensor w = random_tensor({c}, rng), b = random_tensor({c}, rng);
    std::int64_t inner = 1;
    for (std::size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
    const std::vector<double> xs = values(x), ws = values(w), bs = values(b);
    std::vector<double> want(xs.size());
    const std::int64_t per_group = c / groups * inner;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t g = 0; g < groups; ++g) {
        const std::size_t base = static_cast<std::size_t>((i * groups + g) * per_group);
        double sum = 0, sq = 0;
        for (std::int64_t k = 0; k < per_group; ++k) sum += xs[base + k];
        const double mean = sum / static_cast<double>(per_group);
        for (std::int64_t k = 0; k < per_group; ++k) sq += (xs[base + k] - mean) * (xs[base + k] - mean);
        const double rstd = 1 / std::sqrt(sq / static_cast<double>(per_group) + 1e-5);
        for (std::int64_t k = 0; k < per_group; ++k) {
          const std::int64_t channel = g * (c / groups) + k / inner;
          want[base + k] = (xs[base + k] - mean) * rstd * ws[channel] + bs[channel];
        }
      }
    }
    expect_same(values(call_one("group_norm", {x, w, b}, {{"num_groups", groups}})), want, 1e-13);
  }
  testing_support::expect_op_error("group_norm", {random_tensor({2, 4, 3}, rng)}, {{"num_groups", 3}},
                                   ErrorKind::ShapeMismatch, "divisible by num_groups");
}

// ---- local_response_norm ------------------------------------------------------------------------

TEST(LocalResponseNorm, AgreesWithTheChannelWindowFormula) {
  std::mt19937_64 rng(28);
  for (const auto& [shape, size] :
       std::vector<std::pair<Shape, std::int64_t>>{{{2, 5, 3}, 3}, {{1, 4, 2, 3}, 2}, {{1, 3, 2, 2, 2}, 5}}) {
    const Tensor x = random_tensor(shape, rng);
    const double alpha = 0.3, beta = 0.75, k = 1.5;
    const std::vector<double> xs = values(x);
    const std::int64_t n = shape[0], c = shape[1];
    const std::int64_t inner = x.numel() / (n * c);
    std::vector<double> want(xs.size());
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t ch = 0; ch < c; ++ch) {
        for (std::int64_t s = 0; s < inner; ++s) {
          // PyTorch pads size / 2 channels before and (size - 1) / 2 after, then averages size of them.
          double sum = 0;
          for (std::int64_t j = ch - size / 2; j <= ch + (size - 1) / 2; ++j) {
            if (j < 0 || j >= c) continue;
            const double v = xs[static_cast<std::size_t>((i * c + j) * inner + s)];
            sum += v * v;
          }
          const std::size_t at = static_cast<std::size_t>((i * c + ch) * inner + s);
          want[at] = xs[at] / std::pow(k + alpha * sum / static_cast<double>(size), beta);
        }
      }
    }
    const Attrs attrs{{"size", size}, {"alpha", alpha}, {"beta", beta}, {"k", k}};
    expect_same(values(call_one("local_response_norm", {x}, attrs)), want, 1e-14);
  }
}

// ---- normalize ----------------------------------------------------------------------------------

TEST(Normalize, DividesByTheNormClampedAtEps) {
  std::mt19937_64 rng(29);
  const Tensor x = random_tensor({3, 4}, rng);
  const std::vector<double> xs = values(x);
  for (const double p : {1.0, 2.0, 3.0, 1.5, std::numeric_limits<double>::infinity()}) {
    std::vector<double> want(xs.size());
    for (std::int64_t col = 0; col < 4; ++col) {  // dim 0
      double norm = 0;
      for (std::int64_t r = 0; r < 3; ++r) {
        const double a = std::abs(xs[static_cast<std::size_t>(r * 4 + col)]);
        norm = std::isinf(p) ? std::max(norm, a) : norm + std::pow(a, p);
      }
      if (!std::isinf(p)) norm = std::pow(norm, 1 / p);
      for (std::int64_t r = 0; r < 3; ++r)
        want[static_cast<std::size_t>(r * 4 + col)] = xs[static_cast<std::size_t>(r * 4 + col)] / std::max(norm, 0.25);
    }
    expect_same(values(call_one("normalize", {x}, {{"p", p}, {"dim", std::int64_t{0}}, {"eps", 0.25}})), want, 1e-14);
  }
  // The zero vector: x / eps, and its derivative 1 / eps; at the norm exactly eps the norm's derivative.
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(call_one("normalize", {args[0].tensor()}, {{"eps", 5.0}})));
  };
  expect_same(values(transforms::grad(f)({PyTree(from_values({0, 0}, {1, 2}))}).tensor()), {0.2, 0.2}, 1e-15);
  // d/dx sum(x / |x|) at [3, 4]: (1 - x_i sum(x) / |x|^2) / |x| = [(1 - 21/25) / 5, (1 - 28/25) / 5].
  expect_same(values(transforms::grad(f)({PyTree(from_values({3, 4}, {1, 2}))}).tensor()), {0.032, -0.024}, 1e-15);
}

// ---- embedding and embedding_renorm -------------------------------------------------------------

TEST(Embedding, ReadsRowsAndItsGradientFollowsPyTorchsEmbeddingBackward) {
  std::mt19937_64 rng(30);
  const Tensor weight = random_tensor({5, 3}, rng);
  const Tensor idx = int_tensor({4, 1, 1, 3, 1, 0}, {2, 3});
  const Tensor out = call_one("embedding", {idx, weight});
  EXPECT_EQ(out.shape(), (Shape{2, 3, 3}));
  const std::vector<double> w = values(weight), o = values(out);
  const std::vector<std::int64_t> id{4, 1, 1, 3, 1, 0};
  for (std::size_t i = 0; i < id.size(); ++i)
    for (std::size_t d = 0; d < 3; ++d) EXPECT_EQ(o[i * 3 + d], w[static_cast<std::size_t>(id[i]) * 3 + d]);
  // embedding_dense_backward: grad rows index_added, the padding row skipped, each index's rows
  // divided by its count with scale_grad_by_freq.
  const Tensor cotangent = random_tensor({2, 3, 3}, rng);
  const std::vector<double> ct = values(cotangent);
  for (const bool scale : {false, true}) {
    const Attrs attrs{{"padding_idx", std::int64_t{3}}, {"scale_grad_by_freq", scale}};
    std::map<std::int64_t, double> counts;
    for (std::int64_t i : id) counts[i] += 1;
    std::vector<double> want(15, 0.0);
    for (std::size_t i = 0; i < id.size(); ++i) {
      if (id[i] == 3) continue;
      for (std::size_t d = 0; d < 3; ++d)
        want[static_cast<std::size_t>(id[i]) * 3 + d] += ct[i * 3 + d] / (scale ? counts[id[i]] : 1.0);
    }
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      return PyTree(ops::sum(ops::mul(call_one("embedding", {idx, args[0].tensor()}, attrs), cotangent)));
    };
    expect_same(values(transforms::grad(f)({PyTree(weight)}).tensor()), want, 1e-15);
    // Forward mode gives the transpose of that (PyTorch's forward mode differentiates the value instead).
    const Tensor tangent = random_tensor({5, 3}, rng);
    const PyFunction g = [&](const std::vector<PyTree>& args) {
      return PyTree(call_one("embedding", {idx, args[0].tensor()}, attrs));
    };
    const Tensor jvp = transforms::jvp(g, {PyTree(weight)}, {PyTree(tangent)}).tangent.tensor();
    double lhs = 0, rhs = 0;
    const std::vector<double> jv = values(jvp), t = values(tangent);
    for (std::size_t i = 0; i < jv.size(); ++i) lhs += jv[i] * ct[i];
    for (std::size_t i = 0; i < t.size(); ++i) rhs += t[i] * want[i];
    EXPECT_NEAR(lhs, rhs, 1e-13);
    // And the value is the rows, exactly.
    expect_same(values(call_one("embedding", {idx, weight}, attrs)), o, 0);
  }
}

TEST(EmbeddingRenorm, ScalesTheNamedRowsAboveMaxNormOnce) {
  std::mt19937_64 rng(31);
  const Tensor weight = random_tensor({5, 3}, rng);
  const Tensor idx = int_tensor({0, 3, 0, 4}, {4});
  const std::vector<double> w = values(weight);
  std::vector<double> want = w;
  for (std::int64_t row : {0, 3, 4}) {
    double norm = 0;
    for (std::size_t d = 0; d < 3; ++d) norm += w[static_cast<std::size_t>(row) * 3 + d] * w[row * 3 + d];
    norm = std::sqrt(norm);
    if (norm > 1.0) {
      for (std::size_t d = 0; d < 3; ++d) want[static_cast<std::size_t>(row) * 3 + d] *= 1.0 / (norm + 1e-7);
    }
  }
  const Attrs attrs{{"max_norm", 1.0}, {"norm_type", 2.0}};
  expect_same(values(call_one("embedding_renorm", {weight, idx}, attrs)), want, 1e-15);
  const Tensor written = ops::clone(weight);
  EXPECT_TRUE(call_one("embedding_renorm_", {written, idx}, attrs).is_same(written));
  expect_same(values(written), want, 1e-15);
  // A row exactly at max_norm is kept.
  expect_same(values(call_one("embedding_renorm", {from_values({3, 4}, {1, 2}), int_tensor({0}, {1})},
                              {{"max_norm", 5.0}, {"norm_type", 2.0}})),
              {3, 4}, 0);
}

// ---- embedding_bag ------------------------------------------------------------------------------

// PyTorch's cpu embedding_bag: bags from offsets; padding entries skipped; sum and mean (over the
// non-padding entries, 0 for none); max scans each bag, replacing the pick when the bag has none
// yet or an element is greater; the max picks' rows get the gradient.
struct DirectBag {
  std::vector<double> out;
  std::vector<std::int64_t> picks;  // max: the row picked per (bag, dim), -1 for none
};

DirectBag direct_bag(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& offsets,
                     bool include_last_offset, const std::vector<double>& w, std::int64_t dim,
                     const std::vector<double>& psw, const std::string& mode, std::int64_t padding) {
  const std::int64_t bags = static_cast<std::int64_t>(offsets.size()) - (include_last_offset ? 1 : 0);
  DirectBag r{std::vector<double>(static_cast<std::size_t>(bags * dim), 0.0),
              std::vector<std::int64_t>(static_cast<std::size_t>(bags * dim), -1)};
  for (std::int64_t bag = 0; bag < bags; ++bag) {
    const std::int64_t begin = offsets[bag];
    const std::int64_t end =
        bag + 1 < static_cast<std::int64_t>(offsets.size()) ? offsets[bag + 1] : static_cast<std::int64_t>(idx.size());
    double count = 0;
    bool empty = true;
    for (std::int64_t l = begin; l < end; ++l) {
      const std::int64_t row = idx[static_cast<std::size_t>(l)];
      if (row == padding) continue;
      count += 1;
      for (std::int64_t d = 0; d < dim; ++d) {
        const double v = w[static_cast<std::size_t>(row * dim + d)] * (psw.empty() ? 1.0 : psw[l]);
        double& o = r.out[static_cast<std::size_t>(bag * dim + d)];
        if (mode == "max") {
          if (empty || v > o) {
            o = v;
            r.picks[static_cast<std::size_t>(bag * dim + d)] = row;
          }
        } else {
          o += v;
        }
      }
      empty = false;
    }
    if (mode == "mean" && count > 0)
      for (std::int64_t d = 0; d < dim; ++d) r.out[static_cast<std::size_t>(bag * dim + d)] /= count;
  }
  return r;
}

TEST(EmbeddingBag, AgreesWithPyTorchsKernelLoop) {
  std::mt19937_64 rng(32);
  std::uniform_int_distribution<int> small(-2, 2);
  std::vector<double> wdata(5 * 3);
  for (double& v : wdata) v = small(rng);  // small integers: ties in max
  wdata[4] = kNan;
  const Tensor weight = from_vector(wdata, {5, 3}, DType::Float64);
  const std::vector<std::int64_t> idx{0, 2, 4, 1, 3, 3, 2, 1, 0, 4};
  struct Call {
    std::vector<std::int64_t> offsets;
    bool include_last_offset;
    std::string mode;
    std::int64_t padding;
    bool weighted;
  };
  const std::vector<Call> calls{
      {{0, 2, 5}, false, "sum", -1, false},    {{0, 2, 5}, false, "mean", -1, false},
      {{0, 2, 5}, false, "max", -1, false},    {{0, 3, 3, 7}, false, "max", 1, false},
      {{0, 4, 4, 10}, true, "mean", 3, false}, {{0, 1, 6, 10}, true, "sum", 2, true},
      {{0, 0, 0}, false, "max", -1, false},    {{0, 5, 10}, true, "max", 4, false},
  };
  for (const Call& c : calls) {
    std::vector<double> psw;
    if (c.weighted) {
      for (std::size_t i = 0; i < idx.size(); ++i) psw.push_back(0.5 + static_cast<double>(i));
    }
    const DirectBag want = direct_bag(idx, c.offsets, c.include_last_offset, wdata, 3, psw, c.mode, c.padding);
    Attrs attrs{{"mode", c.mode}, {"include_last_offset", c.include_last_offset}};
    if (c.padding >= 0) attrs.set("padding_idx", c.padding);
    const Tensor got =
        call_one("embedding_bag",
                 {int_tensor(idx, {10}), weight, int_tensor(c.offsets, {static_cast<std::int64_t>(c.offsets.size())}),
                  c.weighted ? from_vector(psw, {10}, DType::Float64) : Tensor()},
                 attrs);
    expect_same(values(got), want.out, 1e-15);
    if (c.mode != "max") continue;
    // The gradient of the sum of the result goes to the picked rows, one per (bag, dim).
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      return PyTree(ops::sum(call_one("embedding_bag",
                                      {int_tensor(idx, {10}), args[0].tensor(),
                                       int_tensor(c.offsets, {static_cast<std::int64_t>(c.offsets.size())})},
                                      attrs)));
    };
    std::vector<double> grad(15, 0.0);
    for (std::size_t k = 0; k < want.picks.size(); ++k) {
      if (want.picks[k] >= 0) grad[static_cast<std::size_t>(want.picks[k]) * 3 + k % 3] += 1;
    }
    expect_same(values(transforms::grad(f)({PyTree(weight)}).tensor()), grad, 0);
  }
}

TEST(EmbeddingBag, TwoDimensionalInputIsBagsOfItsRows) {
  std::mt19937_64 rng(33);
  const Tensor weight = random_tensor({4, 2}, rng);
  const Tensor input = int_tensor({1, 0, 3, 3, 2, 1}, {3, 2});
  const DirectBag want = direct_bag({1, 0, 3, 3, 2, 1}, {0, 2, 4}, false, values(weight), 2, {}, "mean", -1);
  expect_same(values(call_one("embedding_bag", {input, weight}, {{"mode", std::string("mean")}})), want.out, 1e-15);
  EXPECT_EQ(call_one("embedding_bag", {from_vector(std::vector<double>{}, {2, 0}, DType::Int64), weight},
                     {{"mode", std::string("max")}})
                .shape(),
            (Shape{2, 2}));
}

}  // namespace
}  // namespace normalization_test
}  // namespace funcspec
