#include "reference/transforms/autodiff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "reference/api/ops.h"
#include "reference/core/error.h"
#include "reference/core/storage.h"
#include "reference/transforms/ad_rules.h"
#include "reference/transforms/dual.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/jvp_interpreter.h"
#include "reference/transforms/linear_trace.h"

namespace funcspec::transforms {
namespace {

// argnums as positions in [0, n), checked.
std::vector<std::size_t> resolve_argnums(const Argnums& argnums, std::size_t n, std::string_view who) {
  FUNCSPEC_CHECK(!argnums.positions.empty(), ErrorKind::AdInvalidArgnums, "[{}] argnums is empty", who);
  std::vector<std::size_t> positions;
  std::set<std::size_t> seen;
  for (std::int64_t p : argnums.positions) {
    const auto count = static_cast<std::int64_t>(n);
    FUNCSPEC_CHECK(p >= -count && p < count, ErrorKind::AdInvalidArgnums,
                   "[{}] argnums {} is out of range for a function called with {} arguments", who, p, n);
    const auto position = static_cast<std::size_t>(p < 0 ? p + count : p);
    FUNCSPEC_CHECK(seen.insert(position).second, ErrorKind::AdInvalidArgnums, "[{}] argnums repeats argument {}", who,
                   position);
    positions.push_back(position);
  }
  return positions;
}

// Per leaf of tuple(args): whether it is one the derivative is taken with respect to.
std::vector<bool> selected_leaves(const std::vector<PyTree>& args, const std::vector<std::size_t>& positions) {
  std::vector<bool> selected;
  for (std::size_t a = 0; a < args.size(); ++a) {
    const bool chosen = std::find(positions.begin(), positions.end(), a) != positions.end();
    selected.insert(selected.end(), args[a].leaf_count(), chosen);
  }
  return selected;
}

// Where each argument's leaves start among the selected leaves (which are in argument order,
// whatever the order of argnums).
std::vector<std::size_t> selected_offsets(const std::vector<PyTree>& args, const std::vector<std::size_t>& positions) {
  std::vector<std::size_t> offsets(args.size(), 0);
  std::size_t next = 0;
  for (std::size_t a = 0; a < args.size(); ++a) {
    offsets[a] = next;
    if (std::find(positions.begin(), positions.end(), a) != positions.end()) next += args[a].leaf_count();
  }
  return offsets;
}

void check_differentiable(const PyTree& leaf, std::string_view who, std::size_t index) {
  FUNCSPEC_CHECK(leaf.is_tensor(), ErrorKind::AdNonDifferentiableInput,
                 "[{}] input leaf {} is {}, not a tensor; only floating tensors can be differentiated", who, index,
                 leaf.describe());
  FUNCSPEC_CHECK(is_floating(leaf.tensor().dtype()), ErrorKind::AdNonDifferentiableInput,
                 "[{}] input leaf {} is a {} tensor; only floating tensors (float32, float64, oracle) can be "
                 "differentiated",
                 who, index, dtype_name(leaf.tensor().dtype()));
}

// f's result split into (output, aux).
std::pair<PyTree, PyTree> split_aux(const PyTree& result, bool has_aux, std::string_view who) {
  if (!has_aux) return {result, PyTree::none()};
  FUNCSPEC_CHECK(
      (result.kind() == PyTree::Kind::Tuple || result.kind() == PyTree::Kind::List) && result.children().size() == 2,
      ErrorKind::AdAuxStructure, "[{}] has_aux=True needs f to return a pair (output, aux), but it returned {}", who,
      result.describe());
  return {result.children()[0], result.children()[1]};
}

// The primal of every tensor leaf of `tree` at `level` (aux, and outputs once their tangents are read).
PyTree primals_of(const PyTree& tree, int level) {
  std::vector<PyTree> leaves = tree.leaves();
  for (PyTree& leaf : leaves) {
    if (leaf.is_tensor()) leaf = PyTree(unwrap_dual(leaf.tensor(), level).primal);
  }
  return tree.with_leaves(leaves);
}

// f run once under a jvp level whose tangents are linear variables (NOTE: [reverse mode]).
struct Linearized {
  PyTree output;  // primal results
  PyTree aux;
  std::shared_ptr<LinearTape> tape;
  std::vector<std::int64_t> input_ids;   // one per differentiated leaf, in leaf order
  std::vector<PyTree> output_leaves;     // primal
  std::vector<std::int64_t> output_ids;  // per output leaf: its tangent's variable, -1 for zero
};

Linearized linearize_leaves(const PyFunction& f, const std::vector<PyTree>& args, const std::vector<bool>& selected,
                            bool has_aux, bool reverse, std::string_view who) {
  const PyTree arguments = PyTree::tuple(args);
  std::vector<PyTree> leaves = arguments.leaves();
  Linearized result;
  result.tape = std::make_shared<LinearTape>();
  auto linear = std::make_shared<LinearInterpreter>(result.tape);
  auto dual = std::make_shared<JvpInterpreter>(reverse);
  InterpreterGuard linear_guard(linear);
  std::vector<Tensor> variables;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    if (!selected[i]) continue;
    check_differentiable(leaves[i], who, i);
    const Tensor& t = leaves[i].tensor();
    variables.push_back(linear->variable({t.shape(), t.dtype()}, t.device()));
    result.input_ids.push_back(linear->variable_id(variables.back()));
  }
  PyTree returned;
  {
    InterpreterGuard dual_guard(dual);
    std::size_t next = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (selected[i]) leaves[i] = PyTree(make_dual(leaves[i].tensor(), variables[next++], dual->level()));
    }
    const PyTree wrapped = arguments.with_leaves(leaves);
    // A reverse-mode transform differentiates f whatever mode it is called in (SPEC AD-5.3); the
    // level keeps the mode it was entered with for the levels below (NOTE: [no_grad]).
    std::optional<EnableGradGuard> enable_grad;
    if (reverse) enable_grad.emplace();
    returned = f(wrapped.children());
  }
  auto [output, aux] = split_aux(returned, has_aux, who);
  result.aux = primals_of(aux, dual->level());
  for (const PyTree& leaf : output.leaves()) {
    if (!leaf.is_tensor()) {
      result.output_leaves.push_back(leaf);
      result.output_ids.push_back(-1);
      continue;
    }
    const DualValue d = unwrap_dual(leaf.tensor(), dual->level());
    const std::int64_t id = d.tangent.defined() ? linear->variable_id(d.tangent) : -1;
    FUNCSPEC_INTERNAL_ASSERT(!d.tangent.defined() || id >= 0, "a tangent that is not a linear variable");
    result.output_leaves.emplace_back(d.primal);
    result.output_ids.push_back(id);
  }
  result.output = output.with_leaves(result.output_leaves);
  return result;
}

