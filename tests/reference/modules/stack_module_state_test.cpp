// stack_module_state and ensembling: the seeds' example (five Linear(3, 3) models, a batch of 64,
// vmap over functional_call on a meta copy of one model) against the loop over the models, the
// memory it holds, and models that do not stack.
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/core/storage.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/layer_norm.h"
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
using testing_support::expect_trees_near;
using testing_support::kFloat64Options;
using testing_support::normal_tensor;
using testing_support::values;
using transforms::PyFunction;

std::vector<std::shared_ptr<Linear>> linear_models(int count, std::int64_t in, std::int64_t out,
                                                   ModuleOptions options) {
  std::vector<std::shared_ptr<Linear>> models;
  for (int i = 0; i < count; ++i) models.push_back(std::make_shared<Linear>(in, out, true, options));
  return models;
}

transforms::VmapOptions in_dims(std::vector<PyTree> dims) {
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple(std::move(dims));
  return options;
}

TEST(StackModuleState, SeedEnsemblingEqualsTheLoopOverTheModels) {
  // num_models = 5; batch_size = 64; in_features, out_features = 3, 3
  // models = [torch.nn.Linear(in_features, out_features) for i in range(num_models)]
  // data = torch.randn(batch_size, 3)
  // base_model = copy.deepcopy(models[0]); base_model.to('meta')
  // params, buffers = torch.func.stack_module_state(models)
  // def call_single_model(params, buffers, data):
  //     return torch.func.functional_call(base_model, (params, buffers), (data,))
  // output = torch.vmap(call_single_model, (0, 0, None))(params, buffers, data)
  // assert output.shape == (num_models, batch_size, out_features)
  random::GeneratorScope seed(201);
  const int num_models = 5;
  const std::int64_t batch_size = 64, in_features = 3, out_features = 3;
  const auto models = linear_models(num_models, in_features, out_features, {});
  const Tensor data = ops::randn({batch_size, 3});
  const std::shared_ptr<Module> base_model = models[0]->deepcopy();
  base_model->to(Device::Meta);
  const auto [params, buffers] = stack_module_state(models);
  const PyFunction call_single_model = [&](const std::vector<PyTree>& args) {
    return functional_call(*base_model, PyTree::tuple({args[0], args[1]}), PyTree::tuple({args[2]}));
  };
  const Tensor output =
      transforms::vmap(call_single_model, in_dims({0, 0, PyTree::none()}))({params, buffers, PyTree(data)}).tensor();
  ASSERT_EQ(output.shape(), (Shape{num_models, batch_size, out_features}));
  for (const auto& [name, tensor] : base_model->named_parameters()) {  // its own again: meta, no batched wrapper
    EXPECT_EQ(tensor.device(), Device::Meta) << name;
    EXPECT_EQ(tensor.payload(), nullptr) << name;
  }
  for (int m = 0; m < num_models; ++m)
    testing_support::expect_same(values(ops::select(output, 0, m)), values((*models[m])(data)), 1e-6);
}

TEST(StackModuleState, SeedEnsemblingWithAMinibatchPerModelEqualsTheLoop) {
  random::GeneratorScope seed(202);
  const auto models = linear_models(5, 3, 3, kFloat64Options);
  const Tensor minibatches = normal_tensor({5, 64, 3}, 1);
  const auto meta_base = std::make_shared<Linear>(3, 3, true, ModuleOptions{DType::Float64, Device::Meta});
  const StackedState state = stack_module_state(models);
  const PyFunction call = [&](const std::vector<PyTree>& args) {
    return functional_call(*meta_base, PyTree::tuple({args[0], args[1]}), args[2]);
  };
  const Tensor output =
      transforms::vmap(call, in_dims({0, 0, 0}))({state.parameters, state.buffers, PyTree(minibatches)}).tensor();
  for (int m = 0; m < 5; ++m) {
    testing_support::expect_same(values(ops::select(output, 0, m)),
                                 values((*models[static_cast<std::size_t>(m)])(ops::select(minibatches, 0, m))), 1e-15);
  }
}

