#include "conformance/case/transformed_program.h"

#include <fmt/format.h>

#include <map>
#include <type_traits>
#include <utility>
#include <variant>

#include "conformance/case/case_placement.h"
#include "conformance/case/functional_call_transform.h"
#include "conformance/case/functionalize_transform.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/grad_mode.h"

namespace funcspec::conformance {
namespace {

using transforms::PyFunction;
using transforms::PyTree;

// Runs the program on `values` (the inputs by name) and returns the case's outputs, in order.
TensorList run_program(const Case& c, std::map<std::string, Tensor, std::less<>> values, StoredValues* stored) {
  run_steps(c.program, values, "program", stored);
  TensorList results;
  for (const std::string& name : c.outputs) results.push_back(values.at(name));
  return results;
}

// The writes a case makes between a vjp (or linearize) and the call of the function it returned,
// into the arguments of the transformed function at that level, named by input.
void run_before_call(const std::vector<OpCall>& steps, const std::vector<PyTree>& args,
                     const CaseSignature& signature) {
  if (steps.empty()) return;
  std::map<std::string, Tensor, std::less<>> values;
  const std::vector<std::string> names = signature.leaf_inputs();
  const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
  for (std::size_t k = 0; k < names.size() && k < leaves.size(); ++k) {
    if (leaves[k].is_tensor()) values[names[k]] = leaves[k].tensor();
  }
  run_steps(steps, values, "before_call");
}

// A transform option over named arguments or results as the engine's prefix tree.
PyTree dims_tree(const DimSpec& spec, const std::vector<std::string>& names) {
  auto leaf = [](const std::optional<std::int64_t>& dim) { return dim ? PyTree(*dim) : PyTree::none(); };
  switch (spec.form) {
    case DimSpec::Form::All: return leaf(spec.all);
    case DimSpec::Form::ByPosition: {
      std::vector<PyTree> items;
      for (const auto& dim : spec.by_position) items.push_back(leaf(dim));
      return PyTree::tuple(std::move(items));
    }
    case DimSpec::Form::ByName: {
      std::vector<PyTree> items;
      for (const std::string& name : names) {
        std::optional<std::int64_t> dim;
        for (const auto& [named, d] : spec.by_name) {
          if (named == name) dim = d;
        }
        items.push_back(leaf(dim));
      }
      return PyTree::tuple(std::move(items));
    }
  }
  return leaf(std::nullopt);
}

// NOTE: [case transforms on the engine]
// A case's function takes the inputs as positional arguments and returns a flat tuple of named
// results (docs/case-format.md). Each transform below adapts the engine's torch.func-shaped API
// (output trees, (output, aux) pairs) to that flat form, in the order the naming rules give.

std::vector<PyTree> flat(const PyTree& tree) { return tree.leaves(); }

// f's flat results as (output, aux): the first result and a tuple of the rest with has_aux.
PyFunction with_aux_pair(PyFunction f, bool has_aux, bool single_output) {
  return [f = std::move(f), has_aux, single_output](const std::vector<PyTree>& args) {
    const std::vector<PyTree> results = f(args).children();
    if (!has_aux) return single_output ? results.at(0) : PyTree::tuple(results);
    const PyTree output = single_output ? results.at(0) : PyTree::tuple({results.at(0)});
    return PyTree::tuple({output, PyTree::tuple({results.begin() + 1, results.end()})});
  };
}

// The argument positions argnums selects (names resolve to argument positions).
transforms::Argnums engine_argnums(const ArgNums& argnums, const CaseSignature& signature) {
  transforms::Argnums out;
  out.positions.clear();
  out.tuple = true;
  for (const auto& selector : argnums.selectors) {
    if (const auto* position = std::get_if<std::int64_t>(&selector)) {
      out.positions.push_back(*position);
      continue;
    }
    out.positions.push_back(signature.position(std::get<std::string>(selector)));
  }
  return out;
}

const TensorSpec* named_tensor(const std::vector<NamedTensor>& tensors, const std::string& name) {
  for (const NamedTensor& t : tensors) {
    if (t.name == name) return &t.tensor;
  }
  return nullptr;
}

bool is_floating_input(const CaseInput& in) {
  const auto* spec = std::get_if<TensorSpec>(&in.value);
  return spec != nullptr && is_floating(spec->data.dtype);
}

// The leaves of the arguments that stand for floating tensor inputs (what vjp and linearize
// differentiate), as leaf positions; a module state's members are leaves of one argument.
std::vector<std::size_t> floating_leaves(const Case& c, const CaseSignature& signature) {
  std::vector<std::size_t> positions;
  const std::vector<std::string> inputs = signature.leaf_inputs();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const CaseInput* in = c.find_input(inputs[k]);
    if (in != nullptr && is_floating_input(*in)) positions.push_back(k);
  }
  return positions;
}

// `f` as a function of the argument leaves at `positions` alone, the others fixed at `args`.
PyFunction closed_over(const PyFunction& f, const std::vector<PyTree>& args,
                       const std::vector<std::size_t>& positions) {
  return [f, all = PyTree::tuple(args), positions](const std::vector<PyTree>& chosen) {
    std::vector<PyTree> leaves = all.leaves();
    for (std::size_t k = 0; k < positions.size(); ++k) leaves[positions[k]] = chosen[k];
    return f(all.with_leaves(leaves).children());
  };
}

// The leaves at `positions` of the arguments `trees`.
std::vector<PyTree> leaves_at(const std::vector<PyTree>& trees, const std::vector<std::size_t>& positions) {
  const std::vector<PyTree> leaves = PyTree::tuple(trees).leaves();
  std::vector<PyTree> chosen;
  for (std::size_t k : positions) chosen.push_back(leaves[k]);
  return chosen;
}

// The flat results of an (output, aux) pair: the output's leaves, then the aux's (a function
// without aux has aux None, which adds nothing).
std::vector<PyTree> output_then_aux(const PyTree& output, const PyTree& aux) {
  std::vector<PyTree> out = flat(output);
  for (const PyTree& a : flat(aux)) {
    if (!a.is_none()) out.push_back(a);
  }
  return out;
}

// Values for the leaves at `positions`, reordered from leaf order to the order of the case's inputs
// (the order result_names gives per-input results in).
std::vector<PyTree> in_input_order(const Case& c, const CaseSignature& signature,
                                   const std::vector<std::size_t>& positions, const std::vector<PyTree>& values) {
  const std::vector<std::string> inputs = signature.leaf_inputs();
  std::vector<PyTree> ordered;
  for (const CaseInput& in : c.inputs) {
    for (std::size_t k = 0; k < positions.size(); ++k) {
      if (inputs[positions[k]] == in.name) ordered.push_back(values.at(k));
    }
  }
  return ordered;
}

// `signature`: the arguments of `f` (NOTE: [case functional_call]).
PyFunction apply_transform(PyFunction f, const Transform& transform, const Case& c,
                           const std::vector<std::string>& inner_results, const CaseSignature& signature,
                           Device tensors_on, std::optional<DType> floating_as) {
  const auto tensor_of = [tensors_on, floating_as](const TensorSpec& spec) {
    const Tensor t = placed_tensor(spec, tensors_on);
    return floating_as && is_floating(t.dtype()) ? call_one("to_dtype", {t}, {{"dtype", *floating_as}}) : t;
  };
  return std::visit(
      [&](const auto& t) -> PyFunction {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, VmapTransform>) {
          transforms::VmapOptions options;
          options.in_dims = signature.in_dims(t.in_dims);
          options.out_dims = dims_tree(t.out_dims, inner_results);
          options.randomness = t.randomness;
          options.chunk_size = t.chunk_size;
          return transforms::vmap(std::move(f), std::move(options));
        } else if constexpr (std::is_same_v<T, GradTransform>) {
          transforms::GradOptions options{engine_argnums(t.argnums, signature), t.has_aux};
          PyFunction both = transforms::grad_and_value(with_aux_pair(std::move(f), t.has_aux, true), options);
          return [both, t](const std::vector<PyTree>& args) {
            const PyTree r = both(args);  // (grads, value) or (grads, (value, aux))
            std::vector<PyTree> out = flat(r.children()[0]);
            const PyTree& value_part = r.children()[1];
            if (t.and_value) out.push_back(t.has_aux ? value_part.children()[0] : value_part);
            if (t.has_aux) {
              for (const PyTree& a : flat(value_part.children()[1])) out.push_back(a);
            }
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, VjpTransform>) {
          std::vector<std::string> outputs = inner_results;
          if (t.has_aux) outputs.resize(1);
          TensorList cotangents;
          for (const std::string& y : outputs) cotangents.push_back(tensor_of(*named_tensor(t.cotangents, y)));
          return [f = std::move(f), t, cotangents, signature, &c](const std::vector<PyTree>& args) {
            const std::vector<std::size_t> positions = floating_leaves(c, signature);
            const transforms::VjpResult r =
                transforms::vjp(with_aux_pair(closed_over(f, args, positions), t.has_aux, false),
                                leaves_at(args, positions), t.has_aux);
            run_before_call(t.before_call, args, signature);
            std::vector<PyTree> cts;
            for (const Tensor& ct : cotangents) cts.emplace_back(ct);
            std::vector<PyTree> out = output_then_aux(r.output, r.aux);
            for (const PyTree& g : in_input_order(c, signature, positions, flat(r.vjp_fn(PyTree::tuple(cts)))))
              out.push_back(g);
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, JvpTransform>) {
          const std::vector<PyTree> tangents = signature.arguments_from([&](const std::string& input) {
            const TensorSpec* spec = named_tensor(t.tangents, input);
            return spec != nullptr ? PyTree(tensor_of(*spec)) : PyTree::none();
          });
          if (t.linearize) {
            return [f = std::move(f), tangents, signature, &c, t](const std::vector<PyTree>& args) {
              const std::vector<std::size_t> positions = floating_leaves(c, signature);
              const transforms::LinearizeResult r =
                  transforms::linearize(closed_over(f, args, positions), leaves_at(args, positions));
              run_before_call(t.before_call, args, signature);
              std::vector<PyTree> out = flat(r.output);
              for (const PyTree& j : flat(r.jvp_fn(leaves_at(tangents, positions)))) out.push_back(j);
              return PyTree::tuple(out);
            };
          }
          return [f = std::move(f), tangents, t](const std::vector<PyTree>& args) {
            const transforms::JvpResult r =
                transforms::jvp(with_aux_pair(f, t.has_aux, false), args, tangents, t.has_aux);
            std::vector<PyTree> out = output_then_aux(r.output, r.aux);
            for (const PyTree& j : flat(r.tangent)) out.push_back(j);
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, JacobianTransform>) {
          PyFunction inner = with_aux_pair(std::move(f), t.has_aux, false);
          PyFunction jac;
          if (t.forward) {
            jac = transforms::jacfwd(std::move(inner), {engine_argnums(t.argnums, signature), t.has_aux, t.randomness});
          } else {
            jac = transforms::jacrev(std::move(inner), {engine_argnums(t.argnums, signature), t.has_aux, t.chunk_size});
          }
          return [jac, t](const std::vector<PyTree>& args) {
            const PyTree r = jac(args);
            std::vector<PyTree> out = flat(t.has_aux ? r.children()[0] : r);
            if (t.has_aux) {
              for (const PyTree& a : flat(r.children()[1])) out.push_back(a);
            }
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, HessianTransform>) {
          PyFunction h =
              transforms::hessian(with_aux_pair(std::move(f), false, false), engine_argnums(t.argnums, signature));
          return [h](const std::vector<PyTree>& args) { return PyTree::tuple(flat(h(args))); };
        } else if constexpr (std::is_same_v<T, FunctionalizeTransform>) {
          return apply_functionalize(std::move(f), t);
        } else if constexpr (std::is_same_v<T, FunctionalCallTransform>) {
          return functional_call_transform(std::move(f), t, signature);
        } else {
          FUNCSPEC_UNREACHABLE("a transform the reference does not have reached the evaluator");
        }
      },
      transform);
}

// Calls `f` under the grad mode the case gives (NOTE: [no_grad]). The engine has no inference
// tensors: inference_mode is a no_grad region to it.
PyFunction called_under(PyFunction f, CallMode mode) {
  if (mode == CallMode::Plain) return f;
  return [f = std::move(f), enabled = mode == CallMode::EnableGrad](const std::vector<PyTree>& args) {
    transforms::GradModeGuard grad_mode(enabled);
    return f(args);
  };
}

}  // namespace

void run_steps(const std::vector<OpCall>& steps, std::map<std::string, Tensor, std::less<>>& values,
               std::string_view where, StoredValues* stored) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const OpCall& step = steps[i];
    // The engine has no global autograd API, and the spec refuses it inside a transformed function
    // (AD-5.6), which is the only place a case can call it.
    FUNCSPEC_CHECK(!step.is_autograd_call(), ErrorKind::AutogradApiUnderTransform,
                   "{}[{}]: {} inside a transformed function: the transforms cannot see through the global autograd "
                   "API; differentiate with grad, vjp, jvp, jacrev or jacfwd instead",
                   where, i, step.op);
    TensorList inputs;
    for (const auto& arg : step.args) inputs.push_back(arg ? values.at(*arg) : Tensor());
    // Nested regions: the innermost decides (NOTE: [no_grad]); inference_mode is no_grad to the engine.
    std::optional<transforms::GradModeGuard> mode;
    if (step.no_grad) mode.emplace(false);
    if (!step.grad_modes.empty()) mode.emplace(step.grad_modes.back() == CallMode::EnableGrad);
    const TensorList outputs = call(step.op, inputs, step.attrs);
    mode.reset();
    if (outputs.size() != step.outs.size())
      throw BrokenProgram(fmt::format("{}[{}]: {} returned {} tensors but 'out' names {}", where, i, step.op,
                                      outputs.size(), step.outs.size()));
    for (std::size_t k = 0; k < outputs.size(); ++k) values[step.outs[k]] = outputs[k];
    if (stored != nullptr && !step.stored_as.empty()) (*stored)[step.stored_as] = outputs.at(0);
  }
}

PyFunction transformed_program(const Case& c, Device tensors_on, std::optional<DType> floating_as,
                               std::shared_ptr<StoredValues> stored) {
  PyFunction f = [&c, stored](const std::vector<PyTree>& args) {
    std::map<std::string, Tensor, std::less<>> values;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
      const PyTree& arg = args.at(i);
      values[c.inputs[i].name] = arg.is_tensor() ? arg.tensor() : Tensor::wrapped_scalar(arg.scalar());
    }
    std::vector<PyTree> results;
    for (Tensor& t : run_program(c, std::move(values), stored.get())) results.emplace_back(std::move(t));
    return PyTree::tuple(std::move(results));
  };
  for (std::size_t i = c.transforms.size(); i-- > 0;) {
    // The names of what the function wrapped by transform i returns.
    Case inner = c;
    inner.transforms.assign(c.transforms.begin() + static_cast<std::ptrdiff_t>(i) + 1, c.transforms.end());
    inner.after_outputs.clear();
    f = called_under(apply_transform(std::move(f), c.transforms[i], c, result_names(inner), CaseSignature(c, i + 1),
                                     tensors_on, floating_as),
                     c.call_mode(i));
  }
  return f;
}

std::vector<PyTree> program_arguments(const Case& c, const std::function<Tensor(const CaseInput&)>& tensor_of) {
  return CaseSignature(c, 0).arguments_from([&](const std::string& name) {
    const CaseInput& in = *c.find_input(name);
    if (const auto* literal = std::get_if<LiteralSpec>(&in.value)) return PyTree(literal->value);
    return PyTree(tensor_of(in));
  });
}

}  // namespace funcspec::conformance
