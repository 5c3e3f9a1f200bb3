// The batching rules of the index and linalg families against the loop-and-stack oracle (NOTE:
// [loop-and-stack oracle]: the op called on each example, results stacked), on every sample of the
// op sample database: every placement of the batch dim per input (front, back, not batched),
// out_dims 0 and -1, batches of 0, 1 and 3 examples, vmap of vmap, float32 and float64, compared
// exactly, as the one tolerance policy says (NOTE: [vmap oracle tolerance], item 1); and none of these ops may
// fall back.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance/samples/op_samples.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/vmap_oracle_checks.h"

namespace funcspec::transforms {
namespace {

using testing_support::expect_error_kind;
using testing_support::expect_vmap_equals_loop;
using testing_support::on_meta;
using testing_support::op_function;
using testing_support::tensors_of;
using testing_support::values;

const std::vector<std::string> kOps = {"cat",         "gather", "index_add", "index_select", "masked_fill",
                                       "scatter_add", "det",    "einsum",    "inverse",      "slogdet",
                                       "solve",       "tril",   "triu"};
// The seed of the first of a sample's three draws.
constexpr std::uint64_t kFirstDrawSeed = 2024;

PyTree dims_tree(const std::vector<std::optional<std::int64_t>>& dims) {
  std::vector<PyTree> items;
  for (const std::optional<std::int64_t>& d : dims) items.push_back(d ? PyTree(*d) : PyTree::none());
  return PyTree::tuple(std::move(items));
}

enum class Placement { Front, Back, Unbatched };

// One sample drawn three times (seeds s, s+1, s+2): same shapes, different values.
struct Draws {
  std::vector<samples::OpSample> examples;  // [3]
  std::vector<std::size_t> mapped;          // positions of the inputs that may be batched (not literals)
};

std::vector<Draws> draw_samples(const std::string& op, DType dtype) {
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op);
  EXPECT_NE(spec, nullptr) << op;
  std::vector<std::vector<samples::OpSample>> per_seed;
  for (std::uint64_t s = 0; s < 3; ++s) {
    samples::SampleRng rng(kFirstDrawSeed + s);
    per_seed.push_back(spec->generate(dtype, rng));
  }
  std::vector<Draws> out;
  for (std::size_t i = 0; i < per_seed[0].size(); ++i) {
    Draws d;
    for (const auto& samples : per_seed) d.examples.push_back(samples.at(i));
    for (std::size_t k = 0; k < d.examples[0].inputs.size(); ++k) {
      if (!d.examples[0].inputs[k].is_wrapped_number()) d.mapped.push_back(k);
    }
    out.push_back(std::move(d));
  }
  return out;
}

// Every assignment of `choices` to `count` inputs.
template <typename T>
std::vector<std::vector<T>> assignments(std::size_t count, const std::vector<T>& choices) {
  std::vector<std::vector<T>> out{{}};
  for (std::size_t k = 0; k < count; ++k) {
    std::vector<std::vector<T>> next;
    for (const auto& partial : out) {
      for (const T& c : choices) {
        next.push_back(partial);
        next.back().push_back(c);
      }
    }
    out = std::move(next);
  }
  return out;
}

// The loop over the examples whose inputs `example_inputs` gives (row-major over `levels`), an
// empty batch shaped by example 0 on meta.
oracles::LoopAndStack loop_over(const std::string& op, const Draws& draws,
                                const std::vector<oracles::BatchLevel>& levels,
                                const std::function<TensorList(std::int64_t)>& example_inputs) {
  const Attrs& attrs = draws.examples[0].attrs;
  return oracles::loop_and_stack(
      levels, [&](std::int64_t e) { return call(op, example_inputs(e), attrs); },
      [&] { return call(op, on_meta(example_inputs(0)), attrs); });
}

// vmap over examples 0..batch-1 with the batch dims placed as `placements` says, against the loop.
void check_placements(const std::string& op, const Draws& draws, const std::vector<Placement>& placements,
                      std::int64_t batch, const std::string& where) {
  const samples::OpSample& first = draws.examples[0];
  std::vector<PyTree> args;
  std::vector<std::optional<std::int64_t>> in_dims;
  for (const Tensor& t : first.inputs) {
    args.emplace_back(t);
    in_dims.emplace_back(std::nullopt);
  }
  for (std::size_t m = 0; m < draws.mapped.size(); ++m) {
    const std::size_t k = draws.mapped[m];
    if (placements[m] == Placement::Unbatched) continue;
    TensorList slices;
    for (std::int64_t b = 0; b < batch; ++b) slices.push_back(draws.examples[static_cast<std::size_t>(b)].inputs[k]);
    in_dims[k] = placements[m] == Placement::Back ? -1 : 0;
    args[k] = PyTree(oracles::batch_of(slices, first.inputs[k], {{batch, *in_dims[k]}}));
  }
  // The oracle: the op on each example; an unbatched input is example 0's for every example.
  const auto example_inputs = [&](std::int64_t b) {
    TensorList inputs = first.inputs;
    for (std::size_t m = 0; m < draws.mapped.size(); ++m) {
      if (placements[m] != Placement::Unbatched)
        inputs[draws.mapped[m]] = draws.examples[static_cast<std::size_t>(b)].inputs[draws.mapped[m]];
    }
    return inputs;
  };
  for (const std::int64_t out_dim : {std::int64_t{0}, std::int64_t{-1}}) {
    VmapOptions options;
    options.in_dims = dims_tree(in_dims);
    options.out_dims = PyTree(out_dim);
    const PyFunction mapped = vmap(op_function(op, first.attrs), options);
    expect_vmap_equals_loop(
        where + ", out_dims " + std::to_string(out_dim) + ", batch " + std::to_string(batch),
        [&] { return tensors_of(mapped(args)); }, loop_over(op, draws, {{batch, out_dim}}, example_inputs),
        oracles::ReferenceAgainstItsLoop{});
  }
}

enum class Level { Both, Outer, Inner };

// vmap(vmap(op)) over a [2, 3] grid of examples: an input batched at both levels has example
// (i + j) mod 3 at (i, j), one batched at the outer level only example i, at the inner only j.
void check_nested(const std::string& op, const Draws& draws, const std::vector<Level>& levels,
                  const std::string& where) {
  const samples::OpSample& first = draws.examples[0];
  const auto example = [&](Level level, std::size_t k, std::int64_t i, std::int64_t j) {
    const std::int64_t e = level == Level::Both ? (i + j) % 3 : level == Level::Outer ? i : j;
    return draws.examples[static_cast<std::size_t>(e)].inputs[k];
  };
  std::vector<PyTree> args;
  std::vector<std::optional<std::int64_t>> outer_dims, inner_dims;
  for (const Tensor& t : first.inputs) {
    args.emplace_back(t);
    outer_dims.emplace_back(std::nullopt);
    inner_dims.emplace_back(std::nullopt);
  }
  // An input batched at both levels is [2, 3, ...], at one level [2, ...] or [3, ...].
  for (std::size_t m = 0; m < levels.size(); ++m) {
    const std::size_t k = draws.mapped[m];
    TensorList examples;
    std::vector<oracles::BatchLevel> batch;
    if (levels[m] != Level::Inner) batch.push_back({2, 0});
    if (levels[m] != Level::Outer) batch.push_back({3, 0});
    for (std::int64_t i = 0; i < (levels[m] == Level::Inner ? 1 : 2); ++i) {
      for (std::int64_t j = 0; j < (levels[m] == Level::Outer ? 1 : 3); ++j)
        examples.push_back(example(levels[m], k, i, j));
    }
    args[k] = PyTree(oracles::batch_of(examples, first.inputs[k], batch));
    if (levels[m] != Level::Inner) outer_dims[k] = 0;
    if (levels[m] != Level::Outer) inner_dims[k] = 0;
  }
  VmapOptions inner;
  inner.in_dims = dims_tree(inner_dims);
  VmapOptions outer;
  outer.in_dims = dims_tree(outer_dims);
  const PyFunction mapped = vmap(vmap(op_function(op, first.attrs), inner), outer);
  // Example e of the grid is (e / 3, e % 3).
  const auto example_inputs = [&](std::int64_t e) {
    TensorList inputs = first.inputs;
    for (std::size_t m = 0; m < levels.size(); ++m)
      inputs[draws.mapped[m]] = example(levels[m], draws.mapped[m], e / 3, e % 3);
    return inputs;
  };
  expect_vmap_equals_loop(
      where, [&] { return tensors_of(mapped(args)); }, loop_over(op, draws, {{2, 0}, {3, 0}}, example_inputs),
      oracles::ReferenceAgainstItsLoop{});
}

class IndexLinalgRules : public ::testing::TestWithParam<std::string> {};

TEST_P(IndexLinalgRules, VmapEqualsTheLoopOnEverySample) {
  const std::string op = GetParam();
  VmapFallbackLog log;
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    const std::vector<Draws> all = draw_samples(op, dtype);
    for (const Draws& draws : all) {
      const std::string name = op + " '" + draws.examples[0].label + "' " + std::string(dtype_name(dtype));
      const std::size_t n = draws.mapped.size();
      for (const std::vector<Placement>& placements :
           assignments<Placement>(n, {Placement::Front, Placement::Back, Placement::Unbatched})) {
        bool any = false;
        std::string where = name + ", in_dims (";
        for (Placement p : placements) {
          any = any || p != Placement::Unbatched;
          where += p == Placement::Front ? "0 " : p == Placement::Back ? "-1 " : "None ";
        }
        where += ")";
        if (!any) continue;
        for (const std::int64_t batch : {0, 1, 3}) check_placements(op, draws, placements, batch, where);
      }
      for (const std::vector<Level>& levels : assignments<Level>(n, {Level::Both, Level::Outer, Level::Inner})) {
        bool outer = false, inner = false;
        for (Level level : levels) {
          outer = outer || level != Level::Inner;
          inner = inner || level != Level::Outer;
        }
        if (outer && inner) check_nested(op, draws, levels, name + ", vmap of vmap");
      }
    }
  }
  for (const std::string& family_op : kOps) EXPECT_EQ(log.counts().count(family_op), 0u) << family_op << " fell back";
}

