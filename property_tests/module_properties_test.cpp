// PROP-MOD/vmap-functional-call-equals-loop catches a backend whose vmap over functional_call gives
// every example the first model's state, the ensembling mistake of broadcasting one model's
// parameters instead of mapping the stacked ones.
#include <gtest/gtest.h>

#include <algorithm>

#include "conformance/case/evaluate.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/mutant_backends_test_support.h"
#include "reference/api/ops.h"

namespace funcspec::properties {
namespace module_properties_test {
namespace {

using conformance::Case;

bool names_include(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// vmap ∘ functional_call cases get each mapped state member replaced by copies of its example 0;
// every other case, the loop's included, runs on the reference unchanged.
conformance::ProgramResult first_model_everywhere(const Case& c, conformance::Backend& reference) {
  if (c.transforms.size() < 2) return reference.evaluate(c, {});
  const auto* vmap = std::get_if<conformance::VmapTransform>(&c.transforms[0]);
  const auto* call = std::get_if<conformance::FunctionalCallTransform>(&c.transforms[1]);
  if (vmap == nullptr || call == nullptr || vmap->in_dims.form != conformance::DimSpec::Form::ByName)
    return reference.evaluate(c, {});
  Case rewritten = c;
  for (conformance::CaseInput& input : rewritten.inputs) {
    if (!names_include(call->parameters, input.name) && !names_include(call->buffers, input.name)) continue;
    for (const auto& [name, dim] : vmap->in_dims.by_name) {
      if (name != input.name || !dim) continue;
      const Tensor whole = conformance::materialize_tensor(std::get<conformance::TensorSpec>(input.value));
      const std::int64_t d = *dim < 0 ? *dim + whole.dim() : *dim;
      if (whole.size(d) == 0) continue;
      const Tensor first = ops::unsqueeze(ops::select(whole, d, 0), d);
      input = conformance::case_input_of(input.name, ops::contiguous(ops::expand(first, whole.shape())));
    }
  }
  return reference.evaluate(rewritten, {});
}

TEST(ModuleProperties, TheFirstModelsStateForEveryExampleIsCaughtByVmapFunctionalCallEqualsLoop) {
  RewritingMutantBackend mutant("first-model-state-everywhere", first_model_everywhere);
  expect_caught(mutant, "PROP-MOD/vmap-functional-call-equals-loop", 2);
}

}  // namespace
}  // namespace module_properties_test
}  // namespace funcspec::properties
