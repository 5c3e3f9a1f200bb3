// The rules ops carry (NOTE: [op rules]): every op of the catalogue has what its kind requires, and
// the mechanism refuses rules that could never run.
#include "reference/transforms/op_rules.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/core/error.h"
#include "reference/ops/registry.h"
#include "reference/ops/schema.h"

namespace funcspec::transforms {
namespace {

TEST(OpRules, EveryOpOfTheCatalogueHasTheRulesItsKindRequires) {
  int checked = 0;
  for (const OpDef* op : OpRegistry::instance().all()) {
    const std::string missing = missing_rules(*op);
    EXPECT_EQ(missing, "") << op->name() << " (" << op_kind_name(op->kind) << ", family " << op->family << ") "
                           << missing;
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

OpDef op_of(std::string_view schema, OpKind kind) {
  OpDef op;
  op.schema = parse_schema(schema);
  op.kind = kind;
  return op;
}

JvpRule some_jvp() {
  return [](const JvpCall& call) { return TensorList(call.outputs.size()); };
}

TEST(OpRules, APrimitiveWithoutABatchingRuleOrADerivativeIsReported) {
  OpDef op = op_of("twice(Tensor self) -> Tensor", OpKind::Primitive);
  EXPECT_NE(missing_rules(op).find("no batching rule"), std::string::npos) << missing_rules(op);
  op.rules = std::make_shared<OpRules>();
  op.rules->batch = [](const BatchedValues& in, const Attrs&, const BatchContext&) { return in; };
  EXPECT_NE(missing_rules(op).find("no jvp rule"), std::string::npos) << missing_rules(op);
  op.rules->jvp = some_jvp();
  EXPECT_EQ(missing_rules(op), "");
  op.rules->non_differentiable = true;
  EXPECT_NE(missing_rules(op).find("non-differentiable"), std::string::npos) << missing_rules(op);
}

TEST(OpRules, AnOpWithoutTensorInputsNeedsNoBatchingRuleUnlessItIsRandom) {
  OpDef creation = op_of("ones_like_nothing(int[] size) -> Tensor", OpKind::Primitive);
  creation.rules = std::make_shared<OpRules>();
  creation.rules->non_differentiable = true;
  EXPECT_EQ(missing_rules(creation), "");
  OpDef random = op_of("draw(int[] size) -> Tensor", OpKind::Random);
  random.rules = creation.rules;
  EXPECT_NE(missing_rules(random).find("no batching rule"), std::string::npos) << missing_rules(random);
}

TEST(OpRules, RulesOnAnOpThatDecomposesAreReportedAsNeverRunning) {
  OpDef composite = op_of("softsign(Tensor self) -> Tensor", OpKind::Composite);
  EXPECT_EQ(missing_rules(composite), "");
  composite.rules = std::make_shared<OpRules>();
  composite.rules->jvp = some_jvp();
  EXPECT_NE(missing_rules(composite).find("never run"), std::string::npos) << missing_rules(composite);
  OpDef item = op_of("item(Tensor self) -> Scalar", OpKind::ScalarExtraction);
  item.rules = composite.rules;
  EXPECT_NE(missing_rules(item).find("never run"), std::string::npos) << missing_rules(item);
}

TEST(OpRules, AttachingToAnUndeclaredOpFailsNamingIt) {
  RuleAttacher attach(OpRegistry::instance());
  try {
    attach.jvp("sinn", some_jvp());
    ADD_FAILURE() << "a jvp rule for the undeclared op 'sinn' was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal);
    EXPECT_NE(std::string(e.what()).find("'sinn'"), std::string::npos) << e.what();
  }
}

TEST(OpRules, ASecondRuleOfOneSortForOneOpFails) {
  RuleAttacher attach(OpRegistry::instance());
  try {
    attach.jvp("sin", some_jvp());
    ADD_FAILURE() << "a second jvp rule for sin was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("two jvp rules for 'sin'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace funcspec::transforms
