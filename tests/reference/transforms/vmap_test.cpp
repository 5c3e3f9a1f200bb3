// vmap's semantics on small examples worked out by hand (the comparison of every op with the
// loop-and-stack oracle, NOTE: [loop-and-stack oracle], is VMAP-ORACLE's and the rule tests').
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/ops/schema.h"
#include "reference/random/generator.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/op_rules.h"
#include "reference/transforms/vmap.h"
#include "reference/transforms/vmap_interpreter.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/vmap_oracle_checks.h"

namespace funcspec::transforms {
namespace {

using testing_support::error_kind_of;
using testing_support::values;

// vmap of a one-tensor function.
Tensor vmap1(const std::function<Tensor(const Tensor&)>& f, const Tensor& x, VmapOptions options = {}) {
  const PyFunction g =
      vmap([&](const std::vector<PyTree>& args) { return PyTree(f(args.at(0).tensor())); }, std::move(options));
  return g({PyTree(x)}).tensor();
}

Tensor vmap2(const std::function<Tensor(const Tensor&, const Tensor&)>& f, const Tensor& x, const Tensor& y,
             VmapOptions options = {}) {
  const PyFunction g =
      vmap([&](const std::vector<PyTree>& args) { return PyTree(f(args.at(0).tensor(), args.at(1).tensor())); },
           std::move(options));
  return g({PyTree(x), PyTree(y)}).tensor();
}

TEST(Vmap, ElementwiseOpSeesOneExampleAndReturnsTheBatch) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor y = vmap1(
      [](const Tensor& e) {
        EXPECT_EQ(e.shape(), (Shape{3}));  // one example
        return call_one("neg", {e});
      },
      x);
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(y), (std::vector<double>{-1, -2, -3, -4, -5, -6}));
}

TEST(Vmap, InDimsAndOutDimsMoveTheBatch) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {3, 2});  // batch along dim 1: examples [1,3,5], [2,4,6]
  VmapOptions options;
  options.in_dims = PyTree(1);
  options.out_dims = PyTree(1);
  const Tensor y = vmap1([](const Tensor& e) { return call_one("add", {e, ops::lit(10)}); }, x, options);
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(values(y), (std::vector<double>{11, 12, 13, 14, 15, 16}));
}

TEST(Vmap, UnmappedArgumentIsSharedByEveryExample) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor w = from_values({10, 20}, {2});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const Tensor y = vmap2([](const Tensor& a, const Tensor& b) { return call_one("mul", {a, b}); }, x, w, options);
  EXPECT_EQ(values(y), (std::vector<double>{10, 40, 30, 80}));
}

TEST(Vmap, ResultIndependentOfTheBatchIsExpanded) {
  const Tensor x = from_values({1, 2, 3}, {3});
  const Tensor w = from_values({7}, {1});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const Tensor y = vmap2([](const Tensor&, const Tensor& b) { return b; }, x, w, options);
  EXPECT_EQ(y.shape(), (Shape{3, 1}));
  EXPECT_EQ(values(y), (std::vector<double>{7, 7, 7}));
}

TEST(Vmap, NestedVmapMapsTwoDims) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor y = vmap1(
      [](const Tensor& row) {
        return vmap1(
            [](const Tensor& element) {
              EXPECT_EQ(element.dim(), 0);
              return call_one("mul", {element, element});
            },
            row);
      },
      x);
  EXPECT_EQ(values(y), (std::vector<double>{1, 4, 9, 16, 25, 36}));
}

TEST(Vmap, PromotionFollowsTheExamples) {
  // Each example of x is a 0-dim float64 tensor; with a float32 vector it promotes as a 0-dim
  // tensor does (to float32), not as the 1-dim batched value would (to float64).
  const Tensor x = from_values({1, 2}, {2}, DType::Float64);
  const Tensor w = from_values({1, 1, 1}, {3}, DType::Float32);
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const Tensor y = vmap2([](const Tensor& a, const Tensor& b) { return call_one("add", {a, b}); }, x, w, options);
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_EQ(y.shape(), (Shape{2, 3}));
}

TEST(Vmap, BatchesOfSizeZeroAndOne) {
  EXPECT_EQ(vmap1([](const Tensor& e) { return call_one("exp", {e}); }, Tensor::empty({0, 4}, DType::Float64)).shape(),
            (Shape{0, 4}));
  EXPECT_EQ(values(vmap1([](const Tensor& e) { return call_one("neg", {e}); }, from_values({5}, {1, 1}))),
            (std::vector<double>{-5}));
}

