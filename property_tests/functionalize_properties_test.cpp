// The functionalize properties hold for the reference at the pr tier, and the law that any backend
// is judged by catches a backend whose functionalize forgets the aliases of what it writes.
#include <gtest/gtest.h>

#include <cstdio>

#include "conformance/backend/backend.h"
#include "conformance/case/evaluate.h"
#include "property_tests/mutant_backends_test_support.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "reference/ops/registry.h"

namespace funcspec::properties {

namespace functionalize_properties_test {
namespace {

std::vector<PropertyDef> functionalize_properties() {
  std::vector<PropertyDef> out;
  add_functionalize_properties(out, {});
  return out;
}

PropertyDef functionalize_property(const std::string& id) {
  for (PropertyDef& property : functionalize_properties()) {
    if (property.id == id) return property;
  }
  throw std::invalid_argument("no property " + id);
}

TEST(FunctionalizeProperties, HoldForTheReference) {
  const std::unique_ptr<conformance::Backend> reference = conformance::make_backend("reference");
  for (const PropertyDef& property : functionalize_properties()) {
    const PropertyRunOptions options = run_options_from_environment("funcspec-artifacts/property-tests");
    const conformance::TestRecord record = run_property(property, *reference, options);
    EXPECT_EQ(record.status, conformance::TestStatus::Pass)
        << property.id << ": " << conformance::test_status_name(record.status) << "\n"
        << record.reason << "\n"
        << record.note << (record.replay_case.empty() ? "" : "\nreplay: " + record.replay_case);
    std::printf("%s: %s\n", property.id.c_str(), record.note.c_str());
  }
}

// A functionalize that turns each in-place op into its functional op and stops there: the written
// tensor's name gets the new value, but no alias of it (its base, its views, the argument) does.
conformance::ProgramResult forgetful_functionalize(const conformance::Case& c, conformance::Backend& reference) {
  const bool functionalized = std::any_of(
      c.transforms.begin(), c.transforms.end(),
      [](const conformance::Transform& t) { return std::holds_alternative<conformance::FunctionalizeTransform>(t); });
  if (!functionalized) return reference.evaluate(c, {});
  conformance::Case rewritten = c;
  std::erase_if(rewritten.transforms, [](const conformance::Transform& t) {
    return std::holds_alternative<conformance::FunctionalizeTransform>(t);
  });
  for (conformance::OpCall& step : rewritten.program) {
    const OpDef* op = OpRegistry::instance().find(step.op);
    if (op == nullptr || op->kind != OpKind::InPlace) continue;
    if (!op->functional.empty()) {
      step.op = op->functional;
    } else if (step.op == "fill_") {
      step.op = "full_like";
      step.attrs = {{"fill_value", step.attrs.at("value")}};
    } else if (step.op == "zero_") {
      step.op = "zeros_like";
    }
  }
  return reference.evaluate(rewritten, {});
}

TEST(FunctionalizeProperties, TheLawCatchesAFunctionalizeThatForgetsAliases) {
  RewritingMutantBackend mutant("functionalize-forgets-aliases", forgetful_functionalize);
  PropertyRunOptions options;
  options.tier = conformance::Tier::Pr;
  options.artifacts_dir = "funcspec-artifacts/mutants/functionalize-forgets-aliases";
  const conformance::TestRecord record =
      run_property(functionalize_property("PROP-FUNC/preserves-outputs-and-mutations"), mutant, options);
  ASSERT_EQ(record.status, conformance::TestStatus::Fail) << record.reason << "\n" << record.note;
  ASSERT_FALSE(record.replay_case.empty());
  const conformance::Case counterexample = conformance::read_case_file(record.replay_case);
  EXPECT_EQ(conformance::judge(counterexample, mutant.evaluate(counterexample, {})).verdict,
            conformance::Verdict::Fail);
  EXPECT_EQ(conformance::evaluate_on_reference(counterexample).verdict, conformance::Verdict::Pass);
  std::printf("caught: %s\n", record.reason.c_str());
}

}  // namespace
}  // namespace functionalize_properties_test
}  // namespace funcspec::properties
