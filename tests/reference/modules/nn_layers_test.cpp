// The convolutional and attention layers (Conv2d, MaxPool2d, Flatten, BatchNorm2d, GroupNorm,
// Embedding, MultiheadAttention): each layer against its op with the layer's own state, PyTorch's
// initialisation ranges and names, and the seeds' workflows on models built from them: per-sample
// gradients of a small convolutional network and of a transformer block through functional_call
// (equal to the loop over examples, and to finite differences in the oracle dtype), BatchNorm2d
// with its running statistics removed under vmap, and an ensemble of transformer blocks with
// stack_module_state (equal to the loop over models).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "reference/api/ops.h"
#include "reference/modules/activation.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/conv.h"
#include "reference/modules/embedding.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/group_norm.h"
#include "reference/modules/layer_norm.h"
#include "reference/modules/linear.h"
#include "reference/modules/multihead_attention.h"
#include "reference/modules/pooling.h"
#include "reference/modules/sequential.h"
#include "reference/modules/stack_module_state.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/modules/module_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::modules {
namespace {

using testing_support::expect_error_kind;
using testing_support::expect_same;
using testing_support::expect_trees_near;
using testing_support::kFloat64Options;
using testing_support::normal_tensor;
using testing_support::oracle_gradient;
using testing_support::values;
using transforms::PyFunction;

PyTree layer_parameters(const Module& m) { return state_dict_of(m.named_parameters()); }

std::vector<std::string> state_names(const NamedTensors& named) {
  std::vector<std::string> names;
  for (const auto& [name, tensor] : named) names.push_back(name);
  return names;
}

double largest_magnitude(const Tensor& t) {
  double m = 0;
  for (double v : values(t)) m = std::max(m, std::abs(v));
  return m;
}

TEST(NnLayers, Conv2dIsTheConv2dOpWithItsWeightAndBiasDrawnOnPyTorchsRange) {
  random::GeneratorScope seed(401);
  Conv2d conv(4, 6, {3, 2}, Conv2dOptions{{2, 1}, {1, 0}, {1, 2}, 2, true}, kFloat64Options);
  EXPECT_EQ(state_names(conv.named_parameters()), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_EQ(conv.parameter("weight").shape(), (Shape{6, 2, 3, 2}));
  // fan_in = 4 / 2 groups * 3 * 2 = 12: U(-1/sqrt(12), 1/sqrt(12)) for both.
  EXPECT_LE(largest_magnitude(conv.parameter("weight")), 1 / std::sqrt(12.0));
  EXPECT_LE(largest_magnitude(conv.parameter("bias")), 1 / std::sqrt(12.0));
  const Tensor x = normal_tensor({2, 4, 5, 6}, 1);
  const Tensor want = call_one("conv2d", {x, conv.parameter("weight"), conv.parameter("bias")},
                               {{"stride", std::vector<std::int64_t>{2, 1}},
                                {"padding", std::vector<std::int64_t>{1, 0}},
                                {"dilation", std::vector<std::int64_t>{1, 2}},
                                {"groups", std::int64_t{2}}});
  expect_same(values(conv(x)), values(want));
  expect_error_kind(ErrorKind::InvalidArgument, [] { Conv2d(3, 4, {1, 1}, Conv2dOptions{.groups = 2}); });
}

TEST(NnLayers, MaxPool2dStridesByItsKernelAndFlattenKeepsTheBatchDim) {
  const Tensor x = normal_tensor({2, 3, 4, 5}, 2);
  MaxPool2d pool({2, 2});
  const Tensor want =
      call_one("max_pool2d", {x},
               {{"kernel_size", std::vector<std::int64_t>{2, 2}}, {"stride", std::vector<std::int64_t>{2, 2}}});
  expect_same(values(pool(x)), values(want));
  EXPECT_EQ(pool(x).shape(), (Shape{2, 3, 2, 2}));
  EXPECT_TRUE(pool.named_parameters().empty());
  Flatten flatten;
  EXPECT_EQ(flatten(x).shape(), (Shape{2, 60}));
}

TEST(NnLayers, BatchNorm2dReducesOverTheBatchAndBothSpatialDims) {
  BatchNorm2d norm(2, {}, kFloat64Options);
  // Channel 0 holds 0..7 over N = 2, H = 2, W = 2; channel 1 holds twice that.
  std::vector<double> data;
  for (int n = 0; n < 2; ++n) {
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < 4; ++i) data.push_back((c + 1) * (n * 4 + i));
    }
  }
  const Tensor y = norm(from_vector(data, {2, 2, 2, 2}, DType::Float64));
  // Channel 0: mean 3.5, biased variance 5.25 (n = 8), unbiased 6.
  const double s0 = std::sqrt(5.25 + 1e-5);
  EXPECT_NEAR(values(y)[0], -3.5 / s0, 1e-14);
  expect_same(values(norm.buffer("running_mean")), {0.35, 0.7}, 1e-15);
  expect_same(values(norm.buffer("running_var")), {0.1 * 6 + 0.9, 0.1 * 24 + 0.9}, 1e-14);
  expect_error_kind(ErrorKind::ShapeMismatch, [&] { (void)norm(normal_tensor({2, 2, 3}, 3)); });
}

