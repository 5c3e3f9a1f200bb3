#include "conformance/suite/op_sample_cases.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "conformance/case/case_tensors.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::conformance {
namespace {

struct Outcome {
  TensorList outputs;
  TensorList inputs_after;  // the inputs as the op left them (in-place and out= ops write into them)
  std::optional<ErrorKind> error;
  std::string message;
};

Outcome run_sample(const SampleCall& sample_call, const TensorList& inputs, const Attrs& attrs, std::uint64_t seed) {
  random::GeneratorScope scope(seed);
  Outcome outcome;
  outcome.inputs_after = inputs;
  try {
    outcome.outputs = samples::run_program(
        sample_call.spec->op, samples::sample_program(*sample_call.spec, sample_call.sample), inputs, attrs);
  } catch (const Error& e) {
    outcome.error = e.kind();
    outcome.message = e.what();
  }
  return outcome;
}

// Positions (among the call's tensor inputs) of the inputs the op writes into: `Tensor(a!)`.
std::vector<std::size_t> mutated_inputs(const OpDef& op, std::size_t input_count) {
  std::vector<std::size_t> positions;
  std::size_t position = 0;
  for (const ArgSpec* arg : op.schema.tensor_args()) {
    if (arg->type == ArgType::TensorListArg) break;  // takes the rest; lists are never written
    if (arg->mutated && position < input_count) positions.push_back(position);
    ++position;
  }
  return positions;
}

// An op that raises returns nothing to count, so its results are named after its schema (and its
// program's readout, NOTE: [non-unique results]).
void name_declared_results(const OpDef& op, const SampleCall& call, Case& c) {
  const std::size_t declared = std::max<std::size_t>(1, op.schema.returns.size());
  const std::size_t count = samples::program_result_count(samples::sample_program(*call.spec, call.sample), declared);
  const Case named = one_step_case(call, c.id, c.clauses, c.tier, count);
  const Attrs attrs = c.program.back().attrs;
  c.program = named.program;
  c.program.back().attrs = attrs;
  c.outputs.clear();
  for (std::size_t k = 0; k < count; ++k) c.outputs.push_back(fmt::format("r{}", k));
}

[[noreturn]] void disagreement(const SampleCall& call, const std::string& what) {
  throw std::runtime_error(
      fmt::format("the reference disagrees with itself on {} [{}]: {}", call.spec->op, call.sample.label, what));
}

}  // namespace

std::string sample_input_name(std::size_t i) { return fmt::format("x{}", i); }

std::vector<OpCall> program_calls(const std::string& op, const samples::SampleProgram& program, const Attrs& attrs,
                                  const std::vector<std::optional<std::string>>& inputs,
                                  const std::vector<std::string>& results, const std::string& prefix) {
  const samples::RenamedProgram renamed = samples::renamed_program(op, program, attrs, inputs, results, prefix);
  std::vector<OpCall> calls;
  for (std::size_t k = 0; k < renamed.steps.size(); ++k) {
    const samples::ProgramStep& step = renamed.steps[k];
    OpCall c{step.outs, step.op, {}, step.attrs};
    if (k == renamed.op_step) {
      c.args = renamed.op_args;
    } else {
      c.args.assign(step.args.begin(), step.args.end());
    }
    calls.push_back(std::move(c));
  }
  return calls;
}

TensorList run_sample_program(const SampleCall& call, const TensorList& inputs) {
  return samples::run_program(call.spec->op, samples::sample_program(*call.spec, call.sample), inputs,
                              call.sample.attrs);
}

Case one_step_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier,
                   std::size_t result_count) {
  Case c;
  c.id = id;
  c.clauses = std::move(clauses);
  c.tier = tier;
  c.seed = call.seed;
  std::vector<std::optional<std::string>> args;
  for (std::size_t i = 0; i < call.sample.inputs.size(); ++i) {
    const Tensor& input = call.sample.inputs[i];
    if (!input.defined()) {
      args.push_back(std::nullopt);
      continue;
    }
    c.inputs.push_back(case_input_of(sample_input_name(i), input));
    args.push_back(sample_input_name(i));
  }
  std::vector<std::string> results;
  for (std::size_t k = 0; k < result_count; ++k) results.push_back(fmt::format("r{}", k));
  const samples::SampleProgram program = samples::sample_program(*call.spec, call.sample);
  c.program = program_calls(call.spec->op, program, call.sample.attrs, args, results, "p_");
  program.add_clauses_to(c.clauses);
  return c;
}

