// Each mutant backend (mutant_backends_test_support.h) is caught by the property named for it at the
// pr tier: the property fails, its shrunk counterexample is a small program written as a case file,
// and replaying that file judges the mutant wrong and the clean reference right. The run seed is
// the default one, whatever FUNCSPEC_PROPERTY_SEED says: where shrinking stops depends on the seed
// (a local minimum: on a few seeds a third step cannot go without the failure going too), and
// this test pins the counterexample CI sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>

#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/law_checks.h"
#include "property_tests/mutant_backends_test_support.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"

namespace funcspec::properties {
namespace {

// Shrinking must reduce a counterexample to the op that is wrong and what feeds it: at most two
// distinct ops (a step count would also fail a local minimum that calls the wrong op twice).
constexpr std::size_t kMostCounterexampleOps = 2;

TEST(Mutants, SumReducingTheBatchDimIsCaughtByEqualsLoop) {
  const std::unique_ptr<conformance::Backend> mutant = make_sum_reduces_the_batch_dim_mutant();
  expect_caught(*mutant, "PROP-VMAP/equals-loop", kMostCounterexampleOps);
}

TEST(Mutants, ExpandTransposeWithoutSumIsCaughtByVjpTransposesJvp) {
  const std::unique_ptr<conformance::Backend> mutant = make_expand_transpose_without_sum_mutant();
  expect_caught(*mutant, "PROP-AD/vjp-transposes-jvp", kMostCounterexampleOps);
}

TEST(Mutants, ExpandTransposeUnreducedIsCaughtByErrorsMatchReference) {
  const std::unique_ptr<conformance::Backend> mutant = make_expand_transpose_unreduced_mutant();
  expect_caught(*mutant, "PROP-ERR/errors-match-reference", kMostCounterexampleOps);
}

// A backend wrong on two ops: vmap of a program that calls tanh raises, vmap of one that calls exp
// (and not tanh) gives every result doubled. PROP-VMAP/equals-loop, on programs over a few ops,
// must not stop at the first of them (NOTE: [distinct failures]): it reports both, each shrunk to
// its own op and written as a case that replays (wrong on the mutant, right on the reference), and
// it checks the tier's number of programs, counting those that fail again as a failure found.
TEST(Mutants, ALawGoesOnAfterAFailureAndReportsTheOtherOpsFailure) {
  const auto calls = [](const conformance::Case& c, const std::string& op) {
    return std::any_of(c.program.begin(), c.program.end(), [&](const conformance::OpCall& s) { return s.op == op; });
  };
  RewritingMutantBackend mutant(
      "tanh-raises-and-exp-doubles-under-vmap", [&](const conformance::Case& c, conformance::Backend& reference) {
        conformance::ProgramResult result = reference.evaluate(c, {});
        const bool vmapped =
            !c.transforms.empty() && std::holds_alternative<conformance::VmapTransform>(c.transforms.front());
        if (!vmapped || result.error || !result.unsupported.value_or("").empty()) return result;
        if (calls(c, "tanh")) {
          conformance::ProgramResult raised;
          raised.error = ErrorKind::Internal;
          raised.error_message = "mutant: tanh under vmap";
          return raised;
        }
        if (calls(c, "exp")) {
          for (auto& [name, data] : result.outputs) {
            if (is_floating(data.dtype)) data = data_of(ops::mul(tensor_of(data), ops::lit(2.0)));
          }
        }
        return result;
      });
  ProgramOptions programs;
  programs.admits = [](const OpDef& op) {
    return op.name() == "tanh" || op.name() == "exp" || op.name() == "sin" || op.name() == "mul";
  };
  std::vector<PropertyDef> vmap_laws;
  add_vmap_properties(vmap_laws, programs);
  const auto law = std::find_if(vmap_laws.begin(), vmap_laws.end(),
                                [](const PropertyDef& p) { return p.id == "PROP-VMAP/equals-loop"; });
  ASSERT_NE(law, vmap_laws.end());
  PropertyRunOptions options;
  options.tier = conformance::Tier::Pr;
  options.artifacts_dir = "funcspec-artifacts/mutants/two-ops";
  const PropertyRun run = explore_property(*law, mutant, options);
  ASSERT_EQ(run.record.status, conformance::TestStatus::Fail) << run.record.reason;
  EXPECT_EQ(run.programs, cases_at(*law, conformance::Tier::Pr)) << run.record.note;
  EXPECT_GT(run.known, 0) << "no program failed again as a failure already found: " << run.record.note;
  bool tanh_raises = false;
  bool exp_doubles = false;
  for (const DistinctFailure& failure : run.failures) {
    const bool only_tanh = failure.ops == std::vector<std::string>{"tanh"};
    const bool only_exp = failure.ops == std::vector<std::string>{"exp"};
    tanh_raises = tanh_raises || (only_tanh && failure.kind == "raises internal");
    exp_doubles = exp_doubles || (only_exp && failure.kind == "wrong values");
    ASSERT_FALSE(failure.replay_case.empty()) << failure.kind << ": no case written";
    const conformance::Case counterexample = conformance::read_case_file(failure.replay_case);
    EXPECT_EQ(conformance::judge(counterexample, mutant.evaluate(counterexample, {})).verdict,
              conformance::Verdict::Fail)
        << failure.replay_case;
    EXPECT_EQ(conformance::evaluate_on_reference(counterexample).verdict, conformance::Verdict::Pass)
        << failure.replay_case;
  }
  EXPECT_TRUE(tanh_raises) << run.record.reason;
  EXPECT_TRUE(exp_doubles) << run.record.reason;
  EXPECT_NE(run.record.reason.find("2 distinct failures"), std::string::npos) << run.record.reason;
  std::printf("%s: %s\n%s\n", mutant.spec().c_str(), run.record.note.c_str(), run.record.reason.c_str());
}

// A backend whose forward mode (jvp, jacfwd, linearize outermost) gives maximum's whole derivative
// to `self` at a tie, where its reverse mode splits it evenly as the spec says (AD-8.3): finite
// differences have no limit at a tie, so PROP-AD/jvp-equals-finite-differences must compare jacfwd
// with jacrev there rather than discard the point, and so catch it.
class ForwardModeTieMutant final : public conformance::Backend {
 public:
  std::string spec() const override { return "mutant:maximum-tie-forward-mode"; }
  const conformance::Capabilities& capabilities() const override { return reference_.capabilities(); }
  conformance::ProgramResult evaluate(const conformance::Case& c,
                                      const conformance::EvaluateOptions& options) override {
    const bool forward =
        !c.transforms.empty() && (std::holds_alternative<conformance::JvpTransform>(c.transforms.front()) ||
                                  (std::holds_alternative<conformance::JacobianTransform>(c.transforms.front()) &&
                                   std::get<conformance::JacobianTransform>(c.transforms.front()).forward));
    if (!forward) return reference_.evaluate(c, options);
    const transforms::ScopedJvpRule self_wins_ties("maximum", [](const transforms::JvpCall& call) {
      const Tensor& self = call.primals[0];
      const Tensor& other = call.primals[1];
      const Tensor other_wins = ops::to_dtype(ops::lt(self, other), self.dtype());
      const Tensor self_wins = ops::sub(ops::lit(1.0), other_wins);
      Tensor tangent;
      if (call.tangents[0].defined()) tangent = ops::mul(call.tangents[0], self_wins);
      if (call.tangents[1].defined()) {
        const Tensor part = ops::mul(call.tangents[1], other_wins);
        tangent = tangent.defined() ? ops::add(tangent, part) : part;
      }
      return TensorList{tangent};
    });
    return reference_.evaluate(c, options);
  }

