// vmap over functional_call equals the loop over the models (docs/SPEC.md, MOD-2.1), two ways:
//   - PROP-MOD/vmap-functional-call-equals-loop: a generated program is the module (the case format's
//     functional_call), some of its inputs its parameters and buffers, under a generated vmap whose
//     in_dims name state members one by one, with up to one generated transform inside the module
//     call. The truth is the loop: the backend's own answer for each example's functional_call.
//     Any backend that declares vmap and functional_call takes part.
//   - PROP-MOD/ensemble-equals-each-model (engine only): generated models of generated structure
//     (Linear, activations, LayerNorm, BatchNorm1d with running statistics in evaluation mode or
//     without them in training mode, Dropout in evaluation mode), their state stacked by
//     stack_module_state, called through functional_call on a meta copy of one model under vmap:
//     the truth is each model called on its own (or, under grad, differentiated on its own).
#include <fmt/format.h>
#include <rapidcheck.h>

#include "conformance/oracles/loop_and_stack.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"
#include "property_tests/vmap_loop.h"
#include "reference/api/ops.h"
#include "reference/modules/activation.h"
#include "reference/modules/batch_norm.h"
#include "reference/modules/dropout.h"
#include "reference/modules/functional_call.h"
#include "reference/modules/layer_norm.h"
#include "reference/modules/linear.h"
#include "reference/modules/sequential.h"
#include "reference/modules/stack_module_state.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"

namespace funcspec::properties {

namespace {

using conformance::Case;
using transforms::PyFunction;
using transforms::PyTree;

constexpr std::string_view kCaseEqualsLoop = "PROP-MOD/vmap-functional-call-equals-loop";
constexpr std::string_view kEnsembleEqualsModels = "PROP-MOD/ensemble-equals-each-model";

// What each tensor input of a generated program becomes under functional_call.
enum class StateRole : unsigned { Argument = 0, Parameter = 1, Buffer = 2 };

PropertyCheck check_case_equals_loop(const PropertyContext& context, const ProgramOptions& programs) {
  ProgramOptions options = programs;
  options.max_steps = 3;
  Case c = *draw_vmapped_case(options, {std::begin(kAllStackTransforms), std::end(kAllStackTransforms)}, 1, {});
  auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
  const std::vector<std::optional<std::int64_t>> dims = in_dims_per_input(c, vmap.in_dims);

  conformance::FunctionalCallTransform call;
  conformance::DimSpec by_name;
  by_name.form = conformance::DimSpec::Form::ByName;
  std::size_t last_tensor = 0;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (!c.inputs[i].is_literal()) last_tensor = i;
  }
  bool any_state = false;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (c.inputs[i].is_literal()) continue;
    auto role = static_cast<StateRole>(*rc::gen::inRange(0u, 3u));
    // The module has state: the last tensor input is a parameter when no other input became state
    // (every input shrinks towards Argument, which would leave the law nothing to check).
    if (role == StateRole::Argument && !any_state && i == last_tensor) role = StateRole::Parameter;
    if (role == StateRole::Parameter) call.parameters.push_back(c.inputs[i].name);
    if (role == StateRole::Buffer) call.buffers.push_back(c.inputs[i].name);
    any_state = any_state || role != StateRole::Argument;
    // By name, a member of the state is mapped on its own, as an argument is (MOD-2.1).
    if (dims[i]) by_name.by_name.emplace_back(c.inputs[i].name, dims[i]);
  }
  call.strict = *rc::gen::arbitrary<bool>();
  vmap.in_dims = by_name;
  c.transforms.insert(c.transforms.begin() + 1, call);
  RC_LOG() << "with functional_call: " << describe_transforms(c) << "\n";
  return check_vmap_equals_loop(context, c);
}

// One layer of a generated model: which kind, and the small integers its options come from.
struct LayerPlan {
  unsigned kind = 0;   // 0: Linear, 1: activation, 2: LayerNorm, 3: BatchNorm1d, 4: Dropout
  unsigned width = 0;  // Linear: out_features - 1
  unsigned flag = 0;   // Linear: bias; activation: which; LayerNorm: elementwise_affine
};

rc::Gen<LayerPlan> gen_layer_plan() {
  return rc::gen::construct<LayerPlan>(rc::gen::inRange(0u, 5u), rc::gen::inRange(0u, 4u), rc::gen::inRange(0u, 3u));
}