INSTANTIATE_TEST_SUITE_P(Ops, IndexLinalgRules, ::testing::ValuesIn(kOps),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// vmap of a one-tensor-per-argument function with the given in_dims.
Tensor vmap_call(const std::function<Tensor(const TensorList&)>& f, const TensorList& args,
                 const std::vector<std::optional<std::int64_t>>& in_dims) {
  VmapOptions options;
  options.in_dims = dims_tree(in_dims);
  const PyFunction g = vmap(
      [&](const std::vector<PyTree>& a) {
        TensorList inputs;
        for (const PyTree& x : a) inputs.push_back(x.tensor());
        return PyTree(f(inputs));
      },
      options);
  std::vector<PyTree> trees(args.begin(), args.end());
  return g(trees).tensor();
}

Tensor int_index(const std::vector<std::int64_t>& v, const Shape& shape) { return from_vector(v, shape, DType::Int64); }

TEST(IndexLinalgRulesErrors, DimsAreCheckedAgainstTheExamplesRank) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3});  // examples [2, 3]
  const Tensor index = int_index({0, 1}, {2});
  for (const std::string op : {"index_select", "gather"}) {
    try {
      vmap_call(
          [&](const TensorList& a) {
            return call_one(op, {a[0], a[1]}, {{"dim", std::int64_t{2}}});
          },
          {x, op == "gather" ? int_index({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 2, 3}) : index},
          {0, op == "gather" ? std::optional<std::int64_t>(0) : std::nullopt});
      ADD_FAILURE() << op << ": expected dim_out_of_range";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::DimOutOfRange) << op;
      EXPECT_NE(std::string(e.what()).find("rank 2"), std::string::npos) << e.what();
    }
  }
  expect_error_kind(ErrorKind::DimOutOfRange, [&] {
    vmap_call([](const TensorList& a) { return call_one("cat", {a[0], a[0]}, {{"dim", std::int64_t{-3}}}); }, {x}, {0});
  });
  // A batch of vectors is not a matrix, even when the batch is as long as the vectors.
  const Tensor vectors = from_values({1, 2, 3, 4}, {2, 2});
  for (const char* op : {"det", "inverse", "slogdet", "tril", "triu"}) {
    expect_error_kind(ErrorKind::ShapeMismatch,
                      [&] { vmap_call([&](const TensorList& a) { return call(op, {a[0]})[0]; }, {vectors}, {0}); });
  }
}

