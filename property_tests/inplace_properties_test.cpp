// The in-place properties catch the backends they exist to catch: one that answers an in-place op
// writing into an unbatched self with the functional op's result instead of vmap_inplace_unbatched
// (caught at the pr tier with a counterexample case the reference passes and the mutant fails), and
// an engine whose vmap writes into the caller's tensors before it raises.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "property_tests/inplace_properties.h"
#include "property_tests/mutant_backends_test_support.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::properties {
namespace {

using conformance::Case;
using conformance::ProgramResult;

// For a case the reference refuses with vmap_inplace_unbatched, the functional op's result
// (add for add_): a backend missing VMAP-3.1's error.
class FunctionalInsteadOfErrorBackend : public conformance::Backend {
 public:
  FunctionalInsteadOfErrorBackend() : reference_(conformance::make_backend("reference")) {}
  std::string spec() const override { return "mutant:functional-instead-of-inplace-error"; }
  const conformance::Capabilities& capabilities() const override { return reference_->capabilities(); }
  ProgramResult evaluate(const Case& c, const conformance::EvaluateOptions& options) override {
    ProgramResult result = reference_->evaluate(c, options);
    if (result.error != ErrorKind::VmapInplaceUnbatched) return result;
    Case functional = c;
    for (conformance::OpCall& step : functional.program) {
      const OpDef* op = OpRegistry::instance().find(step.op);
      if (op != nullptr && op->kind == OpKind::InPlace && !op->functional.empty()) step.op = op->functional;
    }
    return reference_->evaluate(functional, options);
  }

 private:
  std::unique_ptr<conformance::Backend> reference_;
};

TEST(InplaceMutants, FunctionalResultInsteadOfTheErrorIsCaught) {
  FunctionalInsteadOfErrorBackend mutant;
  PropertyRunOptions options;
  options.artifacts_dir = "funcspec-artifacts/property-tests/mutants/functional-instead-of-inplace-error";
  const conformance::TestRecord record =
      run_property(property_named("PROP-INPLACE/vmap-raises-as-specified"), mutant, options);
  ASSERT_EQ(record.status, conformance::TestStatus::Fail) << conformance::test_status_name(record.status) << "\n"
                                                          << record.reason << "\n"
                                                          << record.note;
  ASSERT_FALSE(record.replay_case.empty()) << record.reason;
  const Case counterexample = conformance::read_case_file(record.replay_case);
  EXPECT_EQ(counterexample.expect.error, ErrorKind::VmapInplaceUnbatched);
  const conformance::Evaluation on_reference = conformance::evaluate_on_reference(counterexample);
  EXPECT_EQ(on_reference.verdict, conformance::Verdict::Pass) << on_reference.reason;
  const conformance::Evaluation on_mutant = conformance::judge(counterexample, mutant.evaluate(counterexample, {}));
  EXPECT_EQ(on_mutant.verdict, conformance::Verdict::Fail);
}

// A vmap that zeroes every tensor argument before the real vmap raises: the write the engine-only
// law forbids. No case can show it (a case observes results), so the verdict alone is checked.
TEST(InplaceMutants, WritingBeforeRaisingIsCaught) {
  const VmapFunction writes_first = [](transforms::PyFunction f, transforms::VmapOptions options) {
    transforms::PyFunction real = transforms::vmap(std::move(f), std::move(options));
    return transforms::PyFunction([real](const std::vector<transforms::PyTree>& args) {
      for (const transforms::PyTree& arg : args) {
        if (arg.is_tensor()) call("zero_", {arg.tensor()});
      }
      return real(args);
    });
  };
  const std::unique_ptr<conformance::Backend> reference = conformance::make_backend("reference");
  const conformance::TestRecord record =
      run_property(inplace_error_writes_nothing_property(writes_first), *reference, PropertyRunOptions{});
  ASSERT_EQ(record.status, conformance::TestStatus::Fail) << record.note;
  EXPECT_NE(record.reason.find("had already written into"), std::string::npos) << record.reason;
}

TEST(InplaceProperties, WritesNothingIsEngineOnly) {
  FunctionalInsteadOfErrorBackend other;
  const conformance::TestRecord record =
      run_property(property_named("PROP-INPLACE/error-writes-nothing"), other, PropertyRunOptions{});
  EXPECT_EQ(record.status, conformance::TestStatus::Unsupported);
  EXPECT_NE(record.reason.find("reads the caller's tensors"), std::string::npos) << record.reason;
}

}  // namespace
}  // namespace funcspec::properties
