// The module system: dotted state names, tied tensors, train/eval, meta modules, deepcopy, and
// each layer's forward against a loop written here.
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/core/storage.h"
#include "reference/modules/activation.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/dropout.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/layer_norm.h"
#include "reference/modules/linear.h"
#include "reference/modules/sequential.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/modules/module_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::modules {
namespace {

using testing_support::entry;
using testing_support::expect_error_kind;
using testing_support::kFloat64Options;
using testing_support::normal_tensor;
using testing_support::values;

std::vector<std::string> names_of(const NamedTensors& named) {
  std::vector<std::string> names;
  for (const auto& entry : named) names.push_back(entry.first);
  return names;
}

// A module whose registration functions are public, to test them directly.
class OpenModule : public Module {
 public:
  using Module::register_buffer;
  using Module::register_module;
  using Module::register_parameter;
  std::string_view type_name() const override { return "OpenModule"; }
  PyTree forward(const std::vector<PyTree>& args, const PyTree&) override { return args.at(0); }

 protected:
  std::shared_ptr<Module> shallow_copy() const override { return std::make_shared<OpenModule>(*this); }
};

// A net with named submodules: layers (an MLP) then norm (a BatchNorm1d).
class Net : public TensorModule {
 public:
  explicit Net(ModuleOptions options) {
    register_module("layers", make_mlp({3, 4, 2}, "tanh", options));
    register_module("norm", std::make_shared<BatchNorm1d>(2, BatchNormOptions{}, options));
  }
  std::string_view type_name() const override { return "Net"; }
  Tensor forward_tensor(const Tensor& x) override { return submodule("norm")(submodule("layers")(x)); }

 protected:
  Net(const Net&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new Net(*this)); }
};

// An autoencoder whose decoder reuses the encoder's weight (transposed): one tensor, two names.
class TiedAutoencoder : public TensorModule {
 public:
  explicit TiedAutoencoder(ModuleOptions options) {
    auto encoder = std::make_shared<Linear>(2, 3, true, options);
    register_parameter("decoder_weight", encoder->parameter("weight"));
    register_module("encoder", std::move(encoder));
  }
  std::string_view type_name() const override { return "TiedAutoencoder"; }
  Tensor forward_tensor(const Tensor& x) override {
    const Tensor hidden = ops::tanh(submodule("encoder")(x));
    return ops::matmul(hidden, parameter("decoder_weight"));
  }

 protected:
  TiedAutoencoder(const TiedAutoencoder&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new TiedAutoencoder(*this)); }
};

TEST(ModuleState, NamesAreDottedPathsInRegistrationOrder) {
  random::GeneratorScope seed(1);
  const Net net(kFloat64Options);
  EXPECT_EQ(names_of(net.named_parameters()),
            (std::vector<std::string>{"layers.0.weight", "layers.0.bias", "layers.2.weight", "layers.2.bias",
                                      "norm.weight", "norm.bias"}));
  EXPECT_EQ(names_of(net.named_buffers()),
            (std::vector<std::string>{"norm.running_mean", "norm.running_var", "norm.num_batches_tracked"}));
  EXPECT_EQ(net.state("layers.2.weight").shape(), (Shape{2, 4}));
  EXPECT_TRUE(net.state("layers.0.bias").is_same(net.submodule("layers").submodule("0").parameter("bias")));
  EXPECT_TRUE(net.has_state("norm.num_batches_tracked"));
  EXPECT_FALSE(net.has_state("norm.nothing"));
  EXPECT_FALSE(net.has_state("layers.1.weight"));  // the activation has no state
}

TEST(ModuleState, NamedModulesListsTheTreeDepthFirst) {
  Net net(kFloat64Options);
  std::vector<std::string> paths;
  for (const auto& [path, module] : net.named_modules()) paths.push_back(path + ":" + std::string(module->type_name()));
  EXPECT_EQ(paths, (std::vector<std::string>{":Net", "layers:Sequential", "layers.0:Linear", "layers.1:Tanh",
                                             "layers.2:Linear", "norm:BatchNorm1d"}));
}

