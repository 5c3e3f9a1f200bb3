#include "conformance/case/evaluate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "conformance/case/case_placement.h"
#include "conformance/case/transformed_program.h"
#include "reference/random/generator.h"

namespace funcspec::conformance {

TensorList run_case_program(const Case& c, const std::map<std::string, Tensor, std::less<>>& tensor_inputs,
                            std::optional<DType> transform_tensors_as) {
  const std::vector<transforms::PyTree> args =
      program_arguments(c, [&](const CaseInput& in) { return tensor_inputs.at(in.name); });
  // The caller's values are real tensors whatever the case's device; a cuda case's tangents and
  // cotangents go to the GPU as its inputs would.
  const Device tensors_on = c.device == Device::Cuda ? Device::Cuda : Device::Cpu;
  TensorList results;
  for (const transforms::PyTree& leaf : transformed_program(c, tensors_on, transform_tensors_as)(args).leaves()) {
    if (!leaf.is_tensor()) throw BrokenProgram(fmt::format("a result is {}, not a tensor", leaf.describe()));
    results.push_back(leaf.tensor());
  }
  return results;
}

ProgramResult run_on_reference(const Case& c, Device compute_device) {
  ProgramResult result;
  if (c.device == Device::Cuda && compute_device != Device::Cuda) {
    result.unsupported = "the in-process reference runs on cpu and meta; cuda cases need the reference-cuda backend";
    return result;
  }
  const bool on_gpu = c.device != Device::Meta && compute_device == Device::Cuda;
  random::GeneratorScope generator(c.seed);
  try {
    const Case placed = on_gpu ? placed_on_cuda(c) : c;
    const Device device = placed.device;  // where the run computes: meta, cpu or cuda
    // The caller's tensors, by name: an alias is a view of its base's (earlier) tensor.
    std::map<std::string, Tensor, std::less<>> callers;
    for (const CaseInput& in : placed.inputs) {
      const auto* spec = std::get_if<TensorSpec>(&in.value);
      if (spec == nullptr) continue;
      if (in.alias_of.empty()) {
        callers[in.name] = placed_tensor(*spec, device);
        continue;
      }
      const Strides strides(spec->layout.strides->begin(), spec->layout.strides->end());
      callers[in.name] = Tensor::view_of(callers.at(in.alias_of), spec->data.shape, strides, spec->layout.offset);
    }
    const std::vector<transforms::PyTree> args =
        program_arguments(placed, [&](const CaseInput& in) { return callers.at(in.name); });
    auto stored = std::make_shared<StoredValues>();
    std::vector<transforms::PyTree> outputs =
        transformed_program(placed, device, std::nullopt, stored)(args).children();
    // The transforms rename the results (docs/case-format.md, Transforms).
    const std::vector<std::string> names = result_names(c);
    if (outputs.size() + c.after_outputs.size() != names.size())
      throw BrokenProgram(fmt::format("the transformed function returned {} results but the case names {} ({})",
                                      outputs.size(), names.size() - c.after_outputs.size(), fmt::join(names, ", ")));
    if (!placed.after.empty()) {
      // The caller's own steps: its inputs as the call left them, then the stored values, then the
      // results, each name shadowing the one before.
      std::map<std::string, Tensor, std::less<>> values = callers;
      for (const auto& [name, value] : *stored) values[name] = value;
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        if (outputs[k].is_tensor()) values[names[k]] = outputs[k].tensor();
      }
      run_steps(placed.after, values, "after.program");
      for (const std::string& name : placed.after_outputs) outputs.emplace_back(values.at(name));
    }
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::string& name = names[k];
      try {
        if (!outputs.at(k).is_tensor()) {
          result.broken = fmt::format("result '{}' is {}, not a tensor", name, outputs.at(k).describe());
          return result;
        }
        const Tensor& output = outputs.at(k).tensor();
        if (!is_on_run_device(output, device)) {
          result.broken = fmt::format("result '{}' of a case run on {} is on {}", name, device_name(device),
                                      device_name(output.device()));
          return result;
        }
        result.outputs.emplace_back(name, host_values_of(output, device));
      } catch (const CaseError& e) {
        result.broken = fmt::format("result '{}': {}", name, e.problem());
        return result;
      }
    }
  } catch (const BrokenProgram& e) {
    result.outputs.clear();
    result.broken = e.what();
  } catch (const Error& e) {
    result.outputs.clear();
    result.error = e.kind();
    result.error_message = e.what();
  } catch (const std::exception& e) {
    // Not a funcspec error: a case built in code with an undefined name, or a bug; fail the case
    // rather than the whole run.
    result.outputs.clear();
    result.broken = fmt::format("evaluation stopped by an unexpected exception: {}", e.what());
  }
  return result;
}

}  // namespace funcspec::conformance
