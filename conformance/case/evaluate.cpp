#include "conformance/case/evaluate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

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
    const std::vector<transforms::PyTree> args = program_arguments(
        placed, [&](const CaseInput& in) { return placed_tensor(std::get<TensorSpec>(in.value), device); });
    const std::vector<transforms::PyTree> outputs = transformed_program(placed, device)(args).children();
    // The transforms rename the results (docs/case-format.md, Transforms).
    const std::vector<std::string> names = result_names(c);
    if (outputs.size() != names.size())
      throw BrokenProgram(fmt::format("the transformed function returned {} results but the case names {} ({})",
                                      outputs.size(), names.size(), fmt::join(names, ", ")));
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
