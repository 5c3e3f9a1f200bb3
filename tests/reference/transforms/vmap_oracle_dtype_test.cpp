// vmap in the oracle dtype: for every op of the catalogue with samples, vmap of the op over a batch
// of three oracle-dtype examples (every input batched at the front) equals the op applied to each
// example, exactly, with no fallback. The conformance family VMAP-ORACLE covers float32 and
// float64 through the case format, which cannot carry the oracle dtype.
#include <gtest/gtest.h>

#include "conformance/samples/op_samples.h"
#include "conformance/samples/sample_checks.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap.h"

namespace funcspec::transforms {
namespace {

constexpr std::uint64_t kOracleDtypeSeed = 20261121;

TEST(VmapOracleDtype, EveryOpEqualsTheLoopExactly) {
  VmapFallbackLog log;
  int compared = 0;
  for (const auto& [name, spec] : samples::OpSampleRegistry::instance().all()) {
    const OpDef& op = OpRegistry::instance().get(name);
    if (op.kind == OpKind::Random || op.kind == OpKind::DynamicShape || op.kind == OpKind::ScalarExtraction) continue;
    std::vector<std::vector<samples::OpSample>> draws;
    for (std::uint64_t d = 1; d <= 3; ++d) {
      samples::SampleRng rng(kOracleDtypeSeed + d);
      draws.push_back(spec.generate(DType::Oracle, rng));
    }
    for (std::size_t index = 0; index < std::min<std::size_t>(draws[0].size(), 2); ++index) {
      const samples::OpSample& first = draws[0][index];
      SCOPED_TRACE(name + " [" + first.label + "]");
      std::vector<std::size_t> tensors;
      bool shapes_agree = draws[1].size() > index && draws[2].size() > index;
      for (std::size_t i = 0; i < first.inputs.size() && shapes_agree; ++i) {
        if (!first.inputs[i].defined() || first.inputs[i].is_wrapped_number()) continue;
        tensors.push_back(i);
        for (const auto& d : draws)
          shapes_agree = shapes_agree && d[index].inputs[i].shape() == first.inputs[i].shape();
      }
      if (!shapes_agree || tensors.empty()) continue;
      // The loop: the op on each example.
      std::vector<TensorList> looped;
      bool raises = false;
      random::GeneratorScope scope(kOracleDtypeSeed);
      for (const auto& d : draws) {
        try {
          looped.push_back(call(op, samples::clone_inputs(d[index].inputs), first.attrs));
        } catch (const Error&) {
          raises = true;
        }
      }
      // Error kinds are compared by VMAP-ORACLE; random composites (dropout) by the randomness tests.
      if (raises || looped[0].empty() || random::current_generator().draw_calls() != 0) continue;
      // vmap with every tensor input batched at 0.
      std::vector<PyTree> args;
      VmapOptions options;
      std::vector<PyTree> dims;
      for (std::size_t i = 0; i < first.inputs.size(); ++i) {
        const bool batched = std::find(tensors.begin(), tensors.end(), i) != tensors.end();
        if (!batched) {
          args.emplace_back(first.inputs[i].defined() ? PyTree(first.inputs[i]) : PyTree::none());
          dims.push_back(PyTree::none());
          continue;
        }
        TensorList parts;
        for (const auto& d : draws) parts.push_back(d[index].inputs[i]);
        args.emplace_back(call_one("stack", parts, {{"dim", std::int64_t{0}}}));
        dims.emplace_back(0);
      }
      options.in_dims = PyTree::tuple(dims);
      const PyFunction f = vmap(
          [&](const std::vector<PyTree>& in) {
            TensorList inputs;
            for (const PyTree& a : in) inputs.push_back(a.is_tensor() ? a.tensor() : Tensor());
            std::vector<PyTree> results;
            for (const Tensor& r : call(op, inputs, first.attrs)) results.emplace_back(r);
            return PyTree::tuple(results);
          },
          options);
      std::vector<PyTree> batched_args;
      for (std::size_t i = 0; i < args.size(); ++i) {
        const bool is_tensor = args[i].is_tensor();
        batched_args.push_back(is_tensor && std::find(tensors.begin(), tensors.end(), i) != tensors.end()
                                   ? PyTree(samples::clone_inputs({args[i].tensor()})[0])
                                   : args[i]);
      }
      const std::vector<PyTree> results = f(batched_args).children();
      ASSERT_EQ(results.size(), looped[0].size());
      for (std::size_t k = 0; k < results.size(); ++k) {
        const Tensor& batched = results[k].tensor();
        for (std::int64_t b = 0; b < 3; ++b) {
          const Tensor slice = call_one("select", {batched}, {{"dim", std::int64_t{0}}, {"index", b}});
          const Tensor& expected = looped[static_cast<std::size_t>(b)][k];
          ASSERT_EQ(slice.shape(), expected.shape());
          ASSERT_EQ(slice.dtype(), expected.dtype());
          if (expected.dtype() == DType::Oracle) {
            const std::vector<oracle_t> got = slice.to_vector<oracle_t>();
            const std::vector<oracle_t> want = expected.to_vector<oracle_t>();
            for (std::size_t e = 0; e < got.size(); ++e) {
              const bool both_nan = boost::multiprecision::isnan(got[e]) && boost::multiprecision::isnan(want[e]);
              EXPECT_TRUE(both_nan || got[e] == want[e]) << "result " << k << " example " << b << " element " << e;
            }
          } else {
            EXPECT_EQ(slice.to_vector<double>(), expected.to_vector<double>()) << "result " << k << " example " << b;
          }
        }
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 150);
  EXPECT_TRUE(log.counts().empty()) << log.counts().size() << " ops fell back to the loop";
}

}  // namespace
}  // namespace funcspec::transforms
