// functional_call: the seeds' examples (a Linear's output, grad of an mse loss with respect to the
// parameter dict, jacrev with argnums=1, per-sample gradients), the module's tensors left alone,
// weight tying, every error kind, and composition with each transform, each against an oracle
// computed without the transform (loops, finite differences in the oracle dtype, hand values).
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/ops.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/linear.h"
#include "reference/modules/sequential.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/modules/module_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::modules {
namespace {

using testing_support::converted;
using testing_support::entry;
using testing_support::expect_error_kind;
using testing_support::expect_trees_near;
using testing_support::kFloat64Options;
using testing_support::normal_tensor;
using testing_support::oracle_gradient;
using testing_support::values;
using transforms::PyFunction;

PyTree params_of(const Module& m) { return state_dict_of(m.named_parameters()); }
PyTree buffers_of(const Module& m) { return state_dict_of(m.named_buffers()); }

// The module's state handles, to check that nothing replaced or wrote them.
struct StateSnapshot {
  explicit StateSnapshot(const Module& m) : module(m) {
    for (const NamedTensors& named : {m.named_parameters(false), m.named_buffers(false)}) {
      for (const auto& [name, tensor] : named) entries.push_back({name, tensor, values(tensor)});
    }
  }
  void expect_unchanged() const {
    for (const auto& e : entries) {
      EXPECT_TRUE(module.state(e.name).is_same(e.handle)) << e.name << " was replaced";
      EXPECT_EQ(values(module.state(e.name)), e.values) << e.name << " was written";
    }
  }
  struct Entry {
    std::string name;
    Tensor handle;
    std::vector<double> values;
  };
  const Module& module;
  std::vector<Entry> entries;
};

// A module with a keyword argument: linear(x) * scale.
class ScaledLinear : public Module {
 public:
  ScaledLinear() { register_module("linear", std::make_shared<Linear>(3, 2, true, kFloat64Options)); }
  std::string_view type_name() const override { return "ScaledLinear"; }
  PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) override {
    const Tensor y = submodule("linear")(args.at(0).tensor());
    return PyTree(ops::mul(y, entry(kwargs, "scale")));
  }

 protected:
  ScaledLinear(const ScaledLinear&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new ScaledLinear(*this)); }
};

// Two names for one tensor: the decoder reuses the encoder's weight.
class TiedPair : public TensorModule {
 public:
  TiedPair() {
    auto encoder = std::make_shared<Linear>(2, 3, false, kFloat64Options);
    register_parameter("decoder_weight", encoder->parameter("weight"));
    register_module("encoder", std::move(encoder));
  }
  std::string_view type_name() const override { return "TiedPair"; }
  Tensor forward_tensor(const Tensor& x) override {
    return ops::matmul(submodule("encoder")(x), parameter("decoder_weight"));
  }

 protected:
  TiedPair(const TiedPair&) = default;
  std::shared_ptr<Module> shallow_copy() const override { return std::shared_ptr<Module>(new TiedPair(*this)); }
};

// x @ a^T @ b by loops, for [n, 2] x, [3, 2] a and [3, 2] b: the tied pair's oracle.
std::vector<double> encode_decode(const Tensor& x, const Tensor& a, const Tensor& b) {
  const std::vector<double> xs = values(x), as = values(a), bs = values(b);
  const std::size_t n = xs.size() / 2;
  std::vector<double> out(n * 2, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t h = 0; h < 3; ++h) {
      const double hidden = xs[i * 2] * as[h * 2] + xs[i * 2 + 1] * as[h * 2 + 1];
      for (std::size_t o = 0; o < 2; ++o) out[i * 2 + o] += hidden * bs[h * 2 + o];
    }
  }
  return out;
}

TEST(FunctionalCall, SeedLinearGivesTheModulesOwnOutputForItsOwnParameters) {
  // x = randn(4, 3); model = nn.Linear(3, 3); params = dict(model.named_parameters());
  // y = functional_call(model, params, x); assert allclose(y, model(x))
  random::GeneratorScope seed(101);
  const Tensor x = ops::randn({4, 3});
  Linear model(3, 3);
  const PyTree params = params_of(model);
  const Tensor y = functional_call(model, params, PyTree(x)).tensor();
  EXPECT_EQ(values(y), values(model(x)));
}

