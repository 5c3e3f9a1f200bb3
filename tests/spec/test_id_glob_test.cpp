#include "conformance/spec/test_id_glob.h"

#include <gtest/gtest.h>

namespace funcspec::conformance {
namespace {

TEST(TestIdGlob, StarMatchesAnyRunIncludingSlashes) {
  EXPECT_TRUE(test_id_matches("OPS-VALUES/*", "OPS-VALUES/add/float64/3"));
  EXPECT_TRUE(test_id_matches("*/shape_mismatch-*", "TENSOR-BROADCAST/add/shape_mismatch-3-with-4"));
  EXPECT_TRUE(test_id_matches("OPS-VALUES/*_/*", "OPS-VALUES/add_/float64/0"));
  EXPECT_FALSE(test_id_matches("OPS-VALUES/*_/*", "OPS-VALUES/add/float64/0"));
}

TEST(TestIdGlob, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(test_id_matches("A/?", "A/b"));
  EXPECT_FALSE(test_id_matches("A/?", "A/"));
  EXPECT_FALSE(test_id_matches("A/?", "A/bc"));
}

TEST(TestIdGlob, LiteralCharactersMatchWholeIdsCaseSensitively) {
  EXPECT_TRUE(test_id_matches("GEN-DRAWS/rand/x", "GEN-DRAWS/rand/x"));
  EXPECT_FALSE(test_id_matches("GEN-DRAWS/rand", "GEN-DRAWS/rand/x"));
  EXPECT_FALSE(test_id_matches("gen-draws/*", "GEN-DRAWS/rand/x"));
}

TEST(TestIdGlob, BacktracksAcrossSeveralStars) {
  EXPECT_TRUE(test_id_matches("*a*b*c", "xxaxxbxxbxc"));
  EXPECT_FALSE(test_id_matches("*a*b*c", "xxaxxbxxbx"));
  EXPECT_TRUE(test_id_matches("**", ""));
}

}  // namespace
}  // namespace funcspec::conformance
