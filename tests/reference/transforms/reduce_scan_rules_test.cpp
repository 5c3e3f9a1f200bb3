// The batching rules of the reduce and scan families against the loop-and-stack oracle (NOTE:
// [loop-and-stack oracle]), on every sample of the op sample database: vmap must give what calling
// the op on each example and stacking the results gives, exactly (NOTE: [vmap oracle tolerance],
// item 1), without falling back to the for-loop.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/transforms/vmap_oracle_checks.h"

namespace funcspec::transforms {
namespace {

using samples::OpSample;
using samples::OpSampleRegistry;
using samples::SampleRng;
using testing_support::expect_vmap_equals_loop;
using testing_support::on_meta;
using testing_support::op_function;
using testing_support::tensors_of;

// Three examples of one sample: the same shapes, values from different seeds.
constexpr std::uint64_t kFirstExampleSeed = 2024;
constexpr std::int64_t kExamples = 3;

class ReduceScanRules : public testing::TestWithParam<std::string> {
 protected:
  // The loop over `examples` (row-major over `levels`), an empty batch shaped by one on meta.
  oracles::LoopAndStack loop_over(const std::vector<oracles::BatchLevel>& levels, const TensorList& examples) const {
    return oracles::loop_and_stack(
        levels, [&](std::int64_t e) { return call(op_, {examples[static_cast<std::size_t>(e)]}, attrs_); },
        [&] { return call(op_, on_meta({like_}), attrs_); });
  }

  void check(const std::string& what, const std::function<TensorList()>& vmapped, const oracles::LoopAndStack& loop) {
    ++checks_;
    expect_vmap_equals_loop(what, vmapped, loop, oracles::ReferenceAgainstItsLoop{});
  }

  void check_sample(DType dtype, const std::vector<OpSample>& draws) {
    const OpSample& sample = draws.at(0);
    ASSERT_EQ(sample.inputs.size(), 1u) << sample.label;
    attrs_ = sample.attrs;
    like_ = sample.inputs.at(0);
    TensorList examples;
    for (const OpSample& draw : draws) {
      ASSERT_EQ(draw.inputs.at(0).shape(), like_.shape()) << sample.label;
      examples.push_back(draw.inputs.at(0));
    }
    const std::string where = fmt::format("{} {} '{}'", op_, dtype_name(dtype), sample.label);
    const PyFunction apply = op_function(op_, attrs_);

    for (std::int64_t batch_size : {std::int64_t{0}, std::int64_t{1}, kExamples}) {
      const TensorList used(examples.begin(), examples.begin() + batch_size);
      for (std::int64_t out_dim : {0, -1}) {
        // The input batched at the front and at the back.
        const oracles::LoopAndStack loop = loop_over({{batch_size, out_dim}}, used);
        for (std::int64_t in_dim : {0, -1}) {
          const Tensor input = oracles::batch_of(used, like_, {{batch_size, in_dim}});
          VmapOptions options;
          options.in_dims = PyTree(in_dim);
          options.out_dims = PyTree(out_dim);
          check(
              fmt::format("{}: B={} in_dims={} out_dims={}", where, batch_size, in_dim, out_dim),
              [&] { return tensors_of(vmap(apply, options)({PyTree(input)})); }, loop);
        }
        // The input unbatched, next to a batched argument the function ignores.
        VmapOptions options;
        options.in_dims = PyTree::tuple({PyTree::none(), PyTree(0)});
        options.out_dims = PyTree(out_dim);
        const Tensor ignored = Tensor::empty({batch_size}, dtype);
        const PyFunction first_only = [&](const std::vector<PyTree>& args) { return apply({args.at(0)}); };
        check(
            fmt::format("{}: B={} unbatched out_dims={}", where, batch_size, out_dim),
            [&] {
              return tensors_of(vmap(first_only, options)({PyTree(examples[0]), PyTree(ignored)}));
            },
            loop_over({{batch_size, out_dim}}, TensorList(static_cast<std::size_t>(batch_size), examples[0])));
      }
    }
    check_nested(where, examples);
  }

