#include "conformance/samples/op_samples.h"

namespace funcspec::samples {

void register_binary_samples(OpSampleRegistry& registry) {
  registry.add({"add",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, floating), rng.tensor({3}, floating)}, {}, "broadcast [2,3]+[3]"},
                      {{rng.strided_tensor({3, 2}, floating), rng.tensor({3, 2}, floating)}, {{"alpha", 2.5}}, "strided, alpha"},
                  };
                },
                {0.5, 0.5, 0.0, 2.0},
                ""});
}

}  // namespace funcspec::samples