Tensor zeros_like_leaf(const Tensor& like) { return zeros_of({like.shape(), like.dtype()}, like.device()); }

// Checks a tangent (or cotangent) leaf against its primal.
void check_tangent(const PyTree& tangent, const PyTree& primal, std::string_view who, std::string_view what,
                   std::size_t index) {
  if (tangent.is_none()) return;
  FUNCSPEC_CHECK(tangent.is_tensor() && primal.is_tensor(), ErrorKind::AdTangentMismatch,
                 "[{}] {} leaf {} is {} for a primal {}", who, what, index, tangent.describe(), primal.describe());
  const Tensor& t = tangent.tensor();
  const Tensor& p = primal.tensor();
  FUNCSPEC_CHECK(t.shape() == p.shape() && t.dtype() == p.dtype(), ErrorKind::AdTangentMismatch,
                 "[{}] {} leaf {} is {} {} but its primal is {} {}; they must match", who, what, index,
                 dtype_name(t.dtype()), shape_to_string(t.shape()), dtype_name(p.dtype()), shape_to_string(p.shape()));
  FUNCSPEC_CHECK(is_floating(p.dtype()), ErrorKind::AdNonDifferentiableInput,
                 "[{}] {} leaf {} is given for a {} primal; only floating tensors carry derivatives", who, what, index,
                 dtype_name(p.dtype()));
}