TEST(VmapErrors, BatchSizesThatDisagreeNameTheArguments) {
  const Tensor x = Tensor::empty({2, 3}, DType::Float64);
  const Tensor y = Tensor::empty({4, 3}, DType::Float64);
  EXPECT_EQ(error_kind_of([&] {
              vmap2([](const Tensor& a, const Tensor& b) { return call_one("add", {a, b}); }, x, y);
            }),
            ErrorKind::VmapBatchSizeMismatch);
}

TEST(VmapErrors, InDimOutOfRange) {
  VmapOptions options;
  options.in_dims = PyTree(2);
  EXPECT_EQ(error_kind_of([&] {
              vmap1([](const Tensor& e) { return e; }, Tensor::empty({2, 3}, DType::Float64), options);
            }),
            ErrorKind::VmapInvalidDims);
}

TEST(VmapErrors, RandomOpsUnderTheDefaultRandomnessRaise) {
  EXPECT_EQ(error_kind_of([] {
              vmap1([](const Tensor& e) { return call_one("uniform", {e}); }, Tensor::empty({2, 3}, DType::Float64));
            }),
            ErrorKind::VmapRandomness);
}

TEST(VmapErrors, ItemOfABatchedTensorIsDataDependentControlFlow) {
  EXPECT_EQ(error_kind_of([] {
              vmap1(
                  [](const Tensor& e) {
                    call("item", {e});
                    return e;
                  },
                  Tensor::empty({2}, DType::Float64));
            }),
            ErrorKind::VmapDataDependent);
}

TEST(VmapErrors, NonzeroOfABatchedTensorHasADynamicShape) {
  EXPECT_EQ(error_kind_of([] {
              vmap1([](const Tensor& e) { return call_one("nonzero", {e}); }, Tensor::empty({2, 3}, DType::Float64));
            }),
            ErrorKind::VmapDynamicShape);
}

TEST(VmapErrors, InPlaceIntoAnUnbatchedTensorRaisesAndWritesNothing) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor target = from_values({0, 0}, {2});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  EXPECT_EQ(error_kind_of([&] {
              vmap2([](const Tensor& a, const Tensor& t) { return call_one("add_", {t, a}); }, x, target, options);
            }),
            ErrorKind::VmapInplaceUnbatched);
  EXPECT_EQ(values(target), (std::vector<double>{0, 0}));
}

TEST(Vmap, InPlaceIntoABatchedTensorWritesTheCallersTensor) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor w = from_values({10, 20}, {2});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  vmap2([](const Tensor& a, const Tensor& b) { return call_one("add_", {a, b}); }, x, w, options);
  EXPECT_EQ(values(x), (std::vector<double>{11, 22, 13, 24}));
}

TEST(VmapErrors, OutVariantsRaise) {
  EXPECT_EQ(error_kind_of([] {
              vmap1(
                  [](const Tensor& e) {
                    const Tensor out = Tensor::empty({3}, DType::Float64);
                    return call_one("neg.out", {e, out});
                  },
                  Tensor::empty({2, 3}, DType::Float64));
            }),
            ErrorKind::VmapOutVariant);
}

TEST(VmapErrors, AnEscapedBatchedTensorRaisesWhenUsed) {
  Tensor escaped;
  vmap1(
      [&](const Tensor& e) {
        escaped = e;
        return e;
      },
      Tensor::empty({2, 3}, DType::Float64));
  EXPECT_EQ(error_kind_of([&] { call_one("neg", {escaped}); }), ErrorKind::TransformEscaped);
}

TEST(VmapRandomness, SameGivesEveryExampleTheUnbatchedDraw) {
  VmapOptions options;
  options.randomness = Randomness::Same;
  Tensor batched;
  Tensor unbatched;
  {
    random::GeneratorScope scope(7);
    batched =
        vmap1([](const Tensor& e) { return call_one("uniform", {e}); }, Tensor::empty({4, 3}, DType::Float64), options);
  }
  {
    random::GeneratorScope scope(7);
    unbatched = call_one("uniform", {Tensor::empty({3}, DType::Float64)});
  }
  const std::vector<double> u = values(unbatched);
  const std::vector<double> b = values(batched);
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i], u[i % 3]);
}

