#include "conformance/samples/sample_program.h"

#include <fmt/format.h>

#include <algorithm>

#include "conformance/samples/op_samples.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"

namespace funcspec::samples {
namespace {

std::string input_name(std::size_t i) { return fmt::format("x{}", i); }
std::string op_result_name(std::size_t k) { return fmt::format("y{}", k); }

const Tensor& lookup(const std::map<std::string, Tensor>& values, const std::string& name) {
  auto it = values.find(name);
  FUNCSPEC_INTERNAL_ASSERT(it != values.end(), "a sample program reads a name nothing wrote");
  return it->second;
}

void run_step(const ProgramStep& step, std::map<std::string, Tensor>& values) {
  TensorList args;
  for (const std::string& a : step.args) args.push_back(lookup(values, a));
  const TensorList outs = call(step.op, args, step.attrs);
  FUNCSPEC_INTERNAL_ASSERT(outs.size() == step.outs.size(), "a sample program step names the wrong result count");
  for (std::size_t k = 0; k < outs.size(); ++k) values[step.outs[k]] = outs[k];
}

}  // namespace

void SampleProgram::add_clauses_to(std::vector<std::string>& out) const {
  for (const std::string& clause : clauses) {
    if (std::find(out.begin(), out.end(), clause) == out.end()) out.push_back(clause);
  }
}

void map_input_onto_symmetric_matrices(SampleProgram& p) {
  p.domain = {{{"xt"}, "transpose", {"x0"}, {{"dim0", std::int64_t{-2}}, {"dim1", std::int64_t{-1}}}},
              {{"xs"}, "add", {"x0", "xt"}, {}}};
  p.mapped_inputs = {{0, "xs"}};
}

SampleProgram sample_program(const OpSampleSpec& spec, const OpSample& sample) {
  if (!spec.program) return {};
  return spec.program(sample);
}

std::size_t program_result_count(const SampleProgram& program, std::size_t op_result_count) {
  return program.results.empty() ? op_result_count : program.results.size();
}

TensorList run_program(const std::string& op, const SampleProgram& program, const TensorList& inputs,
                       const Attrs& attrs) {
  if (program.trivial()) return call(op, inputs, attrs);
  std::map<std::string, Tensor> values;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].defined()) values[input_name(i)] = inputs[i];
  }
  for (const ProgramStep& step : program.domain) run_step(step, values);
  TensorList op_inputs = inputs;
  for (const auto& [i, name] : program.mapped_inputs) op_inputs.at(i) = lookup(values, name);
  const TensorList op_results = call(op, op_inputs, attrs);
  if (program.results.empty()) return op_results;
  FUNCSPEC_INTERNAL_ASSERT(op_results.size() == program.op_results, "a readout expects another result count");
  for (std::size_t k = 0; k < op_results.size(); ++k) values[op_result_name(k)] = op_results[k];
  for (const ProgramStep& step : program.readout) run_step(step, values);
  TensorList out;
  for (const std::string& r : program.results) out.push_back(lookup(values, r));
  return out;
}

RenamedProgram renamed_program(const std::string& op, const SampleProgram& program, const Attrs& attrs,
                               const std::vector<std::optional<std::string>>& inputs,
                               const std::vector<std::string>& results, const std::string& prefix) {
  std::map<std::string, std::string> names;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]) names[input_name(i)] = *inputs[i];
  }
  const bool has_readout = !program.results.empty();
  const std::size_t op_results = has_readout ? program.op_results : results.size();
  for (std::size_t k = 0; k < program.results.size() && k < results.size(); ++k) {
    names.emplace(program.results[k], results[k]);
  }
  if (!has_readout) {
    for (std::size_t k = 0; k < results.size(); ++k) names[op_result_name(k)] = results[k];
  }
  auto renamed = [&](const std::string& name) {
    auto it = names.find(name);
    if (it != names.end()) return it->second;
    const std::string fresh = prefix + name;
    names.emplace(name, fresh);
    return fresh;
  };
  auto rename_step = [&](const ProgramStep& step) {
    ProgramStep out{{}, step.op, {}, step.attrs};
    for (const std::string& a : step.args) out.args.push_back(renamed(a));
    for (const std::string& o : step.outs) out.outs.push_back(renamed(o));
    return out;
  };
  RenamedProgram out;
  for (const ProgramStep& step : program.domain) out.steps.push_back(rename_step(step));
  ProgramStep op_step{{}, op, {}, attrs};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto mapped = program.mapped_inputs.find(i);
    out.op_args.push_back(mapped == program.mapped_inputs.end() || !inputs[i]
                              ? inputs[i]
                              : std::optional<std::string>(renamed(mapped->second)));
  }
  for (std::size_t k = 0; k < op_results; ++k) op_step.outs.push_back(renamed(op_result_name(k)));
  out.op_step = out.steps.size();
  out.steps.push_back(op_step);
  if (has_readout) {
    for (const ProgramStep& step : program.readout) out.steps.push_back(rename_step(step));
  }
  return out;
}

}  // namespace funcspec::samples