void check_same_structure(const PyTree& given, const PyTree& expected, std::string_view who, std::string_view what) {
  FUNCSPEC_CHECK(given.leaf_count() == expected.leaf_count(), ErrorKind::AdTangentMismatch,
                 "[{}] {} {} do not have the structure of {}", who, what, given.describe(), expected.describe());
}

// The identity matrix of size n as rows [n, n] of `dtype`, built with ops (so that outer
// transforms see an ordinary constant).
Tensor identity(std::int64_t n, DType dtype, Device device) {
  const Tensor index = call_one("arange", {}, {{"end", Scalar(n)}, {"device", std::string(device_name(device))}});
  return ops::to_dtype(ops::eq(ops::unsqueeze(index, 1), ops::unsqueeze(index, 0)), dtype);
}

// Builds, for each output leaf, the argnums-structured tree of its Jacobian blocks.
PyTree jacobian_tree(const PyTree& output, const std::vector<PyTree>& args, const std::vector<std::size_t>& positions,
                     bool tuple, const std::vector<std::vector<Tensor>>& blocks) {
  const std::vector<std::size_t> offsets = selected_offsets(args, positions);
  std::vector<PyTree> per_output;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    std::vector<PyTree> per_arg;
    for (std::size_t p : positions) {
      std::vector<PyTree> leaves;
      for (std::size_t l = 0; l < args[p].leaf_count(); ++l) leaves.emplace_back(blocks[i][offsets[p] + l]);
      per_arg.push_back(args[p].with_leaves(leaves));
    }
    per_output.push_back(tuple ? PyTree::tuple(per_arg) : per_arg.at(0));
  }
  return output.with_leaves(per_output);
}

Shape concat_shapes(const Shape& a, const Shape& b) {
  Shape s = a;
  s.insert(s.end(), b.begin(), b.end());
  return s;
}

// The primals' storages and how often each had been written when f returned (NOTE: Storage::version).
// A vjp_fn or jvp_fn reads values saved while f ran, some of them the primals themselves, so a write
// into a primal in between would make it differentiate at a point f never saw.
using StorageVersions = std::vector<std::pair<std::shared_ptr<Storage>, std::uint64_t>>;

StorageVersions storage_versions(const PyTree& primals) {
  StorageVersions versions;
  for (const PyTree& leaf : primals.leaves()) {
    if (!leaf.is_tensor() || !leaf.tensor().defined() || !leaf.tensor().has_storage()) continue;
    versions.emplace_back(leaf.tensor().storage(), leaf.tensor().storage()->version());
  }
  return versions;
}

void check_unwritten(const StorageVersions& versions, std::string_view who) {
  for (std::size_t i = 0; i < versions.size(); ++i) {
    FUNCSPEC_CHECK(versions[i].first->version() == versions[i].second, ErrorKind::AdInputModified,
                   "[{}] a primal (tensor leaf {}) was written after the transform returned and before this call; "
                   "the derivative would be taken at values f never saw. Call it before writing, or pass a clone",
                   who, i);
  }
}

}  // namespace

