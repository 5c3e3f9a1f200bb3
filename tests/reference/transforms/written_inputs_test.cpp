// Which results of an op are inputs it wrote into (NOTE: [written inputs]): what every interpreter
// hands back as the caller's own tensors.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "reference/ops/registry.h"
#include "reference/transforms/interpreter.h"

namespace funcspec::transforms {
namespace {

using Positions = std::vector<std::size_t>;

OpDef op_of(const char* schema) {
  OpDef op;
  op.schema = parse_schema(schema);
  return op;
}

TEST(WrittenInputs, InPlaceOpsReturnTheSelfTheyWroteInto) {
  for (const char* name : {"add_", "copy_", "mul_"}) {
    SCOPED_TRACE(name);
    const OpDef& op = OpRegistry::instance().get(name);
    EXPECT_EQ(written_inputs(op), Positions{0});
    EXPECT_EQ(returned_written_input(op, 0, 2), std::optional<std::size_t>{0});
  }
}

TEST(WrittenInputs, OutVariantsReturnTheirOut) {
  const OpDef& op = OpRegistry::instance().get("add.out");
  EXPECT_EQ(written_inputs(op), Positions{2});
  EXPECT_EQ(returned_written_input(op, 0, 3), std::optional<std::size_t>{2});
  // An input the call did not receive is not handed back.
  EXPECT_EQ(returned_written_input(op, 0, 2), std::nullopt);
}

TEST(WrittenInputs, FunctionalOpsAndViewsReturnNoInput) {
  const OpDef& add = OpRegistry::instance().get("add");
  EXPECT_TRUE(written_inputs(add).empty());
  EXPECT_EQ(returned_written_input(add, 0, 2), std::nullopt);
  // A view's result aliases its input (`Tensor(a)`) but is a new tensor, not the input itself.
  const OpDef& transpose = OpRegistry::instance().get("transpose");
  EXPECT_EQ(returned_written_input(transpose, 0, 1), std::nullopt);
  EXPECT_EQ(returned_written_input(OpRegistry::instance().get("add_"), 1, 2), std::nullopt);
}

TEST(WrittenInputs, EachResultIsTheWrittenInputWithItsLetter) {
  const OpDef op = op_of("swap_written(Tensor(a!) x, Tensor y, Tensor(b!) z) -> (Tensor(b!), Tensor, Tensor(a!))");
  EXPECT_EQ(written_inputs(op), (Positions{0, 2}));
  EXPECT_EQ(returned_written_input(op, 0, 3), std::optional<std::size_t>{2});
  EXPECT_EQ(returned_written_input(op, 1, 3), std::nullopt);
  EXPECT_EQ(returned_written_input(op, 2, 3), std::optional<std::size_t>{0});

  const std::vector<int> inputs{10, 11, 12};
  const std::vector<int> handed_back =
      results_returning_written_inputs(op, inputs, 3, [](std::size_t k) { return static_cast<int>(k); });
  EXPECT_EQ(handed_back, (std::vector<int>{12, 1, 10}));
}

}  // namespace
}  // namespace funcspec::transforms