struct EnsemblePlan {
  std::vector<LayerPlan> layers;
  unsigned in_features = 0;  // - 1
  bool training = false;     // training mode: batch norms lose their running statistics first
  bool float32 = false;
  unsigned models = 0;   // - 1
  unsigned rows = 0;     // the data's batch, - 1 (- 2 with a training batch norm)
  unsigned data_in = 0;  // 0: shared by the models (in_dims None), 1: a minibatch per model at dim 0, 2: at dim 1
  unsigned chunk = 0;    // 0: no chunk_size
  bool grad = false;     // vmap(grad(sum of squares)) with respect to the parameters, not the forward
  std::uint32_t seed = 0;
};

rc::Gen<EnsemblePlan> gen_ensemble_plan() {
  return rc::gen::apply(
      [](std::vector<LayerPlan> layers, unsigned in_features, bool training, bool float32, unsigned models,
         unsigned rows, unsigned data_in, unsigned chunk, bool grad, std::uint32_t seed) {
        return EnsemblePlan{std::move(layers), in_features, training, float32, models, rows,
                            data_in,           chunk,       grad,     seed};
      },
      rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<LayerPlan>>(gen_layer_plan()))),
      rc::gen::inRange(0u, 4u), rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>(), rc::gen::inRange(0u, 4u),
      rc::gen::inRange(0u, 3u), rc::gen::inRange(0u, 3u), rc::gen::inRange(0u, 3u), rc::gen::arbitrary<bool>(),
      rc::gen::arbitrary<std::uint32_t>());
}

constexpr const char* kActivations[] = {"tanh", "relu", "sigmoid"};

// One model of the plan's structure, with state drawn from the current generator: every floating
// parameter and buffer is redrawn so that LayerNorm's ones and zeros and BatchNorm's initial
// running statistics do not hide a member the call mixes up.
std::shared_ptr<modules::Module> build_model(const EnsemblePlan& plan, const modules::ModuleOptions& options) {
  std::vector<std::shared_ptr<modules::Module>> layers;
  std::int64_t features = plan.in_features + 1;
  for (const LayerPlan& layer : plan.layers) {
    switch (layer.kind) {
      case 0: {
        const std::int64_t out = layer.width + 1;
        layers.push_back(std::make_shared<modules::Linear>(features, out, layer.flag != 0, options));
        features = out;
        break;
      }
      case 1: layers.push_back(modules::Activation::of(kActivations[layer.flag % 3])); break;
      case 2: {
        modules::LayerNormOptions norm;
        norm.elementwise_affine = layer.flag != 0;
        layers.push_back(std::make_shared<modules::LayerNorm>(std::vector<std::int64_t>{features}, norm, options));
        break;
      }
      case 3:
        layers.push_back(std::make_shared<modules::BatchNorm1d>(features, modules::BatchNormOptions{}, options));
        break;
      default:
        // In training mode Dropout draws, and the loop's draws are not vmap's (VMAP-2.x): left out.
        if (!plan.training) layers.push_back(std::make_shared<modules::Dropout>(0.5));
        break;
    }
  }
  auto model = std::make_shared<modules::Sequential>(std::move(layers));
  for (const auto& [name, tensor] : model->named_buffers()) {
    if (!is_floating(tensor.dtype())) continue;
    Tensor value = ops::randn(tensor.shape(), options.dtype);
    // A variance is positive: |z| + 1/2 keeps the normalization well conditioned.
    if (name.ends_with("running_var")) value = ops::add(ops::abs(value), ops::lit(0.5));
    model->swap_state(name, value);
  }
  for (const auto& [name, tensor] : model->named_parameters())
    model->swap_state(name, ops::randn(tensor.shape(), options.dtype));
  if (plan.training) {
    modules::replace_all_batch_norm_modules(*model);  // running statistics under vmap are MOD-3.1's error
  } else {
    model->eval();
  }
  return model;
}

Tensor sum_of_squares(const Tensor& t) { return ops::sum(ops::mul(t, t)); }

