// VMAP-ORACLE/<op>/<dtype>/<n>-<label>/<batching>: vmap of each op equals the loop-and-stack oracle
// (NOTE: [loop-and-stack oracle]: the op on each example, results stacked), which uses no batching
// rule at all (NOTE: [vmap semantics]), within the op's stated accuracy (NOTE: [vmap oracle
// tolerance], item 3). The examples of a batch are draws of the same sample with different values.
#include <fmt/format.h>

#include <fmt/ranges.h>
#include <algorithm>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/oracles/vmap_tolerance.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "conformance/suite/variant_samples.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::conformance {
namespace {

// Where each tensor input's batch dim goes (nullopt: not batched), the result's out_dim, the batch
// size, and whether the function is vmapped twice (examples then form a [2, 2] grid).
struct Batching {
  std::string name;
  std::vector<std::optional<std::int64_t>> in_dims;  // per input position
  std::int64_t out_dim = 0;
  std::int64_t batch_size = 3;
  bool nested = false;
  bool every_combination = false;  // one of the combinations only the nightly tier runs
};

std::vector<std::size_t> tensor_positions(const samples::OpSample& sample) {
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < sample.inputs.size(); ++i) {
    const Tensor& t = sample.inputs[i];
    if (t.defined() && !t.is_wrapped_number()) positions.push_back(i);
  }
  return positions;
}

// "x0@0-x1@-1-x2@none": the batching of each tensor input in turn.
std::string combination_name(const std::vector<std::optional<std::int64_t>>& dims,
                             const std::vector<std::size_t>& tensors) {
  std::string name;
  for (std::size_t p : tensors) {
    if (!name.empty()) name += "-";
    name += fmt::format("x{}@{}", p, dims[p] ? fmt::format("{}", *dims[p]) : std::string("none"));
  }
  return name;
}

std::vector<Batching> batchings(const samples::OpSample& sample, bool all, bool every_combination) {
  const std::vector<std::size_t> tensors = tensor_positions(sample);
  const std::size_t n = sample.inputs.size();
  auto uniform = [&](std::optional<std::int64_t> dim) {
    std::vector<std::optional<std::int64_t>> dims(n);
    for (std::size_t p : tensors) dims[p] = dim;
    return dims;
  };
  std::vector<Batching> out{{"all@0", uniform(0)}};
  if (!all) return out;
  out.push_back({"all@-1", uniform(-1)});
  out.push_back({"all@0-out@-1", uniform(0), -1});
  out.push_back({"all@0-b1", uniform(0), 0, 1});
  out.push_back({"all@0-b0", uniform(0), 0, 0});
  out.push_back({"nested", uniform(0), 0, 2, true});
  if (tensors.size() >= 2) {
    for (std::size_t p : tensors) {
      std::vector<std::optional<std::int64_t>> dims(n);
      dims[p] = 0;
      out.push_back({fmt::format("x{}@0-only", p), dims});
    }
  }
  // Every input at the front, at the back or unbatched, in every combination (up to three tensor
  // inputs: 26 combinations), beyond the ones above.
  if (every_combination && tensors.size() >= 2 && tensors.size() <= 3) {
    const std::optional<std::int64_t> choices[] = {std::int64_t{0}, std::int64_t{-1}, std::nullopt};
    std::size_t total = 1;
    for (std::size_t i = 0; i < tensors.size(); ++i) total *= 3;
    for (std::size_t code = 0; code < total; ++code) {
      std::vector<std::optional<std::int64_t>> dims(n);
      std::size_t rest = code;
      std::size_t batched = 0;
      for (std::size_t p : tensors) {
        dims[p] = choices[rest % 3];
        rest /= 3;
        batched += dims[p].has_value();
      }
      const bool uniform_front = batched == tensors.size() && std::all_of(tensors.begin(), tensors.end(),
                                                                          [&](std::size_t p) { return *dims[p] == 0; });
      const bool uniform_back = batched == tensors.size() && std::all_of(tensors.begin(), tensors.end(),
                                                                         [&](std::size_t p) { return *dims[p] == -1; });
      const bool single_front = batched == 1 && std::any_of(tensors.begin(), tensors.end(), [&](std::size_t p) {
                                  return dims[p] == std::optional<std::int64_t>(0);
                                });
      if (batched == 0 || uniform_front || uniform_back || single_front) continue;  // none, or already above
      out.push_back({combination_name(dims, tensors), dims, 0, 3, false, true});
    }
  }
  return out;
}

// The levels of the batch, each keeping its batch dim at `dim`.
std::vector<oracles::BatchLevel> levels_of(const Batching& batching, std::int64_t dim) {
  if (batching.nested) return {{batching.batch_size, dim}, {batching.batch_size, dim}};
  return {{batching.batch_size, dim}};
}

