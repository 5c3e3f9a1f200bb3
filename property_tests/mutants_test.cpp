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
  const transforms::BatchRuleRegistry& registry = transforms::BatchRuleRegistry::instance();
  const transforms::BatchRule* built_in = registry.find("sum");
  ASSERT_NE(built_in, nullptr);
  auto outer = std::make_unique<transforms::ScopedBatchRule>("sum", *built_in);
  const transforms::BatchRule* outer_rule = registry.find("sum");
  EXPECT_NE(outer_rule, built_in);
  {
    const transforms::ScopedBatchRule inner("sum", *built_in);
    EXPECT_NE(registry.find("sum"), outer_rule);
    const transforms::BatchRule* elsewhere = nullptr;
    std::thread([&] { elsewhere = registry.find("sum"); }).join();
    EXPECT_EQ(elsewhere, built_in);
  }
  EXPECT_EQ(registry.find("sum"), outer_rule);
  outer.reset();
  EXPECT_EQ(registry.find("sum"), built_in);

  const transforms::AdRuleRegistry& rules = transforms::AdRuleRegistry::instance();
  ASSERT_TRUE(rules.non_differentiable("argmax"));
  {
    // An op registered by a test gains rules it had none of; a non-differentiable op gains a jvp.
    const transforms::ScopedJvpRule jvp("argmax", [](const transforms::JvpCall&) { return TensorList{Tensor()}; });
    const transforms::ScopedTransposeRule transpose("no-such-op",
                                                    [](const transforms::TransposeCall&) { return TensorList{}; });
    EXPECT_FALSE(rules.non_differentiable("argmax"));
    EXPECT_NE(rules.find_jvp("argmax"), nullptr);
    EXPECT_NE(rules.find_transpose("no-such-op"), nullptr);
  }
  EXPECT_TRUE(rules.non_differentiable("argmax"));
  EXPECT_EQ(rules.find_jvp("argmax"), nullptr);
  EXPECT_EQ(rules.find_transpose("no-such-op"), nullptr);
}

}  // namespace
}  // namespace funcspec::properties