PropertyCheck check_ensemble_equals_models() {
  const EnsemblePlan plan = *gen_ensemble_plan();
  const modules::ModuleOptions options{plan.float32 ? DType::Float32 : DType::Float64, Device::Cpu};
  const bool batch_statistics = plan.training && std::any_of(plan.layers.begin(), plan.layers.end(),
                                                             [](const LayerPlan& l) { return l.kind == 3; });
  const std::int64_t rows = plan.rows + (batch_statistics ? 2 : 1);
  const auto model_count = static_cast<std::int64_t>(plan.models + 1);
  const std::int64_t in_features = plan.in_features + 1;

  random::GeneratorScope seed(plan.seed);
  std::vector<std::shared_ptr<modules::Module>> models;
  for (std::int64_t m = 0; m < model_count; ++m) models.push_back(build_model(plan, options));
  RC_PRE(!models.front()->named_parameters().empty());  // else vmap has nothing to map
  const Shape data_shape = plan.data_in == 0   ? Shape{rows, in_features}
                           : plan.data_in == 1 ? Shape{model_count, rows, in_features}
                                               : Shape{rows, model_count, in_features};
  const Tensor data = ops::randn(data_shape, options.dtype);
  const bool data_mapped = plan.data_in != 0;
  const std::int64_t data_dim = data_mapped ? static_cast<std::int64_t>(plan.data_in) - 1 : 0;

  const std::shared_ptr<modules::Module> base = models.front()->deepcopy();
  base->to(Device::Meta);
  const modules::StackedState stacked = modules::stack_module_state(models);
  RC_LOG() << "models: " << model_count << " x " << base->named_parameters().size() << " parameters, "
           << base->named_buffers().size() << " buffers; " << (plan.training ? "training" : "evaluation")
           << " mode; data " << shape_to_string(data_shape) << " in_dims "
           << (data_mapped ? std::to_string(data_dim) : "None") << (plan.grad ? "; grad" : "") << "\n";

  // call(params, buffers, x) on any model; the vmapped side uses the meta base.
  const auto call_on = [](modules::Module& model) -> PyFunction {
    return [&model](const std::vector<PyTree>& a) {
      return modules::functional_call(model, PyTree::tuple({a[0], a[1]}), PyTree::tuple({a[2]}));
    };
  };
  const auto loss_of = [](PyFunction call) -> PyFunction {
    return [call](const std::vector<PyTree>& a) { return PyTree(sum_of_squares(call(a).tensor())); };
  };
  transforms::GradOptions with_respect_to_params;  // argnums 0: the parameters

  transforms::VmapOptions vmap_options;
  vmap_options.in_dims = PyTree::tuple({PyTree(0), PyTree(0), data_mapped ? PyTree(data_dim) : PyTree::none()});
  if (plan.chunk > 0) vmap_options.chunk_size = static_cast<std::int64_t>(plan.chunk);
  const PyFunction per_model =
      plan.grad ? transforms::grad(loss_of(call_on(*base)), with_respect_to_params) : call_on(*base);

  // The loop (NOTE: [loop-and-stack oracle]): each model on its own, with its own tensors (no
  // functional_call for the forward).
  PyTree example_result;  // the first model's, for the results' structure
  const oracles::LoopAndStack loop = oracles::loop_and_stack({{model_count, 0}}, [&](std::int64_t m) {
    modules::Module& model = *models[static_cast<std::size_t>(m)];
    const Tensor x = data_mapped ? ops::select(data, data_dim, m) : data;
    const PyTree result = plan.grad ? transforms::grad(loss_of(call_on(model)), with_respect_to_params)(
                                          {modules::state_dict_of(model.named_parameters()),
                                           modules::state_dict_of(model.named_buffers()), PyTree(x)})
                                    : PyTree(model(x));
    if (m == 0) example_result = result;
    TensorList tensors;
    for (const PyTree& leaf : result.leaves()) tensors.push_back(leaf.tensor());
    return tensors;
  });
  if (loop.error) throw *loop.error;  // not a verdict of this law: it propagates as from a plain loop
  std::vector<PyTree> truth_leaves(loop.results.begin(), loop.results.end());
  const PyTree truth = example_result.with_leaves(truth_leaves);

  PyTree vmapped;
  try {
    vmapped = transforms::vmap(per_model, vmap_options)({stacked.parameters, stacked.buffers, PyTree(data)});
  } catch (const Error& e) {
    return PropertyCheck::violated(fmt::format("vmap over functional_call raised {} ({}) where each model answers",
                                               error_kind_name(e.kind()), e.what()),
                                   std::nullopt);
  }
  const std::string differs = pytree_difference(vmapped, truth);
  if (differs.empty()) return PropertyCheck::holds();
  return PropertyCheck::violated(differs, std::nullopt);  // the plan is logged
}

}  // namespace

void add_module_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kCaseEqualsLoop),
                 "vmap over functional_call, with state members mapped by name and a transform inside the "
                 "call, equals the loop over its examples",
                 {"MOD-1.1", "MOD-2.1"},
                 200,
                 "",
                 [programs](PropertyContext& context) { return check_case_equals_loop(context, programs); }});
  // Its models are built of layers, not drawn from the catalogue: no part of a per-op check.
  if (!programs.required_op.empty()) return;
  out.push_back({std::string(kEnsembleEqualsModels),
                 "vmap over functional_call on a meta base model, with state from stack_module_state, equals "
                 "calling (or differentiating) each model on its own",
                 {"MOD-2.1"},
                 100,
                 "it builds modules, which exist only in the engine's API",
                 [](PropertyContext&) { return check_ensemble_equals_models(); }});
}

}  // namespace funcspec::properties
