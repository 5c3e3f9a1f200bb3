// The CUDA creation kernels (fill, arange) against the cpu's: the same values, element for element.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/reference/backends/cuda/elementwise_test_support.h"

namespace funcspec::cuda_creation_test {
namespace {

using namespace cuda_elementwise_testing;  // NOLINT(google-build-using-namespace)

// `op` with `attrs` plus device cpu, and with device cuda: the same values, or the same error.
void expect_same_creation(const std::string& op, Attrs attrs, const std::string& what) {
  attrs.set("device", std::string("cpu"));
  const Outcome on_cpu = run(op, {}, attrs);
  attrs.set("device", std::string("cuda"));
  const Outcome on_cuda = run(op, {}, attrs);
  const std::string context = op + " " + what + " " + attrs.to_string();
  if (on_cpu.error) {
    EXPECT_EQ(on_cuda.error, on_cpu.error) << context << ": " << on_cpu.message << " / " << on_cuda.message;
    EXPECT_EQ(on_cuda.message, on_cpu.message) << context;
    return;
  }
  ASSERT_FALSE(on_cuda.error.has_value()) << context << ": " << on_cuda.message;
  expect_matches(*on_cuda.result, *on_cpu.result, 0, context);
}

TEST(CudaCreation, FullMatchesTheCpuForEveryDtypeAndSize) {
  FUNCSPEC_REQUIRE_GPU();
  std::vector<std::vector<std::int64_t>> sizes{{}, {0}, {3, 0}, {5}, {2, 3, 4}, {(1 << 20) + 3}};
  if (cuda_testing::kOnHostEmulator) sizes.back() = {(1 << 12) + 3};  // sized for a GPU (FUNCSPEC_REQUIRE_GPU_SCALE)
  const std::vector<Scalar> fills{
      Scalar(true), Scalar(std::int64_t{7}), Scalar(kInt64Min), Scalar(2.5),        Scalar(-0.0),
      Scalar(kNaN), Scalar(-kInf),           Scalar(1e-310),    Scalar(16777217.0), Scalar(1e300)};
  for (const auto& size : sizes) {
    for (const Scalar& fill : fills) {
      expect_same_creation("full", {{"size", size}, {"fill_value", fill}}, "default dtype");
      for (DType dtype : {DType::Bool, DType::Int64, DType::Float32, DType::Float64}) {
        // NaN, infinities and 1e300 into int64 or float32 are errors on both.
        expect_same_creation("full", {{"size", size}, {"fill_value", fill}, {"dtype", dtype}}, "");
      }
    }
  }
}

TEST(CudaCreation, ConstantCompositesRunOnTheInputsDevice) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : {DType::Bool, DType::Int64, DType::Float32, DType::Float64}) {
    expect_same_creation("zeros", {{"size", std::vector<std::int64_t>{4, 5}}, {"dtype", dtype}}, "");
    expect_same_creation("ones", {{"size", std::vector<std::int64_t>{3}}, {"dtype", dtype}}, "");
    const Tensor like = Tensor::view_of(from_vector(cycled(math_values(), 24), {4, 6}, dtype), kShape, {1, 6}, 0);
    expect_same_on_cuda("zeros_like", {like}, {}, 0, std::string(dtype_name(dtype)));
    expect_same_on_cuda("ones_like", {like}, {}, 0, std::string(dtype_name(dtype)));
    expect_same_on_cuda("full_like", {like}, {{"fill_value", Scalar(-3.75)}}, 0, std::string(dtype_name(dtype)));
  }
}

TEST(CudaCreation, ArangeMatchesTheCpuElementForElement) {
  FUNCSPEC_REQUIRE_GPU();
  struct Range {
    Scalar start, end, step;
  };
  const std::vector<Range> ranges{
      {Scalar(std::int64_t{0}), Scalar(std::int64_t{10}), Scalar(std::int64_t{1})},
      {Scalar(std::int64_t{-5}), Scalar(std::int64_t{17}), Scalar(std::int64_t{3})},
      {Scalar(std::int64_t{10}), Scalar(std::int64_t{-7}), Scalar(std::int64_t{-2})},
      {Scalar(std::int64_t{0}), Scalar(std::int64_t{0}), Scalar(std::int64_t{1})},  // empty
      {Scalar(kInt64Max - 100), Scalar(kInt64Max), Scalar(std::int64_t{7})},
      {Scalar(0.0), Scalar(1.0), Scalar(0.1)},
      {Scalar(-1.5), Scalar(1e6 + 0.5), Scalar(0.37)},  // 2.7 million values, rounding in every one
      {Scalar(0.5), Scalar(100.3), Scalar(0.7)},
      {Scalar(1e15), Scalar(1e15 + 1000), Scalar(1.1)},
      {Scalar(3.0), Scalar(-3.0), Scalar(-0.3)},
      {Scalar(std::int64_t{0}), Scalar(std::int64_t{1} << 22), Scalar(std::int64_t{1})},  // large, integral
      {Scalar(0.0), Scalar(kInf), Scalar(1.0)},                                           // an error on both
      {Scalar(0.0), Scalar(1.0), Scalar(0.0)},                                            // an error on both
  };
  for (const Range& r : ranges) {
    const double count = (r.end.to<double>() - r.start.to<double>()) / r.step.to<double>();
    if (cuda_testing::kOnHostEmulator && count > 1e5 && std::isfinite(count)) continue;  // sized for a GPU
    const Attrs base{{"start", r.start}, {"end", r.end}, {"step", r.step}};
    expect_same_creation("arange", base, "default dtype");
    for (DType dtype : {DType::Int64, DType::Float32, DType::Float64, DType::Bool}) {
      Attrs attrs = base;
      attrs.set("dtype", dtype);
      expect_same_creation("arange", attrs, "");
    }
  }
}

}  // namespace
}  // namespace funcspec::cuda_creation_test