TEST(StackModuleState, StacksEachNameAlongANewDim0) {
  random::GeneratorScope seed(203);
  std::vector<std::shared_ptr<Sequential>> models;
  for (int i = 0; i < 3; ++i) {
    models.push_back(std::make_shared<Sequential>(
        std::vector<std::shared_ptr<Module>>{std::make_shared<Linear>(2, 4, true, kFloat64Options),
                                             std::make_shared<BatchNorm1d>(4, BatchNormOptions{}, kFloat64Options)}));
    ops::fill_(models.back()->state("1.running_mean"), static_cast<double>(i));
  }
  const StackedState state = stack_module_state(models);
  EXPECT_EQ(state.parameters.keys(), (std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias"}));
  EXPECT_EQ(state.buffers.keys(),
            (std::vector<std::string>{"1.running_mean", "1.running_var", "1.num_batches_tracked"}));
  EXPECT_EQ(entry(state.parameters, "0.weight").shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(entry(state.buffers, "1.num_batches_tracked").shape(), (Shape{3}));
  EXPECT_EQ(entry(state.buffers, "1.num_batches_tracked").dtype(), DType::Int64);
  for (int m = 0; m < 3; ++m) {
    for (const auto& [name, tensor] : models[static_cast<std::size_t>(m)]->named_parameters())
      EXPECT_EQ(values(ops::select(entry(state.parameters, name), 0, m)), values(tensor)) << name;
    EXPECT_EQ(values(ops::select(entry(state.buffers, "1.running_mean"), 0, m)), std::vector<double>(4, m));
  }
  // The stack is a copy: the models' tensors are not its storage.
  EXPECT_FALSE(entry(state.parameters, "0.weight").shares_storage_with(models[0]->state("0.weight")));
}

TEST(StackModuleState, StackedStateAndAMetaBaseModelHoldOneCopyOfTheParameters) {
  const Tensor data = normal_tensor({64, 3}, 2, DType::Float32);
  const std::int64_t before_models = allocation_stats(Device::Cpu).live_bytes;
  auto models = linear_models(5, 3, 3, {});
  const std::int64_t one_copy = 5 * (3 * 3 + 3) * 4;  // five models' weight and bias in float32
  EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes - before_models, one_copy);
  const StackedState state = stack_module_state(models);
  EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes - before_models, 2 * one_copy);
  const std::shared_ptr<Module> base = models[0]->deepcopy();
  base->to(Device::Meta);
  // The models themselves are no longer needed: what remains is the stack, and a base without storage.
  models.clear();
  EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes - before_models, one_copy);
  const std::int64_t allocations = allocation_stats(Device::Cpu).allocations;
  Linear meta_model(3, 3, true, {DType::Float32, Device::Meta});
  EXPECT_EQ(allocation_stats(Device::Cpu).allocations, allocations);  // a meta model allocates nothing
  const PyFunction call = [&](const std::vector<PyTree>& args) {
    return functional_call(*base, PyTree::tuple({args[0], args[1]}), args[2]);
  };
  const Tensor output =
      transforms::vmap(call, in_dims({0, 0, PyTree::none()}))({state.parameters, state.buffers, PyTree(data)}).tensor();
  EXPECT_EQ(output.shape(), (Shape{5, 64, 3}));
  EXPECT_EQ(output.device(), Device::Cpu);
}

TEST(StackModuleState, EnsembleGradientsEqualTheLoopOverTheModels) {
  random::GeneratorScope seed(204);
  std::vector<std::shared_ptr<Sequential>> models;
  for (int i = 0; i < 4; ++i) models.push_back(make_mlp({3, 5, 2}, "tanh", kFloat64Options));
  const Tensor x = normal_tensor({8, 3}, 3);
  const Tensor t = normal_tensor({8, 2}, 4);
  const std::shared_ptr<Module> base = models[0]->deepcopy();
  base->to(Device::Meta);
  const PyFunction loss = [&](const std::vector<PyTree>& args) {
    return PyTree(ops::mse_loss(functional_call(*base, args[0], args[1]).tensor(), args[2].tensor()));
  };
  const StackedState state = stack_module_state(models);
  const PyTree grads = transforms::vmap(
      transforms::grad(loss), in_dims({0, PyTree::none(), PyTree::none()}))({state.parameters, PyTree(x), PyTree(t)});
  for (std::size_t m = 0; m < models.size(); ++m) {
    SCOPED_TRACE(m);
    const PyTree own = state_dict_of(models[m]->named_parameters());
    const PyTree looped = transforms::grad(loss)({own, PyTree(x), PyTree(t)});
    std::vector<PyTree> rows = grads.leaves();
    for (PyTree& row : rows) row = PyTree(ops::select(row.tensor(), 0, static_cast<std::int64_t>(m)));
    expect_trees_near(grads.with_leaves(rows), looped, 1e-14);
  }
}

TEST(StackModuleState, ModelsThatDoNotMatchAreModuleStructureMismatch) {
  const auto check = [](const std::vector<const Module*>& models) {
    expect_error_kind(ErrorKind::ModuleStructureMismatch, [&] { (void)stack_module_state(models); });
  };
  const Linear a(3, 3), no_bias(3, 3, false), wider(3, 4), in_float64(3, 3, true, kFloat64Options);
  const LayerNorm norm({3});
  check({&a, &no_bias});     // names
  check({&a, &wider});       // shapes
  check({&a, &in_float64});  // dtypes
  check({&a, &norm});        // classes
  Linear evaluating(3, 3);
  evaluating.eval();
  check({&a, &evaluating});  // modes
  expect_error_kind(ErrorKind::InvalidArgument, [] { (void)stack_module_state(std::vector<const Module*>{}); });
  const StackedState one = stack_module_state(std::vector<const Module*>{&a});
  EXPECT_EQ(entry(one.parameters, "weight").shape(), (Shape{1, 3, 3}));
}

}  // namespace
}  // namespace funcspec::modules
