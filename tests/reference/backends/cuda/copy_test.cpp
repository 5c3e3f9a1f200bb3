// The CUDA copy kernel against the cpu's: to_dtype between every pair of dtypes (cast_scalar's
// semantics: truncation, saturation to INT64_MIN, x != 0 for bool, round to nearest), clone,
// copy_ into any target, and the view-copy twins and scatters.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/reference/backends/cuda/elementwise_test_support.h"

namespace funcspec::cuda_copy_test {
namespace {

using namespace cuda_elementwise_testing;  // NOLINT(google-build-using-namespace)

constexpr DType kDTypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

// Conversion edge cases: int64's range ends (2^63 itself is out of range, -2^63 in), the largest
// doubles below 2^63, NaN and infinities (INT64_MIN on conversion to int64), truncation toward
// zero, values that round when narrowed to float32 (ties included) or overflow it, subnormals.
std::vector<double> conversion_floats() {
  return {9223372036854775808.0,
          -9223372036854775808.0,
          9223372036854774784.0,
          -9223372036854774784.0,
          1e19,
          -1e19,
          kNaN,
          kInf,
          -kInf,
          -0.0,
          0.5,
          -0.5,
          -1.7,
          2.9999,
          16777217.0,
          16777219.0,
          3.4028235677973366e38,
          1e300,
          1e-40,
          1e-310,
          0.1,
          -123456789.987,
          4503599627370497.0,
          1.0};
}

// int64 values that double and float32 round (2^53 + 1, 2^24 + 1, ties of both), and the extremes.
std::vector<std::int64_t> conversion_ints() {
  return {kInt64Min,
          kInt64Max,
          (1LL << 53) + 1,
          -(1LL << 53) - 1,
          (1LL << 24) + 1,
          (1LL << 24) + 3,
          (1LL << 54) + 2,
          -(1LL << 54) - 6,
          0,
          1,
          -1,
          2,
          (1LL << 62) + 1,
          123456789,
          -987654321,
          5};
}

template <typename T>
std::vector<Layout> all_layouts(const std::vector<T>& values, DType dtype) {
  std::vector<Layout> out = layouts(values, dtype);
  for (Layout& l : edge_layouts(values, dtype)) out.push_back(std::move(l));
  return out;
}

std::vector<Layout> sources(DType dtype) {
  switch (dtype) {
    case DType::Bool: return all_layouts(bool_values(), dtype);
    case DType::Int64: return all_layouts(conversion_ints(), dtype);
    default: return all_layouts(conversion_floats(), dtype);
  }
}

TEST(CudaCopy, ToDtypeMatchesTheCpuForEveryPairOfDtypes) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType from : kDTypes) {
    for (const Layout& in : sources(from)) {
      for (DType to : kDTypes) {
        const std::string what = std::string(dtype_name(from)) + " -> " + std::string(dtype_name(to)) + " " + in.name;
        expect_same_on_cuda("to_dtype", {in.tensor}, {{"dtype", to}}, 0, what);
      }
    }
  }
}

TEST(CudaCopy, CloneAndContiguousMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kDTypes) {
    for (const Layout& in : sources(dtype)) {
      const std::string what = std::string(dtype_name(dtype)) + " " + in.name;
      const std::optional<Tensor> cloned = expect_same_on_cuda("clone", {in.tensor}, {}, 0, what);
      ASSERT_TRUE(cloned.has_value());
      EXPECT_TRUE(cloned->is_contiguous());
      expect_same_on_cuda("contiguous", {in.tensor}, {}, 0, what);
    }
  }
}

// copy_ writes into its target through the target's geometry and leaves the rest of the storage as
// it was; compare the whole storage on both sides.
TEST(CudaCopy, CopyIntoAnyTargetMatchesTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType to : kDTypes) {
    for (DType from : kDTypes) {
      const std::vector<Layout> srcs = sources(from);
      // Targets: the first four layouts (the broadcast ones overlap themselves; see below).
      const std::vector<Layout> targets = layouts(cycled(math_values(), 24), to);
      for (std::size_t t = 0; t < 4; ++t) {
        for (const Layout& src : srcs) {
          const std::string what = std::string(dtype_name(from)) + " " + src.name + " into " +
                                   std::string(dtype_name(to)) + " " + targets[t].name;
          // The target's whole storage, copied; the target seen over it on cpu, and on cuda.
          const Tensor& target = targets[t].tensor;
          const Tensor cpu_storage = call_one("clone", {Tensor::view_of(target, {target.storage()->numel()}, {1}, 0)});
          const Tensor cpu_self =
              Tensor::view_of(cpu_storage, target.shape(), target.strides(), target.storage_offset());
          const Tensor cuda_self = cuda_twin(cpu_self);
          const Tensor cuda_storage = Tensor::view_of(cuda_self, cpu_storage.shape(), {1}, 0);
          const Outcome on_cpu = run("copy_", {cpu_self, src.tensor}, {});
          const Outcome on_cuda = run("copy_", {cuda_self, cuda_twin(src.tensor)}, {});
          EXPECT_EQ(on_cuda.error, on_cpu.error) << what << ": " << on_cpu.message << " / " << on_cuda.message;
          EXPECT_EQ(on_cuda.message, on_cpu.message) << what;
          expect_matches(cuda_storage, cpu_storage, 0, what + " (whole storage)");
        }
      }
    }
  }
  // A source sharing the target's storage (copy_ clones it first), and a self-overlapping target.
  const Tensor square = from_vector(spread_values(16, -4.0, 4.0), {4, 4}, DType::Float32);
  const Tensor cuda_square = cuda_twin(call_one("clone", {square}));
  const Tensor cpu_square = call_one("clone", {square});
  run("copy_", {cpu_square, Tensor::view_of(cpu_square, {4, 4}, {1, 4}, 0)}, {});
  run("copy_", {cuda_square, Tensor::view_of(cuda_square, {4, 4}, {1, 4}, 0)}, {});
  expect_matches(cuda_square, cpu_square, 0, "copy_ of its own transpose");
  const Tensor overlapping = Tensor::view_of(square, {4, 4}, {0, 1}, 0);
  const Outcome on_cpu = run("copy_", {overlapping, square}, {});
  const Outcome on_cuda = run("copy_", {cuda_twin(overlapping), cuda_twin(square)}, {});
  EXPECT_EQ(on_cpu.error, ErrorKind::InternalOverlap);
  EXPECT_EQ(on_cuda.error, on_cpu.error) << on_cuda.message;
}