TEST(NnLayers, GroupNormIsTheGroupNormOpWithUnitWeightAndZeroBias) {
  GroupNorm norm(2, 4, 1e-5, true, kFloat64Options);
  EXPECT_EQ(values(norm.parameter("weight")), (std::vector<double>{1, 1, 1, 1}));
  const Tensor x = normal_tensor({3, 4, 5}, 4);
  const Tensor want = call_one("group_norm", {x, norm.parameter("weight"), norm.parameter("bias")},
                               {{"num_groups", std::int64_t{2}}, {"eps", 1e-5}});
  expect_same(values(norm(x)), values(want));
  expect_error_kind(ErrorKind::InvalidArgument, [] { GroupNorm(3, 4); });
}

TEST(NnLayers, EmbeddingStartsItsPaddingRowAtZeroAndReadsRows) {
  random::GeneratorScope seed(402);
  Embedding embedding(5, 3, -1, kFloat64Options);  // padding_idx -1 is row 4
  const std::vector<double> weight = values(embedding.parameter("weight"));
  expect_same(std::vector<double>(weight.begin() + 12, weight.end()), {0, 0, 0});
  const Tensor indices = from_vector(std::vector<std::int64_t>{2, 4, 2}, {3}, DType::Int64);
  const std::vector<double> rows = values(embedding(indices));
  expect_same(std::vector<double>(rows.begin(), rows.begin() + 3),
              std::vector<double>(weight.begin() + 6, weight.begin() + 9));
  expect_same(std::vector<double>(rows.begin() + 3, rows.begin() + 6), {0, 0, 0});
  expect_error_kind(ErrorKind::InvalidArgument, [] { Embedding(5, 3, 5); });
}

TEST(NnLayers, MultiheadAttentionHasPyTorchsStateNamesAndIsTheOp) {
  random::GeneratorScope seed(403);
  MultiheadAttention attention(4, 2, true, kFloat64Options);
  EXPECT_EQ(state_names(attention.named_parameters()),
            (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"}));
  // xavier_uniform_ on (12, 4): sqrt(6 / 16); the biases start at zero.
  EXPECT_LE(largest_magnitude(attention.parameter("in_proj_weight")), std::sqrt(6.0 / 16));
  EXPECT_EQ(largest_magnitude(attention.parameter("in_proj_bias")), 0);
  EXPECT_EQ(largest_magnitude(attention.state("out_proj.bias")), 0);
  const Tensor q = normal_tensor({3, 2, 4}, 5), kv = normal_tensor({5, 2, 4}, 6);
  const Tensor padding = from_vector(std::vector<std::int64_t>{0, 0, 1, 0, 0, 1, 0, 0, 0, 0}, {2, 5}, DType::Bool);
  const PyTree got =
      attention({PyTree(q), PyTree(kv), PyTree(kv)},
                PyTree::dict({{"key_padding_mask", PyTree(padding)}, {"average_attn_weights", PyTree(Scalar(false))}}));
  const TensorList want =
      call("multi_head_attention_forward",
           {q, kv, kv, attention.parameter("in_proj_weight"), attention.parameter("in_proj_bias"),
            attention.state("out_proj.weight"), attention.state("out_proj.bias"), padding, Tensor()},
           {{"num_heads", std::int64_t{2}}, {"average_attn_weights", false}});
  ASSERT_EQ(got.children().size(), 2u);
  expect_same(values(got.children()[0].tensor()), values(want[0]));
  expect_same(values(got.children()[1].tensor()), values(want[1]));
  EXPECT_EQ(got.children()[1].tensor().shape(), (Shape{2, 2, 3, 5}));
  expect_error_kind(ErrorKind::InvalidArgument, [&] { (void)attention({PyTree(q), PyTree(kv)}); });
  expect_error_kind(ErrorKind::InvalidArgument, [] { MultiheadAttention(6, 4); });
}

// A small convolutional network: conv, relu, max pool, group norm, flatten, linear.
std::shared_ptr<Sequential> conv_net() {
  return std::make_shared<Sequential>(std::vector<std::shared_ptr<Module>>{
      std::make_shared<Conv2d>(1, 4, Pair{3, 3}, Conv2dOptions{.padding = {1, 1}}, kFloat64Options),
      Activation::of("relu"), std::make_shared<MaxPool2d>(Pair{2, 2}),
      std::make_shared<GroupNorm>(2, 4, 1e-5, true, kFloat64Options), std::make_shared<Flatten>(),
      std::make_shared<Linear>(16, 3, true, kFloat64Options)});
}

// loss(params, x, t) for one example: the model on x with a batch dim of 1, mse against t.
PyFunction single_example_loss(Module& model) {
  return [&model](const std::vector<PyTree>& args) {
    const PyTree out = functional_call(model, args[0], PyTree(ops::unsqueeze(args[1].tensor(), 0)));
    return PyTree(ops::mse_loss(out.tensor(), ops::unsqueeze(args[2].tensor(), 0)));
  };
}

void expect_per_sample_gradients_equal_the_loop(Module& model, const Tensor& x, const Tensor& t,
                                                double oracle_tolerance) {
  const PyTree params = layer_parameters(model);
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree::none(), 0, 0});
  const PyFunction loss = single_example_loss(model);
  const PyTree per_sample = transforms::vmap(transforms::grad(loss), options)({params, PyTree(x), PyTree(t)});
  for (std::int64_t b = 0; b < x.size(0); ++b) {
    SCOPED_TRACE(b);
    const PyTree xb(ops::select(x, 0, b)), tb(ops::select(t, 0, b));
    const PyTree looped = transforms::grad(loss)({params, xb, tb});
    std::vector<PyTree> rows = per_sample.leaves();
    for (PyTree& row : rows) row = PyTree(ops::select(row.tensor(), 0, b));
    expect_trees_near(per_sample.with_leaves(rows), looped, 1e-13);
    if (b == 0) {
      const PyTree oracle_x(ops::to_dtype(xb.tensor(), DType::Oracle)),
          oracle_t(ops::to_dtype(tb.tensor(), DType::Oracle));
      expect_trees_near(looped,
                        oracle_gradient(
                            [&](const PyTree& at) {
                              return loss({at, oracle_x, oracle_t}).tensor();
                            },
                            params),
                        oracle_tolerance);
    }
  }
}

