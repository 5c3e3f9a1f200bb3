#include <gtest/gtest.h>

#include "reference/random/generator.h"

namespace funcspec::random {
namespace {

TEST(Generator, ReserveHandsOutDisjointCounterRanges) {
  Generator g(42);
  const PhiloxStream first = g.reserve(10);
  const PhiloxStream second = g.reserve(5);
  EXPECT_EQ(first.offset, 0u);
  EXPECT_EQ(second.offset, 10u);
  EXPECT_EQ(g.offset(), 15u);
  EXPECT_EQ(second.seed, 42u);
}

TEST(Generator, ScopeInstallsAFreshGeneratorAndRestoresThePrevious) {
  current_generator().reserve(3);
  const std::uint64_t outer_offset = current_generator().offset();
  {
    GeneratorScope scope(7);
    EXPECT_EQ(current_generator().seed(), 7u);
    EXPECT_EQ(current_generator().offset(), 0u);
    current_generator().reserve(100);
  }
  EXPECT_EQ(current_generator().offset(), outer_offset);
}

TEST(Philox, BlocksDependOnlyOnKeyAndCounter) {
  const PhiloxStream a{1, 0};
  const PhiloxStream b{1, 5};
  for (int w = 0; w < 4; ++w) EXPECT_EQ(a.block(5)[w], b.block(0)[w]);
  const PhiloxStream other_seed{2, 0};
  EXPECT_NE(a.block(0)[0], other_seed.block(0)[0]);
}

}  // namespace
}  // namespace funcspec::random
