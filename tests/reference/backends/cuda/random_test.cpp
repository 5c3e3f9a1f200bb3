// The random family on cuda against the cpu: under one seed every random op gives the same bits on
// both backends (equality, not closeness: NOTE: [cuda random kernels]), advances the generator by
// the same number of blocks, writes non-contiguous outputs in the same places, and rejects bad
// parameters with the cpu's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reference/backends/cpu/random.h"
#include "reference/backends/cuda/random.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_random_test {

using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;

constexpr std::uint64_t kSeed = 0x5EED5EED1234ull;
constexpr DType kCudaDtypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};
constexpr DType kFloatingDtypes[] = {DType::Float32, DType::Float64};

std::string name_of(DType dtype) { return std::string(dtype_name(dtype)); }
std::string device_string(Device device) { return std::string(device_name(device)); }

// t on `device`, as the same view (cpu: t itself).
Tensor on(Device device, const Tensor& t) { return device == Device::Cuda ? same_view_on_cuda(t) : t; }

// Values in [0, 1] that include both ends (probabilities), or spread over [-3, 3] (means).
Tensor probabilities(const Shape& shape, DType dtype) {
  const std::int64_t n = numel_of(shape);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>((i * 37) % 11) / 10.0;
  return from_vector(v, shape, dtype);
}

Tensor spread(const Shape& shape, DType dtype, double scale = 1.0) {
  const std::int64_t n = numel_of(shape);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    v[static_cast<std::size_t>(i)] = scale * (static_cast<double>((i * 7919) % 601) / 100.0 - 3.0);
  }
  return from_vector(v, shape, dtype);
}

Tensor transposed(const Tensor& t) {
  return call_one("transpose", {t}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}});
}

Tensor non_contiguous(const Tensor& t) { return transposed(call_one("contiguous", {transposed(t)})); }

// Runs `draw(device)` under a fresh generator seeded kSeed, after a first draw of 3 blocks (so the
// op's stream has a non-zero offset), on cpu and on cuda; expects the same bits and offsets.
template <typename Draw>
void expect_same_draws(Draw&& draw, const std::string& what) {
  Tensor on_cpu, on_gpu;
  std::uint64_t cpu_offset = 0, gpu_offset = 0;
  for (Device device : {Device::Cpu, Device::Cuda}) {
    random::GeneratorScope scope(kSeed);
    call("rand", {}, {{"size", std::vector<std::int64_t>{3}}, {"device", device_string(device)}});
    const Tensor drawn = draw(device);
    (device == Device::Cpu ? on_cpu : on_gpu) = drawn;
    (device == Device::Cpu ? cpu_offset : gpu_offset) = random::current_generator().offset();
  }
  expect_identical(on_gpu, on_cpu, what);
  EXPECT_EQ(gpu_offset, cpu_offset) << what;
}

// A creation op (rand, randn, randint) with its attributes, on `device`.
Tensor create(std::string_view op, Attrs attrs, Device device) {
  Attrs with_device = attrs;
  with_device.set("device", device_string(device));
  return call_one(op, {}, with_device);
}

const std::vector<Shape> kShapes = {{0}, {}, {7, 13}, {2, 0, 3}, {3, 4, 5}};

TEST(CudaRandom, RandAndRandnGiveTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kFloatingDtypes) {
    for (const Shape& shape : kShapes) {
      const std::string what = name_of(dtype) + " " + shape_to_string(shape);
      for (std::string_view op : {"rand", "randn"}) {
        expect_same_draws(
            [&](Device d) {
              return create(op, {{"size", shape}, {"dtype", dtype}}, d);
            },
            std::string(op) + " " + what);
      }
    }
  }
}

TEST(CudaRandom, RandintGivesTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  const std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {{-5, 17}, {lowest, highest}, {lowest / 3, 10}};
  for (DType dtype : {DType::Int64, DType::Float32, DType::Float64}) {
    for (const auto& [low, high] : ranges) {
      expect_same_draws(
          [&](Device d) {
            return create("randint", {{"low", low}, {"high", high}, {"size", Shape{6, 9}}, {"dtype", dtype}}, d);
          },
          "randint " + name_of(dtype) + " [" + std::to_string(low) + ", " + std::to_string(high) + ")");
    }
  }
  expect_same_draws(
      [&](Device d) {
        return create(
            "randint",
            {{"low", std::int64_t{0}}, {"high", std::int64_t{2}}, {"size", Shape{40}}, {"dtype", DType::Bool}}, d);
      },
      "randint bool");
  expect_same_draws(
      [&](Device d) {
        return create(
            "randint",
            {{"low", std::int64_t{-3}}, {"high", std::int64_t{3}}, {"size", Shape{}}, {"dtype", DType::Int64}}, d);
      },
      "randint 0-d");
}