VjpResult vjp(const PyFunction& f, const std::vector<PyTree>& primals, bool has_aux) {
  std::vector<bool> selected;
  for (const PyTree& leaf : PyTree::tuple(primals).leaves()) selected.push_back(leaf.is_tensor());
  auto lin = std::make_shared<Linearized>(linearize_leaves(f, primals, selected, has_aux, true, "vjp"));
  VjpResult result;
  result.output = lin->output;
  result.aux = lin->aux;
  const PyTree primal_tree = PyTree::tuple(primals);
  result.vjp_fn = [lin, primal_tree, versions = storage_versions(primal_tree)](const PyTree& cotangents) {
    check_unwritten(versions, "vjp_fn");
    check_same_structure(cotangents, lin->output, "vjp_fn", "cotangents");
    const std::vector<PyTree> given = cotangents.leaves();
    TensorList cts;
    for (std::size_t k = 0; k < given.size(); ++k) {
      check_tangent(given[k], lin->output_leaves[k], "vjp_fn", "cotangent", k);
      cts.push_back(given[k].is_tensor() ? given[k].tensor() : Tensor());
    }
    const TensorList input_cts = lin->tape->transpose(lin->input_ids, lin->output_ids, cts);
    std::vector<PyTree> leaves = primal_tree.leaves();
    std::size_t next = 0;
    for (PyTree& leaf : leaves) {
      if (!leaf.is_tensor()) {
        leaf = PyTree::none();
        continue;
      }
      const Tensor& ct = input_cts[next++];
      leaf = PyTree(ct.defined() ? ct : zeros_like_leaf(leaf.tensor()));
    }
    return primal_tree.with_leaves(leaves);
  };
  return result;
}

LinearizeResult linearize(const PyFunction& f, const std::vector<PyTree>& primals) {
  std::vector<bool> selected;
  for (const PyTree& leaf : PyTree::tuple(primals).leaves()) selected.push_back(leaf.is_tensor());
  auto lin = std::make_shared<Linearized>(linearize_leaves(f, primals, selected, false, false, "linearize"));
  LinearizeResult result;
  result.output = lin->output;
  result.linear_ops = lin->tape->nodes().size();
  const PyTree primal_tree = PyTree::tuple(primals);
  result.jvp_fn = [lin, primal_tree, versions = storage_versions(primal_tree)](const std::vector<PyTree>& tangents) {
    check_unwritten(versions, "linearize's jvp_fn");
    const PyTree given_tree = PyTree::tuple(tangents);
    check_same_structure(given_tree, primal_tree, "linearize's jvp_fn", "tangents");
    const std::vector<PyTree> given = given_tree.leaves();
    const std::vector<PyTree> primal_leaves = primal_tree.leaves();
    TensorList values;
    for (std::size_t i = 0; i < given.size(); ++i) {
      check_tangent(given[i], primal_leaves[i], "linearize's jvp_fn", "tangent", i);
      if (primal_leaves[i].is_tensor()) values.push_back(given[i].is_tensor() ? given[i].tensor() : Tensor());
    }
    const TensorList out = lin->tape->evaluate(lin->input_ids, values, lin->output_ids);
    std::vector<PyTree> leaves;
    for (std::size_t k = 0; k < out.size(); ++k) {
      const PyTree& primal = lin->output_leaves[k];
      if (!primal.is_tensor()) {
        leaves.push_back(PyTree::none());
        continue;
      }
      leaves.emplace_back(out[k].defined() ? out[k] : zeros_like_leaf(primal.tensor()));
    }
    return lin->output.with_leaves(leaves);
  };
  return result;
}