Case op_value_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier) {
  const OpDef& op = OpRegistry::instance().get(call.spec->op);
  const TensorList& inputs = call.sample.inputs;
  // The dtypes and shapes the op produces at the sample's precision; values come from the oracle.
  const Outcome low = run_sample(call, samples::clone_inputs(inputs), call.sample.attrs, call.seed);
  const Outcome high = run_sample(call, samples::clone_inputs(samples::convert_floating_inputs(inputs, DType::Oracle)),
                                  call.sample.attrs, call.seed);
  if (low.error != high.error)
    disagreement(call, fmt::format("{} at {} but {} in the oracle dtype", low.error ? low.message : "a result",
                                   dtype_name(call.floating), high.error ? high.message : "a result"));

  Case c = one_step_case(call, id, std::move(clauses), tier, low.outputs.size());
  c.description = fmt::format("{} [{}] with {} inputs: ", op.name(), call.sample.label, dtype_name(call.floating));
  if (low.error) {
    c.description += "the op must raise this error kind";
    name_declared_results(op, call, c);
    c.expect.error = low.error;
    return c;
  }
  c.description += "values equal the oracle-dtype result rounded to the result dtype, within the op's stated tolerance";
  if (low.outputs.size() != high.outputs.size()) disagreement(call, "different result counts");

  auto expect = [&](const std::string& name, const Tensor& at_precision, const Tensor& in_oracle) {
    if (at_precision.shape() != in_oracle.shape()) disagreement(call, fmt::format("result '{}' shapes differ", name));
    const Tensor rounded = call_one("to_dtype", {in_oracle}, {{"dtype", at_precision.dtype()}});
    ExpectedValue value{name, TensorSpec{tensor_data_of(rounded), "", false, {}, false}, std::nullopt};
    value.tolerance = value_tolerance(call.spec->tolerance, at_precision.dtype(), inputs);
    c.expect.values.push_back(std::move(value));
    c.outputs.push_back(name);
  };
  for (std::size_t k = 0; k < low.outputs.size(); ++k) expect(fmt::format("r{}", k), low.outputs[k], high.outputs[k]);
  // What the op wrote into its inputs is part of its result (in-place and out= ops).
  for (std::size_t position : mutated_inputs(op, inputs.size())) {
    if (!inputs[position].defined()) continue;
    expect(sample_input_name(position), low.inputs_after[position], high.inputs_after[position]);
  }
  // An op that returns no tensors (unbind of a size-0 dim) is checked by its result count alone;
  // a case returns at least one value, so it returns its first input, untouched.
  if (c.outputs.empty() && !c.inputs.empty() && !c.inputs.front().is_literal()) {
    const std::size_t first = static_cast<std::size_t>(std::stoul(c.inputs.front().name.substr(1)));
    expect(c.inputs.front().name, low.inputs_after[first], high.inputs_after[first]);
  }
  return c;
}

Case op_meta_case(const SampleCall& call, const std::string& id, std::vector<std::string> clauses, Tier tier) {
  const OpDef& op = OpRegistry::instance().get(call.spec->op);
  const Outcome on_cpu = run_sample(call, samples::clone_inputs(call.sample.inputs), call.sample.attrs, call.seed);
  Case c = one_step_case(call, id, std::move(clauses), tier, on_cpu.outputs.size());
  c.device = Device::Meta;
  for (CaseInput& input : c.inputs) {
    if (auto* tensor = std::get_if<TensorSpec>(&input.value)) {
      tensor->values_omitted = true;
      tensor->data.bytes.clear();
    }
  }
  // Creation ops have no tensor input to take the device from.
  if (op.schema.find_arg("device") != nullptr) c.program[0].attrs.set("device", std::string("meta"));
  for (std::size_t k = 0; k < on_cpu.outputs.size(); ++k) c.outputs.push_back(fmt::format("r{}", k));
  if (on_cpu.error) name_declared_results(op, call, c);
  if (op.kind == OpKind::DynamicShape || op.kind == OpKind::ScalarExtraction) {
    c.description =
        fmt::format("{} [{}] on meta: the result needs values meta does not have", op.name(), call.sample.label);
    c.expect.error = ErrorKind::DataDependentOnMeta;
    return c;
  }
  if (on_cpu.error) {
    c.description = fmt::format("{} [{}] on meta raises what it raises on cpu", op.name(), call.sample.label);
    c.expect.error = on_cpu.error;
    return c;
  }
  c.description =
      fmt::format("{} [{}] on meta infers the dtypes and shapes it produces on cpu", op.name(), call.sample.label);
  for (std::size_t k = 0; k < on_cpu.outputs.size(); ++k) {
    TensorSpec metadata;
    metadata.data = tensor_metadata_of(on_cpu.outputs[k]);
    metadata.values_omitted = true;
    c.expect.values.push_back(ExpectedValue{c.outputs[k], metadata, std::nullopt});
  }
  // No result tensors: the count is the check, and the first input is returned as it was.
  if (c.outputs.empty() && !c.inputs.empty() && !c.inputs.front().is_literal()) {
    TensorSpec metadata = std::get<TensorSpec>(c.inputs.front().value);
    metadata.layout = {};
    c.outputs.push_back(c.inputs.front().name);
    c.expect.values.push_back(ExpectedValue{c.inputs.front().name, metadata, std::nullopt});
  }
  return c;
}

std::string id_slug(const std::string& text) {
  std::string slug;
  for (char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isalnum(u) != 0 || ch == '.') {
      slug.push_back(static_cast<char>(std::tolower(u)));
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

int sample_draws(Tier tier) {
  switch (tier) {
    case Tier::Smoke:
    case Tier::Pr: return 1;
    case Tier::Nightly: return 3;
    case Tier::Exhaustive: return 8;
  }
  return 1;
}

SampleDraw draw_samples(const samples::OpSampleSpec& spec, DType floating, std::uint64_t seed, int draw) {
  SampleDraw out;
  // Draw 0 uses the run's seed itself (as `funcspec smoke` does); later draws mix in their number.
  const std::uint64_t sample_seed =
      draw == 0 ? seed : seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(draw));
  samples::SampleRng rng(sample_seed);
  try {
    for (samples::OpSample& sample : spec.generate(floating, rng))
      out.calls.push_back(SampleCall{&spec, std::move(sample), floating, seed});
  } catch (const std::exception& e) {
    out.calls.clear();
    out.generation_error = e.what();
  }
  return out;
}

}  // namespace funcspec::conformance
