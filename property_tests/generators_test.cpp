// The pytree generators' own laws: structures hold exactly the leaves asked for, and drawn in_dims
// and out_dims always fit what they describe (a prefix vmap accepts, every mapped dim in range, at
// least one leaf mapped, non-tensor leaves never mapped).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "property_tests/generators.h"

namespace funcspec::properties {
namespace {

using transforms::PyTree;

// Tensor leaves of the given ranks (nullopt: a scalar leaf), in order.
std::vector<PyTree> leaves_of(const std::vector<std::optional<std::int64_t>>& ranks) {
  std::vector<PyTree> leaves;
  for (const auto& rank : ranks) {
    if (rank) {
      leaves.emplace_back(Tensor::empty(Shape(static_cast<std::size_t>(*rank), 2), DType::Float64));
    } else {
      leaves.emplace_back(Scalar(1.5));
    }
  }
  return leaves;
}

rc::Gen<std::vector<std::optional<std::int64_t>>> gen_leaf_ranks() {
  return rc::gen::nonEmpty(rc::gen::container<std::vector<std::optional<std::int64_t>>>(
      rc::gen::oneOf(rc::gen::just(std::optional<std::int64_t>()),
                     rc::gen::map(rc::gen::inRange<std::int64_t>(0, 5),
                                  [](std::int64_t r) { return std::optional<std::int64_t>(r); }))));
}

RC_GTEST_PROP(PytreeGenerators, argumentStructuresHoldEveryLeafInOrder, ()) {
  const std::size_t count = *rc::gen::inRange<std::size_t>(1, 9);
  const PyTree structure = *gen_argument_structure(count);
  RC_ASSERT(structure.kind() == PyTree::Kind::Tuple);
  RC_ASSERT(structure.leaf_count() == count);
  std::vector<PyTree> numbered;
  for (std::size_t i = 0; i < count; ++i) numbered.emplace_back(static_cast<std::int64_t>(i));
  const std::vector<PyTree> back = structure.with_leaves(numbered).leaves();
  for (std::size_t i = 0; i < count; ++i)
    RC_ASSERT(back[i].scalar().to<std::int64_t>() == static_cast<std::int64_t>(i));
}

RC_GTEST_PROP(PytreeGenerators, resultStructuresHoldEveryLeaf, ()) {
  const std::size_t count = *rc::gen::inRange<std::size_t>(1, 9);
  RC_ASSERT(gen_result_structure(count).operator*().leaf_count() == count);
}

RC_GTEST_PROP(PytreeGenerators, inDimsFitTheirArguments, ()) {
  const std::vector<std::optional<std::int64_t>> ranks = *gen_leaf_ranks();
  RC_PRE(std::any_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.has_value(); }));
  const PyTree arguments = (*gen_argument_structure(ranks.size())).with_leaves(leaves_of(ranks));
  const PyTree in_dims = *gen_dims_prefix(arguments, ranks, true);
  const std::vector<std::optional<std::int64_t>> dims =
      transforms::broadcast_dims(in_dims, arguments, "in_dims", ErrorKind::VmapInvalidDims);
  RC_ASSERT(dims.size() == ranks.size());
  bool any = false;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (!dims[i]) continue;
    any = true;
    RC_ASSERT(ranks[i].has_value());
    RC_ASSERT(*dims[i] >= -(*ranks[i] + 1));
    RC_ASSERT(*dims[i] <= *ranks[i]);
  }
  RC_ASSERT(any);
}

RC_GTEST_PROP(PytreeGenerators, outDimsMapEveryResult, ()) {
  const std::size_t count = *rc::gen::inRange<std::size_t>(1, 6);
  const auto ranks = *rc::gen::container<std::vector<std::optional<std::int64_t>>>(
      count, rc::gen::map(rc::gen::inRange<std::int64_t>(0, 4),
                          [](std::int64_t r) { return std::optional<std::int64_t>(r); }));
  const PyTree results = (*gen_result_structure(count)).with_leaves(leaves_of(ranks));
  const std::vector<std::optional<std::int64_t>> dims = transforms::broadcast_dims(
      *gen_dims_prefix(results, ranks, false), results, "out_dims", ErrorKind::VmapInvalidDims);
  for (std::size_t i = 0; i < count; ++i) {
    RC_ASSERT(dims[i].has_value());
    RC_ASSERT(*dims[i] >= -(*ranks[i] + 1) && *dims[i] <= *ranks[i]);
  }
}

TEST(PytreeGenerators, TheSimplestDrawIsFlatAndMappedAtZero) {
  // RapidCheck shrinks towards the first value of every generator: size 0 draws it.
  const PyTree structure = gen_argument_structure(3)(rc::Random(), 0).value();
  EXPECT_EQ(structure.describe(), PyTree::tuple({PyTree(), PyTree(), PyTree()}).describe());
  const PyTree dims = gen_dims_prefix(structure, {2, 0, std::nullopt}, true)(rc::Random(), 0).value();
  EXPECT_EQ(dims.describe(), PyTree::tuple({PyTree(0), PyTree(0), PyTree()}).describe());
}

// The generators are not stuck at their simplest value: over draws of growing size they reach every
// container kind, nesting, None and negative dims.
TEST(PytreeGenerators, DrawsReachEveryContainerNestingNoneAndNegativeDims) {
  bool tuple_inside = false, list = false, dict = false, nested = false, none = false, negative = false;
  rc::Random random(20261121);
  for (int i = 0; i < 200; ++i) {
    const PyTree structure = gen_argument_structure(5)(random.split(), i % 100).value();
    const std::string text = structure.describe();
    tuple_inside = tuple_inside || text.find("((") != std::string::npos || text.find(", (") != std::string::npos;
    list = list || text.find('[') != std::string::npos;
    dict = dict || text.find('{') != std::string::npos;
    for (const PyTree& arg : structure.children()) {
      for (const PyTree& child : arg.children()) nested = nested || !child.is_leaf();
    }
    const PyTree dims = gen_dims_prefix(structure, {1, 2, 0, 3, 1}, true)(random.split(), i % 100).value();
    for (const auto& d : transforms::broadcast_dims(dims, structure, "in_dims", ErrorKind::VmapInvalidDims)) {
      none = none || !d.has_value();
      negative = negative || (d && *d < 0);
    }
  }
  EXPECT_TRUE(tuple_inside);
  EXPECT_TRUE(list);
  EXPECT_TRUE(dict);
  EXPECT_TRUE(nested);
  EXPECT_TRUE(none);
  EXPECT_TRUE(negative);
}

}  // namespace
}  // namespace funcspec::properties