TEST(FunctionalCall, RunsWithTheGivenTensorsAndLeavesTheModulesOwnAlone) {
  random::GeneratorScope seed(102);
  Linear model(3, 2, true, kFloat64Options);
  const StateSnapshot snapshot(model);
  const Tensor w = normal_tensor({2, 3}, 1);
  const Tensor b = normal_tensor({2}, 2);
  const Tensor x = normal_tensor({5, 3}, 3);
  const Tensor y = functional_call(model, PyTree::dict({{"weight", w}, {"bias", b}}), PyTree(x)).tensor();
  const std::vector<double> xs = values(x), ws = values(w), bs = values(b), ys = values(y);
  for (std::size_t i = 0; i < 5; ++i) {
    for (std::size_t j = 0; j < 2; ++j) {
      double expected = bs[j];
      for (std::size_t k = 0; k < 3; ++k) expected += xs[i * 3 + k] * ws[j * 3 + k];
      EXPECT_NEAR(ys[i * 2 + j], expected, 1e-15);
    }
  }
  snapshot.expect_unchanged();
}

TEST(FunctionalCall, PutsTheModulesTensorsBackWhenForwardThrows) {
  Linear model(3, 2, true, kFloat64Options);
  const StateSnapshot snapshot(model);
  const PyTree state = PyTree::dict({{"weight", normal_tensor({2, 3}, 1)}});
  expect_error_kind(ErrorKind::ShapeMismatch, [&] {
    (void)functional_call(model, state, PyTree(normal_tensor({5, 4}, 3)));
  });
  snapshot.expect_unchanged();
}

TEST(FunctionalCall, ANameNotGivenKeepsTheModulesOwnTensorUnlessStrict) {
  random::GeneratorScope seed(103);
  Linear model(3, 2, true, kFloat64Options);
  const Tensor w = normal_tensor({2, 3}, 4);
  const Tensor x = normal_tensor({5, 3}, 5);
  const PyTree only_weight = PyTree::dict({{"weight", w}});
  const Tensor y = functional_call(model, only_weight, PyTree(x)).tensor();
  EXPECT_EQ(values(y), values(ops::linear(x, w, model.parameter("bias"))));
  expect_error_kind(ErrorKind::ModuleStateMismatch,
                    [&] { (void)functional_call(model, only_weight, PyTree(x), PyTree::dict({}), {.strict = true}); });
}

TEST(FunctionalCall, ATupleOfDictsIsOneStateAndArgsAndKwargsReachForward) {
  random::GeneratorScope seed(104);
  ScaledLinear model;
  const Tensor x = normal_tensor({4, 3}, 6);
  const Tensor scale = from_values({2.0, -1.0}, {2});
  const PyTree weight = PyTree::dict({{"linear.weight", normal_tensor({2, 3}, 7)}});
  const PyTree bias = PyTree::dict({{"linear.bias", normal_tensor({2}, 8)}});
  const Tensor y = functional_call(model, PyTree::tuple({weight, bias}), PyTree::tuple({x}),
                                   PyTree::dict({{"scale", scale}}), {.strict = true})
                       .tensor();
  const Tensor expected = ops::mul(ops::linear(x, entry(weight, "linear.weight"), entry(bias, "linear.bias")), scale);
  EXPECT_EQ(values(y), values(expected));
}

TEST(FunctionalCall, WritesForwardMakesIntoItsStateReachTheCallersTensors) {
  BatchNorm1d norm(2, {}, kFloat64Options);
  const StateSnapshot snapshot(norm);
  const Tensor x = from_values({1, 2, 3, 6, 5, 10}, {3, 2});
  const PyTree own = buffers_of(norm);
  std::vector<PyTree> copies = own.leaves();
  for (PyTree& leaf : copies) leaf = PyTree(ops::clone(leaf.tensor()));
  const PyTree buffers = own.with_leaves(copies);  // copies the caller owns
  (void)functional_call(norm, PyTree::tuple({params_of(norm), buffers}), PyTree(x));
  // Batch means [3, 6] blended into zeros with momentum 0.1 (batch_norm_test works the rest).
  testing_support::expect_same(values(entry(buffers, "running_mean")), {0.3, 0.6}, 1e-15);
  EXPECT_EQ(values(entry(buffers, "num_batches_tracked")), std::vector<double>{1});
  snapshot.expect_unchanged();
}

