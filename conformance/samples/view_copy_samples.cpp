// Samples of the copying twins of the views and of their scatters (NOTE: [view copies]). A twin
// takes exactly its view's arguments, so it is sampled with its view's samples (errors included:
// the twin must raise what the view raises). The scatters get their own: a src of the region's
// shape over plain, size-0 and strided selves, and the shape, dtype and index errors. Everything
// here only moves elements, so results must equal the oracle's exactly (the default 0.5 ulps).
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "reference/core/error.h"

namespace funcspec::samples {
namespace {

using IntList = std::vector<std::int64_t>;

void add_twin(OpSampleRegistry& registry, const std::string& view) {
  const OpSampleSpec* samples = registry.find(view);
  FUNCSPEC_INTERNAL_ASSERT(samples != nullptr, fmt::format("{} has no samples for its _copy twin", view));
  registry.add({view + "_copy", samples->generate, samples->tolerance, samples->oracle_exemption});
}

std::vector<OpSample> select_scatter_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({3, 4}, f), rng.tensor({4}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{1}}}, "a row"},
      {{rng.strided_tensor({3, 4}, f), rng.tensor({3}, f)},
       {{"dim", std::int64_t{-1}}, {"index", std::int64_t{-1}}},
       "strided self, last column by negative dim and index"},
      {{rng.tensor({2, 0}, f), rng.tensor({0}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}}, "size-0"},
      {{rng.tensor({3}, f), rng.tensor({}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}}, "rank 0 src"},
      {{rng.tensor({3, 4}, f), rng.tensor({3}, f)},
       {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}},
       "src of the wrong shape rejected"},
      {{rng.tensor({3, 4}, f), rng.tensor({4}, f)},
       {{"dim", std::int64_t{0}}, {"index", std::int64_t{3}}},
       "index out of range"},
      {{rng.tensor({3, 2}, f), rng.tensor({2}, DType::Int64)},
       {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}},
       "int64 src into a floating self rejected"},
  };
}

std::vector<OpSample> slice_scatter_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({5, 3}, f), rng.tensor({2, 3}, f)},
       {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"step", std::int64_t{2}}},
       "start and step"},
      {{rng.strided_tensor({4, 6}, f), rng.tensor({4, 2}, f)},
       {{"dim", std::int64_t{1}}, {"start", std::int64_t{-2}}, {"end", std::int64_t{99}}},
       "strided self, negative start, clamped end"},
      {{rng.tensor({4, 3}, f), rng.tensor({0, 3}, f)},
       {{"dim", std::int64_t{0}}, {"start", std::int64_t{3}}, {"end", std::int64_t{1}}},
       "empty region"},
      {{rng.tensor({0, 3}, f), rng.tensor({0, 3}, f)}, {}, "size-0 self, defaults"},
      {{rng.tensor({5}, f), rng.tensor({3}, f)}, {{"step", std::int64_t{2}}}, "defaults with a step"},
      {{rng.tensor({5}, f), rng.tensor({2}, f)}, {{"step", std::int64_t{2}}}, "src of the wrong shape rejected"},
      {{rng.tensor({4}, f), rng.tensor({4}, f)}, {{"step", std::int64_t{0}}}, "step 0 rejected"},
  };
}

std::vector<OpSample> diagonal_scatter_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({3, 4}, f), rng.tensor({3}, f)}, {}, "main diagonal"},
      {{rng.tensor({3, 4}, f), rng.tensor({2}, f)}, {{"offset", std::int64_t{2}}}, "upper"},
      {{rng.tensor({2, 3, 4}, f), rng.tensor({3, 2}, f)},
       {{"offset", std::int64_t{-1}}, {"dim1", std::int64_t{2}}, {"dim2", std::int64_t{0}}},
       "batched, lower, swapped dims"},
      {{rng.strided_tensor({4, 3}, f), rng.tensor({0}, f)}, {{"offset", std::int64_t{5}}}, "strided, past the end"},
      {{rng.tensor({0, 3}, f), rng.tensor({0}, f)}, {}, "size-0"},
      {{rng.tensor({3, 3}, f), rng.tensor({2}, f)}, {}, "src of the wrong shape rejected"},
      {{rng.tensor({3, 3}, f), rng.tensor({3}, f)},
       {{"dim1", std::int64_t{1}}, {"dim2", std::int64_t{-1}}},
       "dim1 equal to dim2 rejected"},
  };
}

}  // namespace

void register_view_copy_samples(OpSampleRegistry& registry) {
  for (const char* view :
       {"expand", "view", "permute", "squeeze", "unsqueeze", "select", "slice", "diagonal", "detach"}) {
    add_twin(registry, view);
  }
  registry.add({"select_scatter", select_scatter_samples, {}, ""});
  registry.add({"slice_scatter", slice_scatter_samples, {}, ""});
  registry.add({"diagonal_scatter", diagonal_scatter_samples, {}, ""});
}

}  // namespace funcspec::samples
