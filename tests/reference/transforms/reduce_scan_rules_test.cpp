// The batching rules of the reduce and scan families against the loop-and-stack oracle, on every
// sample of the op sample database: vmap must give what calling the op on each example and
// stacking the results gives, without falling back to the for-loop.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap.h"

namespace funcspec::transforms {
namespace {

using samples::OpSample;
using samples::OpSampleRegistry;
using samples::SampleRng;

// Ops whose result elements are computed by arithmetic that might round differently when batched;
// the others move, compare or count values and must agree exactly.
const std::set<std::string> kRoundingOps = {"sum", "prod", "norm", "cumsum", "cumprod"};
constexpr double kRoundingOpUlps = 4.0;

// Three examples of one sample: the same shapes, values from different seeds.
constexpr std::uint64_t kFirstExampleSeed = 2024;
constexpr std::int64_t kExamples = 3;

double machine_epsilon(DType dtype) {
  return dtype == DType::Float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

// Why `got` differs from `want`, or nothing when they agree (NaN equals NaN; zeros keep their sign
// under exact comparison).
std::optional<std::string> difference(const Tensor& got, const Tensor& want, double ulps) {
  if (got.shape() != want.shape()) {
    return fmt::format("shape {} instead of {}", shape_to_string(got.shape()), shape_to_string(want.shape()));
  }
  if (got.dtype() != want.dtype()) {
    return fmt::format("dtype {} instead of {}", dtype_name(got.dtype()), dtype_name(want.dtype()));
  }
  const std::vector<double> g = got.to_vector<double>();
  const std::vector<double> w = want.to_vector<double>();
  const double tolerance = is_floating(want.dtype()) ? ulps * machine_epsilon(want.dtype()) : 0.0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (std::isnan(w[i]) && std::isnan(g[i])) continue;
    const bool same = g[i] == w[i] && (tolerance > 0.0 || std::signbit(g[i]) == std::signbit(w[i]));
    const bool close = tolerance > 0.0 && !std::isinf(w[i]) && std::abs(g[i] - w[i]) <= tolerance * std::abs(w[i]);
    if (!same && !close) return fmt::format("element {} is {} instead of {}", i, g[i], w[i]);
  }
  return std::nullopt;
}

TensorList results_of(const PyTree& tree) {
  if (tree.is_tensor()) return {tree.tensor()};
  TensorList out;
  for (const PyTree& leaf : tree.leaves()) out.push_back(leaf.tensor());
  return out;
}

PyTree tree_of(const TensorList& results) {
  if (results.size() == 1) return PyTree(results[0]);
  std::vector<PyTree> items(results.begin(), results.end());
  return PyTree::tuple(std::move(items));
}

// A batch of `batch_size` examples stacked at `position` (0 for the front, the example's rank for
// the back); a batch of 0 is an empty tensor of that shape.
Tensor batch_of(const TensorList& examples, std::int64_t batch_size, std::int64_t position) {
  if (batch_size == 0) {
    Shape shape = examples.at(0).shape();
    shape.insert(shape.begin() + position, 0);
    return Tensor::empty(shape, examples.at(0).dtype());
  }
  const TensorList used(examples.begin(), examples.begin() + batch_size);
  return call_one("stack", used, {{"dim", position}});
}

std::int64_t back_of(const Tensor& example) { return example.dim(); }

// The oracle: the op on each input separately, results stacked at 0. Without inputs (a batch of
// 0) the op runs on a meta example, for the results' shapes and dtypes and for its errors.
TensorList loop_and_stack(const std::string& op, const TensorList& inputs, const Tensor& example, const Attrs& attrs) {
  if (inputs.empty()) {
    TensorList empty;
    for (const Tensor& r : call(op, {Tensor::empty(example.shape(), example.dtype(), Device::Meta)}, attrs)) {
      Shape shape = r.shape();
      shape.insert(shape.begin(), 0);
      empty.push_back(Tensor::empty(shape, r.dtype()));
    }
    return empty;
  }
  std::vector<TensorList> per_result;
  for (const Tensor& input : inputs) {
    const TensorList results = call(op, {input}, attrs);
    per_result.resize(results.size());
    for (std::size_t k = 0; k < results.size(); ++k) per_result[k].push_back(results[k]);
  }
  TensorList stacked;
  for (const TensorList& slices : per_result) stacked.push_back(call_one("stack", slices, {{"dim", 0}}));
  return stacked;
}

Tensor batch_dim_to(const Tensor& t, std::int64_t out_dim) {
  if (out_dim == 0) return t;
  return call_one("movedim", {t},
                  {{"source", std::vector<std::int64_t>{0}}, {"destination", std::vector<std::int64_t>{out_dim}}});
}

class ReduceScanRules : public testing::TestWithParam<std::string> {
 protected:
  // Checks one vmap call against the oracle's results, or against the oracle's error.
  void expect_matches(const std::string& what, const std::function<TensorList()>& batched,
                      const std::function<TensorList()>& oracle, std::optional<ErrorKind> error) {
    ++checks_;
    if (error) {
      try {
        batched();
        ADD_FAILURE() << what << ": expected " << error_kind_name(*error) << ", nothing was thrown";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), *error) << what << ": " << e.what();
      }
      return;
    }
    TensorList got;
    try {
      got = batched();
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": raised " << e.what();
      return;
    }
    const TensorList want = oracle();
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t k = 0; k < want.size(); ++k) {
      if (std::optional<std::string> diff = difference(got[k], want[k], ulps_)) {
        ADD_FAILURE() << what << ", result " << k << ": " << *diff;
      }
    }
  }

  void check_sample(const std::string& op, DType dtype, const std::vector<OpSample>& draws) {
    const OpSample& sample = draws.at(0);
    ASSERT_EQ(sample.inputs.size(), 1u) << sample.label;
    const Attrs& attrs = sample.attrs;
    TensorList examples;
    for (const OpSample& draw : draws) {
      ASSERT_EQ(draw.inputs.at(0).shape(), sample.inputs.at(0).shape()) << sample.label;
      examples.push_back(draw.inputs.at(0));
    }
    std::optional<ErrorKind> error;
    try {
      call(op, {examples[0]}, attrs);
    } catch (const Error& e) {
      error = e.kind();
    }
    const std::string where = fmt::format("{} {} '{}'", op, dtype_name(dtype), sample.label);
    const auto apply = [op, attrs](const std::vector<PyTree>& args) {
      return tree_of(call(op, {args.at(0).tensor()}, attrs));
    };

    for (std::int64_t batch_size : {std::int64_t{0}, std::int64_t{1}, kExamples}) {
      const TensorList used(examples.begin(), examples.begin() + batch_size);
      for (std::int64_t out_dim : {0, -1}) {
        const auto oracle = [&](const TensorList& inputs) {
          TensorList want = loop_and_stack(op, inputs, examples[0], attrs);
          for (Tensor& t : want) t = batch_dim_to(t, out_dim);
          return want;
        };
        // The input batched at the front and at the back.
        for (std::int64_t in_dim : {0, -1}) {
          const Tensor input = batch_of(examples, batch_size, in_dim == 0 ? 0 : back_of(examples[0]));
          VmapOptions options;
          options.in_dims = PyTree(in_dim);
          options.out_dims = PyTree(out_dim);
          expect_matches(
              fmt::format("{}: B={} in_dims={} out_dims={}", where, batch_size, in_dim, out_dim),
              [&] { return results_of(vmap(apply, options)({PyTree(input)})); }, [&] { return oracle(used); }, error);
        }
        // The input unbatched, next to a batched argument the function ignores.
        {
          VmapOptions options;
          options.in_dims = PyTree::tuple({PyTree::none(), PyTree(0)});
          options.out_dims = PyTree(out_dim);
          const Tensor ignored = Tensor::empty({batch_size}, dtype);
          const TensorList repeated(static_cast<std::size_t>(batch_size), examples[0]);
          expect_matches(
              fmt::format("{}: B={} unbatched out_dims={}", where, batch_size, out_dim),
              [&] {
                return results_of(vmap(apply, options)({PyTree(examples[0]), PyTree(ignored)}));
              },
              [&] { return oracle(repeated); }, error);
        }
      }
    }
    check_nested(op, where, examples, attrs, error);
  }

  // vmap of vmap over a [2, 3] grid of examples (example (i, j) is draw (i + j) % 3), each level's
  // batch at the front or at the back of what that level sees.
  void check_nested(const std::string& op, const std::string& where, const TensorList& examples, const Attrs& attrs,
                    std::optional<ErrorKind> error) {
    const auto apply = [op, attrs](const std::vector<PyTree>& args) {
      return tree_of(call(op, {args.at(0).tensor()}, attrs));
    };
    constexpr std::int64_t kOuter = 2;
    for (std::int64_t outer_dim : {0, -1}) {
      for (std::int64_t inner_dim : {0, -1}) {
        TensorList rows;
        TensorList flat;
        for (std::int64_t i = 0; i < kOuter; ++i) {
          TensorList row;
          for (std::int64_t j = 0; j < kExamples; ++j)
            row.push_back(examples[static_cast<std::size_t>((i + j) % kExamples)]);
          flat.insert(flat.end(), row.begin(), row.end());
          rows.push_back(batch_of(row, kExamples, inner_dim == 0 ? 0 : back_of(examples[0])));
        }
        const Tensor input = batch_of(rows, kOuter, outer_dim == 0 ? 0 : back_of(rows[0]));
        VmapOptions inner;
        inner.in_dims = PyTree(inner_dim);
        VmapOptions outer;
        outer.in_dims = PyTree(outer_dim);
        const PyFunction nested = vmap(vmap(apply, inner), outer);
        expect_matches(
            fmt::format("{}: vmap of vmap, in_dims={} then {}", where, outer_dim, inner_dim),
            [&] { return results_of(nested({PyTree(input)})); },
            [&] {
              TensorList want = loop_and_stack(op, flat, examples[0], attrs);
              for (Tensor& t : want) {
                Shape grid = t.shape();
                grid.erase(grid.begin());
                grid.insert(grid.begin(), {kOuter, kExamples});
                t = call_one("reshape", {t}, {{"shape", std::vector<std::int64_t>(grid.begin(), grid.end())}});
              }
              return want;
            },
            error);
      }
    }
  }

  double ulps_ = 0.0;
  std::int64_t checks_ = 0;
};

TEST_P(ReduceScanRules, VmapEqualsLoopAndStackWithoutFallback) {
  const std::string& op = GetParam();
  const samples::OpSampleSpec* spec = OpSampleRegistry::instance().find(op);
  ASSERT_NE(spec, nullptr) << "no samples for " << op;
  ulps_ = kRoundingOps.contains(op) ? kRoundingOpUlps : 0.0;
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
      check_sample(op, dtype, same_index);
    }
  }
  EXPECT_GT(checks_, 0);
  // Any fallback at all would mean a rule (ours, or one ours calls under an outer vmap) is missing.
  for (const auto& [fallen_back, count] : log.counts()) {
    ADD_FAILURE() << fallen_back << " fell back to the for-loop " << count << " times under vmap of " << op;
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
    const PyFunction f =
        vmap([&](const std::vector<PyTree>& args) { return tree_of(call(op, {args.at(0).tensor()}, attrs)); });
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
