// Composite compliance (NOTE: [composite compliance]) as a property: a composite drawn from the
// catalogue, called on generated inputs (fresh values, and strided layouts the samples do not have:
// transposed, sliced with a step, expanded), checked forward, under vjp and under jvp with every
// checked/plain combination of its tensors. The catalogue test (tests/testing/
// composite_compliance_test.cpp) runs every composite on its fixed samples; this one varies what the
// samples hold still.
#include <fmt/format.h>

#include "conformance/case/evaluate.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "reference/ops/registry.h"
#include "testing/composite_compliance.h"

namespace funcspec::properties {

namespace {

using transforms::ComplianceMode;

// The composite of a one-step generated program, called on draw `draw` of its inputs.
struct CompositeCall {
  const OpDef* op = nullptr;
  TensorList inputs;
  Attrs attrs;
};

CompositeCall composite_call(const GeneratedProgram& program, int draw) {
  const conformance::OpCall& step = program.program.program.front();
  std::map<std::string, Tensor, std::less<>> values;
  for (const conformance::CaseInput& in : draw_inputs(program, draw)) {
    if (const auto* literal = std::get_if<conformance::LiteralSpec>(&in.value)) {
      values[in.name] = Tensor::wrapped_scalar(literal->value);
    } else {
      values[in.name] = conformance::materialize_tensor(std::get<conformance::TensorSpec>(in.value));
    }
  }
  CompositeCall call{&OpRegistry::instance().get(step.op), {}, step.attrs};
  for (const auto& arg : step.args) call.inputs.push_back(arg ? values.at(*arg) : Tensor());
  return call;
}

}  // namespace

void add_composite_compliance_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back(
      {"PROP-COMPOSITE/checked-mode-compliant",
       "a composite op only calls ops: forward, under vjp and under jvp, with every checked/plain combination of "
       "its inputs, tangents and cotangents, it reads no data, calls no item(), writes through no out=, changes no "
       "metadata outside the op layer, writes nothing from a checked tensor into a plain one, and gives the plain "
       "run's results",
       {"OPS-3.1"},
       200,
       "it runs the op inside the engine's checking tensor mode (checked tensors that refuse data access), which "
       "exists only inside the reference engine",
       [programs](PropertyContext&) {
         ProgramOptions options = programs;
         options.max_steps = 1;
         options.max_outputs = 1;
         const auto admits = programs.admits;
         options.admits = [admits](const OpDef& op) { return op.kind == OpKind::Composite && (!admits || admits(op)); };
         const GeneratedProgram program = draw_program(options);
         const ComplianceMode mode =
             *rc::gen::element(ComplianceMode::Forward, ComplianceMode::Vjp, ComplianceMode::Jvp);
         const int draw = *rc::gen::inRange(0, 4);
         const std::uint64_t seed = *rc::gen::arbitrary<std::uint32_t>();
         const CompositeCall call = composite_call(program, draw);
         const std::vector<transforms::ComplianceViolation> violations =
             transforms::check_composite_compliance(*call.op, call.inputs, call.attrs, mode, seed);
         if (violations.empty()) return PropertyCheck::holds();
         // draw_program logged the program.
         std::string text = fmt::format("{} is not composite-compliant {} (input draw {}, seed {}):", call.op->name(),
                                        transforms::compliance_mode_name(mode), draw, seed);
         for (const transforms::ComplianceViolation& v : violations)
           text += fmt::format("\n  [{}] {}: {}", v.combination, v.rule, v.message);
         // No case file can say "under the checking mode": the message is the reproduction.
         return PropertyCheck::violated(std::move(text), std::nullopt);
       }});
}

}  // namespace funcspec::properties
