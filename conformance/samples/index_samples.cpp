// Samples of the joining and indexing family. Index values are drawn inside their dims: an
// out-of-range value is a data-dependent error that meta cannot see, so those are unit-tested.
#include <fmt/format.h>

#include <limits>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using IntList = std::vector<std::int64_t>;

// An int64 index tensor with values in [0, size).
Tensor index_in(SampleRng& rng, const Shape& shape, std::int64_t size) {
  return rng.tensor(shape, DType::Int64, 0.0, static_cast<double>(size));
}

Attrs dim_attr(std::int64_t dim) { return {{"dim", dim}}; }

Attrs reduce_attrs(std::int64_t dim, const char* reduce, bool include_self) {
  return {{"dim", dim}, {"reduce", std::string(reduce)}, {"include_self", include_self}};
}

// scatter_reduce's calls: every reduce with and without self, then layouts, rank 0, size 0, the
// data-dependent points of docs/ops/index.md that are not differentiable (NaN, infinities), errors.
std::vector<OpSample> scatter_reduce_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    for (const bool include_self : {true, false}) {
      // 4 index rows into 3: duplicates are likely and self's last column is never reached.
      out.push_back({{rng.tensor({3, 4}, f), index_in(rng, {4, 3}, 3), rng.tensor({4, 4}, f)},
                     reduce_attrs(0, reduce, include_self),
                     fmt::format("{}, include_self={}", reduce, include_self)});
    }
  }
  out.push_back({{rng.strided_tensor({3, 4}, f), index_in(rng, {2, 5}, 4), rng.tensor({3, 6}, f)},
                 reduce_attrs(-1, "prod", false),
                 "strided self, larger src, last dim"});
  out.push_back(
      {{rng.tensor({}, f), index_in(rng, {}, 1), rng.tensor({}, f)}, reduce_attrs(0, "amax", true), "rank 0"});
  out.push_back({{rng.tensor({3, 4}, f), index_in(rng, {0, 4}, 3), rng.tensor({1, 4}, f)},
                 reduce_attrs(0, "mean", false),
                 "size-0"});
  out.push_back({{rng.tensor({4}, DType::Int64, -9, 9), from_values({0, 0, 2, 2, 2}, {5}, DType::Int64),
                  rng.tensor({5}, DType::Int64, -9, 9)},
                 reduce_attrs(0, "mean", true),
                 "int64 mean rounds toward -inf"});
  for (const char* reduce : {"amax", "amin", "sum", "prod"}) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    OpSample special{{from_values({1.0, nan, -inf, 2.0}, {4}, f), from_values({0, 0, 2, 3, 3}, {5}, DType::Int64),
                      from_values({inf, 0.5, 1.0, nan, -1.0}, {5}, f)},
                     reduce_attrs(0, reduce, true),
                     fmt::format("{} of NaN and infinities", reduce)};
    special.no_derivative = "NaN and infinite values: finite differences are not defined there";
    out.push_back(std::move(special));
  }
  out.push_back({{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({2, 4}, f)},
                 reduce_attrs(0, "median", true),
                 "unknown reduce rejected"});
  out.push_back({{rng.tensor({3, 4}, f), rng.tensor({2, 4}, f), rng.tensor({2, 4}, f)},
                 reduce_attrs(0, "sum", true),
                 "float index rejected"});
  out.push_back({{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({2, 4}, DType::Int64)},
                 reduce_attrs(0, "sum", true),
                 "src dtype rejected"});
  out.push_back({{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({1, 4}, f)},
                 reduce_attrs(0, "sum", true),
                 "src smaller than index rejected"});
  return out;
}

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
  // scatter only moves elements: exact. Duplicate targets are likely in the random indices; the
  // declared special point places them on purpose (SPEC OPS-22.1).
  registry.add(
      {"scatter",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({3, 4}, f), index_in(rng, {4, 4}, 3), rng.tensor({4, 4}, f)}, dim_attr(0), "dim 0"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {3, 3}, 4), rng.tensor({3, 5}, f)},
              dim_attr(-1),
              "strided self, larger src, last dim"},
             {{rng.tensor({3, 4}, f), index_in(rng, {0, 4}, 3), rng.tensor({1, 4}, f)}, dim_attr(0), "size-0"},
             {{rng.tensor({}, f), index_in(rng, {}, 1), rng.tensor({}, f)}, dim_attr(0), "rank 0"},
             {{rng.tensor({4}, DType::Int64), from_values({3, 0, 3}, {3}, DType::Int64), rng.tensor({3}, DType::Int64)},
              dim_attr(0),
              "int64, duplicates"},
             {{rng.tensor({3, 4}, f), index_in(rng, {4}, 3), rng.tensor({4}, f)},
              dim_attr(0),
              "rank mismatch rejected"},
             {{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({2, 4}, DType::Int64)},
              dim_attr(0),
              "src dtype rejected"},
             {{rng.tensor({3, 4}, f), index_in(rng, {2, 5}, 3), rng.tensor({2, 5}, f)},
              dim_attr(0),
              "index wider than self rejected"},
         };
       },
       {},
       ""});
  registry.add(
      {"scatter.value",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3)}, {{"dim", std::int64_t{0}}, {"value", 1.5}}, "dim 0"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {3, 2}, 4)},
              {{"dim", std::int64_t{-1}}, {"value", -2.0}},
              "strided, last dim"},
             {{rng.tensor({}, f), index_in(rng, {}, 1)}, {{"dim", std::int64_t{0}}, {"value", 0.5}}, "rank 0"},
             {{rng.tensor({3}, DType::Int64), index_in(rng, {2}, 3)},
              {{"dim", std::int64_t{0}}, {"value", std::int64_t{7}}},
              "int64"},
             {{rng.tensor({3, 4}, f), rng.tensor({2, 4}, f)},
              {{"dim", std::int64_t{0}}, {"value", 1.0}},
              "float index rejected"},
         };
       },
       {},
       ""});
  // Sums or products of at most 4 values of |x| < 2 in a fixed order, and the mean's one division:
  // as scatter_add, at most 3 · 0.5 · 4 = 6 ulps of max|input| (input_scale 1) for the sums, 1.5
  // ulps of the result for the products; amax and amin are exact. Stated bound 8.
  registry.add({"scatter_reduce", scatter_reduce_samples, {8.0, 8.0, 0.0, 1.0}, ""});
  registry.add(
      {"scatter.reduce",
       [](DType f, SampleRng& rng) {
         const auto attrs = [](const char* reduce) {
           return Attrs{{"dim", std::int64_t{0}}, {"reduce", std::string(reduce)}};
         };
         return std::vector<OpSample>{
             // Small enough (14 elements) for the gradient laws' programs to call it too.
             {{rng.tensor({3, 2}, f), index_in(rng, {2, 2}, 3), rng.tensor({2, 2}, f)}, attrs("add"), "add"},
             {{rng.tensor({3, 2}, f), index_in(rng, {2, 2}, 3), rng.tensor({2, 2}, f)}, attrs("multiply"), "multiply"},
             {{rng.tensor({3, 4}, f), index_in(rng, {2, 4}, 3), rng.tensor({2, 4}, f)},
              attrs("sum"),
              "reduce 'sum' rejected"},
         };
       },
       {8.0, 8.0, 0.0, 1.0},
       ""});
  // index_reduce folds at most 3 slices into self's, as scatter_reduce: the same bound.
  registry.add({"index_reduce",
                [](DType f, SampleRng& rng) {
                  std::vector<OpSample> out;
                  for (const char* reduce : {"prod", "mean", "amax", "amin"}) {
                    for (const bool include_self : {true, false}) {
                      out.push_back({{rng.tensor({4, 3}, f), index_in(rng, {3}, 4), rng.tensor({3, 3}, f)},
                                     reduce_attrs(0, reduce, include_self),
                                     fmt::format("{}, include_self={}", reduce, include_self)});
                    }
                  }
                  out.push_back({{rng.strided_tensor({3, 4}, f), index_in(rng, {3}, 4), rng.strided_tensor({3, 3}, f)},
                                 reduce_attrs(1, "amax", false),
                                 "strided columns"});
                  out.push_back({{rng.tensor({}, f), index_in(rng, {1}, 1), rng.tensor({}, f)},
                                 reduce_attrs(0, "prod", true),
                                 "rank 0"});
                  out.push_back({{rng.tensor({2, 3}, f), index_in(rng, {0}, 2), rng.tensor({0, 3}, f)},
                                 reduce_attrs(0, "mean", true),
                                 "size-0 index"});
                  out.push_back({{rng.tensor({2, 3}, f), index_in(rng, {2}, 2), rng.tensor({2, 3}, f)},
                                 reduce_attrs(0, "sum", true),
                                 "reduce 'sum' rejected"});
                  out.push_back({{rng.tensor({2, 3}, f), index_in(rng, {2}, 2), rng.tensor({2, 2}, f)},
                                 reduce_attrs(0, "amax", true),
                                 "source shape rejected"});
                  return out;
                },
                {8.0, 8.0, 0.0, 1.0},
                ""});
  registry.add(
      {"index_copy",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({4, 3}, f), index_in(rng, {3}, 4), rng.tensor({3, 3}, f)}, dim_attr(0), "rows"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {2}, 4), rng.strided_tensor({3, 2}, f)},
              dim_attr(-1),
              "strided columns"},
             {{rng.tensor({}, f), index_in(rng, {}, 1), rng.tensor({}, f)}, dim_attr(0), "rank 0"},
             {{rng.tensor({2, 3}, f), index_in(rng, {0}, 2), rng.tensor({0, 3}, f)}, dim_attr(0), "size-0 index"},
             {{rng.tensor({2, 3}, f), rng.tensor({2}, f), rng.tensor({2, 3}, f)}, dim_attr(0), "float index rejected"},
         };
       },
       {},
       ""});
  registry.add(
      {"index_fill",
       [](DType f, SampleRng& rng) {
         const auto attrs = [](std::int64_t dim, Scalar value) { return Attrs{{"dim", dim}, {"value", value}}; };
         return std::vector<OpSample>{
             {{rng.tensor({4, 3}, f), index_in(rng, {3}, 4)}, attrs(0, Scalar(1.5)), "rows, repeats"},
             {{rng.strided_tensor({3, 4}, f), index_in(rng, {2}, 4)}, attrs(-1, Scalar(-2.0)), "strided"},
             {{rng.tensor({}, f), index_in(rng, {}, 1)}, attrs(0, Scalar(0.5)), "rank 0"},
             {{rng.tensor({2, 3}, f), index_in(rng, {0}, 2)}, attrs(0, Scalar(1.0)), "size-0 index"},
             {{rng.tensor({3}, DType::Int64), index_in(rng, {2}, 3)}, attrs(0, Scalar(std::int64_t{4})), "int64"},
             {{rng.tensor({2, 3}, f), index_in(rng, {2, 1}, 2)}, attrs(0, Scalar(1.0)), "2-d index rejected"},
         };
       },
       {},
       ""});
  registry.add({"take",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({3, 4}, f), index_in(rng, {2, 3}, 12)}, {}, "2-d index"},
                      {{rng.strided_tensor({3, 4}, f), from_values({-1, -12, 5, 0}, {4}, DType::Int64)},
                       {},
                       "negative, strided"},
                      {{rng.tensor({}, f), from_values({-1}, {}, DType::Int64)}, {}, "rank 0"},
                      {{rng.tensor({3, 4}, f), index_in(rng, {0}, 12)}, {}, "size-0 index"},
                      {{rng.tensor({3, 4}, f), rng.tensor({2}, f)}, {}, "float index rejected"},
                  };
                },
                {},
                ""});
  // put with accumulate adds at most 3 values per element, as scatter_add: the same bound.
  registry.add({"put",
                [](DType f, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({3, 4}, f), index_in(rng, {2, 3}, 12), rng.tensor({6}, f)}, {}, "2-d index"},
                      {{rng.tensor({3, 4}, f), from_values({-1, 11, 0, -12}, {4}, DType::Int64), rng.tensor({2, 2}, f)},
                       {{"accumulate", true}},
                       "accumulate, negative duplicates"},
                      {{rng.strided_tensor({3, 4}, f), from_values({5, -7, 5}, {3}, DType::Int64), rng.tensor({3}, f)},
                       {{"accumulate", false}},
                       "strided, duplicates"},
                      {{rng.tensor({}, f), from_values({0}, {}, DType::Int64), rng.tensor({}, f)}, {}, "rank 0"},
                      {{rng.tensor({3, 4}, f), index_in(rng, {0}, 12), rng.tensor({0}, f)}, {}, "size-0 index"},
                      {{rng.tensor({3, 4}, f), index_in(rng, {3}, 12), rng.tensor({2}, f)}, {}, "source size rejected"},
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
