// The generated type promotion tests (conformance/suite/promotion_tests.cpp): each builds a case
// that names covering clauses and passes on the reference.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "conformance/case/evaluate.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

using spec_testing::promotion_tests;

std::vector<std::size_t> promotion_test_indices() {
  std::vector<std::size_t> indices(promotion_tests().size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

class PromotionTest : public ::testing::TestWithParam<std::size_t> {
 protected:
  const ConformanceTest& test() const { return promotion_tests()[GetParam()]; }
};

TEST_P(PromotionTest, NamesClausesWhosePatternsCoverItsId) {
  EXPECT_EQ(spec_testing::clause_problems(test().id, test().clauses), "");
}

TEST_P(PromotionTest, PassesOnTheReference) {
  const Case c = test().build();
  EXPECT_EQ(c.id, test().id);
  EXPECT_EQ(c.clauses, test().clauses);
  const Evaluation ev = evaluate_on_reference(c);
  EXPECT_EQ(ev.verdict, Verdict::Pass) << c.id << ": " << ev.reason << ev.result.error_message;
}

INSTANTIATE_TEST_SUITE_P(Generated, PromotionTest, ::testing::ValuesIn(promotion_test_indices()),
                         [](const auto& param_info) {
                           return spec_testing::parameter_name(promotion_tests()[param_info.param].id);
                         });

TEST(PromotionTests, CoverEveryPairExceptTwoLiteralsForEachOp) {
  // 11 operand categories on each side, less the 3 x 3 literal pairs, for add, mul and div.
  EXPECT_EQ(promotion_tests().size(), 3u * (11u * 11u - 9u));
  std::set<std::string> ids;
  for (const ConformanceTest& t : promotion_tests()) EXPECT_TRUE(ids.insert(t.id).second) << t.id;
}

TEST(PromotionTests, AHandfulAreSmoke) {
  const auto smoke = std::count_if(promotion_tests().begin(), promotion_tests().end(),
                                   [](const ConformanceTest& t) { return t.tier == Tier::Smoke; });
  EXPECT_GE(smoke, 3);
  EXPECT_LE(smoke, 10);
}

// Addition commutes, so the hand-written table must give a-b and b-a the same dtype.
TEST(PromotionTests, AddTableIsSymmetric) {
  std::map<std::string, DType> dtype_of;
  for (const ConformanceTest& t : promotion_tests()) {
    if (!t.id.starts_with("TENSOR-PROMOTION/add/")) continue;
    dtype_of[t.id.substr(21)] = t.build().expect.values.at(0).tensor.data.dtype;
  }
  for (const auto& [pair, dtype] : dtype_of) {
    const std::size_t dash = pair.find('-');
    const std::string swapped = pair.substr(dash + 1) + "-" + pair.substr(0, dash);
    ASSERT_TRUE(dtype_of.contains(swapped)) << swapped;
    EXPECT_EQ(dtype_of.at(swapped), dtype) << pair;
  }
}

}  // namespace
}  // namespace funcspec::conformance