TEST(NnWorkflows, PerSampleGradientsOfAConvolutionalNetworkEqualTheLoopAndFiniteDifferences) {
  random::GeneratorScope seed(404);
  const auto model = conv_net();
  expect_per_sample_gradients_equal_the_loop(*model, normal_tensor({3, 1, 4, 4}, 7), normal_tensor({3, 3}, 8), 1e-10);
}

TEST(NnWorkflows, AConvolutionalNetworkWithBatchNorm2dNeedsItsRunningStatsRemovedUnderVmap) {
  random::GeneratorScope seed(405);
  const auto model = std::make_shared<Sequential>(std::vector<std::shared_ptr<Module>>{
      std::make_shared<Conv2d>(1, 2, Pair{2, 2}, Conv2dOptions{}, kFloat64Options),
      std::make_shared<BatchNorm2d>(2, BatchNormOptions{}, kFloat64Options), Activation::of("tanh"),
      std::make_shared<Flatten>(), std::make_shared<Linear>(18, 2, true, kFloat64Options)});
  const Tensor x = normal_tensor({3, 1, 4, 4}, 9), t = normal_tensor({3, 2}, 10);
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree::none(), 0, 0});
  // Training mode writes each example's statistics into the shared running buffers.
  expect_error_kind(ErrorKind::VmapInplaceUnbatched, [&] {
    (void)transforms::vmap(transforms::grad(single_example_loss(*model)),
                           options)({layer_parameters(*model), PyTree(x), PyTree(t)});
  });
  replace_all_batch_norm_modules(*model);
  EXPECT_TRUE(model->named_buffers().empty());
  // Each example then normalizes by its own statistics over its 3 x 3 positions.
  expect_per_sample_gradients_equal_the_loop(*model, x, t, 1e-9);
}

// A post-norm transformer encoder block over (L, N, E) tokens: embedding, self-attention with a
// residual and LayerNorm, a two-layer feed-forward with a residual and LayerNorm.
class TransformerBlock : public Module {
 public:
  TransformerBlock(std::int64_t vocabulary, std::int64_t E, std::int64_t heads) {
    register_module("embedding", std::make_shared<Embedding>(vocabulary, E, 0, kFloat64Options));
    register_module("attention", std::make_shared<MultiheadAttention>(E, heads, true, kFloat64Options));
    register_module("norm1",
                    std::make_shared<LayerNorm>(std::vector<std::int64_t>{E}, LayerNormOptions{}, kFloat64Options));
    register_module("feed_forward", make_mlp({E, 2 * E, E}, "relu", kFloat64Options));
    register_module("norm2",
                    std::make_shared<LayerNorm>(std::vector<std::int64_t>{E}, LayerNormOptions{}, kFloat64Options));
  }
  std::string_view type_name() const override { return "TransformerBlock"; }
  // tokens (L, N) int64 -> (L, N, E)
  PyTree forward(const std::vector<PyTree>& args, const PyTree& /*kwargs*/) override {
    const Tensor x = submodule("embedding")(args.at(0).tensor());
    const PyTree attended = submodule("attention")({PyTree(x), PyTree(x), PyTree(x)});
    const Tensor h = submodule("norm1")(ops::add(x, attended.children()[0].tensor()));
    return PyTree(submodule("norm2")(ops::add(h, submodule("feed_forward")(h))));
  }

