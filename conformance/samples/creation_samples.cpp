// Samples of the creation family. Results depend only on attributes, so the float64 and float32
// runs compute the very values the oracle run does: the tolerance is the default 0.5 ulps (exact).
// arange's float values are start + i * step rounded once from double, also exact against itself.
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using IntList = std::vector<std::int64_t>;

}  // namespace

void register_creation_samples(OpSampleRegistry& registry) {
  registry.add({"full",
                [](DType f, SampleRng&) {
                  return std::vector<OpSample>{
                      {{}, {{"size", IntList{2, 3}}, {"fill_value", Scalar(2.5)}, {"dtype", f}}, "2x3 of 2.5"},
                      {{}, {{"size", IntList{}}, {"fill_value", Scalar(-1.25)}, {"dtype", f}}, "rank 0"},
                      {{}, {{"size", IntList{0, 3}}, {"fill_value", Scalar(1.0)}, {"dtype", f}}, "size-0"},
                      {{}, {{"size", IntList{3}}, {"fill_value", Scalar(std::int64_t{7})}}, "int literal: int64"},
                      {{}, {{"size", IntList{2}}, {"fill_value", Scalar(true)}}, "bool literal: bool"},
                      {{}, {{"size", IntList{2}}, {"fill_value", Scalar(0.5)}}, "float literal: float32"},
                      {{}, {{"size", IntList{2, -1}}, {"fill_value", Scalar(0.5)}}, "negative size rejected"},
                  };
                },
                {},
                ""});
  registry.add({"arange",
                [](DType f, SampleRng&) {
                  return std::vector<OpSample>{
                      {{}, {{"end", Scalar(std::int64_t{5})}}, "end only: int64"},
                      {{}, {{"start", Scalar(1.0)}, {"end", Scalar(2.0)}, {"step", Scalar(0.3)}}, "float: float32"},
                      {{},
                       {{"start", Scalar(-1.5)}, {"end", Scalar(4.0)}, {"step", Scalar(0.5)}, {"dtype", f}},
                       "given floating dtype"},
                      {{},
                       {{"start", Scalar(std::int64_t{10})},
                        {"end", Scalar(std::int64_t{1})},
                        {"step", Scalar(std::int64_t{-3})}},
                       "negative step"},
                      {{}, {{"start", Scalar(std::int64_t{3})}, {"end", Scalar(std::int64_t{3})}}, "empty"},
                      {{}, {{"end", Scalar(std::int64_t{3})}, {"step", Scalar(std::int64_t{0})}}, "step 0 rejected"},
                  };
                },
                {},
                ""});
  for (const char* name : {"zeros", "ones"}) {
    registry.add({name,
                  [](DType f, SampleRng&) {
                    return std::vector<OpSample>{
                        {{}, {{"size", IntList{2, 3}}, {"dtype", f}}, "2x3"},
                        {{}, {{"size", IntList{}}}, "rank 0, default float32"},
                        {{}, {{"size", IntList{4, 0}}, {"dtype", DType::Int64}}, "size-0 int64"},
                    };
                  },
                  {},
                  ""});
  }
  for (const char* name : {"zeros_like", "ones_like"}) {
    registry.add({name,
                  [](DType f, SampleRng& rng) {
                    return std::vector<OpSample>{
                        {{rng.tensor({2, 3}, f)}, {}, "2x3"},
                        {{rng.strided_tensor({3, 2}, f)}, {}, "strided input"},
                        {{rng.tensor({}, f)}, {{"dtype", DType::Int64}}, "rank 0 to int64"},
                        {{rng.tensor({0, 2}, DType::Bool)}, {}, "size-0 bool"},
                    };
                  },
                  {},
                  ""});
  }
  registry.add(
      {"full_like",
       [](DType f, SampleRng& rng) {
         return std::vector<OpSample>{
             {{rng.tensor({2, 3}, f)}, {{"fill_value", Scalar(0.75)}}, "2x3"},
             {{rng.strided_tensor({3, 2}, f)}, {{"fill_value", Scalar(-2.0)}}, "strided input"},
             {{rng.tensor({}, DType::Int64)}, {{"fill_value", Scalar(std::int64_t{4})}}, "rank 0 int64"},
             {{rng.tensor({0}, f)}, {{"fill_value", Scalar(1.0)}, {"dtype", DType::Bool}}, "size-0 to bool"},
             {{rng.tensor({2}, DType::Int64)}, {{"fill_value", Scalar(1e300 * 1e300)}}, "inf into int64 rejected"},
         };
       },
       {},
       ""});
}

}  // namespace funcspec::samples