JvpResult jvp(const PyFunction& f, const std::vector<PyTree>& primals, const std::vector<PyTree>& tangents,
              bool has_aux) {
  const PyTree primal_tree = PyTree::tuple(primals);
  const PyTree tangent_tree = PyTree::tuple(tangents);
  FUNCSPEC_CHECK(primals.size() == tangents.size(), ErrorKind::AdTangentMismatch,
                 "[jvp] {} primals but {} tangents; give one tangent per primal", primals.size(), tangents.size());
  check_same_structure(tangent_tree, primal_tree, "jvp", "tangents");
  std::vector<PyTree> leaves = primal_tree.leaves();
  const std::vector<PyTree> tangent_leaves = tangent_tree.leaves();
  for (std::size_t i = 0; i < leaves.size(); ++i) check_tangent(tangent_leaves[i], leaves[i], "jvp", "tangent", i);
  auto dual = std::make_shared<JvpInterpreter>(false);
  PyTree returned;
  {
    InterpreterGuard guard(dual);
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].is_tensor() && tangent_leaves[i].is_tensor()) {
        leaves[i] = PyTree(make_dual(leaves[i].tensor(), tangent_leaves[i].tensor(), dual->level()));
      }
    }
    returned = f(primal_tree.with_leaves(leaves).children());
  }
  auto [output, aux] = split_aux(returned, has_aux, "jvp");
  JvpResult result;
  result.aux = primals_of(aux, dual->level());
  std::vector<PyTree> out_primals;
  std::vector<PyTree> out_tangents;
  for (const PyTree& leaf : output.leaves()) {
    if (!leaf.is_tensor()) {
      out_primals.push_back(leaf);
      out_tangents.push_back(PyTree::none());
      continue;
    }
    const DualValue d = unwrap_dual(leaf.tensor(), dual->level());
    out_primals.emplace_back(d.primal);
    out_tangents.emplace_back(d.tangent.defined() ? d.tangent : zeros_like_leaf(d.primal));
  }
  result.output = output.with_leaves(out_primals);
  result.tangent = output.with_leaves(out_tangents);
  return result;
}

PyFunction grad_and_value(PyFunction f, GradOptions options) {
  return [f = std::move(f), options](const std::vector<PyTree>& args) {
    const std::vector<std::size_t> positions = resolve_argnums(options.argnums, args.size(), "grad");
    const Linearized lin = linearize_leaves(f, args, selected_leaves(args, positions), options.has_aux, true, "grad");
    FUNCSPEC_CHECK(lin.output.is_tensor(), ErrorKind::AdNonScalarOutput,
                   "[grad] f must return a rank-0 floating tensor{}, but returned {}",
                   options.has_aux ? " as the first element of (output, aux)" : "", lin.output.describe());
    const Tensor& value = lin.output.tensor();
    FUNCSPEC_CHECK(value.dim() == 0 && is_floating(value.dtype()), ErrorKind::AdNonScalarOutput,
                   "[grad] f must return a rank-0 floating tensor, but returned a {} tensor of shape {}; use vjp or "
                   "jacrev for other results",
                   dtype_name(value.dtype()), shape_to_string(value.shape()));
    const TensorList cts = lin.tape->transpose(lin.input_ids, lin.output_ids, {ops::ones_like(value)});
    const std::vector<std::size_t> offsets = selected_offsets(args, positions);
    std::vector<PyTree> per_arg;
    for (std::size_t p : positions) {
      std::vector<PyTree> leaves = args[p].leaves();
      for (std::size_t l = 0; l < leaves.size(); ++l) {
        const Tensor& ct = cts[offsets[p] + l];
        leaves[l] = PyTree(ct.defined() ? ct : zeros_like_leaf(leaves[l].tensor()));
      }
      per_arg.push_back(args[p].with_leaves(leaves));
    }
    PyTree gradient = options.argnums.tuple ? PyTree::tuple(per_arg) : per_arg.at(0);
    const PyTree value_part = options.has_aux ? PyTree::tuple({lin.output, lin.aux}) : lin.output;
    return PyTree::tuple({gradient, value_part});
  };
}

PyFunction grad(PyFunction f, GradOptions options) {
  const bool has_aux = options.has_aux;
  PyFunction both = grad_and_value(std::move(f), std::move(options));
  return [both = std::move(both), has_aux](const std::vector<PyTree>& args) {
    const PyTree result = both(args);
    const PyTree& gradient = result.children()[0];
    return has_aux ? PyTree::tuple({gradient, result.children()[1].children()[1]}) : gradient;
  };
}

