#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

std::vector<OpSample> one_tensor_samples(DType floating, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3}, floating)}, {}, "2x3 contiguous"},
      {{rng.strided_tensor({3, 2}, floating)}, {}, "3x2 transposed"},
      {{rng.tensor({}, floating)}, {}, "rank 0"},
      {{rng.tensor({0, 4}, floating)}, {}, "size-0 dim"},
  };
}

}  // namespace

void register_conversion_samples(OpSampleRegistry& registry) {
  registry.add({"clone", one_tensor_samples, {}, ""});
  registry.add({"contiguous", one_tensor_samples, {}, ""});
  registry.add({"detach", one_tensor_samples, {}, ""});
  registry.add({"to_dtype",
                [](DType floating, SampleRng& rng) {
                  std::vector<OpSample> out;
                  for (DType target : {DType::Bool, DType::Int64, DType::Float32, DType::Float64}) {
                    out.push_back({{rng.tensor({2, 3}, floating, -5, 5)},
                                   {{"dtype", target}},
                                   std::string("to ") + std::string(dtype_name(target))});
                  }
                  out.push_back({{rng.tensor({3}, DType::Int64, -5, 5)}, {{"dtype", floating}}, "int64 to float"});
                  return out;
                },
                {},
                ""});
  registry.add({"copy_",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, {}, "broadcast source"},
                      {{rng.strided_tensor({3, 2}, floating), rng.tensor({3, 2}, DType::Int64, -4, 4)},
                       {},
                       "int into strided float"},
                  };
                },
                {},
                ""});
}

}  // namespace funcspec::samples