TEST(ModuleState, ATiedTensorIsListedOnceUnlessEveryNameIsAskedFor) {
  const TiedAutoencoder model(kFloat64Options);
  EXPECT_EQ(names_of(model.named_parameters()), (std::vector<std::string>{"decoder_weight", "encoder.bias"}));
  EXPECT_EQ(names_of(model.named_parameters(false)),
            (std::vector<std::string>{"decoder_weight", "encoder.weight", "encoder.bias"}));
  EXPECT_TRUE(model.state("decoder_weight").is_same(model.state("encoder.weight")));
}

TEST(ModuleState, EmptySlotsHaveNoNameInTheState) {
  const Linear no_bias(3, 2, false, kFloat64Options);
  EXPECT_EQ(names_of(no_bias.named_parameters()), (std::vector<std::string>{"weight"}));
  EXPECT_FALSE(no_bias.parameter("bias").defined());
  EXPECT_FALSE(no_bias.has_state("bias"));
}

TEST(ModuleState, RegistrationRefusesEmptyDottedAndRepeatedNames) {
  OpenModule m;
  m.register_parameter("w", from_values({1}, {1}));
  expect_error_kind(ErrorKind::InvalidArgument, [&] { m.register_parameter("", from_values({1}, {1})); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { m.register_parameter("a.b", from_values({1}, {1})); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { m.register_buffer("w", from_values({1}, {1})); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { m.register_module("w", std::make_shared<OpenModule>()); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { m.register_module("child", nullptr); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { (void)m.state("missing"); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] { (void)m.submodule("missing"); });
}

TEST(ModuleState, SwapStateReplacesTheHandleAndReturnsThePreviousOne) {
  Linear model(3, 2, true, kFloat64Options);
  const Tensor own = model.parameter("weight");
  const Tensor other = normal_tensor({2, 3}, 5);
  const Tensor previous = model.swap_state("weight", other);
  EXPECT_TRUE(previous.is_same(own));
  EXPECT_TRUE(model.parameter("weight").is_same(other));
}

TEST(ModuleState, TrainAndEvalReachEverySubmodule) {
  Net net(kFloat64Options);
  EXPECT_TRUE(net.training());
  net.eval();
  for (const auto& [path, module] : net.named_modules()) EXPECT_FALSE(module->training()) << path;
  net.train();
  for (const auto& [path, module] : net.named_modules()) EXPECT_TRUE(module->training()) << path;
}

TEST(ModuleLayers, LinearIsTheProductWithTheTransposedWeightPlusBias) {
  random::GeneratorScope seed(2);
  Linear model(3, 2, true, kFloat64Options);
  const Tensor x = normal_tensor({4, 3}, 3);
  const std::vector<double> y = values(model(x));
  const std::vector<double> xs = values(x);
  const std::vector<double> w = values(model.parameter("weight"));
  const std::vector<double> b = values(model.parameter("bias"));
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 2; ++j) {
      double expected = b[j];
      for (std::size_t k = 0; k < 3; ++k) expected += xs[i * 3 + k] * w[j * 3 + k];
      EXPECT_NEAR(y[i * 2 + j], expected, 1e-15) << i << ", " << j;
    }
  }
}

TEST(ModuleLayers, LinearDrawsFromPyTorchsDefaultRangeAndFollowsTheSeed) {
  const auto build = [](std::uint64_t s) {
    random::GeneratorScope seed(s);
    return std::make_shared<Linear>(16, 8, true, kFloat64Options);
  };
  const auto a = build(7);
  const auto b = build(7);
  const auto c = build(8);
  const double bound = 1.0 / std::sqrt(16.0);  // kaiming_uniform(a=sqrt(5)) gives 1/sqrt(fan_in)
  for (const char* name : {"weight", "bias"}) {
    const std::vector<double> va = values(a->parameter(name));
    EXPECT_EQ(va, values(b->parameter(name))) << name;
    EXPECT_NE(va, values(c->parameter(name))) << name;
    double largest = 0;
    for (double v : va) {
      EXPECT_LE(std::abs(v), bound) << name;
      largest = std::max(largest, std::abs(v));
    }
    EXPECT_GT(largest, 0.5 * bound) << name << " does not spread over its range";
  }
  EXPECT_EQ(a->parameter("weight").dtype(), DType::Float64);
  EXPECT_EQ(Linear(2, 2).parameter("weight").dtype(), DType::Float32);  // PyTorch's default dtype
}

TEST(ModuleLayers, LayerNormNormalizesTheTrailingDimsWithTheBiasedVariance) {
  LayerNorm norm({4}, {}, kFloat64Options);
  const Tensor x = normal_tensor({2, 4}, 11);
  const Tensor weight = normal_tensor({4}, 12);
  const Tensor bias = normal_tensor({4}, 13);
  const Tensor y = functional_call(norm, PyTree::dict({{"weight", weight}, {"bias", bias}}), PyTree(x)).tensor();
  const std::vector<double> xs = values(x), w = values(weight), b = values(bias), ys = values(y);
  for (std::size_t row = 0; row < 2; ++row) {
    double mean = 0;
    for (std::size_t k = 0; k < 4; ++k) mean += xs[row * 4 + k] / 4;
    double variance = 0;
    for (std::size_t k = 0; k < 4; ++k) variance += (xs[row * 4 + k] - mean) * (xs[row * 4 + k] - mean) / 4;
    for (std::size_t k = 0; k < 4; ++k) {
      const double expected = (xs[row * 4 + k] - mean) / std::sqrt(variance + 1e-5) * w[k] + b[k];
      EXPECT_NEAR(ys[row * 4 + k], expected, 1e-14);
    }
  }
  EXPECT_EQ(values(norm.parameter("weight")), std::vector<double>(4, 1.0));  // torch.nn's initial scale and shift
  EXPECT_EQ(values(norm.parameter("bias")), std::vector<double>(4, 0.0));
  EXPECT_EQ(names_of(LayerNorm({4}, {1e-5, false}).named_parameters()), std::vector<std::string>{});
}

TEST(ModuleLayers, DropoutDropsOnlyInTrainingMode) {
  Dropout dropout(0.25);
  const Tensor x = ops::add(normal_tensor({200}, 21), ops::lit(5.0));  // no element is 0
  dropout.eval();
  EXPECT_TRUE(dropout(x).is_same(x));
  dropout.train();
  random::GeneratorScope seed(22);
  const std::vector<double> y = values(dropout(x));
  const std::vector<double> xs = values(x);
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (y[i] == 0) {
      ++dropped;
    } else {
      EXPECT_NEAR(y[i], xs[i] / 0.75, 1e-14);
    }
  }
  EXPECT_GT(dropped, 25u);  // 50 expected of 200
  EXPECT_LT(dropped, 80u);
  expect_error_kind(ErrorKind::InvalidArgument, [] { Dropout(1.5); });
}

TEST(ModuleLayers, DropoutUnderVmapObeysTheRandomnessFlag) {
  Dropout dropout(0.5);
  const Tensor x = ops::add(normal_tensor({3, 50}, 23), ops::lit(5.0));
  const transforms::PyFunction f = [&](const std::vector<PyTree>& args) { return PyTree(dropout(args[0].tensor())); };
  random::GeneratorScope seed(24);
  expect_error_kind(ErrorKind::VmapRandomness, [&] { (void)transforms::vmap(f)({PyTree(x)}); });
  transforms::VmapOptions same;
  same.randomness = transforms::Randomness::Same;
  const std::vector<double> y = values(transforms::vmap(f, same)({PyTree(x)}).tensor());
  for (std::size_t i = 0; i < 50; ++i) {  // one mask for every example
    EXPECT_EQ(y[i] == 0, y[50 + i] == 0) << i;
    EXPECT_EQ(y[i] == 0, y[100 + i] == 0) << i;
  }
  transforms::VmapOptions different;
  different.randomness = transforms::Randomness::Different;
  const std::vector<double> z = values(transforms::vmap(f, different)({PyTree(x)}).tensor());
  std::size_t disagreements = 0;  // independent masks: about half of the 50 positions differ
  for (std::size_t i = 0; i < 50; ++i) disagreements += (z[i] == 0) != (z[50 + i] == 0) ? 1 : 0;
  EXPECT_GT(disagreements, 5u);
  dropout.eval();  // nothing is drawn, so the default flag has nothing to refuse
  EXPECT_EQ(values(transforms::vmap(f)({PyTree(x)}).tensor()), values(x));
}

TEST(ModuleLayers, SequentialFeedsEachLayerThePreviousResult) {
  random::GeneratorScope seed(31);
  const auto mlp = make_mlp({3, 5, 2}, "relu", kFloat64Options);
  ASSERT_EQ(mlp->size(), 3u);
  const Tensor x = normal_tensor({4, 3}, 32);
  Module& first = mlp->submodule("0");
  Module& last = mlp->submodule("2");
  const Tensor expected = last(ops::relu(first(x)));
  EXPECT_EQ(values((*mlp)(x)), values(expected));
  EXPECT_EQ(mlp->submodule("1").type_name(), "ReLU");
  expect_error_kind(ErrorKind::InvalidArgument, [] { (void)make_mlp({3}); });
}

TEST(ModuleLayers, ForwardRefusesArgumentsItDoesNotTake) {
  Linear model(3, 2, true, kFloat64Options);
  const Tensor x = normal_tensor({1, 3}, 1);
  expect_error_kind(ErrorKind::InvalidArgument, [&] { (void)model({PyTree(x), PyTree(x)}); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] {
    (void)model({PyTree(x)}, PyTree::dict({{"scale", PyTree(x)}}));
  });
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { (void)model(normal_tensor({1, 4}, 1)); });
  expect_error_kind(ErrorKind::UnknownOp, [] { Activation("Nope", "no_such_op"); });
}

TEST(ModuleDevice, AModuleBuiltOnMetaAllocatesNothingAndInfersShapes) {
  const std::int64_t before = allocation_stats(Device::Cpu).allocations;
  Net net({DType::Float32, Device::Meta});
  EXPECT_EQ(allocation_stats(Device::Cpu).allocations, before);
  for (const auto& [name, tensor] : net.named_parameters()) {
    EXPECT_EQ(tensor.device(), Device::Meta) << name;
    EXPECT_FALSE(tensor.has_storage()) << name;
  }
  const Tensor y = net(Tensor::empty({5, 3}, DType::Float32, Device::Meta));
  EXPECT_EQ(y.device(), Device::Meta);
  EXPECT_EQ(y.shape(), (Shape{5, 2}));
}

TEST(ModuleDevice, ToMetaReleasesTheStorageAndKeepsTies) {
  auto model = std::make_shared<TiedAutoencoder>(ModuleOptions{});
  const std::int64_t live = allocation_stats(Device::Cpu).live_bytes;
  model->to(Device::Meta);
  // weight [3, 2] and bias [3] in float32: 36 bytes, and nothing else held them.
  EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes, live - 36);
  EXPECT_TRUE(model->state("decoder_weight").is_same(model->state("encoder.weight")));
  EXPECT_EQ(model->state("encoder.weight").shape(), (Shape{3, 2}));
  EXPECT_EQ(model->state("encoder.weight").device(), Device::Meta);
  expect_error_kind(ErrorKind::DataDependentOnMeta, [&] { model->to(Device::Cpu); });
  Linear on_cpu(2, 2);
  expect_error_kind(ErrorKind::InvalidArgument, [&] { on_cpu.to(Device::Cuda); });
}

TEST(ModuleCopy, DeepcopyHasItsOwnTensorsWithTheSameValuesAndTies) {
  random::GeneratorScope seed(41);
  TiedAutoencoder model(kFloat64Options);
  model.eval();
  const std::shared_ptr<Module> copy = model.deepcopy();
  EXPECT_EQ(copy->type_name(), "TiedAutoencoder");
  EXPECT_FALSE(copy->training());
  for (const auto& [name, tensor] : model.named_parameters(false)) {
    EXPECT_FALSE(copy->state(name).shares_storage_with(tensor)) << name;
    EXPECT_EQ(values(copy->state(name)), values(tensor)) << name;
  }
  EXPECT_TRUE(copy->state("decoder_weight").is_same(copy->state("encoder.weight")));
  const std::vector<double> original = values(model.state("encoder.bias"));
  ops::fill_(copy->state("encoder.bias"), 9.0);
  EXPECT_EQ(values(model.state("encoder.bias")), original);
}

}  // namespace
}  // namespace funcspec::modules