PyFunction jacrev(PyFunction f, JacrevOptions options) {
  return [f = std::move(f), options](const std::vector<PyTree>& args) {
    const std::vector<std::size_t> positions = resolve_argnums(options.argnums, args.size(), "jacrev");
    auto lin = std::make_shared<Linearized>(
        linearize_leaves(f, args, selected_leaves(args, positions), options.has_aux, true, "jacrev"));
    std::vector<Tensor> outputs;
    std::int64_t total = 0;
    for (std::size_t k = 0; k < lin->output_leaves.size(); ++k) {
      const PyTree& leaf = lin->output_leaves[k];
      FUNCSPEC_CHECK(leaf.is_tensor() && is_floating(leaf.tensor().dtype()), ErrorKind::AdNonDifferentiableInput,
                     "[jacrev] output leaf {} is {}; a Jacobian needs floating tensor outputs", k, leaf.describe());
      outputs.push_back(leaf.tensor());
      total += outputs.back().numel();
    }
    std::vector<Tensor> inputs;
    {
      const std::vector<bool> selected = selected_leaves(args, positions);
      const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
      for (std::size_t i = 0; i < leaves.size(); ++i) {
        if (selected[i]) inputs.push_back(leaves[i].tensor());
      }
    }
    // One basis cotangent per row of the stacked Jacobian: row r is one-hot at output element r.
    std::vector<PyTree> basis;
    std::int64_t offset = 0;
    for (const Tensor& out : outputs) {
      const Tensor eye = identity(total, out.dtype(), out.device());
      Shape shape = concat_shapes({total}, out.shape());
      basis.emplace_back(ops::reshape(ops::slice(eye, 1, offset, offset + out.numel()), shape));
      offset += out.numel();
    }
    const PyFunction pull_back = [lin, inputs](const std::vector<PyTree>& cotangents) {
      TensorList cts;
      for (const PyTree& ct : cotangents) cts.push_back(ct.tensor());
      const TensorList input_cts = lin->tape->transpose(lin->input_ids, lin->output_ids, cts);
      std::vector<PyTree> rows;
      for (std::size_t j = 0; j < inputs.size(); ++j) {
        rows.emplace_back(input_cts[j].defined() ? input_cts[j] : zeros_like_leaf(inputs[j]));
      }
      return PyTree::tuple(rows);
    };
    VmapOptions vmap_options;
    vmap_options.chunk_size = options.chunk_size;
    const PyTree rows = vmap(pull_back, vmap_options)(basis);
    std::vector<std::vector<Tensor>> blocks(outputs.size());
    offset = 0;
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      for (std::size_t j = 0; j < inputs.size(); ++j) {
        const Tensor part = ops::slice(rows.children()[j].tensor(), 0, offset, offset + outputs[k].numel());
        blocks[k].push_back(ops::reshape(part, concat_shapes(outputs[k].shape(), inputs[j].shape())));
      }
      offset += outputs[k].numel();
    }
    const PyTree jac = jacobian_tree(lin->output, args, positions, options.argnums.tuple, blocks);
    return options.has_aux ? PyTree::tuple({jac, lin->aux}) : jac;
  };
}