  // vmap of vmap over a [2, 3] grid of examples (example (i, j) is draw (i + j) % 3), each level's
  // batch at the front or at the back of what that level sees.
  void check_nested(const std::string& where, const TensorList& examples) {
    constexpr std::int64_t kOuter = 2;
    TensorList grid;
    for (std::int64_t i = 0; i < kOuter; ++i) {
      for (std::int64_t j = 0; j < kExamples; ++j)
        grid.push_back(examples[static_cast<std::size_t>((i + j) % kExamples)]);
    }
    const oracles::LoopAndStack loop = loop_over({{kOuter, 0}, {kExamples, 0}}, grid);
    for (std::int64_t outer_dim : {0, -1}) {
      for (std::int64_t inner_dim : {0, -1}) {
        const Tensor input = oracles::batch_of(grid, like_, {{kOuter, outer_dim}, {kExamples, inner_dim}});
        VmapOptions inner;
        inner.in_dims = PyTree(inner_dim);
        VmapOptions outer;
        outer.in_dims = PyTree(outer_dim);
        const PyFunction nested = vmap(vmap(op_function(op_, attrs_), inner), outer);
        check(
            fmt::format("{}: vmap of vmap, in_dims={} then {}", where, outer_dim, inner_dim),
            [&] { return tensors_of(nested({PyTree(input)})); }, loop);
      }
    }
  }

  std::string op_;
  Attrs attrs_;
  Tensor like_;  // an example, for the geometry of an empty batch
  std::int64_t checks_ = 0;
};

TEST_P(ReduceScanRules, VmapEqualsLoopAndStackWithoutFallback) {
  op_ = GetParam();
  const samples::OpSampleSpec* spec = OpSampleRegistry::instance().find(op_);
  ASSERT_NE(spec, nullptr) << "no samples for " << op_;
  VmapFallbackLog log;
  for (DType dtype : {DType::Float32, DType::Float64}) {
    std::vector<std::vector<OpSample>> draws;
    for (std::int64_t k = 0; k < kExamples; ++k) {
      SampleRng rng(kFirstExampleSeed + static_cast<std::uint64_t>(k));
      draws.push_back(spec->generate(dtype, rng));
    }
    ASSERT_FALSE(draws[0].empty());
    for (std::size_t i = 0; i < draws[0].size(); ++i) {
      std::vector<OpSample> same_index;
      for (const std::vector<OpSample>& d : draws) same_index.push_back(d.at(i));
      check_sample(dtype, same_index);
    }
  }
  EXPECT_GT(checks_, 0);
  // Any fallback at all would mean a rule (ours, or one ours calls under an outer vmap) is missing.
  for (const auto& [fallen_back, count] : log.counts()) {
    ADD_FAILURE() << fallen_back << " fell back to the for-loop " << count << " times under vmap of " << op_;
  }
}

INSTANTIATE_TEST_SUITE_P(ReduceAndScan, ReduceScanRules,
                         testing::Values("all", "amax", "amin", "any", "argmax", "argmin", "norm", "prod", "sum",
                                         "cumprod", "cumsum", "flip", "roll", "sort", "topk"),
                         [](const testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// Error kinds follow the example, never the batched value: a dim one past the example's rank is out
// of range though the batch has a dim there, and the message names the example's rank.
TEST(ReduceScanRuleErrors, DimOutOfRangeNamesTheExamplesRank) {
  const Tensor x = Tensor::empty({4, 2, 3}, DType::Float64);
  for (const std::string op : {"sum", "cumsum", "sort"}) {
    const Attrs attrs = op == "sum" ? Attrs{{"dim", std::vector<std::int64_t>{2}}} : Attrs{{"dim", std::int64_t{2}}};
    const PyFunction f = vmap(op_function(op, attrs));
    try {
      f({PyTree(x)});
      ADD_FAILURE() << op << ": nothing was thrown";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::DimOutOfRange) << e.what();
      EXPECT_NE(std::string(e.what()).find("rank 2"), std::string::npos) << e.what();
    }
  }
}

// dim=None reduces each example whole: the batch dim survives, also for a batch of one.
TEST(ReduceScanRuleSemantics, NoDimReducesTheExampleNotTheBatch) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {1, 2, 3});
  const PyFunction f = vmap([](const std::vector<PyTree>& args) {
    return PyTree(call_one("sum", {args.at(0).tensor()}, {{"dim", AttrValue()}}));
  });
  const Tensor y = f({PyTree(x)}).tensor();
  EXPECT_EQ(y.shape(), (Shape{1}));
  EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{21}));
}

}  // namespace
}  // namespace funcspec::transforms