TEST(FunctionalCallErrors, NamesTheModuleDoesNotHaveAreModuleStateMismatch) {
  Linear model(3, 2, true, kFloat64Options);
  const StateSnapshot snapshot(model);
  const PyTree x(normal_tensor({1, 3}, 1));
  const PyTree misspelt = PyTree::dict({{"weight", normal_tensor({2, 3}, 1)}, {"bais", normal_tensor({2}, 2)}});
  try {
    (void)functional_call(model, misspelt, x);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ModuleStateMismatch);
    EXPECT_NE(std::string(e.what()).find("'bais'"), std::string::npos) << e.what();
  }
  try {
    (void)functional_call(model, PyTree::dict({}), x, PyTree::dict({}), {.strict = true});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::ModuleStateMismatch);
    EXPECT_NE(std::string(e.what()).find("missing name(s) 'weight', 'bias'"), std::string::npos) << e.what();
  }
  snapshot.expect_unchanged();
}

TEST(FunctionalCallErrors, AShapeOtherThanTheModulesIsModuleStateMismatch) {
  Linear model(3, 2, true, kFloat64Options);
  const StateSnapshot snapshot(model);
  expect_error_kind(ErrorKind::ModuleStateMismatch, [&] {
    (void)functional_call(model, PyTree::dict({{"weight", normal_tensor({3, 3}, 1)}}),
                          PyTree(normal_tensor({1, 3}, 1)));
  });
  snapshot.expect_unchanged();
}

TEST(FunctionalCallErrors, ANameInTwoDictsIsModuleStateConflict) {
  Linear model(3, 2, true, kFloat64Options);
  const StateSnapshot snapshot(model);
  const PyTree a = PyTree::dict({{"weight", normal_tensor({2, 3}, 1)}});
  const PyTree b = PyTree::dict({{"bias", normal_tensor({2}, 2)}, {"weight", normal_tensor({2, 3}, 3)}});
  expect_error_kind(ErrorKind::ModuleStateConflict, [&] {
    (void)functional_call(model, PyTree::tuple({a, b}), PyTree(normal_tensor({1, 3}, 1)));
  });
  snapshot.expect_unchanged();
}

TEST(FunctionalCallErrors, StateThatIsNotDictsOfTensorsIsRefused) {
  Linear model(3, 2, true, kFloat64Options);
  const PyTree x(normal_tensor({1, 3}, 1));
  expect_error_kind(ErrorKind::InvalidArgument,
                    [&] { (void)functional_call(model, PyTree(normal_tensor({2}, 1)), x); });
  expect_error_kind(ErrorKind::InvalidArgument, [&] {
    (void)functional_call(model, PyTree::tuple({PyTree::dict({}), PyTree(1)}), x);
  });
  expect_error_kind(ErrorKind::ModuleStateMismatch, [&] {
    (void)functional_call(model, PyTree::dict({{"weight", PyTree(2)}}), x);
  });
  expect_error_kind(ErrorKind::InvalidArgument,
                    [&] { (void)functional_call(model, PyTree::dict({}), x, PyTree::tuple({})); });
}