PyFunction jacfwd(PyFunction f, JacfwdOptions options) {
  return [f = std::move(f), options](const std::vector<PyTree>& args) {
    const std::vector<std::size_t> positions = resolve_argnums(options.argnums, args.size(), "jacfwd");
    const std::vector<bool> selected = selected_leaves(args, positions);
    const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
    std::vector<Tensor> inputs;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (!selected[i]) continue;
      check_differentiable(leaves[i], "jacfwd", i);
      inputs.push_back(leaves[i].tensor());
      total += inputs.back().numel();
    }
    std::vector<PyTree> basis;
    std::int64_t offset = 0;
    for (const Tensor& in : inputs) {
      const Tensor eye = identity(total, in.dtype(), in.device());
      basis.emplace_back(
          ops::reshape(ops::slice(eye, 1, offset, offset + in.numel()), concat_shapes({total}, in.shape())));
      offset += in.numel();
    }
    const PyTree arguments = PyTree::tuple(args);
    const PyFunction push_forward = [&](const std::vector<PyTree>& basis_tangents) {
      std::vector<PyTree> tangent_leaves(leaves.size());
      std::size_t next = 0;
      for (std::size_t i = 0; i < leaves.size(); ++i) {
        if (selected[i]) tangent_leaves[i] = basis_tangents[next++];
      }
      const JvpResult r = jvp(f, args, arguments.with_leaves(tangent_leaves).children(), options.has_aux);
      return PyTree::tuple({r.tangent, r.output, r.aux});
    };
    // Under randomness='different' every basis direction draws its own values, so f's output (and
    // aux) differ along the basis and come back batched, as in torch.func, which keeps those of the
    // first direction; otherwise they are one value, returned unbatched. An empty basis has no first
    // direction and no Jacobian entry a draw could reach, so it runs as 'same'.
    const bool per_direction = options.randomness == Randomness::Different && total > 0;
    VmapOptions vmap_options;
    vmap_options.randomness =
        options.randomness == Randomness::Different && total == 0 ? Randomness::Same : options.randomness;
    vmap_options.out_dims = per_direction
                                ? PyTree::tuple({PyTree(0), PyTree(0), options.has_aux ? PyTree(0) : PyTree::none()})
                                : PyTree::tuple({PyTree(0), PyTree::none(), PyTree::none()});
    PyTree result = vmap(push_forward, vmap_options)(basis);
    if (per_direction) {
      std::vector<PyTree> children = result.children();
      for (std::size_t i : {std::size_t{1}, std::size_t{2}}) {
        std::vector<PyTree> first;
        for (const PyTree& leaf : children[i].leaves())
          first.emplace_back(leaf.is_tensor() ? PyTree(ops::select(leaf.tensor(), 0, 0)) : leaf);
        children[i] = children[i].with_leaves(first);
      }
      result = PyTree::tuple(std::move(children));
    }
    const PyTree& tangents = result.children()[0];
    const PyTree& output = result.children()[1];
    std::vector<std::vector<Tensor>> blocks;
    std::size_t k = 0;
    for (const PyTree& leaf : tangents.leaves()) {
      FUNCSPEC_CHECK(leaf.is_tensor() && is_floating(leaf.tensor().dtype()), ErrorKind::AdNonDifferentiableInput,
                     "[jacfwd] output leaf {} is {}; a Jacobian needs floating tensor outputs", k, leaf.describe());
      const Tensor& rows = leaf.tensor();  // [total, *out.shape]
      const Shape out_shape(rows.shape().begin() + 1, rows.shape().end());
      std::vector<Tensor> per_input;
      offset = 0;
      for (const Tensor& in : inputs) {
        Tensor part = ops::slice(rows, 0, offset, offset + in.numel());
        // [n_in, *out] -> [*out, n_in] -> [*out, *in]
        part = ops::movedim(part, {0}, {static_cast<std::int64_t>(out_shape.size())});
        per_input.push_back(ops::reshape(part, concat_shapes(out_shape, in.shape())));
        offset += in.numel();
      }
      blocks.push_back(std::move(per_input));
      ++k;
    }
    const PyTree jac = jacobian_tree(output, args, positions, options.argnums.tuple, blocks);
    return options.has_aux ? PyTree::tuple({jac, result.children()[2]}) : jac;
  };
}

PyFunction hessian(PyFunction f, Argnums argnums) {
  JacrevOptions inner;
  inner.argnums = argnums;
  JacfwdOptions outer;
  outer.argnums = std::move(argnums);
  return jacfwd(jacrev(std::move(f), inner), outer);
}

}  // namespace funcspec::transforms