TEST(CudaRandom, UniformAndNormalFunctionalGiveTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kFloatingDtypes) {
    // self's values and layout are unused; only its shape and dtype count.
    const Tensor self = non_contiguous(spread({5, 7}, dtype));
    const std::string what = name_of(dtype);
    expect_same_draws(
        [&](Device d) {
          return call_one("uniform", {on(d, self)}, {{"from", -2.5}, {"to", 7.25}});
        },
        "uniform " + what);
    expect_same_draws(
        [&](Device d) {
          return call_one("uniform", {on(d, self)}, {{"from", 0.1}, {"to", 0.1}});
        },
        "uniform empty range " + what);
    expect_same_draws(
        [&](Device d) {
          return call_one("normal_functional", {on(d, self)}, {{"mean", 1.5}, {"std", 0.3}});
        },
        "normal_functional " + what);
    expect_same_draws(
        [&](Device d) {
          return call_one("normal_functional", {on(d, spread({}, dtype))}, {{"mean", -1.0}, {"std", 0.0}});
        },
        "normal_functional 0-d " + what);
  }
}

TEST(CudaRandom, BernoulliWithAScalarPGivesTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const Tensor self = spread({6, 11}, dtype);
    for (double p : {0.3, 0.0, 1.0}) {
      expect_same_draws(
          [&](Device d) {
            return call_one("bernoulli.p", {on(d, self)}, {{"p", p}});
          },
          "bernoulli.p " + name_of(dtype) + " p=" + std::to_string(p));
    }
    expect_same_draws(
        [&](Device d) {
          return call_one("bernoulli.p", {on(d, spread({0, 4}, dtype))}, {{"p", 0.5}});
        },
        "bernoulli.p empty " + name_of(dtype));
  }
}

TEST(CudaRandom, BernoulliWithATensorPGivesTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kFloatingDtypes) {
    const std::string what = "bernoulli " + name_of(dtype);
    expect_same_draws([&](Device d) { return call_one("bernoulli", {on(d, probabilities({8, 9}, dtype))}, {}); }, what);
    expect_same_draws(
        [&](Device d) {
          return call_one("bernoulli", {on(d, non_contiguous(probabilities({8, 9}, dtype)))}, {});
        },
        what + " transposed");
    const Tensor broadcast =
        call_one("expand", {probabilities({1, 9}, dtype)}, {{"size", std::vector<std::int64_t>{5, 9}}});
    expect_same_draws([&](Device d) { return call_one("bernoulli", {on(d, broadcast)}, {}); }, what + " broadcast");
    expect_same_draws([&](Device d) { return call_one("bernoulli", {on(d, probabilities({}, dtype))}, {}); },
                      what + " 0-d");
  }
}

TEST(CudaRandom, NormalWithTensorParametersGivesTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kFloatingDtypes) {
    const std::string what = "normal " + name_of(dtype);
    const Tensor mean = spread({4, 1}, dtype, 10.0);
    const Tensor std = call_one("abs", {spread({4, 6}, dtype)});  // includes 0
    expect_same_draws([&](Device d) { return call_one("normal", {on(d, mean), on(d, std)}); }, what + " broadcast");
    expect_same_draws(
        [&](Device d) {
          return call_one("normal", {on(d, non_contiguous(spread({4, 6}, dtype))), on(d, non_contiguous(std))});
        },
        what + " transposed");
    expect_same_draws(
        [&](Device d) {
          return call_one("normal", {on(d, spread({}, dtype)), on(d, probabilities({}, dtype))});
        },
        what + " 0-d");
  }
}

