// Each mutant backend (mutant_backends_test_support.h) is caught by the property named for it at the
// pr tier: the property fails, its shrunk counterexample is a small program written as a case file,
// and replaying that file judges the mutant wrong and the clean reference right. The run seed is
// the default one, whatever FUNCSPEC_PROPERTY_SEED says: where shrinking stops depends on the seed
// (a local minimum: on a few seeds a third step cannot go without the failure going too), and
// this test pins the counterexample CI sees.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <thread>

#include "conformance/case/case_json.h"
#include "conformance/case/evaluate.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/mutant_backends_test_support.h"
#include "property_tests/property.h"
#include "property_tests/property_runner.h"

namespace funcspec::properties {
namespace {

// Shrinking must reduce a counterexample to the op that is wrong and what feeds it.
constexpr std::size_t kMostCounterexampleSteps = 2;

TEST(Mutants, SumReducingTheBatchDimIsCaughtByEqualsLoop) {
  const std::unique_ptr<conformance::Backend> mutant = make_sum_reduces_the_batch_dim_mutant();
  expect_caught(*mutant, "PROP-VMAP/equals-loop", kMostCounterexampleSteps);
}

TEST(Mutants, ExpandTransposeWithoutSumIsCaughtByVjpTransposesJvp) {
  const std::unique_ptr<conformance::Backend> mutant = make_expand_transpose_without_sum_mutant();
  expect_caught(*mutant, "PROP-AD/vjp-transposes-jvp", kMostCounterexampleSteps);
}

TEST(Mutants, ExpandTransposeUnreducedIsCaughtByErrorsMatchReference) {
  const std::unique_ptr<conformance::Backend> mutant = make_expand_transpose_unreduced_mutant();
  expect_caught(*mutant, "PROP-ERR/errors-match-reference", kMostCounterexampleSteps);
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
