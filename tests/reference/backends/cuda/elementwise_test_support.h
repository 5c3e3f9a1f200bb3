#pragma once
// Shared by the CUDA tests of the elementwise families (unary, binary, creation, copy): inputs in
// every layout a kernel must handle, and one check that runs an op on cpu and on cuda from the same
// inputs and compares results, or the errors raised.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "reference/core/error.h"
#include "reference/core/tensor.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_elementwise_testing {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// The logical shape of the layouts below: 24 elements.
inline const Shape kShape{6, 4};
inline constexpr std::int64_t kCount = 24;

// `values` cycled to `n` elements.
template <typename T>
std::vector<T> cycled(const std::vector<T>& values, std::int64_t n) {
  std::vector<T> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(values[static_cast<std::size_t>(i) % values.size()]);
  return out;
}

struct Layout {
  std::string name;
  Tensor tensor;  // on cpu
};

// The first kCount of `values` (cycled) as a [6, 4] cpu tensor in each layout the kernels
// distinguish: contiguous; transposed (column-major storage); reversed (negative strides); at an
// offset with a step of 2; a broadcast row (stride 0 on dim 0); a broadcast scalar (all strides 0).
// The broadcast layouts show only the first 4 values, or the first one.
template <typename T>
std::vector<Layout> layouts(const std::vector<T>& values, DType dtype) {
  const std::vector<T> v = cycled(values, kCount);
  std::vector<Layout> out;
  out.push_back({"contiguous", from_vector(v, kShape, dtype)});
  // Stored as [4, 6] row-major, seen as its transpose: element (i, j) at j * 6 + i.
  out.push_back({"transposed", Tensor::view_of(from_vector(v, {4, 6}, dtype), kShape, {1, 6}, 0)});
  out.push_back({"reversed", Tensor::view_of(from_vector(v, {kCount}, dtype), kShape, {-4, -1}, kCount - 1)});
  std::vector<T> spread(2 * kCount + 1, v[0]);
  for (std::int64_t k = 0; k < kCount; ++k)
    spread[static_cast<std::size_t>(1 + 2 * k)] = v[static_cast<std::size_t>(k)];
  out.push_back({"offset_step2", Tensor::view_of(from_vector(spread, {2 * kCount + 1}, dtype), kShape, {8, 2}, 1)});
  out.push_back({"broadcast_row", Tensor::view_of(from_vector(cycled(v, 4), {4}, dtype), kShape, {0, 1}, 0)});
  out.push_back({"broadcast_scalar", Tensor::view_of(from_vector(cycled(v, 1), {1}, dtype), kShape, {0, 0}, 0)});
  return out;
}

// The first value as a rank-0 tensor, and empty tensors of shapes [0] and [6, 0].
template <typename T>
std::vector<Layout> edge_layouts(const std::vector<T>& values, DType dtype) {
  return {{"rank0", from_vector(cycled(values, 1), {}, dtype)},
          {"empty", from_vector(std::vector<T>{}, {0}, dtype)},
          {"empty_2d", from_vector(std::vector<T>{}, {6, 0}, dtype)}};
}

// `t` on cuda with its geometry (wrapped numbers stay on cpu: dispatch moves literals itself).
inline Tensor cuda_twin(const Tensor& t) {
  if (!t.defined() || t.is_wrapped_number()) return t;
  return cuda_testing::same_view_on_cuda(t);
}

inline TensorList cuda_twins(const TensorList& tensors) {
  TensorList out;
  for (const Tensor& t : tensors) out.push_back(cuda_twin(t));
  return out;
}