TEST(CudaRandom, MultinomialGivesTheCpusDraws) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor weights_1d = from_vector(std::vector<double>{0.5, 0, 2, 1, 1, 0, 3.25, 1}, {8}, DType::Float32);
  std::vector<double> rows_values;
  for (std::int64_t i = 0; i < 6 * 10; ++i) rows_values.push_back(static_cast<double>((i * 13) % 7) * 0.25);
  const Tensor weights_2d = from_vector(rows_values, {6, 10}, DType::Float64);
  for (bool replacement : {true, false}) {
    const std::string what = replacement ? "multinomial with replacement" : "multinomial without replacement";
    for (std::int64_t n : {1, 3, 6}) {
      const Attrs attrs{{"num_samples", n}, {"replacement", replacement}};
      expect_same_draws([&](Device d) { return call_one("multinomial", {on(d, weights_1d)}, attrs); },
                        what + " 1-d, " + std::to_string(n));
      // Every row has at least 8 positive weights (13 i mod 7 is 0 for at most 2 of 10 consecutive i).
      expect_same_draws([&](Device d) { return call_one("multinomial", {on(d, weights_2d)}, attrs); },
                        what + " 2-d, " + std::to_string(n));
      expect_same_draws([&](Device d) { return call_one("multinomial", {on(d, non_contiguous(weights_2d))}, attrs); },
                        what + " transposed, " + std::to_string(n));
    }
  }
  // Equal weights: the race's ties go to the lower category on both backends.
  const Tensor equal = from_vector(std::vector<double>(12, 1.0), {12}, DType::Float64);
  expect_same_draws(
      [&](Device d) {
        return call_one("multinomial", {on(d, equal)}, {{"num_samples", std::int64_t{12}}, {"replacement", false}});
      },
      "multinomial, a full permutation");
}

TEST(CudaRandom, LargeDrawsGiveTheCpusBits) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  for (DType dtype : kFloatingDtypes) {
    const Shape large{1200, 1001};
    const std::string what = name_of(dtype) + " of 1.2M elements";
    expect_same_draws([&](Device d) { return create("rand", {{"size", large}, {"dtype", dtype}}, d); }, "rand " + what);
    expect_same_draws(
        [&](Device d) {
          return create("randn", {{"size", large}, {"dtype", dtype}}, d);
        },
        "randn " + what);
    expect_same_draws([&](Device d) { return call_one("bernoulli", {on(d, probabilities(large, dtype))}, {}); },
                      "bernoulli " + what);
    expect_same_draws(
        [&](Device d) {
          return call_one("normal", {on(d, spread(large, dtype)), on(d, probabilities(large, dtype))});
        },
        "normal " + what);
  }
  expect_same_draws(
      [&](Device d) {
        return create("randint",
                      {{"low", std::int64_t{-1000}}, {"high", std::int64_t{1000}}, {"size", Shape{1200, 1001}}}, d);
      },
      "randint of 1.2M elements");
  std::vector<double> many(30 * 2000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>((i * 7919) % 97);
  const Tensor weights = from_vector(many, {30, 2000}, DType::Float32);
  for (bool replacement : {true, false}) {
    expect_same_draws(
        [&](Device d) {
          return call_one("multinomial", {on(d, weights)},
                          {{"num_samples", std::int64_t{1500}}, {"replacement", replacement}});
        },
        replacement ? "large multinomial with replacement" : "large multinomial without replacement");
  }
}

// The cpu's error for bad parameters, message included, on cuda.
template <typename Run>
void expect_same_error(Run&& run, const std::string& what) {
  std::string messages[2];
  for (Device device : {Device::Cpu, Device::Cuda}) {
    random::GeneratorScope scope(kSeed);
    try {
      run(device);
      messages[device == Device::Cuda] = "no error";
    } catch (const Error& e) {
      messages[device == Device::Cuda] = std::string(error_kind_name(e.kind())) + ": " + e.what();
    }
  }
  EXPECT_NE(messages[0], "no error") << what;
  EXPECT_EQ(messages[1], messages[0]) << what;
}

TEST(CudaRandom, BadParametersRaiseTheCpusErrors) {
  FUNCSPEC_REQUIRE_GPU();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType dtype : kFloatingDtypes) {
    const Tensor p = from_vector(std::vector<double>{0.5, 1, 0, 1.5, nan, -0.25}, {2, 3}, dtype);
    expect_same_error([&](Device d) { call("bernoulli", {on(d, p)}, {}); }, "bernoulli p > 1");
    expect_same_error([&](Device d) { call("bernoulli", {on(d, non_contiguous(p))}, {}); }, "bernoulli NaN first");
    const Tensor std = from_vector(std::vector<double>{1, 0, -2, nan}, {4}, dtype);
    expect_same_error([&](Device d) { call("normal", {on(d, spread({4}, dtype)), on(d, std)}, {}); }, "normal std < 0");
    struct BadWeights {
      std::vector<double> values;
      std::int64_t num_samples;
      bool fails_with_replacement;
    };
    const std::vector<BadWeights> bad_weights = {
        {{1, 2, 3, nan, -1, 2}, 1, true},                                      // NaN in row 1
        {{1, 2, 3, 4, -1, std::numeric_limits<double>::infinity()}, 1, true},  // -1 before inf
        {{1, 2, 3, 0, 0, 0}, 1, true},                                         // row 1 sums to 0
        {{1, 2, 3, 0, 5, 0}, 2, false},  // row 1 has one positive weight: too few without replacement
    };
    for (const auto& [values, n, fails_with_replacement] : bad_weights) {
      const Tensor weights = from_vector(values, {2, 3}, dtype);
      for (bool replacement : {true, false}) {
        if (replacement && !fails_with_replacement) continue;
        expect_same_error(
            [&](Device d) {
              call("multinomial", {on(d, weights)}, {{"num_samples", n}, {"replacement", replacement}});
            },
            "multinomial " + weights.to_string());
      }
    }
  }
}

