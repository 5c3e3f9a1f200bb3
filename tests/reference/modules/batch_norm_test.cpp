// BatchNorm1d: the running-statistic updates against values worked by hand with PyTorch's
// conventions (momentum, unbiased variance, cumulative average), evaluation mode, and batch norm
// under vmap: the in-place error the seeds warn about, replace_all_batch_norm_modules, and
// ensembles whose stacked buffers are updated per model.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/linear.h"
#include "reference/modules/sequential.h"
#include "reference/modules/stack_module_state.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/modules/module_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::modules {
namespace {

using testing_support::entry;
using testing_support::expect_error_kind;
using testing_support::expect_same;
using testing_support::expect_trees_near;
using testing_support::kFloat64Options;
using testing_support::normal_tensor;
using testing_support::values;
using transforms::PyFunction;

constexpr double kEps = 1e-5;

// x = [[1, 2], [3, 6], [5, 10]]: channel means [3, 6], biased variances [8/3, 32/3], unbiased [4, 16].
Tensor three_rows() { return from_values({1, 2, 3, 6, 5, 10}, {3, 2}); }

TEST(BatchNormTraining, NormalizesWithBatchStatisticsAndUpdatesTheRunningOnesAsPyTorch) {
  BatchNorm1d norm(2, {}, kFloat64Options);
  const Tensor y = norm(three_rows());
  const double s0 = std::sqrt(8.0 / 3 + kEps), s1 = std::sqrt(32.0 / 3 + kEps);
  expect_same(values(y), {-2 / s0, -4 / s1, 0, 0, 2 / s0, 4 / s1}, 1e-15);
  // running = 0.1 * batch + 0.9 * running, the variance unbiased: zeros -> [0.3, 0.6], ones -> [1.3, 2.5].
  expect_same(values(norm.buffer("running_mean")), {0.3, 0.6}, 1e-15);
  expect_same(values(norm.buffer("running_var")), {1.3, 2.5}, 1e-15);
  EXPECT_EQ(values(norm.buffer("num_batches_tracked")), std::vector<double>{1});
  // A second batch, [[0, 0], [2, 4]]: means [1, 2], unbiased variances [2, 8].
  (void)norm(from_values({0, 0, 2, 4}, {2, 2}));
  expect_same(values(norm.buffer("running_mean")), {0.1 * 1 + 0.9 * 0.3, 0.1 * 2 + 0.9 * 0.6}, 1e-15);
  expect_same(values(norm.buffer("running_var")), {0.1 * 2 + 0.9 * 1.3, 0.1 * 8 + 0.9 * 2.5}, 1e-15);
  EXPECT_EQ(values(norm.buffer("num_batches_tracked")), std::vector<double>{2});
}

TEST(BatchNormTraining, TheLengthDimIsPartOfEachChannelsStatistics) {
  // [N=2, C=1, L=2]: the channel holds 1, 3, 5, 7: mean 4, biased variance 5, unbiased 20/3.
  BatchNorm1d norm(1, {.momentum = 0.5}, kFloat64Options);
  const Tensor y = norm(from_values({1, 3, 5, 7}, {2, 1, 2}));
  const double s = std::sqrt(5 + kEps);
  expect_same(values(y), {-3 / s, -1 / s, 1 / s, 3 / s}, 1e-15);
  expect_same(values(norm.buffer("running_mean")), {2.0}, 1e-15);
  expect_same(values(norm.buffer("running_var")), {0.5 * 20.0 / 3 + 0.5}, 1e-15);
}

TEST(BatchNormTraining, MomentumNoneIsTheCumulativeAverageOfTheBatches) {
  BatchNorm1d norm(2, {.momentum = std::nullopt}, kFloat64Options);
  (void)norm(three_rows());                       // means [3, 6], unbiased variances [4, 16]
  (void)norm(from_values({0, 0, 2, 4}, {2, 2}));  // means [1, 2], unbiased variances [2, 8]
  (void)norm(from_values({2, 1, 4, 1}, {2, 2}));  // means [3, 1], unbiased variances [2, 0]
  expect_same(values(norm.buffer("running_mean")), {7.0 / 3, 3.0}, 1e-15);
  expect_same(values(norm.buffer("running_var")), {8.0 / 3, 8.0}, 1e-15);
  EXPECT_EQ(values(norm.buffer("num_batches_tracked")), std::vector<double>{3});
}

TEST(BatchNormTraining, AffineParametersScaleAndShiftEachChannel) {
  BatchNorm1d norm(2, {}, kFloat64Options);
  const PyTree params = PyTree::dict({{"weight", from_values({2, -1}, {2})}, {"bias", from_values({0.5, 1}, {2})}});
  const Tensor y = functional_call(norm, params, PyTree(three_rows())).tensor();
  const double s0 = std::sqrt(8.0 / 3 + kEps), s1 = std::sqrt(32.0 / 3 + kEps);
  expect_same(values(y), {-4 / s0 + 0.5, 4 / s1 + 1, 0.5, 1, 4 / s0 + 0.5, -4 / s1 + 1}, 1e-15);
}

TEST(BatchNormTraining, OneValuePerChannelAndWrongShapesAreRefused) {
  BatchNorm1d norm(2, {}, kFloat64Options);
  expect_error_kind(ErrorKind::InvalidArgument, [&] { (void)norm(from_values({1, 2}, {1, 2})); });
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { (void)norm(from_values({1, 2, 3}, {1, 3})); });
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { (void)norm(from_values({1, 2}, {2})); });
  EXPECT_EQ(values(norm.buffer("num_batches_tracked")), std::vector<double>{0});
}