TEST(FunctionalCallTies, ATensorGivenForOneTiedNameIsUsedForAll) {
  random::GeneratorScope seed(105);
  TiedPair model;
  const Tensor own = model.state("encoder.weight");
  const Tensor w = normal_tensor({3, 2}, 9);
  const Tensor x = normal_tensor({4, 2}, 10);
  // The dict named_parameters gives lists the tensor once; strict accepts it, since tying fills in
  // the other name.
  EXPECT_EQ(model.named_parameters().size(), 1u);
  const PyTree by_encoder = PyTree::dict({{"encoder.weight", w}});
  EXPECT_EQ(values(functional_call(model, by_encoder, PyTree(x), PyTree::dict({}), {.strict = true}).tensor()),
            encode_decode(x, w, w));
  EXPECT_EQ(values(functional_call(model, PyTree::dict({{"decoder_weight", w}}), PyTree(x)).tensor()),
            encode_decode(x, w, w));
  // Without tying, the other name keeps the module's tensor.
  EXPECT_EQ(values(functional_call(model, by_encoder, PyTree(x), PyTree::dict({}), {.tie_weights = false}).tensor()),
            encode_decode(x, w, own));
  // The same handle under both names is one value; two different tensors are a conflict.
  const PyTree both_same = PyTree::dict({{"encoder.weight", w}, {"decoder_weight", w}});
  EXPECT_EQ(values(functional_call(model, both_same, PyTree(x)).tensor()), encode_decode(x, w, w));
  const PyTree both_differ = PyTree::dict({{"encoder.weight", w}, {"decoder_weight", ops::clone(w)}});
  expect_error_kind(ErrorKind::ModuleStateConflict, [&] { (void)functional_call(model, both_differ, PyTree(x)); });
  const Tensor v = normal_tensor({3, 2}, 11);
  const PyTree untied = PyTree::dict({{"encoder.weight", w}, {"decoder_weight", v}});
  EXPECT_EQ(values(functional_call(model, untied, PyTree(x), PyTree::dict({}), {.tie_weights = false}).tensor()),
            encode_decode(x, w, v));
  EXPECT_TRUE(model.state("decoder_weight").is_same(own));
  EXPECT_TRUE(model.state("encoder.weight").is_same(own));
}

// --- composition with the transforms ---