TEST(CudaCopy, ViewCopiesAndScattersMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // [4, 2, 3], strided.
  const Tensor x =
      Tensor::view_of(from_vector(spread_values(24, -3.0, 3.0), {2, 3, 4}, DType::Float64), {4, 2, 3}, {1, 12, 4}, 0);
  const std::vector<std::pair<std::string, Attrs>> twins{
      {"expand_copy", {{"size", std::vector<std::int64_t>{2, 4, 2, 3}}}},
      {"permute_copy", {{"dims", std::vector<std::int64_t>{1, 2, 0}}}},
      {"squeeze_copy", {}},
      {"unsqueeze_copy", {{"dim", std::int64_t{-1}}}},
      {"select_copy", {{"dim", std::int64_t{1}}, {"index", std::int64_t{1}}}},
      {"slice_copy", {{"dim", std::int64_t{0}}, {"start", std::int64_t{1}}, {"step", std::int64_t{2}}}},
      {"diagonal_copy", {{"offset", std::int64_t{1}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{2}}}},
      {"detach_copy", {}},
      {"view_copy", {{"size", std::vector<std::int64_t>{-1}}}},
      {"view_copy", {{"size", std::vector<std::int64_t>{3, 8}}}},
      {"select_copy", {{"dim", std::int64_t{0}}, {"index", std::int64_t{9}}}},  // an error on both
  };
  for (const auto& [op, attrs] : twins) expect_same_on_cuda(op, {x}, attrs, 0, attrs.to_string());

  const Tensor row = from_vector(std::vector<double>{-1, -2, -3}, {3}, DType::Float64);
  expect_same_on_cuda("select_scatter", {x, Tensor::view_of(row, {2, 3}, {0, 1}, 0)},
                      {{"dim", std::int64_t{0}}, {"index", std::int64_t{2}}}, 0, "select");
  expect_same_on_cuda("slice_scatter",
                      {x, call_one("slice_copy", {x}, {{"dim", std::int64_t{0}}, {"step", std::int64_t{2}}})},
                      {{"dim", std::int64_t{0}}, {"step", std::int64_t{2}}}, 0, "slice");
  expect_same_on_cuda("diagonal_scatter",
                      {x, from_vector(std::vector<double>{9, 8, 7, 6, 5, 4}, {3, 2}, DType::Float64)},
                      {{"dim1", std::int64_t{0}}, {"dim2", std::int64_t{1}}}, 0, "diagonal");
}

// More than a million elements: a same-dtype contiguous copy (a device memcpy), a converting one
// (the linear kernel), a transposed one (the strided kernel) and a broadcast scalar (linear, step 0).
TEST(CudaCopy, LargeTensorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  constexpr std::int64_t kLarge = (1 << 21) + 5;
  const Tensor flat = from_vector(spread_values(kLarge, -1e10, 1e10), {kLarge}, DType::Float32);
  expect_same_on_cuda("clone", {flat}, {}, 0, "float32 contiguous");
  expect_same_on_cuda("to_dtype", {flat}, {{"dtype", DType::Float64}}, 0, "float32 -> float64");
  expect_same_on_cuda("to_dtype", {flat}, {{"dtype", DType::Int64}}, 0, "float32 -> int64");
  const Tensor wide = from_vector(spread_values(kLarge, -1e20, 1e20), {kLarge}, DType::Float64);
  expect_same_on_cuda("to_dtype", {wide}, {{"dtype", DType::Float32}}, 0, "float64 -> float32");
  expect_same_on_cuda("to_dtype", {wide}, {{"dtype", DType::Int64}}, 0, "float64 -> int64, some out of range");
  const Tensor transposed = Tensor::view_of(
      from_vector(spread_values(1031 * 1017, -5.0, 5.0), {1017, 1031}, DType::Float64), {1031, 1017}, {1, 1031}, 0);
  expect_same_on_cuda("clone", {transposed}, {}, 0, "float64 transposed");
  expect_same_on_cuda("to_dtype", {transposed}, {{"dtype", DType::Bool}}, 0, "float64 transposed -> bool");
  const Tensor scalar = Tensor::view_of(from_vector(std::vector<double>{-2.75}, {1}, DType::Float64), {kLarge}, {0}, 0);
  expect_same_on_cuda("clone", {scalar}, {}, 0, "broadcast scalar");
  expect_same_on_cuda("to_dtype", {scalar}, {{"dtype", DType::Int64}}, 0, "broadcast scalar -> int64");
}

}  // namespace
}  // namespace funcspec::cuda_copy_test