TEST(IndexLinalgRulesErrors, PerExampleIndicesAreCheckedAndNothingIsWritten) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor bad = int_index({0, 1, 2, 3}, {2, 2});  // example 1 picks 3 in a dim of size 3
  const Attrs dim0{{"dim", std::int64_t{0}}};
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    vmap_call([&](const TensorList& a) { return call_one("index_select", {a[0], a[1]}, dim0); }, {x, bad}, {0, 0});
  });
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    vmap_call([&](const TensorList& a) { return call_one("gather", {a[0], a[1]}, dim0); }, {x, bad}, {0, 0});
  });
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    vmap_call(
        [&](const TensorList& a) {
          return call_one("scatter_add", {a[0], a[1], a[0]}, dim0);
        },
        {x, int_index({0, 0, 0, 0, 0, 3}, {2, 3})}, {0, 0});
  });
  const Tensor target = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor source = from_values({1, 1, 1, 1}, {2, 2});
  expect_error_kind(ErrorKind::IndexOutOfRange, [&] {
    vmap_call(
        [&](const TensorList& a) {
          return call_one("index_add_", {a[0], a[1], a[2]}, dim0);
        },
        {target, bad, source}, {0, 0, 0});
  });
  EXPECT_EQ(values(target), (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(IndexLinalgRulesErrors, OneSingularExampleFailsTheBatch) {
  const Tensor a = from_values({2, 0, 0, 2, 1, 2, 2, 4}, {2, 2, 2});
  expect_error_kind(ErrorKind::SingularMatrix,
                    [&] { vmap_call([](const TensorList& t) { return call_one("inverse", {t[0]}); }, {a}, {0}); });
  expect_error_kind(ErrorKind::SingularMatrix, [&] {
    vmap_call(
        [](const TensorList& t) {
          return call_one("solve", {t[0], t[1]});
        },
        {a, from_values({1, 1}, {2})}, {0, std::nullopt});
  });
}

TEST(IndexLinalgInPlace, VariantsWriteEachExample) {
  VmapFallbackLog log;
  const Tensor self = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor mask = from_values({1, 0, 1}, {3}, DType::Bool);
  const Tensor fill = from_values({-1, -2}, {2});
  vmap_call(
      [&](const TensorList& a) {
        return call_one("masked_fill_", {a[0], a[1], a[2]});
      },
      {self, mask, fill}, {0, std::nullopt, 0});
  EXPECT_EQ(values(self), (std::vector<double>{-1, 2, -1, -2, 5, -2}));
  const Tensor index = int_index({2, 0}, {2, 1});
  const Tensor source = from_values({10, 20}, {2, 1});
  vmap_call(
      [&](const TensorList& a) {
        return call_one("index_add_", {a[0], a[1], a[2]}, {{"dim", std::int64_t{0}}});
      },
      {self, index, source}, {0, 0, 0});
  EXPECT_EQ(values(self), (std::vector<double>{-1, 2, 9, 18, 5, -2}));
  for (const std::string& op : kOps) EXPECT_EQ(log.counts().count(op), 0u) << op << " fell back";
}

}  // namespace
}  // namespace funcspec::transforms