TEST(FunctionalCallTransforms, SeedGradOfAnMseLossEqualsFiniteDifferencesInTheOracleDtype) {
  // inputs = randn(64, 3); targets = randn(64, 3); model = nn.Linear(3, 3)
  // params = dict(model.named_parameters())
  // def compute_loss(params, inputs, targets):
  //     prediction = functional_call(model, params, (inputs,))
  //     return mse_loss(prediction, targets)
  // grads = grad(compute_loss)(params, inputs, targets)
  random::GeneratorScope seed(106);
  const Tensor inputs = ops::randn({64, 3});
  const Tensor targets = ops::randn({64, 3});
  Linear model(3, 3);
  const PyTree params = params_of(model);
  const PyFunction compute_loss = [&](const std::vector<PyTree>& args) {
    const Tensor prediction = functional_call(model, args[0], PyTree::tuple({args[1]})).tensor();
    return PyTree(ops::mse_loss(prediction, args[2].tensor()));
  };
  const StateSnapshot snapshot(model);
  const PyTree grads = transforms::grad(compute_loss)({params, PyTree(inputs), PyTree(targets)});
  snapshot.expect_unchanged();
  ASSERT_EQ(grads.keys(), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_EQ(entry(grads, "weight").dtype(), DType::Float32);
  const Tensor oracle_inputs = ops::to_dtype(inputs, DType::Oracle);
  const Tensor oracle_targets = ops::to_dtype(targets, DType::Oracle);
  const PyTree expected = oracle_gradient(
      [&](const PyTree& at) {
        return ops::mse_loss(functional_call(model, at, PyTree(oracle_inputs)).tensor(), oracle_targets);
      },
      params);
  expect_trees_near(grads, expected, 1e-5);  // float32 arithmetic against exact derivatives
}

TEST(FunctionalCallTransforms, SeedJacrevWithArgnums1IsTheJacobianOfEachParameter) {
  // jacobians = jacrev(functional_call, argnums=1)(model, params, (inputs,)); the module is not a
  // pytree, so argument 0 stands for it here.
  random::GeneratorScope seed(107);
  const Tensor inputs = ops::randn({64, 3});
  Linear model(3, 3);
  const PyTree params = params_of(model);
  const PyFunction call = [&](const std::vector<PyTree>& args) { return functional_call(model, args[1], args[2]); };
  const StateSnapshot snapshot(model);
  transforms::JacrevOptions reverse;
  reverse.argnums = transforms::Argnums::one(1);
  transforms::JacfwdOptions forward;
  forward.argnums = transforms::Argnums::one(1);
  const std::vector<PyTree> args{PyTree::none(), params, PyTree::tuple({inputs})};
  for (const PyTree& jacobians : {transforms::jacrev(call, reverse)(args), transforms::jacfwd(call, forward)(args)}) {
    // y[i, j] = sum_l x[i, l] w[j, l] + b[j]: dy[i, j]/dw[k, l] = (j == k) x[i, l], dy[i, j]/db[k] = (j == k).
    const Tensor& jw = entry(jacobians, "weight");
    const Tensor& jb = entry(jacobians, "bias");
    ASSERT_EQ(jw.shape(), (Shape{64, 3, 3, 3}));
    ASSERT_EQ(jb.shape(), (Shape{64, 3, 3}));
    const std::vector<double> x = values(inputs), w = values(jw), b = values(jb);
    for (std::size_t i = 0; i < 64; ++i) {
      for (std::size_t j = 0; j < 3; ++j) {
        for (std::size_t k = 0; k < 3; ++k) {
          EXPECT_EQ(b[(i * 3 + j) * 3 + k], j == k ? 1.0 : 0.0);
          for (std::size_t l = 0; l < 3; ++l)
            EXPECT_EQ(w[((i * 3 + j) * 3 + k) * 3 + l], j == k ? x[i * 3 + l] : 0.0) << i << j << k << l;
        }
      }
    }
  }
  snapshot.expect_unchanged();
}

// The loss of one example through an MLP: the per-sample gradient's function.
PyFunction example_loss(Module& model) {
  return [&model](const std::vector<PyTree>& args) {
    const Tensor prediction = functional_call(model, args[0], PyTree(ops::unsqueeze(args[1].tensor(), 0))).tensor();
    return PyTree(ops::mse_loss(prediction, ops::unsqueeze(args[2].tensor(), 0)));
  };
}

TEST(FunctionalCallTransforms, PerSampleGradientsEqualTheLoopOverTheBatch) {
  // vmap(grad(compute_loss), in_dims=(None, 0, 0))(params, x, t): one gradient per example.
  random::GeneratorScope seed(108);
  const auto model = make_mlp({3, 4, 2}, "tanh", kFloat64Options);
  const PyTree params = params_of(*model);
  const Tensor x = normal_tensor({6, 3}, 12);
  const Tensor t = normal_tensor({6, 2}, 13);
  transforms::VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree::none(), 0, 0});
  const PyTree per_sample =
      transforms::vmap(transforms::grad(example_loss(*model)), options)({params, PyTree(x), PyTree(t)});
  for (std::int64_t b = 0; b < 6; ++b) {
    SCOPED_TRACE(b);
    const PyTree xb(ops::select(x, 0, b));
    const PyTree tb(ops::select(t, 0, b));
    const PyTree looped = transforms::grad(example_loss(*model))({params, xb, tb});
    std::vector<PyTree> rows = per_sample.leaves();
    for (PyTree& row : rows) row = PyTree(ops::select(row.tensor(), 0, b));
    expect_trees_near(per_sample.with_leaves(rows), looped, 1e-14);
    if (b == 0) {
      const PyTree oracle_x(ops::to_dtype(xb.tensor(), DType::Oracle));
      const PyTree oracle_t(ops::to_dtype(tb.tensor(), DType::Oracle));
      const PyFunction loss = example_loss(*model);
      expect_trees_near(looped,
                        oracle_gradient(
                            [&](const PyTree& at) {
                              return loss({at, oracle_x, oracle_t}).tensor();
                            },
                            params),
                        1e-12);
    }
  }
}