 private:
  conformance::ReferenceBackend reference_;
};

TEST(Mutants, AForwardModeThatBreaksTiesOtherwiseIsCaughtAtTheTie) {
  ForwardModeTieMutant mutant;
  const std::vector<PropertyDef> laws = properties_for_op("maximum");
  const auto law = std::find_if(laws.begin(), laws.end(), [](const PropertyDef& p) {
    return p.id.rfind("PROP-AD/jvp-equals-finite-differences", 0) == 0;
  });
  ASSERT_NE(law, laws.end());
  PropertyRunOptions options;
  options.tier = conformance::Tier::Pr;
  options.artifacts_dir = "funcspec-artifacts/mutants/maximum-tie-forward-mode";
  const PropertyRun run = explore_property(*law, mutant, options);
  ASSERT_EQ(run.record.status, conformance::TestStatus::Fail) << run.record.reason << "\n" << run.record.note;
  std::printf("%s caught by %s: %s\n", mutant.spec().c_str(), law->id.c_str(), run.record.reason.c_str());
  EXPECT_NE(run.record.reason.find("jacfwd differs from jacrev"), std::string::npos) << run.record.reason;
  const conformance::Case counterexample = conformance::read_case_file(run.record.replay_case);
  EXPECT_EQ(conformance::judge(counterexample, mutant.evaluate(counterexample, {})).verdict,
            conformance::Verdict::Fail);
  EXPECT_EQ(conformance::evaluate_on_reference(counterexample).verdict, conformance::Verdict::Pass);
}

// The mutants are wrong only while they evaluate: the reference around them stays right.
TEST(Mutants, TheWrongRuleIsGoneAfterTheMutantAnswers) {
  const std::unique_ptr<conformance::Backend> mutant = make_sum_reduces_the_batch_dim_mutant();
  conformance::Case c;
  c.id = "mutant-scope";
  c.inputs.push_back(conformance::case_input_of("x", from_values({1, 2, 3, 4}, {2, 2})));
  c.program.push_back(conformance::OpCall{{"y"}, "sum", {"x"}, {}});
  c.outputs = {"y"};
  conformance::VmapTransform vmap;
  c.transforms.push_back(vmap);
  const conformance::ProgramResult wrong = mutant->evaluate(c, {});
  const conformance::ProgramResult right = conformance::run_on_reference(c);
  ASSERT_EQ(wrong.outputs.size(), 1u);
  ASSERT_EQ(right.outputs.size(), 1u);
  EXPECT_NE(wrong.outputs[0].second, right.outputs[0].second);
  EXPECT_EQ(right.outputs[0].second.element_as_double(0), 3.0);
  EXPECT_EQ(right.outputs[0].second.element_as_double(1), 7.0);
}

// The mechanism the mutants stand on (NOTE: [rules replaced for a scope]): replacements nest, each
// uncovers what it hid, in any order, and another thread never sees them.
TEST(Mutants, ARuleReplacedForAScopeNestsAndStaysOnItsThread) {
  const OpDef& sum = OpRegistry::instance().get("sum");
  const transforms::BatchRule* built_in = transforms::batch_rule(sum);
  ASSERT_NE(built_in, nullptr);
  auto outer = std::make_unique<transforms::ScopedBatchRule>("sum", *built_in);
  const transforms::BatchRule* outer_rule = transforms::batch_rule(sum);
  EXPECT_NE(outer_rule, built_in);
  {
    const transforms::ScopedBatchRule inner("sum", *built_in);
    EXPECT_NE(transforms::batch_rule(sum), outer_rule);
    const transforms::BatchRule* elsewhere = nullptr;
    std::thread([&] { elsewhere = transforms::batch_rule(sum); }).join();
    EXPECT_EQ(elsewhere, built_in);
  }
  EXPECT_EQ(transforms::batch_rule(sum), outer_rule);
  outer.reset();
  EXPECT_EQ(transforms::batch_rule(sum), built_in);

  const OpDef& argmax = OpRegistry::instance().get("argmax");
  const OpDef& sin = OpRegistry::instance().get("sin");
  ASSERT_TRUE(transforms::non_differentiable(argmax));
  ASSERT_EQ(transforms::transpose_rule(sin), nullptr);
  {
    // An op gains rules it had none of; a non-differentiable op gains a jvp.
    const transforms::ScopedJvpRule jvp("argmax", [](const transforms::JvpCall&) { return TensorList{Tensor()}; });
    const transforms::ScopedTransposeRule transpose("sin",
                                                    [](const transforms::TransposeCall&) { return TensorList{}; });
    EXPECT_FALSE(transforms::non_differentiable(argmax));
    EXPECT_NE(transforms::jvp_rule(argmax), nullptr);
    EXPECT_NE(transforms::transpose_rule(sin), nullptr);
  }
  EXPECT_TRUE(transforms::non_differentiable(argmax));
  EXPECT_EQ(transforms::jvp_rule(argmax), nullptr);
  EXPECT_EQ(transforms::transpose_rule(sin), nullptr);
}

// A replacement names its op as the catalogue does: a misspelt name is refused, not silently dead.
TEST(Mutants, ARuleReplacedForAnUndeclaredOpIsRefused) {
  try {
    const transforms::ScopedJvpRule jvp("sinn", [](const transforms::JvpCall&) { return TensorList{Tensor()}; });
    ADD_FAILURE() << "a rule replaced for the undeclared op 'sinn' was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::UnknownOp) << e.what();
    EXPECT_NE(std::string(e.what()).find("sinn"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace funcspec::properties
