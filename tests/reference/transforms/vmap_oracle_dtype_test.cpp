// vmap in the oracle dtype: for every op of the catalogue with samples, vmap of the op over a batch
// of three oracle-dtype examples (every input batched at the front) equals the op applied to each
// example, exactly (NOTE: [vmap oracle tolerance], item 1), with no fallback. The conformance family VMAP-ORACLE covers
// float32 and float64 through the case format, which cannot carry the oracle dtype.
#include <gtest/gtest.h>

#include "conformance/samples/op_samples.h"
#include "conformance/samples/sample_checks.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/fallback_log.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/transforms/vmap_oracle_checks.h"

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
      // The loop (NOTE: [loop-and-stack oracle]): the op on each example.
      random::GeneratorScope scope(kOracleDtypeSeed);
      const oracles::LoopAndStack loop = oracles::loop_and_stack({{3, 0}}, [&](std::int64_t e) {
        return call(op, samples::clone_inputs(draws[static_cast<std::size_t>(e)][index].inputs), first.attrs);
      });
      // Error kinds are compared by VMAP-ORACLE; random composites (dropout) by the randomness tests.
      if (loop.error || loop.results.empty() || random::current_generator().draw_calls() != 0) continue;
      // vmap with every tensor input batched at 0.
      std::vector<PyTree> batched_args;
      std::vector<PyTree> dims;
      for (std::size_t i = 0; i < first.inputs.size(); ++i) {
        const bool batched = std::find(tensors.begin(), tensors.end(), i) != tensors.end();
        if (!batched) {
          batched_args.emplace_back(first.inputs[i].defined() ? PyTree(first.inputs[i]) : PyTree::none());
          dims.push_back(PyTree::none());
          continue;
        }
        TensorList parts;
        for (const auto& d : draws) parts.push_back(d[index].inputs[i]);
        batched_args.emplace_back(samples::clone_inputs({oracles::batch_of(parts, first.inputs[i], {{3, 0}})})[0]);
        dims.emplace_back(0);
      }
      VmapOptions options;
      options.in_dims = PyTree::tuple(dims);
      const PyFunction f = vmap(testing_support::op_function(name, first.attrs), options);
      testing_support::expect_vmap_equals_loop(
          "vmap", [&] { return testing_support::tensors_of(f(batched_args)); }, loop,
          oracles::ReferenceAgainstItsLoop{});
      ++compared;
    }
  }
  EXPECT_GT(compared, 150);
  EXPECT_TRUE(log.counts().empty()) << log.counts().size() << " ops fell back to the loop";
}

}  // namespace
}  // namespace funcspec::transforms