 protected:
  TransformerBlock(const TransformerBlock&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new TransformerBlock(*this)); }
};

TEST(NnWorkflows, PerSampleGradientsOfATransformerBlockEqualTheLoopAndFiniteDifferences) {
  random::GeneratorScope seed(406);
  TransformerBlock block(6, 4, 2);
  // Three sequences of 3 tokens (token 0 pads), each an example with a batch dim of 1 inside.
  const Tensor tokens = from_vector(std::vector<std::int64_t>{1, 5, 0, 2, 2, 3, 4, 1, 5}, {3, 3, 1}, DType::Int64);
  const Tensor targets = normal_tensor({3, 3, 1, 4}, 11);
  const PyTree params = layer_parameters(block);
  const PyFunction loss = [&](const std::vector<PyTree>& args) {
    return PyTree(ops::mse_loss(functional_call(block, args[0], args[1]).tensor(), args[2].tensor()));
  };
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree::none(), 0, 0});
  const PyTree per_sample =
      transforms::vmap(transforms::grad(loss), options)({params, PyTree(tokens), PyTree(targets)});
  for (std::int64_t b = 0; b < 3; ++b) {
    SCOPED_TRACE(b);
    const PyTree looped =
        transforms::grad(loss)({params, PyTree(ops::select(tokens, 0, b)), PyTree(ops::select(targets, 0, b))});
    std::vector<PyTree> rows = per_sample.leaves();
    for (PyTree& row : rows) row = PyTree(ops::select(row.tensor(), 0, b));
    expect_trees_near(per_sample.with_leaves(rows), looped, 1e-13);
    if (b == 0) {
      // The padding row of the embedding gets no gradient (PyTorch's convention, SPEC OPS-18.2), where
      // finite differences see the row read like any other: the oracle's row 0 is zeroed to match.
      const std::vector<double> embedding_grad = values(testing_support::entry(looped, "embedding.weight"));
      expect_same(std::vector<double>(embedding_grad.begin(), embedding_grad.begin() + 4), {0, 0, 0, 0});
      const PyTree oracle_t(ops::to_dtype(ops::select(targets, 0, 0), DType::Oracle));
      const PyTree oracle = oracle_gradient(
          [&](const PyTree& at) {
            return loss({at, PyTree(ops::select(tokens, 0, 0)), oracle_t}).tensor();
          },
          params);
      std::vector<PyTree> leaves = oracle.leaves();  // embedding.weight is the first
      const Tensor not_padding = from_vector(std::vector<double>{0, 1, 1, 1, 1, 1}, {6, 1}, DType::Float64);
      leaves[0] = PyTree(ops::mul(leaves[0].tensor(), not_padding));
      expect_trees_near(looped, oracle.with_leaves(leaves), 1e-10);
    }
  }
}

TEST(NnWorkflows, AnEnsembleOfTransformerBlocksEqualsTheLoopOverTheModels) {
  random::GeneratorScope seed(407);
  std::vector<std::shared_ptr<TransformerBlock>> models;
  for (int i = 0; i < 3; ++i) models.push_back(std::make_shared<TransformerBlock>(6, 4, 2));
  const std::shared_ptr<Module> base = models[0]->deepcopy();
  base->to(Device::Meta);
  const auto [params, buffers] = stack_module_state(models);
  const Tensor tokens = from_vector(std::vector<std::int64_t>{1, 2, 3, 4, 5, 0}, {3, 2}, DType::Int64);
  const PyFunction call_one_model = [&](const std::vector<PyTree>& args) {
    return functional_call(*base, PyTree::tuple({args[0], args[1]}), PyTree::tuple({args[2]}));
  };
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({0, 0, PyTree::none()});
  const Tensor out = transforms::vmap(call_one_model, options)({params, buffers, PyTree(tokens)}).tensor();
  ASSERT_EQ(out.shape(), (Shape{3, 3, 2, 4}));
  for (int m = 0; m < 3; ++m) {
    expect_same(values(ops::select(out, 0, m)), values((*models[m])({PyTree(tokens)}).tensor()), 1e-13);
  }
}

}  // namespace
}  // namespace funcspec::modules
