// vmap equals the loop over nested arguments and results (NOTE: [pytrees]): a generated program
// whose inputs arrive grouped into tuples, lists and dicts (literals as non-tensor leaves), whose
// results leave grouped too, under prefix in_dims and out_dims drawn to fit (any dim in range,
// negative ones included; None for leaves not mapped). The case format names inputs and results
// flatly, so this law is the engine's: an external backend reports it unsupported.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "property_tests/generators.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/vmap.h"

namespace funcspec::properties {

namespace {

using transforms::PyFunction;
using transforms::PyTree;

constexpr std::string_view kPytreeEqualsLoop = "PROP-VMAP/pytree-equals-loop";

// The leaves of draw `draw` of the program's inputs: tensors, and literals as scalars.
std::vector<PyTree> input_leaves(const GeneratedProgram& program, int draw) {
  std::vector<PyTree> leaves;
  for (const conformance::CaseInput& in : draw_inputs(program, draw)) {
    if (const auto* literal = std::get_if<conformance::LiteralSpec>(&in.value)) {
      leaves.emplace_back(literal->value);
    } else {
      leaves.emplace_back(conformance::materialize_tensor(std::get<conformance::TensorSpec>(in.value)));
    }
  }
  return leaves;
}

std::vector<std::optional<std::int64_t>> ranks_of(const std::vector<PyTree>& leaves) {
  std::vector<std::optional<std::int64_t>> ranks;
  for (const PyTree& leaf : leaves) {
    ranks.push_back(leaf.is_tensor() ? std::optional<std::int64_t>(leaf.tensor().dim()) : std::nullopt);
  }
  return ranks;
}

// The program as a function of nested arguments returning a nested result.
PyFunction program_function(const GeneratedProgram& program, const PyTree& result_structure) {
  return [&program, result_structure](const std::vector<PyTree>& args) {
    std::map<std::string, Tensor, std::less<>> inputs;
    const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (leaves[i].is_tensor()) inputs[program.program.inputs[i].name] = leaves[i].tensor();
    }
    std::vector<PyTree> results;
    for (const Tensor& t : conformance::run_case_program(program.program, inputs)) results.emplace_back(t);
    return result_structure.with_leaves(results);
  };
}

PropertyCheck check_pytree_equals_loop(const ProgramOptions& programs) {
  ProgramOptions options = programs;
  options.max_steps = 3;
  const GeneratedProgram program = draw_program(options);
  const std::vector<PyTree> example_leaves = input_leaves(program, 0);
  RC_PRE(std::any_of(example_leaves.begin(), example_leaves.end(), [](const PyTree& l) { return l.is_tensor(); }));
  const PyTree arguments = (*gen_argument_structure(example_leaves.size())).with_leaves(example_leaves);
  const PyTree in_dims = *gen_dims_prefix(arguments, ranks_of(example_leaves), true);

  const std::vector<std::optional<std::int64_t>> leaf_dims =
      transforms::broadcast_dims(in_dims, arguments, "in_dims", ErrorKind::Internal);
  const std::int64_t batch = *rc::gen::inRange<std::int64_t>(1, 4);
  // Mapped leaves stack further draws of the program's inputs (draws 1..batch), the rest keep draw 0.
  std::vector<std::vector<PyTree>> draws;
  for (std::int64_t b = 0; b < batch; ++b) draws.push_back(input_leaves(program, static_cast<int>(b) + 1));
  std::vector<PyTree> batched_leaves = example_leaves;
  for (std::size_t i = 0; i < batched_leaves.size(); ++i) {
    if (!leaf_dims[i]) continue;
    TensorList slices;
    for (const std::vector<PyTree>& drawn : draws) slices.push_back(drawn[i].tensor());
    batched_leaves[i] =
        PyTree(ops::contiguous(oracles::batch_of(slices, example_leaves[i].tensor(), {{batch, *leaf_dims[i]}})));
  }
  const PyTree batched = arguments.with_leaves(batched_leaves);
  const PyTree result_structure = *gen_result_structure(program.program.outputs.size());
  const PyFunction f = program_function(program, result_structure);

  // The loop of VMAP-1.1 (NOTE: [loop-and-stack oracle]): example b takes index b of every mapped
  // leaf along its in_dim (a select, strides included, so a view meets the same layout in the loop
  // as under vmap). Its results are stacked at the front until out_dims, drawn to fit them, place
  // them.
  PyTree example_result;  // the first example's, for the results' structure
  const oracles::LoopAndStack loop = oracles::loop_and_stack({{batch, 0}}, [&](std::int64_t b) {
    std::vector<PyTree> leaves = batched_leaves;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      if (leaf_dims[i]) leaves[i] = PyTree(ops::select(batched_leaves[i].tensor(), *leaf_dims[i], b));
    }
    const PyTree result = f(arguments.with_leaves(leaves).children());
    if (b == 0) example_result = result;
    TensorList tensors;
    for (const PyTree& leaf : result.leaves()) tensors.push_back(leaf.tensor());
    return tensors;
  });
  const std::optional<Error>& loop_error = loop.error;
  PyTree out_dims(0);  // where the loop raised there are no results to place
  if (!loop_error) {
    std::vector<std::optional<std::int64_t>> result_ranks;
    for (const PyTree& leaf : example_result.leaves()) result_ranks.emplace_back(leaf.tensor().dim());
    out_dims = *gen_dims_prefix(example_result, result_ranks, false);
  }

