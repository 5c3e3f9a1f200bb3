// Samples of the view family. Every op here only moves elements (views, and reshape's copy), so
// float64 and float32 results must equal the oracle's rounded values exactly: the tolerance is the
// default 0.5 ulps, which any rounding error beyond the inputs' own would exceed.
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using IntList = std::vector<std::int64_t>;
using Generator = std::function<std::vector<OpSample>(DType, SampleRng&)>;

// Errors that depend on strides (view_incompatible) are unit-tested, not sampled: the oracle run
// converts its inputs to fresh contiguous tensors, where such a view succeeds.
void add_exact(OpSampleRegistry& registry, const std::string& op, Generator generate) {
  registry.add({op, std::move(generate), {}, ""});
}

}  // namespace

void register_view_samples(OpSampleRegistry& registry) {
  add_exact(registry, "expand", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({3, 1}, f)}, {{"size", IntList{2, 3, 4}}}, "[3,1] to [2,3,4]"},
        {{rng.tensor({}, f)}, {{"size", IntList{2, 2}}}, "rank 0 to [2,2]"},
        {{rng.strided_tensor({1, 3}, f)}, {{"size", IntList{0, -1}}}, "strided to size-0 dim"},
    };
  });
  add_exact(registry, "view", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {{"size", IntList{6, -1}}}, "[2,3,4] as [6,4]"},
        {{rng.tensor({}, f)}, {{"size", IntList{1, 1}}}, "rank 0 as [1,1]"},
        {{rng.tensor({0, 3}, f)}, {{"size", IntList{3, 0, -1}}}, "size-0"},
        {{rng.strided_tensor({3, 4}, f)}, {{"size", IntList{3, 2, 2}}}, "strided, split a dim"},
    };
  });
  add_exact(registry, "permute", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {{"dims", IntList{2, 0, 1}}}, "[2,3,4] cycled"},
        {{rng.tensor({}, f)}, {{"dims", IntList{}}}, "rank 0"},
        {{rng.tensor({0, 3}, f)}, {{"dims", IntList{-1, 0}}}, "size-0, negative dim"},
        {{rng.strided_tensor({3, 4}, f)}, {{"dims", IntList{1, 0}}}, "strided"},
    };
  });
  add_exact(registry, "squeeze", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({1, 3, 1}, f)}, {}, "all size-1 dims"},
        {{rng.tensor({1, 3, 1}, f)}, {{"dim", IntList{1, 2}}}, "listed dims, one not size 1"},
        {{rng.tensor({}, f)}, {{"dim", IntList{0}}}, "rank 0"},
        {{rng.tensor({0, 1}, f)}, {}, "size-0"},
        {{rng.strided_tensor({1, 4}, f)}, {{"dim", IntList{0}}}, "strided"},
    };
  });
  add_exact(registry, "unsqueeze", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3}, f)}, {{"dim", std::int64_t{1}}}, "middle"},
        {{rng.tensor({2, 3}, f)}, {{"dim", std::int64_t{-1}}}, "last"},
        {{rng.tensor({}, f)}, {{"dim", std::int64_t{0}}}, "rank 0"},
        {{rng.tensor({0}, f)}, {{"dim", std::int64_t{0}}}, "size-0"},
        {{rng.strided_tensor({3, 2}, f)}, {{"dim", std::int64_t{2}}}, "strided"},
    };
  });
  add_exact(registry, "select", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3}, f)}, {{"dim", std::int64_t{1}}, {"index", std::int64_t{-1}}}, "negative index"},
        {{rng.tensor({3, 0}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}}, "size-0 rest"},
        {{rng.strided_tensor({3, 4}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{1}}}, "strided"},
        {{rng.tensor({2, 3}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}}, "index out of range"},
        {{rng.tensor({}, f)}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{0}}}, "rank 0 rejected"},
    };
  });
  add_exact(registry, "slice", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({5, 3}, f)},
         {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"step", std::int64_t{2}}},
         "start and step"},
        {{rng.tensor({5, 3}, f)},
         {{"dim", std::int64_t{1}}, {"start", std::int64_t{-2}}, {"end", std::int64_t{99}}},
         "negative start, clamped end"},
        {{rng.tensor({0, 3}, f)}, {{"dim", std::int64_t{0}}}, "size-0"},
        {{rng.strided_tensor({4, 6}, f)},
         {{"dim", std::int64_t{1}}, {"start", std::int64_t{4}}, {"end", std::int64_t{1}}},
         "strided, empty result"},
        {{rng.tensor({4}, f)}, {{"step", std::int64_t{0}}}, "step 0 rejected"},
    };
  });
  add_exact(registry, "diagonal", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({3, 4}, f)}, {}, "main diagonal"},
        {{rng.tensor({3, 4}, f)}, {{"offset", std::int64_t{2}}}, "upper"},
        {{rng.tensor({2, 3, 4}, f)},
         {{"offset", std::int64_t{-1}}, {"dim1", std::int64_t{2}}, {"dim2", std::int64_t{0}}},
         "batched, lower, swapped dims"},
        {{rng.tensor({0, 3}, f)}, {}, "size-0"},
        {{rng.strided_tensor({4, 3}, f)}, {{"offset", std::int64_t{5}}}, "strided, offset past the end"},
    };
  });
  add_exact(registry, "reshape", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {{"shape", IntList{4, -1}}}, "viewable"},
        {{rng.strided_tensor({3, 4}, f)}, {{"shape", IntList{-1}}}, "strided, copies"},
        {{rng.tensor({}, f)}, {{"shape", IntList{}}}, "rank 0"},
        {{rng.tensor({2, 0}, f)}, {{"shape", IntList{0, 5}}}, "size-0"},
        {{rng.tensor({2, 3}, f)}, {{"shape", IntList{4, -1}}}, "wrong numel rejected"},
    };
  });
  add_exact(registry, "transpose", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}}, "outer dims"},
        {{rng.tensor({}, f)}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}}, "rank 0"},
        {{rng.tensor({0, 2}, f)}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{1}}}, "size-0"},
        {{rng.strided_tensor({3, 4}, f)}, {{"dim0", std::int64_t{1}}, {"dim1", std::int64_t{0}}}, "strided"},
    };
  });
  add_exact(registry, "movedim", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {{"source", IntList{0}}, {"destination", IntList{-1}}}, "first to last"},
        {{rng.tensor({2, 3, 4, 5}, f)}, {{"source", IntList{3, 0}}, {"destination", IntList{1, 3}}}, "two dims"},
        {{rng.tensor({}, f)}, {{"source", IntList{0}}, {"destination", IntList{0}}}, "rank 0"},
        {{rng.strided_tensor({3, 0}, f)}, {{"source", IntList{1}}, {"destination", IntList{0}}}, "strided size-0"},
    };
  });
  add_exact(registry, "broadcast_to", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({3}, f)}, {{"size", IntList{2, 3}}}, "new leading dim"},
        {{rng.tensor({}, f)}, {{"size", IntList{0}}}, "rank 0 to size-0"},
        {{rng.strided_tensor({3, 1}, f)}, {{"size", IntList{3, 4}}}, "strided"},
        {{rng.tensor({3}, f)}, {{"size", IntList{4}}}, "incompatible"},
    };
  });
  add_exact(registry, "flatten", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 3, 4}, f)}, {}, "all dims"},
        {{rng.tensor({2, 3, 4}, f)}, {{"start_dim", std::int64_t{1}}}, "trailing dims"},
        {{rng.tensor({}, f)}, {}, "rank 0 gives [1]"},
        {{rng.tensor({2, 0, 3}, f)}, {{"end_dim", std::int64_t{1}}}, "size-0"},
        {{rng.strided_tensor({3, 4}, f)}, {}, "strided, copies"},
    };
  });
  add_exact(registry, "unflatten", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({2, 12}, f)}, {{"dim", std::int64_t{1}}, {"sizes", IntList{3, -1}}}, "inferred size"},
        {{rng.tensor({0, 3}, f)}, {{"dim", std::int64_t{0}}, {"sizes", IntList{2, 0}}}, "size-0"},
        {{rng.strided_tensor({6, 2}, f)}, {{"dim", std::int64_t{0}}, {"sizes", IntList{2, 3}}}, "strided"},
    };
  });
  add_exact(registry, "narrow", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({5, 3}, f)},
         {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"length", std::int64_t{3}}},
         "middle rows"},
        {{rng.tensor({5, 3}, f)},
         {{"dim", std::int64_t{-1}}, {"start", std::int64_t{-2}}, {"length", std::int64_t{2}}},
         "negative start"},
        {{rng.tensor({0}, f)},
         {{"dim", std::int64_t{0}}, {"start", std::int64_t{0}}, {"length", std::int64_t{0}}},
         "size-0"},
        {{rng.strided_tensor({4, 4}, f)},
         {{"dim", std::int64_t{1}}, {"start", std::int64_t{3}}, {"length", std::int64_t{2}}},
         "strided, past the end"},
    };
  });
  add_exact(registry, "unbind", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({3, 2}, f)}, {}, "rows"},
        {{rng.strided_tensor({3, 2}, f)}, {{"dim", std::int64_t{-1}}}, "strided columns"},
        {{rng.tensor({0, 2}, f)}, {}, "size-0: no pieces"},
        {{rng.tensor({}, f)}, {}, "rank 0 rejected"},
    };
  });
  add_exact(registry, "split", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({5, 2}, f)}, {{"split_size", std::int64_t{2}}}, "last piece smaller"},
        {{rng.strided_tensor({3, 6}, f)}, {{"split_size", std::int64_t{3}}, {"dim", std::int64_t{1}}}, "strided"},
        {{rng.tensor({0, 2}, f)}, {{"split_size", std::int64_t{2}}}, "size-0: one piece"},
    };
  });
  add_exact(registry, "split_with_sizes", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({6, 2}, f)}, {{"split_sizes", IntList{1, 0, 5}}}, "with an empty piece"},
        {{rng.strided_tensor({3, 4}, f)}, {{"split_sizes", IntList{3, 1}}, {"dim", std::int64_t{1}}}, "strided"},
        {{rng.tensor({3}, f)}, {{"split_sizes", IntList{1, 1}}}, "sizes do not sum"},
    };
  });
  add_exact(registry, "chunk", [](DType f, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({5, 2}, f)}, {{"chunks", std::int64_t{3}}}, "5 in 3 chunks: 2,2,1"},
        {{rng.tensor({6}, f)}, {{"chunks", std::int64_t{4}}}, "6 in 4 chunks: 2,2,2"},
        {{rng.strided_tensor({3, 4}, f)}, {{"chunks", std::int64_t{2}}, {"dim", std::int64_t{1}}}, "strided"},
        {{rng.tensor({0}, f)}, {{"chunks", std::int64_t{2}}}, "size-0: two empty chunks"},
    };
  });
}

}  // namespace funcspec::samples
