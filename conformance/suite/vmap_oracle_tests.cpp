// VMAP-ORACLE/<op>/<dtype>/<n>-<label>/<batching>: vmap of each op equals the loop-and-stack oracle
// (NOTE: [loop-and-stack oracle]: the op on each example, results stacked), which uses no batching
// rule at all (NOTE: [vmap semantics]), within the op's stated accuracy (NOTE: [vmap oracle
// tolerance], item 3). The examples of a batch are draws of the same sample with different values.
//
// VMAP-OP-DIMS/<op>/<dtype>/<n>-<label>/<batching>: the same oracle for the batchings where the
// arguments disagree (VMAP-1.2, VMAP-1.3): inputs at 0, at -1 and unbatched in one call, in_dims and
// out_dims written negative as the case gives them to the backend (VMAP-ORACLE's cases carry them
// counted from the front), several out_dims for an op's several results, and results that do not
// depend on the batch, which must come out expanded along their out_dim: the op on unbatched inputs
// only, inside a vmap that maps another argument, and a second call on unbatched copies beside a
// batched one.
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
#include "conformance/suite/tier_samples.h"
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
  // VMAP-OP-DIMS: the family's id prefix, dims given to the backend as written (negative ones
  // stay negative), an out_dim per result, and results that do not depend on the batch.
  bool mixed_dims = false;
  std::vector<std::int64_t> out_dims_by_result{};  // empty: out_dim for every result
  enum class Unbatched {
    None,
    OnlyUnbatchedInputs,  // every op input unbatched; an extra input `b`, which nothing reads, is mapped
    SecondCallOnCopies,   // op(batched inputs) and op(unbatched copies u0..) both returned
  };
  Unbatched unbatched = Unbatched::None;
  std::int64_t extra_input_dim = 0;  // OnlyUnbatchedInputs: b's in_dim
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

std::vector<Batching> batchings(const samples::OpSample& sample, bool all) {
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
  return out;
}

