// Samples of the value-dependent ops. The meta check requires data_dependent_on_meta for every
// sample, so item/is_nonzero have no size-0 sample here (that is a scalar_conversion error, which
// infer raises before the dispatcher's meta refusal); their errors are unit-tested instead. Results
// are copies or indices of input values: exact in every dtype.
#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

// Values in {-1, 0, 1}: plenty of zeros for nonzero.
Tensor sparse(SampleRng& rng, const Shape& shape, DType dtype) {
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (double& v : values) v = static_cast<double>(rng.integer(-1, 2));
  return from_vector(values, shape, dtype);
}

Tensor transposed(const Tensor& base) {
  Shape shape = base.shape();
  Strides strides = base.strides();
  std::swap(shape[0], shape[1]);
  std::swap(strides[0], strides[1]);
  return Tensor::view_of(base, shape, strides, 0);
}

}  // namespace

void register_dynamic_samples(OpSampleRegistry& registry) {
  const auto one_element = [](DType floating, SampleRng& rng) {
    return std::vector<OpSample>{
        {{rng.tensor({}, floating)}, {}, "rank 0"},     {{rng.tensor({1, 1}, floating)}, {}, "[1, 1]"},
        {{rng.tensor({1}, DType::Int64)}, {}, "int64"}, {{rng.tensor({}, DType::Bool)}, {}, "bool"},
        {{from_values({0}, {}, floating)}, {}, "zero"},
    };
  };
  registry.add({"item", one_element, {}, ""});
  registry.add({"is_nonzero", one_element, {}, ""});
  registry.add({"nonzero",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{sparse(rng, {3, 4}, floating)}, {}, "3x4"},
                      {{transposed(sparse(rng, {4, 3}, floating))}, {}, "transposed"},
                      {{sparse(rng, {2, 2, 3}, DType::Int64)}, {}, "int64 rank 3"},
                      {{from_values({1}, {}, floating)}, {}, "rank 0"},
                      {{sparse(rng, {0, 3}, floating)}, {}, "size-0 dim"},
                  };
                },
                {},
                ""});
  registry.add({"masked_select",
                [](DType floating, SampleRng& rng) {
                  return std::vector<OpSample>{
                      {{rng.tensor({2, 3}, floating), rng.tensor({3}, DType::Bool)}, {}, "broadcast mask"},
                      {{transposed(rng.tensor({4, 3}, floating)), rng.tensor({3, 4}, DType::Bool)}, {}, "transposed"},
                      {{rng.tensor({}, floating), rng.tensor({}, DType::Bool)}, {}, "rank 0"},
                      {{rng.tensor({0, 3}, floating), rng.tensor({3}, DType::Bool)}, {}, "size-0 dim"},
                      {{rng.tensor({3}, floating), rng.tensor({2, 1}, DType::Bool)}, {}, "mask broadcasts self"},
                  };
                },
                {},
                ""});
}

}  // namespace funcspec::samples
