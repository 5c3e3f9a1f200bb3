// The CUDA binary kernels (binary_kernel, compare_kernel, where_kernel, clamp_kernel) against the
// cpu's: every op, every dtype, every pair of layouts, and the data-dependent errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tests/reference/backends/cuda/elementwise_test_support.h"

namespace funcspec::cuda_binary_test {
namespace {

using namespace cuda_elementwise_testing;  // NOLINT(google-build-using-namespace)

// Ulp bounds: 0 where the function is exact on both sides (add and sub are one fma; mul, div,
// fmod, floor and rint are correctly rounded on the GPU as on the host; -fmad=false keeps each
// rounding), so the results are identical. pow and atan2 call the math libraries: CUDA documents at
// most 4 ulps (powf) and glibc at most 2, so 8.
constexpr double kExact = 0;
constexpr double kLibm = 8;

struct BinaryCase {
  std::string op;
  double ulps;
  Attrs attrs;
  bool int_divisor = false;   // int64 second operand: nonzero (division) ...
  bool int_exponent = false;  // ... or small and non-negative (pow)
};

std::vector<BinaryCase> cases() {
  return {
      {"add", kExact, {}},
      {"add", kExact, {{"alpha", Scalar(std::int64_t{3})}}},
      {"add", kExact, {{"alpha", Scalar(-0.75)}}},
      {"add", kExact, {{"alpha", Scalar(true)}}},
      {"sub", kExact, {}},
      {"sub", kExact, {{"alpha", Scalar(std::int64_t{-2})}}},
      {"sub", kExact, {{"alpha", Scalar(1.0 / 3.0)}}},
      {"mul", kExact, {}},
      {"div", kExact, {}},
      {"div", kExact, {{"rounding_mode", std::string("trunc")}}, true},
      {"div", kExact, {{"rounding_mode", std::string("floor")}}, true},
      {"pow", kLibm, {}, false, true},
      {"maximum", kExact, {}},
      {"minimum", kExact, {}},
      {"atan2", kLibm, {}},
      {"remainder", kExact, {}, true},
      {"eq", kExact, {}},
      {"ne", kExact, {}},
      {"lt", kExact, {}},
      {"le", kExact, {}},
      {"gt", kExact, {}},
      {"ge", kExact, {}},
      {"logical_and", kExact, {}},
      {"logical_or", kExact, {}},
  };
}

// math_values with the tiny ones (+-1e-5) replaced: 1e-5 to the 8th is subnormal in float32, where a
// relative ulp bound no longer holds.
std::vector<double> libm_values() {
  std::vector<double> values = math_values();
  for (double& v : values) {
    if (v != 0 && std::abs(v) < 1e-3) v = v < 0 ? -0.125 : 0.125;
  }
  return values;
}

std::vector<std::int64_t> nonzero_ints() { return {7, -3, 2, -1, 5, 1000000007, -8, 3, kInt64Max, kInt64Min, -2, 1}; }
std::vector<std::int64_t> exponents() { return {0, 1, 2, 3, 5, 0, 4, 63, 1, 2, 7, 3}; }

// Operand pairs of `c` in `dtype`: each a list of layouts over values chosen for the function.
// The second operand's values are another order of the first's (or a nonzero / exponent set for
// int64 division and pow), so the pairs mix specials with ordinary values.
std::pair<std::vector<Layout>, std::vector<Layout>> operands_for(const BinaryCase& c, DType dtype, bool edges) {
  auto pick = [&](auto values) { return edges ? edge_layouts(values, dtype) : layouts(values, dtype); };
  auto reversed = [](auto values) {
    std::reverse(values.begin(), values.end());
    return values;
  };
  switch (dtype) {
    case DType::Bool: return {pick(bool_values()), pick(reversed(cycled(bool_values(), 7)))};
    case DType::Int64:
      if (c.int_divisor) return {pick(int_values()), pick(nonzero_ints())};
      if (c.int_exponent) return {pick(small_int_values()), pick(exponents())};
      return {pick(int_values()), pick(reversed(int_values()))};
    default:
      if (c.ulps == kExact) return {pick(floating_values()), pick(reversed(floating_values()))};
      return {pick(libm_values()), pick(reversed(libm_values()))};
  }
}

constexpr DType kDTypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

TEST(CudaBinary, EveryOpEveryDtypeEveryPairOfLayoutsMatchesTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  for (const BinaryCase& c : cases()) {
    for (DType dtype : kDTypes) {
      for (bool edges : {false, true}) {
        const auto [as, bs] = operands_for(c, dtype, edges);
        for (const Layout& a : as) {
          for (const Layout& b : bs) {
            const std::string what =
                std::string(dtype_name(dtype)) + " " + a.name + " " + b.name + " " + c.attrs.to_string();
            expect_same_on_cuda(c.op, {a.tensor, b.tensor}, c.attrs, c.ulps, what);
          }
        }
      }
    }
  }
}

TEST(CudaBinary, PromotionBroadcastingAndLiteralsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor column = from_vector(std::vector<double>{1.5, -2.0, 0.0, kNaN, 7.0, -0.0}, {6, 1}, DType::Float32);
  const Tensor row = from_vector(std::vector<std::int64_t>{3, -1, 0, 2}, {4}, DType::Int64);
  const Tensor literal = Tensor::wrapped_scalar(Scalar(2.5));
  const Tensor int_literal = Tensor::wrapped_scalar(Scalar(std::int64_t{-3}));
  for (const char* op : {"add", "sub", "mul", "div", "maximum", "minimum", "remainder", "lt", "eq", "logical_or"}) {
    expect_same_on_cuda(op, {column, row}, {}, kExact, "float32 [6, 1] with int64 [4]");
    expect_same_on_cuda(op, {column, literal}, {}, kExact, "float32 with a float literal");
    expect_same_on_cuda(op, {row, int_literal}, {}, kExact, "int64 with an int literal");
    expect_same_on_cuda(op, {literal, row}, {}, kExact, "a float literal with int64");
  }
  expect_same_on_cuda("pow", {column, literal}, {}, kLibm, "float32 to a float literal");
  expect_same_on_cuda("atan2", {column, row}, {}, kLibm, "float32 [6, 1] with int64 [4]");
}

TEST(CudaWhere, EveryDtypeEveryLayoutMatchesTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const std::vector<Layout> conditions = layouts(cycled(bool_values(), 5), DType::Bool);
  for (DType dtype : kDTypes) {
    std::vector<Layout> as, bs;
    if (dtype == DType::Bool) {
      as = layouts(bool_values(), dtype);
      bs = layouts(cycled(bool_values(), 7), dtype);
    } else if (dtype == DType::Int64) {
      as = layouts(int_values(), dtype);
      bs = layouts(nonzero_ints(), dtype);
    } else {
      as = layouts(floating_values(), dtype);
      bs = layouts(math_values(), dtype);
    }
    for (const Layout& condition : conditions) {
      for (std::size_t k = 0; k < as.size(); ++k) {
        const Layout& a = as[k];
        const Layout& b = bs[(k + 1) % bs.size()];
        const std::string what = std::string(dtype_name(dtype)) + " " + condition.name + " " + a.name + " " + b.name;
        expect_same_on_cuda("where", {condition.tensor, a.tensor, b.tensor}, {}, kExact, what);
      }
    }
    for (const Layout& c : edge_layouts(bool_values(), DType::Bool)) {
      const std::vector<Layout> a = edge_layouts(floating_values(), DType::Float64);
      for (const Layout& x : a) {
        expect_same_on_cuda("where", {c.tensor, x.tensor, x.tensor}, {}, kExact, c.name + " " + x.name);
      }
    }
  }
  // A non-bool condition is rejected alike.
  expect_same_on_cuda("where",
                      {from_vector(int_values(), {24}, DType::Int64), from_vector(int_values(), {24}, DType::Int64),
                       from_vector(int_values(), {24}, DType::Int64)},
                      {}, kExact, "int64 condition");
}

TEST(CudaClamp, EveryDtypeEveryLayoutAndAbsentBoundsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // low > high at some positions, NaN in each operand at others.
  const std::vector<double> lows{-1.0, 0.0, kNaN, 2.0, -kInf, 5.0, -0.0, 1.0, 3.0, -2.5, 0.5, 10.0};
  const std::vector<double> highs{1.0, 0.5, 3.0, kNaN, kInf, 4.0, 0.0, -1.0, 3.0, 2.5, 0.25, 20.0};
  for (DType dtype : kDTypes) {
    std::vector<Layout> selves, lo, hi;
    if (dtype == DType::Int64) {
      selves = layouts(int_values(), dtype);
      lo = layouts(std::vector<std::int64_t>{-1, 0, 3, 2, kInt64Min, 5, -7, 1}, dtype);
      hi = layouts(std::vector<std::int64_t>{1, 0, 2, 9, kInt64Max, 4, -8, 100}, dtype);
    } else {
      selves = layouts(dtype == DType::Bool ? std::vector<double>{1, 0, 1} : floating_values(), dtype);
      lo = layouts(lows, dtype);
      hi = layouts(highs, dtype);
    }
    for (std::size_t k = 0; k < selves.size(); ++k) {
      const Layout& self = selves[k];
      const Layout& low = lo[(k + 2) % lo.size()];
      const Layout& high = hi[(k + 3) % hi.size()];
      const std::string what = std::string(dtype_name(dtype)) + " " + self.name + " " + low.name + " " + high.name;
      expect_same_on_cuda("clamp", {self.tensor, low.tensor, high.tensor}, {}, kExact, what + " both");
      expect_same_on_cuda("clamp", {self.tensor, low.tensor, Tensor()}, {}, kExact, what + " min only");
      expect_same_on_cuda("clamp", {self.tensor, Tensor(), high.tensor}, {}, kExact, what + " max only");
    }
    for (const Layout& e : edge_layouts(floating_values(), dtype == DType::Bool ? DType::Float32 : dtype)) {
      expect_same_on_cuda("clamp", {e.tensor, e.tensor, Tensor()}, {}, kExact, e.name);
    }
  }
  // No bound at all is rejected alike.
  expect_same_on_cuda("clamp", {from_vector(floating_values(), {24}, DType::Float32), Tensor(), Tensor()}, {}, kExact,
                      "no bounds");
}

// Integer division or remainder by zero and negative integer exponents: invalid_argument with the
// cpu's message, which for pow names the first offending exponent in row-major order (the element
// stored first is not the first in that order here).
TEST(CudaBinary, DataDependentIntegerErrorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor a = from_vector(cycled(int_values(), kCount), kShape, DType::Int64);
  // Stored [4, 6], seen transposed: storage position 1 (-7) is logical (1, 0), row-major index 4;
  // storage position 6 (-2) is logical (0, 1), row-major index 1, which comes first.
  std::vector<std::int64_t> stored(kCount, 3);
  stored[1] = -7;
  stored[6] = -2;
  const Tensor b = Tensor::view_of(from_vector(stored, {4, 6}, DType::Int64), kShape, {1, 6}, 0);
  const Outcome on_cpu = run("pow", {a, b}, {});
  ASSERT_TRUE(on_cpu.error.has_value());
  EXPECT_NE(on_cpu.message.find("exponent -2"), std::string::npos) << on_cpu.message;
  expect_same_on_cuda("pow", {a, b}, {}, kExact, "negative exponents");

  std::vector<std::int64_t> with_zero(kCount, 5);
  with_zero[17] = 0;
  const Tensor divisor = from_vector(with_zero, kShape, DType::Int64);
  expect_same_on_cuda("div", {a, divisor}, {{"rounding_mode", std::string("trunc")}}, kExact, "zero divisor");
  expect_same_on_cuda("div", {a, divisor}, {{"rounding_mode", std::string("floor")}}, kExact, "zero divisor");
  expect_same_on_cuda("remainder", {a, divisor}, {}, kExact, "zero divisor");
  // A broadcast zero, and a zero deep in a large tensor.
  expect_same_on_cuda("remainder", {a, Tensor::wrapped_scalar(Scalar(std::int64_t{0}))}, {}, kExact, "zero literal");
  constexpr std::int64_t kLarge = 3 << 20;
  std::vector<std::int64_t> large(kLarge, -3);
  large[kLarge - 5] = 0;
  const Tensor big = from_vector(large, {kLarge}, DType::Int64);
  expect_same_on_cuda("div", {big, big}, {{"rounding_mode", std::string("floor")}}, kExact, "large, one zero");
  std::vector<std::int64_t> large_exponents(kLarge, 2);
  large_exponents[kLarge - 9] = -4;
  large_exponents[kLarge - 3] = -6;
  expect_same_on_cuda("pow", {big, from_vector(large_exponents, {kLarge}, DType::Int64)}, {}, kExact,
                      "large, negative exponents");
  // Float operands have no such errors: a zero divisor gives inf or NaN alike.
  expect_same_on_cuda("remainder",
                      {from_vector(floating_values(), {24}, DType::Float64),
                       from_vector(std::vector<double>(24, 0.0), {24}, DType::Float64)},
                      {}, kExact, "float zero divisor");
}

// More than a million elements: the linear kernel (contiguous operands, and a broadcast scalar)
// and the strided one run several grid-stride rounds.
TEST(CudaBinary, LargeTensorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  constexpr std::int64_t kLarge = (1 << 21) + 3;
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor a = from_vector(spread_values(kLarge, -8.0, 8.0), {kLarge}, dtype);
    const Tensor b = from_vector(spread_values(kLarge, 0.5, 3.0), {kLarge}, dtype);
    const Tensor literal = Tensor::wrapped_scalar(Scalar(1.25));
    const std::string name(dtype_name(dtype));
    expect_same_on_cuda("add", {a, b}, {}, kExact, name + " contiguous");
    expect_same_on_cuda("add", {a, literal}, {{"alpha", Scalar(-2.0)}}, kExact, name + " with a literal");
    expect_same_on_cuda("mul", {a, b}, {}, kExact, name + " contiguous");
    expect_same_on_cuda("div", {a, b}, {{"rounding_mode", std::string("floor")}}, kExact, name + " contiguous");
    expect_same_on_cuda("pow", {b, a}, {}, kLibm, name + " contiguous");
    expect_same_on_cuda("lt", {a, b}, {}, kExact, name + " contiguous");
    const Tensor m = Tensor::view_of(from_vector(spread_values(1031 * 1017, -8.0, 8.0), {1017, 1031}, dtype),
                                     {1031, 1017}, {1, 1031}, 0);
    const Tensor n = from_vector(spread_values(1031 * 1017, -1.0, 1.0), {1031, 1017}, dtype);
    expect_same_on_cuda("sub", {m, n}, {}, kExact, name + " transposed");
    expect_same_on_cuda("maximum", {m, n}, {}, kExact, name + " transposed");
    expect_same_on_cuda("where", {call_one("gt", {n, Tensor::wrapped_scalar(Scalar(0.0))}), m, n}, {}, kExact,
                        name + " transposed");
    expect_same_on_cuda("clamp", {m, n, Tensor()}, {}, kExact, name + " transposed");
  }
  const Tensor ints = from_vector(cycled(int_values(), kLarge), {kLarge}, DType::Int64);
  const Tensor divisors = from_vector(cycled(nonzero_ints(), kLarge), {kLarge}, DType::Int64);
  expect_same_on_cuda("mul", {ints, divisors}, {}, kExact, "int64");
  expect_same_on_cuda("remainder", {ints, divisors}, {}, kExact, "int64");
}

}  // namespace
}  // namespace funcspec::cuda_binary_test