// Example e's results: the op on the example's inputs (copies, so an in-place op writes its own).
// An op that draws random numbers (a composite like dropout, an in-place random op) must be
// refused by vmap's default randomness='error', so that is the example's error.
TensorList op_on_example(const OpDef& op, const TensorList& inputs, const Attrs& attrs) {
  TensorList results = call(op, samples::clone_inputs(inputs), attrs);
  if (random::current_generator().draw_calls() != 0) throw Error(ErrorKind::VmapRandomness, "draws random numbers");
  return results;
}

bool writes_an_unbatched_input(const OpDef& op, const Batching& batching) {
  const std::vector<const ArgSpec*> args = op.schema.tensor_args();
  bool any_batched = false;
  for (const auto& d : batching.in_dims) any_batched = any_batched || d.has_value();
  for (std::size_t i = 0; i < args.size() && i < batching.in_dims.size(); ++i) {
    if (args[i]->mutated && !batching.in_dims[i] && any_batched) return true;
  }
  return false;
}

// draws[d] is example d's sample (same index, other values).
Case vmap_oracle_case(const OpDef& op, const std::vector<samples::OpSample>& draws, const Batching& batching,
                      const samples::OracleTolerance& tolerance, const std::string& id, Tier tier, std::uint64_t seed) {
  const samples::OpSample& first = draws.front();
  const std::size_t n = first.inputs.size();
  const std::int64_t examples = batching.nested ? batching.batch_size * batching.batch_size : batching.batch_size;
  Case c;
  c.id = id;
  c.clauses = {"VMAP-1.1"};
  if (batching.nested) c.clauses.push_back("VMAP-1.4");
  if (batching.batch_size < 2) c.clauses.push_back("VMAP-1.5");
  c.tier = tier;
  c.seed = seed;
  c.description = fmt::format("vmap of {} [{}] with {} equals the op on each example, stacked", op.name(), first.label,
                              batching.name);

  // Example e of input i: draw e of the sample (unbatched inputs: draw 0).
  auto example_input = [&](std::size_t i, std::int64_t e) { return draws[static_cast<std::size_t>(e)].inputs[i]; };
  OpCall step{{}, op.name(), {}, first.attrs};
  DimSpec in_dims;
  in_dims.form = DimSpec::Form::ByName;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = fmt::format("x{}", i);
    if (!first.inputs[i].defined()) {
      step.args.push_back(std::nullopt);
      continue;
    }
    step.args.push_back(name);
    if (!batching.in_dims[i]) {
      c.inputs.push_back(case_input_of(name, first.inputs[i]));
      in_dims.by_name.emplace_back(name, std::nullopt);
      continue;
    }
    TensorList parts;
    for (std::int64_t e = 0; e < examples; ++e) parts.push_back(example_input(i, e));
    const std::int64_t batched_rank = first.inputs[i].dim() + 1;
    const std::int64_t dim = batching.nested            ? 0
                             : *batching.in_dims[i] < 0 ? *batching.in_dims[i] + batched_rank
                                                        : *batching.in_dims[i];
    c.inputs.push_back(case_input_of(name, oracles::batch_of(parts, first.inputs[i], levels_of(batching, dim))));
    in_dims.by_name.emplace_back(name, dim);
  }

  // The oracle, one example at a time; an empty batch takes its results' shapes from the first
  // example's.
  const auto example_inputs = [&](std::int64_t e) {
    TensorList inputs;
    for (std::size_t i = 0; i < n; ++i) inputs.push_back(batching.in_dims[i] ? example_input(i, e) : first.inputs[i]);
    return inputs;
  };
  oracles::LoopAndStack oracle;
  {
    random::GeneratorScope scope(seed);
    oracle = oracles::loop_and_stack(
        levels_of(batching, batching.out_dim),
        [&](std::int64_t e) { return op_on_example(op, example_inputs(e), first.attrs); },
        [&] { return op_on_example(op, first.inputs, first.attrs); });
  }
  const std::optional<ErrorKind> oracle_error =
      oracle.error ? std::optional<ErrorKind>(oracle.error->kind()) : std::nullopt;

  const std::size_t result_count =
      oracle.error ? std::max<std::size_t>(1, op.schema.returns.size()) : oracle.results.size();
  for (std::size_t k = 0; k < result_count; ++k) step.outs.push_back(fmt::format("r{}", k));
  c.program.push_back(step);
  c.outputs = step.outs;
  VmapTransform vmap;
  vmap.in_dims = in_dims;
  vmap.out_dims.form = DimSpec::Form::All;
  vmap.out_dims.all = batching.out_dim;
  c.transforms.push_back(vmap);
  if (batching.nested) c.transforms.push_back(vmap);

  // What an example raises comes first (the op layer checks the examples before vmap sees the op).
  if (op.kind == OpKind::OutVariant) {
    c.clauses = {"VMAP-3.2"};
    c.expect.error = ErrorKind::VmapOutVariant;
  } else if (oracle_error == ErrorKind::VmapRandomness) {
    c.clauses = {"VMAP-2.1"};
    c.expect.error = oracle_error;
  } else if (oracle_error) {
    c.expect.error = oracle_error;
  } else if (writes_an_unbatched_input(op, batching)) {
    c.clauses = {"VMAP-3.1"};
    c.expect.error = ErrorKind::VmapInplaceUnbatched;
  } else {
    for (std::size_t k = 0; k < oracle.results.size(); ++k) {
      const Tensor& r = oracle.results[k];
      ExpectedValue value{step.outs[k], TensorSpec{tensor_data_of(r), "", false, {}, false}, std::nullopt};
      value.tolerance = oracles::vmap_oracle_tolerance(oracles::OpAgainstReferenceLoop{tolerance, first.inputs}, r);
      c.expect.values.push_back(std::move(value));
    }
  }
  return c;
}