// VMAP-OP-DIMS's batchings of a sample whose op returns results of `result_ranks` (nothing when the
// sample raises: then only the in_dims vary).
std::vector<Batching> mixed_dim_batchings(const samples::OpSample& sample,
                                          const std::optional<std::vector<std::int64_t>>& result_ranks) {
  const std::vector<std::size_t> tensors = tensor_positions(sample);
  const std::size_t n = sample.inputs.size();
  std::vector<Batching> out;
  auto add = [&](std::string name, std::vector<std::optional<std::int64_t>> dims, std::int64_t out_dim) {
    Batching b{std::move(name), std::move(dims), out_dim};
    b.mixed_dims = true;
    out.push_back(std::move(b));
    return &out.back();
  };
  // Each input at its front, written negatively: -(rank + 1) is 0 of the batched rank.
  {
    std::vector<std::optional<std::int64_t>> dims(n);
    for (std::size_t p : tensors) dims[p] = -(sample.inputs[p].dim() + 1);
    add("each@front-as-negative", dims, 0);
  }
  // Every input at the front, at the back or unbatched, in every combination (up to three tensor
  // inputs: 26), but those VMAP-ORACLE already runs (all at 0, one at 0 and the rest unbatched);
  // more inputs take the patterns 0, -1, 0, ... and -1, 0, -1, ... and 0, -1, None, ...
  if (tensors.size() >= 2) {
    std::vector<std::vector<std::optional<std::int64_t>>> patterns;
    const std::optional<std::int64_t> choices[] = {std::int64_t{0}, std::int64_t{-1}, std::nullopt};
    if (tensors.size() <= 3) {
      std::size_t total = 1;
      for (std::size_t i = 0; i < tensors.size(); ++i) total *= 3;
      for (std::size_t code = 0; code < total; ++code) {
        std::vector<std::optional<std::int64_t>> dims(n);
        std::size_t rest = code;
        std::size_t batched = 0;
        std::size_t at_front = 0;
        for (std::size_t p : tensors) {
          dims[p] = choices[rest % 3];
          rest /= 3;
          batched += dims[p].has_value();
          at_front += dims[p] == std::optional<std::int64_t>(0);
        }
        const bool all_front = at_front == tensors.size();
        const bool single_front = batched == 1 && at_front == 1;
        if (batched == 0 || all_front || single_front) continue;
        patterns.push_back(dims);
      }
    } else {
      for (std::size_t shift = 0; shift < 3; ++shift) {
        std::vector<std::optional<std::int64_t>> dims(n);
        std::size_t k = 0;
        for (std::size_t p : tensors) dims[p] = choices[(k++ + shift) % (shift == 2 ? 3 : 2)];
        patterns.push_back(dims);
      }
    }
    for (const auto& dims : patterns) add(combination_name(dims, tensors), dims, 0);
  }
  // The alternating batching 0, -1, 0, ... (all -1 for one input) under negative out_dims.
  std::vector<std::optional<std::int64_t>> alternating(n);
  {
    std::size_t k = 0;
    for (std::size_t p : tensors) alternating[p] = k++ % 2 == 0 && tensors.size() > 1 ? 0 : -1;
  }
  const std::string alternating_name = combination_name(alternating, tensors);
  if (!result_ranks) return out;
  add(alternating_name + "-out@-1", alternating, -1);
  const bool every_result_has_a_dim =
      std::all_of(result_ranks->begin(), result_ranks->end(), [](std::int64_t rank) { return rank >= 1; });
  if (every_result_has_a_dim) add(alternating_name + "-out@-2", alternating, -2);
  if (result_ranks->size() >= 2) {
    // Each result its own out_dim: the front written negatively, then -1, alternately.
    std::vector<std::int64_t> dims;
    std::string name = alternating_name + "-outs@";
    for (std::size_t k = 0; k < result_ranks->size(); ++k) {
      dims.push_back(k % 2 == 0 ? -((*result_ranks)[k] + 1) : -1);
      name += fmt::format("{}{}", k == 0 ? "" : ",", dims.back());
    }
    add(name, alternating, 0)->out_dims_by_result = dims;
  }
  // Results that do not depend on the batch.
  for (std::int64_t dim : {std::int64_t{0}, std::int64_t{-1}}) {
    Batching* b =
        add(fmt::format("unbatched-inputs-b@{}-out@{}", dim, dim), std::vector<std::optional<std::int64_t>>(n), dim);
    b->unbatched = Batching::Unbatched::OnlyUnbatchedInputs;
    b->extra_input_dim = dim;
  }
  add(alternating_name + "-and-unbatched-copies-out@-1", alternating, -1)->unbatched =
      Batching::Unbatched::SecondCallOnCopies;
  return out;
}

// The clauses a batching checks when the op gives values.
std::vector<std::string> clauses_of(const Batching& batching) {
  if (!batching.mixed_dims) return {"VMAP-1.1"};
  std::vector<std::string> clauses{"VMAP-1.1", "VMAP-1.2"};
  if (batching.out_dim != 0 || !batching.out_dims_by_result.empty() || batching.unbatched != Batching::Unbatched::None)
    clauses.push_back("VMAP-1.3");
  return clauses;
}

// The levels of the batch, each keeping its batch dim at `dim`.
std::vector<oracles::BatchLevel> levels_of(const Batching& batching, std::int64_t dim) {
  if (batching.nested) return {{batching.batch_size, dim}, {batching.batch_size, dim}};
  return {{batching.batch_size, dim}};
}

// Example e's results: the op on the example's inputs (copies, so an in-place op writes its own).
// An op that draws random numbers (a composite like dropout, an in-place random op) must be
// refused by vmap's default randomness='error', so that is the example's error; also when the
// example fails after its draw (gumbel_softmax reads dim after drawing): vmap refuses the draw first.
TensorList op_on_example(const samples::OpSampleSpec& spec, const samples::OpSample& sample, const TensorList& inputs,
                         const Attrs& attrs) {
  const auto refuse_a_draw = [] {
    if (random::current_generator().draw_calls() != 0) throw Error(ErrorKind::VmapRandomness, "draws random numbers");
  };
  TensorList results;
  try {
    results =
        samples::run_program(spec.op, samples::sample_program(spec, sample), samples::clone_inputs(inputs), attrs);
  } catch (const Error&) {
    refuse_a_draw();
    throw;
  }
  refuse_a_draw();
  return results;
}