TEST(BatchNormEvaluation, NormalizesWithTheRunningStatisticsAndWritesNothing) {
  BatchNorm1d norm(2, {}, kFloat64Options);
  (void)norm(three_rows());  // running mean [0.3, 0.6], variance [1.3, 2.5]
  norm.eval();
  const Tensor y = norm(from_values({1, 1}, {1, 2}));  // one row is fine without batch statistics
  expect_same(values(y), {0.7 / std::sqrt(1.3 + kEps), 0.4 / std::sqrt(2.5 + kEps)}, 1e-15);
  expect_same(values(norm.buffer("running_mean")), {0.3, 0.6}, 1e-15);
  EXPECT_EQ(values(norm.buffer("num_batches_tracked")), std::vector<double>{1});
}

TEST(BatchNormTraining, GradientsFlowThroughTheBatchStatistics) {
  // The loss's derivative with respect to the input, against finite differences in the oracle dtype;
  // the buffer updates in every evaluation are detached bookkeeping and change nothing.
  random::GeneratorScope seed(301);
  BatchNorm1d norm(3, {}, kFloat64Options);
  const Tensor x = normal_tensor({4, 3}, 5);
  const Tensor w = normal_tensor({4, 3}, 6);
  const auto loss = [&](const Tensor& input) { return ops::sum(ops::mul(ops::tanh(norm(input)), w)); };
  const Tensor g =
      transforms::grad([&](const std::vector<PyTree>& args) { return PyTree(loss(args[0].tensor())); })({PyTree(x)})
          .tensor();
  const Tensor oracle_w = ops::to_dtype(w, DType::Oracle);
  const PyTree expected = testing_support::oracle_gradient(
      [&](const PyTree& at) { return ops::sum(ops::mul(ops::tanh(norm(at.tensor())), oracle_w)); }, PyTree(x));
  expect_trees_near(PyTree(g), expected, 1e-11);
}

// Linear(3, 4) then BatchNorm1d(4), as one per-example model under vmap.
std::shared_ptr<Sequential> linear_then_norm() {
  return std::make_shared<Sequential>(
      std::vector<std::shared_ptr<Module>>{std::make_shared<Linear>(3, 4, true, kFloat64Options),
                                           std::make_shared<BatchNorm1d>(4, BatchNormOptions{}, kFloat64Options)});
}

TEST(BatchNormUnderVmap, TrainingModeWritingUnbatchedRunningStatsIsVmapInplaceUnbatched) {
  random::GeneratorScope seed(302);
  const auto model = linear_then_norm();
  std::vector<std::vector<double>> before;
  for (const auto& [name, tensor] : model->named_buffers()) before.push_back(values(tensor));
  const Tensor x = normal_tensor({5, 6, 3}, 7);  // five examples, each a batch of 6
  const PyFunction f = [&](const std::vector<PyTree>& args) { return PyTree((*model)(args[0].tensor())); };
  expect_error_kind(ErrorKind::VmapInplaceUnbatched, [&] { (void)transforms::vmap(f)({PyTree(x)}); });
  // The error came before any write: running_mean, running_var and num_batches_tracked are as they were.
  std::size_t k = 0;
  for (const auto& [name, tensor] : model->named_buffers()) EXPECT_EQ(values(tensor), before[k++]) << name;
}

