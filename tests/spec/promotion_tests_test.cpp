// The generated type promotion tests (conformance/suite/promotion_tests.cpp): their number, tiers
// and the symmetry of the table they come from.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "conformance/case/evaluate.h"
#include "tests/spec/spec_test_support.h"

namespace funcspec::conformance {
namespace {

using spec_testing::promotion_tests;

// Each promotion test passing on the reference, and naming clauses that cover its id, is checked
// with the whole registry (conformance.reference.* in ctest, clause_coverage_test.cpp).
TEST(PromotionTests, BuildCasesWithTheirOwnIdAndClauses) {
  for (const ConformanceTest& test : promotion_tests()) {
    const Case c = test.build();
    EXPECT_EQ(c.id, test.id);
    EXPECT_EQ(c.clauses, test.clauses);
  }
}

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