#if FUNCSPEC_HAVE_CUDA

// A [3, 5] view with strides (1, 9) at offset 4 of a zeroed storage of 64 elements: the kernels
// must write exactly the view's elements, wherever they lie.
struct Target {
  Tensor base;
  Tensor view;
};

Target target(DType dtype, Device device, const Shape& shape = {3, 5}, const Strides& strides = {1, 9}) {
  Tensor base = from_vector(std::vector<double>(64, 0.0), {64}, dtype);
  if (device == Device::Cuda) base = to_device(base, Device::Cuda);
  return {base, Tensor::view_of(base, shape, strides, 4)};
}

// Runs `fill(out, device)` into a strided target on each backend; expects identical storages.
template <typename Fill>
void expect_same_strided_writes(DType dtype, Fill&& fill, const std::string& what, const Shape& shape = {3, 5},
                                const Strides& strides = {1, 9}) {
  const Target on_cpu = target(dtype, Device::Cpu, shape, strides);
  const Target on_gpu = target(dtype, Device::Cuda, shape, strides);
  fill(on_cpu.view, Device::Cpu);
  fill(on_gpu.view, Device::Cuda);
  expect_identical(on_gpu.base, on_cpu.base, what);
}

TEST(CudaRandom, KernelsWriteNonContiguousOutputsLikeTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const random::PhiloxStream stream{kSeed, 12345};
  for (DType dtype : kFloatingDtypes) {
    const std::string what = name_of(dtype);
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::fill_uniform(out, stream, -1.0, 3.0) : cpu::fill_uniform(out, stream, -1.0, 3.0);
        },
        "fill_uniform " + what);
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::fill_normal(out, stream, 2.0, 0.5) : cpu::fill_normal(out, stream, 2.0, 0.5);
        },
        "fill_normal " + what);
    const Tensor p = non_contiguous(probabilities({3, 5}, dtype));
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::bernoulli_tensor(on(d, p), out, stream) : cpu::bernoulli_tensor(p, out, stream);
        },
        "bernoulli_tensor " + what);
    const Tensor mean = spread({3, 5}, dtype), std = probabilities({3, 5}, dtype);
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::normal_tensor(on(d, mean), on(d, std), out, stream)
                            : cpu::normal_tensor(mean, std, out, stream);
        },
        "normal_tensor " + what);
  }
  for (DType dtype : kCudaDtypes) {
    const std::string what = name_of(dtype);
    const std::int64_t high = dtype == DType::Bool ? 2 : 100;
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::fill_randint(out, stream, 0, high) : cpu::fill_randint(out, stream, 0, high);
        },
        "fill_randint " + what);
    expect_same_strided_writes(
        dtype,
        [&](const Tensor& out, Device d) {
          d == Device::Cuda ? cuda::fill_bernoulli_scalar(out, stream, 0.4)
                            : cpu::fill_bernoulli_scalar(out, stream, 0.4);
        },
        "fill_bernoulli_scalar " + what);
  }
  // multinomial into a [2, 4] int64 view with strides (1, 5).
  const Tensor weights = from_vector(std::vector<double>{1, 2, 0, 4, 5, 0.5, 1, 1, 0, 2, 3, 1}, {2, 6}, DType::Float64);
  for (bool replacement : {true, false}) {
    expect_same_strided_writes(DType::Int64,
                               [&](const Tensor& out, Device d) {
                                 d == Device::Cuda ? cuda::multinomial(on(d, weights), out, 4, replacement, stream)
                                                   : cpu::multinomial(weights, out, 4, replacement, stream);
                               },
                               replacement ? "multinomial with replacement" : "multinomial without replacement", {2, 4},
                               {1, 5});
  }
}

#endif  // FUNCSPEC_HAVE_CUDA

}  // namespace funcspec::cuda_random_test