// Equality of a cuda result with the cpu's: int64 compared as int64 (doubles would merge
// neighbours above 2^53), everything else bitwise through expect_identical, or within `ulps`
// (cuda_test_support.h) when ulps > 0.
inline void expect_matches(const Tensor& on_cuda, const Tensor& on_cpu, double ulps, const std::string& what) {
  ASSERT_EQ(on_cuda.device(), Device::Cuda) << what;
  if (on_cpu.dtype() == DType::Int64) {
    ASSERT_EQ(on_cuda.shape(), on_cpu.shape()) << what;
    ASSERT_EQ(on_cuda.dtype(), on_cpu.dtype()) << what;
    EXPECT_EQ(on_cuda.to_vector<std::int64_t>(), on_cpu.to_vector<std::int64_t>()) << what;
  } else if (ulps > 0 && is_floating(on_cpu.dtype())) {
    cuda_testing::expect_close_ulps(on_cuda, on_cpu, ulps, what);
  } else {
    cuda_testing::expect_identical(on_cuda, on_cpu, what);
  }
}

struct Outcome {
  std::optional<Tensor> result;
  std::optional<ErrorKind> error;
  std::string message;
};

inline Outcome run(const std::string& op, const TensorList& inputs, const Attrs& attrs) {
  Outcome outcome;
  try {
    outcome.result = call_one(op, inputs, attrs);
  } catch (const Error& e) {
    outcome.error = e.kind();
    outcome.message = e.what();
  }
  return outcome;
}

// Runs `op` on the cpu inputs and on their cuda twins (same geometry): either both raise, with the
// same kind and message, or both return and the results match (expect_matches). Returns the cpu
// outcome's result when there is one.
inline std::optional<Tensor> expect_same_on_cuda(const std::string& op, const TensorList& inputs, const Attrs& attrs,
                                                 double ulps, const std::string& what) {
  const Outcome on_cpu = run(op, inputs, attrs);
  const Outcome on_cuda = run(op, cuda_twins(inputs), attrs);
  const std::string context = op + " " + what;
  if (on_cpu.error) {
    EXPECT_EQ(on_cuda.error, on_cpu.error)
        << context << ": the cpu raised " << on_cpu.message << "; cuda: " << on_cuda.message;
    EXPECT_EQ(on_cuda.message, on_cpu.message) << context;
    return std::nullopt;
  }
  EXPECT_FALSE(on_cuda.error.has_value()) << context << ": cuda raised " << on_cuda.message;
  if (on_cuda.error) return on_cpu.result;
  expect_matches(*on_cuda.result, *on_cpu.result, ulps, context);
  return on_cpu.result;
}

// Values for exact tests. Floating: signed zeros, halves (rounding ties), infinities, NaN,
// subnormals of both widths, values beyond float32's range and int64's, and ordinary ones.
inline std::vector<double> floating_values() {
  return {-kInf, -1e300, -3.5, -2.5,  -1.5,   -1.0,       -0.5,  -0.0, 0.0,  0.5,  1.0,  1.5,
          2.5,   3.5,    7.25, 1e-40, 1e-310, 123456.789, -9.75, kNaN, kInf, 1e19, -0.3, 16777217.0};
}

// int64: the extremes (wraparound), signs, zero and ordinary values.
inline std::vector<std::int64_t> int_values() {
  return {kInt64Min, -1000000007,      -7, -3, -2, -1, 0, 1, 2, 3, 5, 8, kInt64Max, 1000000007, -8, 13,
          1LL << 40, -(1LL << 53) - 1, 4,  6,  -5, 9,  0, -1};
}

inline std::vector<bool> bool_values() {
  return {true, false, false, true, true, true, false, false, true, false, true, false};
}

// Moderate values for library math (exp, sin, pow, ...): results stay normal numbers, so the ulp
// bounds of the two math libraries apply; the special values are settled exactly by both.
inline std::vector<double> math_values() {
  return {-8.0, -5.5, -3.25, -2.0, -1.1, -1.0, -0.7, -0.25, -1e-5, -0.0, 0.0,  1e-5,
          0.25, 0.5,  0.9,   1.0,  1.3,  2.0,  3.1,  4.7,   6.2,   8.0,  kNaN, kInf};
}

inline std::vector<std::int64_t> small_int_values() { return {-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 1}; }

// `n` deterministic values spread over [low, high].
inline std::vector<double> spread_values(std::int64_t n, double low, double high) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(low + (high - low) * static_cast<double>((i * 7919) % 10007) / 10006.0);
  return out;
}

}  // namespace funcspec::cuda_elementwise_testing