// Found by PROP-VMAP/pytree-equals-loop: with the batch dim in the middle of the physical tensor each
// example is strided, reshape clones it, and the clone must give contiguous examples for the view
// that follows.
TEST(VmapLayouts, FlattenOfExamplesStridedByAMiddleBatchDimEqualsTheLoop) {
  std::vector<double> v(48);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  const Tensor x = from_vector(v, {2, 2, 3, 4}, DType::Float64);
  VmapOptions options;
  options.in_dims = PyTree(1);
  const Tensor batched = vmap1([](const Tensor& e) { return call_one("flatten", {e}); }, x, options);
  ASSERT_EQ(batched.shape(), (Shape{2, 24}));
  const oracles::LoopAndStack loop = oracles::loop_and_stack({{2, 0}}, [&](std::int64_t b) {
    return TensorList{call_one("flatten", {call_one("select", {x}, {{"dim", std::int64_t{1}}, {"index", b}})})};
  });
  testing_support::expect_vmap_equals_loop(
      "flatten", [&] { return TensorList{batched}; }, loop, oracles::ReferenceAgainstItsLoop{});
  const Tensor cloned = vmap1(
      [](const Tensor& e) {
        const Tensor c = call_one("clone", {e});
        EXPECT_TRUE(c.is_contiguous()) << "an example of a clone is strided";
        return c;
      },
      x, options);
  EXPECT_EQ(values(cloned),
            values(call_one("movedim", {x}, {{"source", std::int64_t{1}}, {"destination", std::int64_t{0}}})));
}

TEST(VmapRandomness, DifferentEqualsTheUnbatchedDrawOverTheBatchShape) {
  VmapOptions options;
  options.randomness = Randomness::Different;
  Tensor batched;
  Tensor unbatched;
  {
    random::GeneratorScope scope(7);
    batched =
        vmap1([](const Tensor& e) { return call_one("uniform", {e}); }, Tensor::empty({4, 3}, DType::Float64), options);
  }
  {
    random::GeneratorScope scope(7);
    unbatched = call_one("uniform", {Tensor::empty({4, 3}, DType::Float64)});
  }
  EXPECT_EQ(values(batched), values(unbatched));
}

TEST(VmapRandomness, RepeatedCallsAdvanceTheGeneratorAndReseedingReplays) {
  VmapOptions options;
  options.randomness = Randomness::Different;
  const Tensor x = Tensor::empty({3, 2}, DType::Float64);
  auto draw = [&] { return values(vmap1([](const Tensor& e) { return call_one("uniform", {e}); }, x, options)); };
  std::vector<double> first, second, replayed;
  {
    random::GeneratorScope scope(5);
    first = draw();
    second = draw();
  }
  {
    random::GeneratorScope scope(5);
    replayed = draw();
  }
  EXPECT_NE(first, second);
  EXPECT_EQ(first, replayed);
}

TEST(VmapChunks, ChunkSizeGivesTheSameResultIncludingDifferentRandomness) {
  auto run = [](std::optional<std::int64_t> chunk) {
    VmapOptions options;
    options.randomness = Randomness::Different;
    options.chunk_size = chunk;
    random::GeneratorScope scope(11);
    return values(vmap1(
        [](const Tensor& e) {
          return call_one("add", {call_one("uniform", {e}), call_one("normal_functional", {e})});
        },
        Tensor::empty({5, 2}, DType::Float64), options));
  };
  EXPECT_EQ(run(2), run(std::nullopt));
  EXPECT_EQ(run(1), run(std::nullopt));
}

// Every op of the catalogue has a rule (tests/spec/vmap_native_rules_test.cpp), so the fallback is
// exercised directly: it must agree with the rule and record itself.
TEST(VmapFallback, AgreesWithTheRuleAndIsCounted) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {3, 2});  // the batch along dim 1: [1,3,5], [2,4,6]
  const OpDef& sum = OpRegistry::instance().get("sum");
  const BatchContext context{2, Randomness::Error, 2, 0};
  VmapFallbackLog log;
  const BatchedValues looped = vmap_fallback(sum, {{x, 1}}, bind_attrs(sum.schema, {}), context);
  EXPECT_EQ(log.counts().at("sum"), 1);
  ASSERT_EQ(looped.size(), 1u);
  EXPECT_EQ(looped[0].bdim, 0);
  EXPECT_EQ(values(looped[0].value), (std::vector<double>{9, 12}));
  const BatchRule* rule = batch_rule(sum);
  ASSERT_NE(rule, nullptr);
  const BatchedValues ruled = (*rule)({{x, 1}}, bind_attrs(sum.schema, {}), context);
  EXPECT_EQ(values(rules::batch_to_front(ruled[0])), values(looped[0].value));
}

TEST(VmapFallback, AnEmptyBatchGetsItsShapesFromMeta) {
  const OpDef& sum = OpRegistry::instance().get("sum");
  const BatchedValues looped = vmap_fallback(sum, {{Tensor::empty({0, 4}, DType::Float32), 0}},
                                             bind_attrs(sum.schema, {}), BatchContext{0, Randomness::Error, 0, 0});
  EXPECT_EQ(looped.at(0).value.shape(), (Shape{0}));
  EXPECT_EQ(looped.at(0).value.dtype(), DType::Float32);
}

}  // namespace
}  // namespace funcspec::transforms