// Draws whose sample `index` has the same shapes, dtypes and attributes as draw 0's.
bool draws_agree(const std::vector<std::vector<samples::OpSample>>& draws, std::size_t index) {
  const samples::OpSample& first = draws[0][index];
  for (const auto& draw : draws) {
    if (draw.size() <= index) return false;
    const samples::OpSample& other = draw[index];
    if (other.inputs.size() != first.inputs.size() || other.attrs.values() != first.attrs.values()) return false;
    for (std::size_t i = 0; i < first.inputs.size(); ++i) {
      const Tensor& a = first.inputs[i];
      const Tensor& b = other.inputs[i];
      if (a.defined() != b.defined()) return false;
      if (a.defined() &&
          (a.shape() != b.shape() || a.dtype() != b.dtype() || a.is_wrapped_number() != b.is_wrapped_number()))
        return false;
    }
  }
  return true;
}

}  // namespace

void add_vmap_oracle_tests(const SuiteOptions& options, ConformanceTests& tests) {
  constexpr int kDraws = 4;  // the nested batching's 2 x 2 grid needs four examples
  for (const auto& [name, spec] : all_sample_specs()) {
    const OpDef* op = OpRegistry::instance().find(name);
    if (op == nullptr || op->kind == OpKind::Random || op->kind == OpKind::DynamicShape ||
        op->kind == OpKind::ScalarExtraction)
      continue;
    for (DType floating : {DType::Float64, DType::Float32}) {
      // Below the nightly tier only the first samples in float64 run: drawing the others would cost
      // every run (and every shard, and every --jobs worker) their generation for nothing.
      const bool beyond_pr = static_cast<int>(options.tier) >= static_cast<int>(Tier::Nightly);
      if (floating == DType::Float32 && !beyond_pr) continue;
      std::vector<std::vector<samples::OpSample>> draws;
      for (int d = 0; d < kDraws; ++d) {
        SampleDraw drawn = draw_samples(spec, floating, options.seed, d + 1);
        std::vector<samples::OpSample> samples;
        for (SampleCall& call : drawn.calls) samples.push_back(std::move(call.sample));
        draws.push_back(std::move(samples));
      }
      for (std::size_t index = 0; index < draws[0].size(); ++index) {
        if (index >= 3 && !beyond_pr) break;
        if (!draws_agree(draws, index) || tensor_positions(draws[0][index]).empty()) continue;
        // A case returns at least one value: an op that returns no tensors for this sample (unbind
        // of a size-0 dim) has nothing to stack.
        try {
          random::GeneratorScope scope(options.seed);
          if (call(*op, samples::clone_inputs(draws[0][index].inputs), draws[0][index].attrs).empty()) continue;
        } catch (const Error&) {
          // The sample raises: the case expects that error kind.
        }
        // Every batching of the first three samples of an op is pr; the rest, and float32, nightly.
        const bool pr = floating == DType::Float64 && index < 3;
        for (const Batching& batching : batchings(draws[0][index], true, beyond_pr)) {
          const bool smoke = pr && index == 0 && batching.name == "all@0";
          const Tier tier = smoke ? Tier::Smoke : pr && !batching.every_combination ? Tier::Pr : Tier::Nightly;
          const std::string id = fmt::format("VMAP-ORACLE/{}/{}/{}-{}/{}", name, dtype_name(floating), index,
                                             id_slug(draws[0][index].label), batching.name);
          std::vector<samples::OpSample> examples;
          for (const auto& draw : draws) examples.push_back(draw[index]);
          tests.push_back({id,
                           {"VMAP-1.1"},
                           tier,
                           "op sample database",
                           [op, examples, batching, tolerance = spec.tolerance, id, tier, seed = options.seed]() {
                             return vmap_oracle_case(*op, examples, batching, tolerance, id, tier, seed);
                           }});
        }
      }
    }
  }
}

}  // namespace funcspec::conformance
