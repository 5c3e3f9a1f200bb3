// The property tests as conformance tests (NOTE: [property tests]): one per property, at the smoke
// tier and up, with the tier setting how many programs each checks.
#include <fmt/format.h>

#include "conformance/suite/conformance_test.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "reference/ops/registry.h"

namespace funcspec::properties {

std::vector<PropertyDef> all_properties() {
  std::vector<PropertyDef> out;
  add_vmap_properties(out);
  add_pytree_properties(out);
  add_gradient_properties(out);
  add_randomness_properties(out);
  add_inplace_properties(out);
  add_error_consistency_properties(out);
  add_composite_compliance_properties(out);
  add_functionalize_properties(out);
  add_module_properties(out);
  return out;
}

std::vector<PropertyDef> properties_for_op(const std::string& op) {
  ProgramOptions programs;
  programs.required_op = op;
  std::vector<PropertyDef> out;
  add_vmap_properties(out, programs);
  add_pytree_properties(out, programs);
  add_gradient_properties(out, programs);
  add_error_consistency_properties(out, programs);
  add_functionalize_properties(out, programs);
  add_module_properties(out, programs);
  if (const OpDef* def = OpRegistry::instance().find(op); def && def->kind == OpKind::Composite)
    add_composite_compliance_properties(out, programs);
  for (PropertyDef& property : out) property.id += "[" + op + "]";
  return out;
}

}  // namespace funcspec::properties

namespace funcspec::conformance {

void add_property_tests(const SuiteOptions& options, ConformanceTests& tests) {
  for (properties::PropertyDef& property : properties::all_properties()) {
    ConformanceTest test;
    test.id = property.id;
    test.clauses = property.clauses;
    test.tier = Tier::Smoke;
    test.origin = "property_tests (" + property.id + ")";
    test.run = [property = std::move(property), seed = options.seed, tier = options.tier](
                   Backend& backend, const EvaluateOptions& evaluate, const std::filesystem::path& artifacts_dir) {
      properties::PropertyRunOptions run;
      run.seed = seed;
      run.tier = tier;
      run.artifacts_dir = artifacts_dir;
      run.evaluate = evaluate;
      return properties::run_property(property, backend, run);
    };
    tests.push_back(std::move(test));
  }
}

}  // namespace funcspec::conformance