TEST(FunctionalCallTransforms, JvpAlongAParameterDirectionEqualsFiniteDifferencesInTheOracleDtype) {
  random::GeneratorScope seed(109);
  const auto model = make_mlp({3, 4, 2}, "tanh", kFloat64Options);
  const PyTree params = params_of(*model);
  const Tensor x = normal_tensor({5, 3}, 14);
  std::vector<PyTree> directions = params.leaves();
  for (std::size_t k = 0; k < directions.size(); ++k)
    directions[k] = PyTree(normal_tensor(directions[k].tensor().shape(), 20 + k));
  const PyTree direction = params.with_leaves(directions);
  const PyFunction f = [&](const std::vector<PyTree>& args) { return functional_call(*model, args[0], PyTree(x)); };
  const transforms::JvpResult r = transforms::jvp(f, {params}, {direction});
  // (f(p + h u) - f(p - h u)) / 2h in the oracle dtype.
  const double h = 1e-20;
  const PyTree oracle_params = converted(params, DType::Oracle);
  const PyTree oracle_direction = converted(direction, DType::Oracle);
  const auto moved = [&](double step) {
    std::vector<PyTree> leaves = oracle_params.leaves();
    const std::vector<PyTree> u = oracle_direction.leaves();
    for (std::size_t k = 0; k < leaves.size(); ++k)
      leaves[k] = PyTree(ops::add(leaves[k].tensor(), ops::mul(u[k].tensor(), ops::lit(step))));
    return functional_call(*model, oracle_params.with_leaves(leaves), PyTree(ops::to_dtype(x, DType::Oracle))).tensor();
  };
  const Tensor expected = ops::div(ops::sub(moved(h), moved(-h)), ops::lit(2 * h));
  testing_support::expect_same(values(r.tangent.tensor()), values(expected), 1e-13);
  EXPECT_EQ(values(r.output.tensor()), values((*model)(x)));
}

TEST(FunctionalCallTransforms, HessianWithRespectToTheParameterDictEqualsSecondDifferencesInTheOracleDtype) {
  random::GeneratorScope seed(110);
  Linear model(2, 1, true, kFloat64Options);
  const PyTree params = params_of(model);
  const Tensor x = normal_tensor({4, 2}, 15);
  const auto loss_at = [&](const PyTree& p, const Tensor& input) {
    return ops::sum(ops::square(ops::tanh(functional_call(model, p, PyTree(input)).tensor())));
  };
  const PyFunction loss = [&](const std::vector<PyTree>& args) { return PyTree(loss_at(args[0], x)); };
  const PyTree hessian = transforms::hessian(loss)({params});
  // hessian[a][b] has shape a.shape + b.shape; flatten it to the 3 x 3 matrix over (w0, w1, b).
  const std::vector<std::string> names{"weight", "bias"};
  std::vector<double> got;
  for (const std::string& a : names) {
    const PyTree& row = hessian.children()[a == "weight" ? 0 : 1];
    ASSERT_EQ(row.keys(), names);
    for (std::size_t i = 0; i < (a == "weight" ? 2u : 1u); ++i) {
      for (const std::string& b : names) {
        const std::vector<double> block = values(entry(row, b));
        const std::size_t width = b == "weight" ? 2 : 1;
        for (std::size_t j = 0; j < width; ++j) got.push_back(block[i * width + j]);
      }
    }
  }
  // Second central differences of the loss in the oracle dtype.
  const double h = 1e-12;
  const PyTree oracle_params = converted(params, DType::Oracle);
  const Tensor oracle_x = ops::to_dtype(x, DType::Oracle);
  const std::vector<std::pair<std::size_t, std::int64_t>> coordinates{{0, 0}, {0, 1}, {1, 0}};  // (leaf, index)
  const auto at = [&](std::size_t i, double di, std::size_t j, double dj) {
    PyTree p = testing_support::nudged_tree(oracle_params, coordinates[i].first, coordinates[i].second, di);
    p = testing_support::nudged_tree(p, coordinates[j].first, coordinates[j].second, dj);
    return loss_at(p, oracle_x);
  };
  std::vector<double> expected;
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      const Tensor second =
          ops::div(ops::add(ops::sub(ops::sub(at(i, h, j, h), at(i, h, j, -h)), at(i, -h, j, h)), at(i, -h, j, -h)),
                   ops::lit(4 * h * h));
      expected.push_back(values(second)[0]);
    }
  }
  testing_support::expect_same(got, expected, 1e-12);
}

}  // namespace
}  // namespace funcspec::modules