TEST(BatchNormUnderVmap, ReplaceAllBatchNormModulesRemovesRunningStatsAndThenEqualsTheLoop) {
  random::GeneratorScope seed(303);
  const auto model = linear_then_norm();
  EXPECT_EQ(&replace_all_batch_norm_modules(*model), model.get());
  EXPECT_TRUE(model->named_buffers().empty());
  const auto& norm = dynamic_cast<const BatchNorm1d&>(model->submodule("1"));
  EXPECT_FALSE(norm.track_running_stats());
  const Tensor x = normal_tensor({5, 6, 3}, 8);
  const PyFunction f = [&](const std::vector<PyTree>& args) { return PyTree((*model)(args[0].tensor())); };
  const Tensor batched = transforms::vmap(f)({PyTree(x)}).tensor();
  for (std::int64_t b = 0; b < 5; ++b) {
    // Each example is normalized by its own batch's statistics.
    expect_same(values(ops::select(batched, 0, b)), values((*model)(ops::select(x, 0, b))), 1e-14);
  }
  model->eval();  // without running statistics, evaluation mode also uses the batch's
  expect_same(values(transforms::vmap(f)({PyTree(x)}).tensor()), values(batched), 0);
}

TEST(BatchNormUnderVmap, EvaluationModeOnlyReadsTheRunningStatsAndEqualsTheLoop) {
  random::GeneratorScope seed(304);
  const auto model = linear_then_norm();
  (void)(*model)(normal_tensor({6, 3}, 9));  // some running statistics
  model->eval();
  const Tensor x = normal_tensor({5, 2, 3}, 10);
  const PyFunction f = [&](const std::vector<PyTree>& args) { return PyTree((*model)(args[0].tensor())); };
  const Tensor batched = transforms::vmap(f)({PyTree(x)}).tensor();
  for (std::int64_t b = 0; b < 5; ++b)
    expect_same(values(ops::select(batched, 0, b)), values((*model)(ops::select(x, 0, b))), 1e-14);
}

TEST(BatchNormUnderVmap, PerSampleGradientsInTrainingModeNeedTheRunningStatsRemoved) {
  random::GeneratorScope seed(305);
  const auto model = linear_then_norm();
  const PyTree params = state_dict_of(model->named_parameters());
  const Tensor x = normal_tensor({3, 4, 3}, 11);  // three examples, each a batch of 4
  const PyFunction loss = [&](const std::vector<PyTree>& args) {
    return PyTree(ops::sum(ops::tanh(functional_call(*model, args[0], args[1]).tensor())));
  };
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree::none(), 0});
  const PyFunction per_sample = transforms::vmap(transforms::grad(loss), options);
  expect_error_kind(ErrorKind::VmapInplaceUnbatched, [&] { (void)per_sample({params, PyTree(x)}); });
  replace_all_batch_norm_modules(*model);
  const PyTree grads = per_sample({params, PyTree(x)});
  for (std::int64_t b = 0; b < 3; ++b) {
    std::vector<PyTree> rows = grads.leaves();
    for (PyTree& row : rows) row = PyTree(ops::select(row.tensor(), 0, b));
    expect_trees_near(grads.with_leaves(rows), transforms::grad(loss)({params, PyTree(ops::select(x, 0, b))}), 1e-13);
  }
}

TEST(BatchNormUnderVmap, AnEnsembleWithStackedBuffersUpdatesEachModelsStatistics) {
  // Batched buffers take batched writes: vmap over stacked state updates model m's slice exactly as
  // calling model m updates its own buffers.
  random::GeneratorScope seed(306);
  std::vector<std::shared_ptr<Sequential>> models;
  for (int i = 0; i < 3; ++i) models.push_back(linear_then_norm());
  const StackedState state = stack_module_state(models);
  const std::shared_ptr<Module> base = models[0]->deepcopy();
  base->to(Device::Meta);
  const Tensor data = normal_tensor({6, 3}, 12);
  const PyFunction call = [&](const std::vector<PyTree>& args) {
    return functional_call(*base, PyTree::tuple({args[0], args[1]}), args[2]);
  };
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({0, 0, PyTree::none()});
  const Tensor out = transforms::vmap(call, options)({state.parameters, state.buffers, PyTree(data)}).tensor();
  for (std::size_t m = 0; m < models.size(); ++m) {
    SCOPED_TRACE(m);
    const auto index = static_cast<std::int64_t>(m);
    expect_same(values(ops::select(out, 0, index)), values((*models[m])(data)), 1e-14);
    for (const auto& [name, tensor] : models[m]->named_buffers())
      expect_same(values(ops::select(entry(state.buffers, name), 0, index)), values(tensor), 1e-15);
  }
  EXPECT_EQ(values(entry(state.buffers, "1.num_batches_tracked")), (std::vector<double>{1, 1, 1}));
}

}  // namespace
}  // namespace funcspec::modules
