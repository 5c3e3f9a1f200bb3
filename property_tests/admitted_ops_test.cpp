// The laws draw over the whole catalogue: every op that has samples and is not excluded for a
// semantic reason (a random op, an in-place or out= variant, a value-dependent shape, a scalar
// extraction: program_generator.cpp says why each is) can be the op of a program under each law's
// program options, so no op is left out silently, by the size limits of the gradient laws
// included. An op whose every sample returns no floating result cannot be differentiated, which is
// the one reason a gradient law's programs may lack it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/samples/op_samples.h"
#include "conformance/suite/op_sample_cases.h"
#include "property_tests/program_generator.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::properties {
namespace {

// A one-step program of `op`'s sample `sample`, plain layouts, fresh inputs.
std::optional<GeneratedProgram> single_call(std::size_t op, std::size_t sample, const ProgramOptions& options) {
  ProgramPlan plan;
  plan.sample_seed = 1;
  PlanStep step;
  step.op = static_cast<unsigned>(op);
  step.sample = static_cast<unsigned>(sample);
  step.layouts = {0};
  plan.steps.push_back(step);
  return build_program(plan, options);
}

bool has_floating_result(const std::string& op) {
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op);
  if (spec == nullptr) return false;
  for (conformance::SampleCall& call : conformance::draw_samples(*spec, DType::Float64, 1, 0).calls) {
    try {
      for (const Tensor& r : funcspec::call(OpRegistry::instance().get(op), call.sample.inputs, call.sample.attrs)) {
        if (r.defined() && is_floating(r.dtype())) return true;
      }
    } catch (const Error&) {
    }
  }
  return false;
}

std::vector<std::string> never_drawn(const ProgramOptions& options, bool floating_results_needed) {
  const std::vector<const OpDef*> ops = admitted_ops(options);
  std::vector<std::string> missing;
  for (std::size_t o = 0; o < ops.size(); ++o) {
    const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(ops[o]->name());
    const std::size_t count = conformance::draw_samples(*spec, DType::Float64, 1, 0).calls.size();
    bool drawn = false;
    for (std::size_t s = 0; s < count && !drawn; ++s) drawn = single_call(o, s, options).has_value();
    if (!drawn && !(floating_results_needed && !has_floating_result(ops[o]->name()))) missing.push_back(ops[o]->name());
  }
  return missing;
}

TEST(AdmittedOps, EveryOpWithSamplesIsAdmittedButForASemanticReason) {
  const ProgramOptions every_op;
  const std::vector<const OpDef*> ops = admitted_ops(every_op);
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (samples::OpSampleRegistry::instance().find(op->name()) == nullptr) continue;
    const bool admitted = std::find(ops.begin(), ops.end(), op) != ops.end();
    const bool semantic = op->random || op->kind == OpKind::Random || op->kind == OpKind::InPlace ||
                          op->kind == OpKind::OutVariant || op->kind == OpKind::DynamicShape ||
                          op->kind == OpKind::ScalarExtraction || op->kind == OpKind::Custom;
    EXPECT_EQ(admitted, !semantic) << op->name() << " (" << op_kind_name(op->kind) << ")";
  }
}

TEST(AdmittedOps, EveryAdmittedOpIsTheOpOfSomeVmapLawProgram) {
  const ProgramOptions vmap_laws;
  EXPECT_EQ(never_drawn(vmap_laws, false), std::vector<std::string>{});
}

// The gradient laws' options (gradient_properties.cpp: differentiable()).
TEST(AdmittedOps, EveryAdmittedOpWithAFloatingResultIsTheOpOfSomeGradientLawProgram) {
  ProgramOptions gradient_laws;
  gradient_laws.max_steps = 3;
  gradient_laws.max_input_elements = 24;
  gradient_laws.floating_outputs_only = true;
  gradient_laws.derivatives_compared = true;
  EXPECT_EQ(never_drawn(gradient_laws, true), std::vector<std::string>{});
}

}  // namespace
}  // namespace funcspec::properties
