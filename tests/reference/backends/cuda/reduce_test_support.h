#pragma once
// Shared by the CUDA reduction and scan tests (reduce_test.cpp, scan_test.cpp): deterministic input
// values, inputs in every memory layout the kernels distinguish, and running an op on cpu and cuda
// to compare the outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_reduce_testing {

using cuda_testing::expect_close_ulps;
using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;
using cuda_testing::to_cuda;

using Dims = std::vector<std::int64_t>;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

enum class Values {
  Reals,  // uniform in [-4, 4), one in 16 a special value (NaN, +-inf, +-0, a float64 subnormal)
  Ties,   // integers in [-3, 3] and -0: many ties, for min/max/arg and sort-like rules
  Exact,  // integers in [-8, 8]: every sum is exact
};

inline std::vector<double> make_values(std::int64_t n, Values kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-4.0, 4.0);
  std::uniform_int_distribution<int> small(-3, 3), exact(-8, 8), special(0, 15);
  const double specials[] = {kNaN, kInf, -kInf, -0.0, 0.0, 4.9e-324};
  std::vector<double> out(static_cast<std::size_t>(n));
  for (double& v : out) {
    switch (kind) {
      case Values::Reals: {
        const int s = special(rng);
        v = s < 6 && special(rng) == 0 ? specials[s] : real(rng);
        break;
      }
      case Values::Ties: v = special(rng) == 0 ? -0.0 : small(rng); break;
      case Values::Exact: v = exact(rng); break;
    }
  }
  return out;
}

inline std::vector<std::int64_t> make_ints(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick(0, 7);
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  for (std::int64_t& v : out) {
    // Mostly small (ties, exact products), sometimes huge (sums and products wrap).
    v = pick(rng) == 0 ? static_cast<std::int64_t>(rng()) : static_cast<std::int64_t>(rng() % 7) - 3;
  }
  return out;
}

// A cpu tensor of `shape` in `dtype` with `n` values in its storage (n >= numel).
inline Tensor storage_of(const Shape& storage_shape, DType dtype, Values kind, std::uint64_t seed) {
  const std::int64_t n = numel_of(storage_shape);
  if (dtype == DType::Int64) return from_vector(make_ints(n, seed), storage_shape, dtype);
  if (dtype == DType::Bool) {
    std::vector<double> bits = make_values(n, Values::Ties, seed);
    for (double& b : bits) b = b > 0 ? 1 : 0;
    return from_vector(bits, storage_shape, dtype);
  }
  return from_vector(make_values(n, kind, seed), storage_shape, dtype);
}

inline Strides contiguous_strides(const Shape& shape) {
  Strides strides(shape.size());
  std::int64_t step = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

struct Layout {
  std::string name;
  Tensor tensor;
};

// Inputs of `shape` (rank >= 2) laid out in memory every way the kernels distinguish: contiguous,
// transposed, at an offset, reversed (negative strides), broadcast (stride 0) and strided.
inline std::vector<Layout> layouts(const Shape& shape, DType dtype, Values kind, std::uint64_t seed) {
  const std::int64_t n = numel_of(shape);
  const std::size_t r = shape.size();
  std::vector<Layout> out;
  out.push_back({"contiguous", storage_of(shape, dtype, kind, seed)});
  {
    Shape swapped = shape;
    std::swap(swapped[r - 1], swapped[r - 2]);
    const Tensor base = storage_of(swapped, dtype, kind, seed + 1);
    Strides strides = base.strides();
    std::swap(strides[r - 1], strides[r - 2]);
    out.push_back({"transposed", Tensor::view_of(base, shape, strides, 0)});
  }
  out.push_back(
      {"offset", Tensor::view_of(storage_of({n + 5}, dtype, kind, seed + 2), shape, contiguous_strides(shape), 5)});
  {
    Strides strides = contiguous_strides(shape);
    for (std::int64_t& s : strides) s = -s;
    out.push_back({"reversed", Tensor::view_of(storage_of({n}, dtype, kind, seed + 3), shape, strides, n - 1)});
  }
  {
    Shape one = shape;
    one[0] = 1;
    const Tensor base = storage_of(one, dtype, kind, seed + 4);
    Strides strides = base.strides();
    strides[0] = 0;
    out.push_back({"broadcast", Tensor::view_of(base, shape, strides, 0)});
  }
  {
    Shape doubled = shape;
    doubled[r - 1] *= 2;
    const Tensor base = storage_of(doubled, dtype, kind, seed + 5);
    Strides strides = base.strides();
    strides[r - 1] = 2;
    out.push_back({"every other", Tensor::view_of(base, shape, strides, 1)});
  }
  return out;
}

// Compares each output: int64 exactly as integers, the rest bit for bit (ulps 0) or within ulps.
inline void expect_matches(const Tensor& got, const Tensor& want, double ulps, const std::string& what) {
  ASSERT_EQ(got.device(), Device::Cuda) << what;
  ASSERT_EQ(got.dtype(), want.dtype()) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  if (want.dtype() == DType::Int64) {
    EXPECT_EQ(got.to_vector<std::int64_t>(), want.to_vector<std::int64_t>()) << what;
  } else if (ulps == 0) {
    expect_identical(got, want, what);
  } else {
    expect_close_ulps(got, want, ulps, what);
  }
}

// Runs `op` on the cpu input and on the same view moved to cuda and compares every output.
inline void expect_same_on_cuda(const std::string& op, const Tensor& x, const Attrs& attrs, double ulps,
                                const std::string& what) {
  const std::string label = op + " " + attrs.to_string() + " of " + what;
  const TensorList want = call(op, {x}, attrs);
  const TensorList got = call(op, {same_view_on_cuda(x)}, attrs);
  ASSERT_EQ(got.size(), want.size()) << label;
  for (std::size_t i = 0; i < got.size(); ++i) expect_matches(got[i], want[i], ulps, label);
}

inline std::string dtype_label(DType dtype) { return std::string(dtype_name(dtype)); }

inline const std::vector<DType> kCudaDTypes = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

}  // namespace funcspec::cuda_reduce_testing
