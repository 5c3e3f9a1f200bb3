// Samples of the joining and indexing family. Index values are drawn inside their dims: an
// out-of-range value is a data-dependent error that meta cannot see, so those are unit-tested.
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using IntList = std::vector<std::int64_t>;

// An int64 index tensor with values in [0, size).
Tensor index_in(SampleRng& rng, const Shape& shape, std::int64_t size) {
  return rng.tensor(shape, DType::Int64, 0.0, static_cast<double>(size));
}

Attrs dim_attr(std::int64_t dim) { return {{"dim", dim}}; }

}  // namespace

void register_index_samples(OpSampleRegistry& registry) {
  // cat, stack, index_select, gather, take_along_dim, masked_fill and pad only move elements (or
  // convert int64 to float exactly): the default 0.5 ulps, i.e. exact.
  registry.add({"cat",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, f), rng.tensor({1, 3}, f)}, {}, "rows"},
                      {{rng.tensor({2}, DType::Int64), rng.tensor({3}, f)}, {}, "int64 promoted"},
                      {{rng.strided_tensor({3, 2}, f), rng.tensor({3, 1}, f)}, dim_attr(-1), "strided, last dim"},
                      {{rng.tensor({0, 3}, f), rng.tensor({2, 3}, f)}, {}, "size-0"},
                      {{rng.tensor({0}, f), rng.tensor({2, 3}, f)}, dim_attr(1), "legacy empty 1-d"},
                      {{rng.tensor({}, f), rng.tensor({2}, f)}, {}, "rank 0 rejected"},
                      {{rng.tensor({2, 3}, f), rng.tensor({2, 2}, f)}, {}, "mismatch rejected"},
                  };
                },
                {},
                ""});
  registry.add({"stack",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, f), rng.tensor({2, 3}, f)}, dim_attr(1), "middle"},
                      {{rng.tensor({}, f), rng.tensor({}, f), rng.tensor({}, f)}, {}, "rank 0"},
                      {{rng.strided_tensor({3, 2}, f), rng.tensor({3, 2}, f)}, dim_attr(-1), "strided, last"},
                      {{rng.tensor({0, 2}, f)}, {}, "size-0"},
                  };
                },
                {},
                ""});
  registry.add({"index_select",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({4, 3}, f), index_in(rng, {5}, 4)}, dim_attr(0), "rows with repeats"},
                      {{rng.strided_tensor({3, 4}, f), index_in(rng, {2}, 4)}, dim_attr(-1), "strided columns"},
                      {{rng.tensor({4, 3}, f), index_in(rng, {}, 3)}, dim_attr(1), "0-dim index"},
                      {{rng.tensor({4, 3}, f), index_in(rng, {0}, 4)}, dim_attr(0), "size-0 index"},
                      {{rng.tensor({}, f), index_in(rng, {1}, 1)}, dim_attr(0), "rank 0"},
                      {{rng.tensor({4, 3}, f), rng.tensor({2}, f)}, dim_attr(0), "float index rejected"},
                  };
                },
                {},
                ""});
  registry.add(
      {"gather",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3)}, dim_attr(0), "dim 0"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {3, 6}, 4)}, dim_attr(1), "strided, wider index"},
             {{rng.tensor({3, 4}, f), rng.strided_tensor({2, 2}, DType::Int64, 0, 4)}, dim_attr(1), "strided index"},
             {{rng.tensor({3, 4}, f), index_in(rng, {0, 4}, 3)}, dim_attr(0), "size-0"},
             {{rng.tensor({}, f), index_in(rng, {}, 1)}, dim_attr(0), "rank 0"},
             {{rng.tensor({3, 4}, f), index_in(rng, {4}, 3)}, dim_attr(0), "rank mismatch rejected"},
         };
       },
       {},
       ""});
  // Each output element adds at most 3 source elements to self's, in a fixed order: every
  // partial sum is at most 4·max|input|, so the error is at most 3 · 0.5 · 4 = 6 ulps of
  // max|input| (input_scale 1); 8 leaves room for the float32 input rounding boundary cases.
  registry.add({"scatter_add",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({2, 4}, f)}, dim_attr(0), "dim 0"},
                      {{rng.strided_tensor({3, 4}, f), index_in(rng, {3, 3}, 4), rng.tensor({3, 5}, f)},
                       dim_attr(1),
                       "strided self, larger src"},
                      {{rng.tensor({3, 4}, f), index_in(rng, {0, 4}, 3), rng.tensor({1, 4}, f)}, dim_attr(0), "size-0"},
                      {{rng.tensor({}, f), index_in(rng, {}, 1), rng.tensor({}, f)}, dim_attr(0), "rank 0"},
                  };
                },
                {8.0, 8.0, 0.0, 1.0},
                ""});
  registry.add({"take_along_dim",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({3, 4}, f), index_in(rng, {3, 2}, 4)}, dim_attr(1), "along rows"},
                      {{rng.tensor({3, 1, 4}, f), index_in(rng, {1, 2, 5}, 4)}, dim_attr(-1), "broadcast"},
                      {{rng.strided_tensor({2, 3}, f), index_in(rng, {4}, 6)}, {}, "flattened, strided"},
                      {{rng.tensor({}, f), index_in(rng, {}, 1)}, dim_attr(0), "rank 0"},
                      {{rng.tensor({2, 3}, f), index_in(rng, {0, 3}, 2)}, dim_attr(0), "size-0"},
                  };
                },
                {},
                ""});
  registry.add(
      {"masked_fill",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({2, 3}, f), rng.tensor({3}, DType::Bool), Tensor::wrapped_scalar(Scalar(1.5))},
              {},
              "broadcast mask, literal"},
             {{rng.strided_tensor({3, 2}, f), rng.tensor({3, 2}, DType::Bool), rng.tensor({}, f)},
              {},
              "strided, 0-dim tensor value"},
             {{rng.tensor({3}, f), rng.tensor({2, 3}, DType::Bool), Tensor::wrapped_scalar(Scalar(-1.0))},
              {},
              "mask broadcasts self"},
             {{rng.tensor({}, f), rng.tensor({}, DType::Bool), Tensor::wrapped_scalar(Scalar(2.0))}, {}, "rank 0"},
             {{rng.tensor({0, 2}, f), rng.tensor({2}, DType::Bool), Tensor::wrapped_scalar(Scalar(2.0))}, {}, "size-0"},
             {{rng.tensor({3}, DType::Int64), rng.tensor({3}, DType::Bool), Tensor::wrapped_scalar(Scalar(2.5))},
              {},
              "float value into int64"},
             {{rng.tensor({3}, f), rng.tensor({3}, f), Tensor::wrapped_scalar(Scalar(2.0))}, {}, "float mask rejected"},
         };
       },
       {},
       ""});
  // Each output element adds at most 3 products alpha·source (|alpha| <= 2.5) to self's: partial
  // sums reach 8.5·max|input|, so 3 rounded sums and 3 rounded products stay below
  // 3 · 0.5 · 8.5 + 3 · 0.5 · 2.5 = 16.5 ulps of max|input| (input_scale 1); stated bound 20.
  registry.add(
      {"index_add",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({4, 3}, f), index_in(rng, {3}, 4), rng.tensor({3, 3}, f)},
              {{"dim", std::int64_t{0}}},
              "rows"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {3}, 4), rng.strided_tensor({3, 3}, f)},
              {{"dim", std::int64_t{1}}, {"alpha", 2.5}},
              "strided columns, alpha"},
             {{rng.tensor({}, f), index_in(rng, {1}, 1), rng.tensor({}, f)}, {{"dim", std::int64_t{0}}}, "rank 0"},
             {{rng.tensor({2, 3}, f), index_in(rng, {0}, 2), rng.tensor({0, 3}, f)},
              {{"dim", std::int64_t{0}}},
              "size-0 index"},
             {{rng.tensor({2, 3}, f), index_in(rng, {2}, 2), rng.tensor({2, 2}, f)},
              {{"dim", std::int64_t{0}}},
              "source shape rejected"},
         };
       },
       {20.0, 20.0, 0.0, 1.0},
       ""});
  registry.add({"pad",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out{
                      {{rng.tensor({2, 3}, f)}, {{"pad", IntList{1, 2}}}, "last dim"},
                      {{rng.tensor({2, 3}, f)}, {{"pad", IntList{1, 0, 0, 2}}, {"value", 1.5}}, "two dims, value"},
                      {{rng.strided_tensor({3, 4}, f)}, {{"pad", IntList{-1, 2, 1, -2}}}, "strided, crops"},
                      {{rng.tensor({}, f)}, {{"pad", IntList{}}}, "rank 0"},
                      {{rng.tensor({0, 3}, f)}, {{"pad", IntList{0, 0, 1, 1}}}, "size-0"},
                      {{rng.tensor({2, 3}, f)}, {{"pad", IntList{1}}}, "odd pad rejected"},
                      {{rng.tensor({2, 3}, f)}, {{"pad", IntList{-2, -2}}}, "negative size rejected"},
                  };
                  for (OpSample& s : pad_mode_samples(f, rng)) out.push_back(std::move(s));
                  return out;
                },
                {},
                ""});
}

}  // namespace funcspec::samples