  transforms::VmapOptions vmap_options;
  vmap_options.in_dims = in_dims;
  vmap_options.out_dims = out_dims;
  if (const int chunk = *rc::gen::inRange(0, 3); chunk > 0) vmap_options.chunk_size = chunk;
  RC_LOG() << program.describe() << "arguments: " << batched.describe() << "\nin_dims: " << in_dims.describe()
           << "\nout_dims: " << out_dims.describe()
           << (vmap_options.chunk_size ? fmt::format(", chunk_size={}", *vmap_options.chunk_size) : std::string())
           << "\n";

  PyTree vmapped;
  try {
    vmapped = transforms::vmap(f, vmap_options)(batched.children());
  } catch (const Error& e) {
    if (loop_error && loop_error->kind() == e.kind()) return PropertyCheck::holds();
    return PropertyCheck::violated(
        loop_error ? fmt::format("vmap raised {} ({}) where the loop raises {} ({})", error_kind_name(e.kind()),
                                 e.what(), error_kind_name(loop_error->kind()), loop_error->what())
                   : fmt::format("vmap raised {} ({}) where the loop of its examples answers",
                                 error_kind_name(e.kind()), e.what()),
        std::nullopt);
  }
  if (loop_error)
    return PropertyCheck::violated(fmt::format("vmap answered where the loop raises {} ({})",
                                               error_kind_name(loop_error->kind()), loop_error->what()),
                                   std::nullopt);

  const std::vector<std::optional<std::int64_t>> out_leaf_dims =
      transforms::broadcast_dims(out_dims, example_result, "out_dims", ErrorKind::Internal);
  std::vector<PyTree> truth_leaves;
  for (std::size_t k = 0; k < out_leaf_dims.size(); ++k)
    truth_leaves.emplace_back(oracles::place_batch_dims(loop.results[k], {{batch, *out_leaf_dims[k]}}));
  const std::string differs = pytree_difference(vmapped, example_result.with_leaves(truth_leaves));
  if (differs.empty()) return PropertyCheck::holds();
  return PropertyCheck::violated(differs, std::nullopt);  // the program, arguments and dims are logged
}

}  // namespace

void add_pytree_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kPytreeEqualsLoop),
                 "vmap over nested arguments (tuples, lists, dicts, non-tensor leaves) with prefix in_dims and "
                 "out_dims equals the loop over its examples, each result leaf stacked at its out_dim",
                 {"VMAP-1.1", "VMAP-1.2", "VMAP-1.3", "VMAP-1.6"},
                 300,
                 "the case format passes flat named tensors, so nested arguments exist only in the engine's API",
                 [programs](PropertyContext&) { return check_pytree_equals_loop(programs); }});
}

}  // namespace funcspec::properties