// Whether the call writes a value that differs per example into an input that is not batched
// (VMAP-3.1): by default every `Tensor(a!)` input is written from every input; an op whose spec
// says what it writes from what (OpSampleSpec::writes) is held to that.
bool writes_an_unbatched_input(const OpDef& op, const samples::OpSampleSpec& spec, const samples::OpSample& sample,
                               const Batching& batching) {
  const auto batched = [&](std::size_t i) { return i < batching.in_dims.size() && batching.in_dims[i].has_value(); };
  if (spec.writes) {
    for (const auto& [written, sources] : spec.writes(sample)) {
      if (batched(written)) continue;
      for (std::size_t source : sources) {
        if (batched(source)) return true;
      }
    }
    return false;
  }
  const std::vector<const ArgSpec*> args = op.schema.tensor_args();
  bool any_batched = false;
  for (const auto& d : batching.in_dims) any_batched = any_batched || d.has_value();
  for (std::size_t i = 0; i < args.size() && i < batching.in_dims.size(); ++i) {
    if (args[i]->mutated && !batching.in_dims[i] && any_batched) return true;
  }
  return false;
}

// draws[d] is example d's sample (same index, other values).
Case vmap_oracle_case(const OpDef& op, const samples::OpSampleSpec& spec, const std::vector<samples::OpSample>& draws,
                      const Batching& batching, const samples::OracleTolerance& tolerance, const std::string& id,
                      Tier tier, std::uint64_t seed) {
  const samples::OpSample& first = draws.front();
  const std::size_t n = first.inputs.size();
  const std::int64_t examples = batching.nested ? batching.batch_size * batching.batch_size : batching.batch_size;
  Case c;
  c.id = id;
  c.clauses = clauses_of(batching);
  if (batching.nested) c.clauses.push_back("VMAP-1.4");
  if (batching.batch_size < 2) c.clauses.push_back("VMAP-1.5");
  c.tier = tier;
  c.seed = seed;
  c.description = fmt::format("vmap of {} [{}] with {} equals the op on each example, stacked", op.name(), first.label,
                              batching.name);

  // Example e of input i: draw e of the sample (unbatched inputs: draw 0).
  auto example_input = [&](std::size_t i, std::int64_t e) { return draws[static_cast<std::size_t>(e)].inputs[i]; };
  // The op's arguments in the vmapped call, and in the SecondCallOnCopies call op(u0, u1, ...).
  std::vector<std::optional<std::string>> step_args;
  std::vector<std::optional<std::string>> on_copies_args;
  const bool second_call = batching.unbatched == Batching::Unbatched::SecondCallOnCopies;
  DimSpec in_dims;
  in_dims.form = DimSpec::Form::ByName;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = fmt::format("x{}", i);
    if (!first.inputs[i].defined()) {
      step_args.push_back(std::nullopt);
      on_copies_args.push_back(std::nullopt);
      continue;
    }
    step_args.push_back(name);
    on_copies_args.push_back(fmt::format("u{}", i));
    if (!batching.in_dims[i]) {
      c.inputs.push_back(case_input_of(name, first.inputs[i]));
      in_dims.by_name.emplace_back(name, std::nullopt);
      continue;
    }
    TensorList parts;
    for (std::int64_t e = 0; e < examples; ++e) parts.push_back(example_input(i, e));
    const std::int64_t batched_rank = first.inputs[i].dim() + 1;
    // VMAP-OP-DIMS gives the backend a negative dim as it is; VMAP-ORACLE counts from the front.
    const std::int64_t dim = batching.nested                                    ? 0
                             : batching.mixed_dims || *batching.in_dims[i] >= 0 ? *batching.in_dims[i]
                                                                                : *batching.in_dims[i] + batched_rank;
    c.inputs.push_back(case_input_of(name, oracles::batch_of(parts, first.inputs[i], levels_of(batching, dim))));
    in_dims.by_name.emplace_back(name, dim);
  }
  if (second_call) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!first.inputs[i].defined()) continue;
      const std::string name = fmt::format("u{}", i);
      c.inputs.push_back(case_input_of(name, first.inputs[i]));
      in_dims.by_name.emplace_back(name, std::nullopt);
    }
  }
  if (batching.unbatched == Batching::Unbatched::OnlyUnbatchedInputs) {
    std::vector<double> ramp;
    for (std::int64_t e = 0; e < examples; ++e) ramp.push_back(static_cast<double>(e));
    c.inputs.push_back(case_input_of("b", from_vector(ramp, {examples}, DType::Float64)));
    in_dims.by_name.emplace_back("b", batching.extra_input_dim);
  }

  // The oracle, one example at a time, every result at the front (placed at its out_dim below); an
  // empty batch takes its results' shapes from the first example's.
  const auto example_inputs = [&](std::int64_t e) {
    TensorList inputs;
    for (std::size_t i = 0; i < n; ++i) inputs.push_back(batching.in_dims[i] ? example_input(i, e) : first.inputs[i]);
    return inputs;
  };
  const auto example_results = [&](const TensorList& inputs) {
    TensorList results = op_on_example(spec, first, inputs, first.attrs);
    if (second_call) {
      for (Tensor& r : op_on_example(spec, first, first.inputs, first.attrs)) results.push_back(std::move(r));
    }
    return results;
  };
  const std::vector<oracles::BatchLevel> front = levels_of(batching, 0);
  oracles::LoopAndStack oracle;
  {
    random::GeneratorScope scope(seed);
    oracle = oracles::loop_and_stack(
        front, [&](std::int64_t e) { return example_results(example_inputs(e)); },
        [&] { return example_results(first.inputs); });
  }
  const std::optional<ErrorKind> oracle_error =
      oracle.error ? std::optional<ErrorKind>(oracle.error->kind()) : std::nullopt;
  const auto out_dim_of = [&](std::size_t k) {
    return k < batching.out_dims_by_result.size() ? batching.out_dims_by_result[k] : batching.out_dim;
  };

  const std::size_t result_count =
      oracle.error ? std::max<std::size_t>(1, op.schema.returns.size()) : oracle.results.size();
  const std::size_t batched_results = second_call && !oracle.error ? result_count / 2 : result_count;
  // The op inside its sample's program (NOTE: [non-unique results]).
  const samples::SampleProgram program = samples::sample_program(spec, first);
  std::vector<std::string> step_results;
  for (std::size_t k = 0; k < batched_results; ++k) step_results.push_back(fmt::format("r{}", k));
  c.program = program_calls(op.name(), program, first.attrs, step_args, step_results, "p_");
  c.outputs = step_results;
  if (second_call && !oracle.error) {
    std::vector<std::string> on_copies_results;
    for (std::size_t k = 0; k < result_count - batched_results; ++k) on_copies_results.push_back(fmt::format("s{}", k));
    for (OpCall& step : program_calls(op.name(), program, first.attrs, on_copies_args, on_copies_results, "q_"))
      c.program.push_back(std::move(step));
    c.outputs.insert(c.outputs.end(), on_copies_results.begin(), on_copies_results.end());
  }
  VmapTransform vmap;
  vmap.in_dims = in_dims;
  if (batching.out_dims_by_result.empty()) {
    vmap.out_dims.form = DimSpec::Form::All;
    vmap.out_dims.all = batching.out_dim;
  } else {
    vmap.out_dims.form = DimSpec::Form::ByPosition;
    for (std::int64_t d : batching.out_dims_by_result) vmap.out_dims.by_position.emplace_back(d);
  }
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
  } else if (writes_an_unbatched_input(op, spec, first, batching)) {
    c.clauses = {"VMAP-3.1"};
    c.expect.error = ErrorKind::VmapInplaceUnbatched;
  } else {
    for (std::size_t k = 0; k < oracle.results.size(); ++k) {
      const Tensor r = oracles::place_batch_dims(oracle.results[k], levels_of(batching, out_dim_of(k)));
      ExpectedValue value{c.outputs[k], TensorSpec{tensor_data_of(r), "", false, {}, false}, std::nullopt};
      value.tolerance = oracles::vmap_oracle_tolerance(oracles::OpAgainstReferenceLoop{tolerance, first.inputs}, r);
      c.expect.values.push_back(std::move(value));
    }
  }
  program.add_clauses_to(c.clauses);
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
      // Below the nightly tier only float64 runs: drawing float32 would cost every run (and every
      // shard, and every --jobs worker) its generation for nothing.
      const bool beyond_pr = static_cast<int>(options.tier) >= static_cast<int>(Tier::Nightly);
      if (floating == DType::Float32 && !beyond_pr) continue;
      std::vector<std::vector<samples::OpSample>> draws;
      for (int d = 0; d < kDraws; ++d) {
        SampleDraw drawn = draw_samples(spec, floating, options.seed, d + 1);
        std::vector<samples::OpSample> samples;
        for (SampleCall& call : drawn.calls) samples.push_back(std::move(call.sample));
        draws.push_back(std::move(samples));
      }
      // The pr tier's samples: the first three, each attribute variant's first and every special
      // point (tier_samples.h); the nightly tier runs them all.
      const std::vector<std::size_t> chosen = pr_sample_indices(draws[0]);
      const auto is_pr_sample = [&](std::size_t index) {
        return index < 3 || std::find(chosen.begin(), chosen.end(), index) != chosen.end();
      };
      for (std::size_t index = 0; index < draws[0].size(); ++index) {
        if (!beyond_pr && !is_pr_sample(index)) continue;
        if (!draws_agree(draws, index) || tensor_positions(draws[0][index]).empty()) continue;
        // A case returns at least one value: an op that returns no tensors for this sample (unbind
        // of a size-0 dim) has nothing to stack.
        std::optional<std::vector<std::int64_t>> result_ranks;
        try {
          random::GeneratorScope scope(options.seed);
          const TensorList results =
              samples::run_program(name, samples::sample_program(spec, draws[0][index]),
                                   samples::clone_inputs(draws[0][index].inputs), draws[0][index].attrs);
          if (results.empty()) continue;
          if (random::current_generator().draw_calls() == 0) {
            result_ranks.emplace();
            for (const Tensor& r : results) result_ranks->push_back(r.dim());
          }
        } catch (const Error&) {
          // The sample raises: the case expects that error kind.
        }
        const bool pr = floating == DType::Float64 && is_pr_sample(index);
        std::vector<Batching> all = batchings(draws[0][index], true);
        // vmap refuses an out= variant whatever the dims (VMAP-3.2): VMAP-ORACLE says so already.
        if (op->kind != OpKind::OutVariant) {
          for (Batching& b : mixed_dim_batchings(draws[0][index], result_ranks)) all.push_back(std::move(b));
        }
        for (const Batching& batching : all) {
          const bool smoke = pr && index == 0 && batching.name == "all@0";
          const Tier tier = smoke ? Tier::Smoke : pr ? Tier::Pr : Tier::Nightly;
          const std::string id =
              fmt::format("{}/{}/{}/{}-{}/{}", batching.mixed_dims ? "VMAP-OP-DIMS" : "VMAP-ORACLE", name,
                          dtype_name(floating), index, id_slug(draws[0][index].label), batching.name);
          std::vector<samples::OpSample> examples;
          for (const auto& draw : draws) examples.push_back(draw[index]);
          tests.push_back(
              {id, clauses_of(batching), tier, "op sample database",
               [op, spec = &spec, examples, batching, tolerance = spec.tolerance, id, tier, seed = options.seed]() {
                 return vmap_oracle_case(*op, *spec, examples, batching, tolerance, id, tier, seed);
               }});
        }
      }
    }
  }
}

}  // namespace funcspec::conformance
