// The CUDA scans and reorderings against the cpu's: every op and dtype on many layouts, empty and
// rank-0 inputs, and inputs over a million elements. Every comparison is bit for bit (indices as
// integers): cumsum/cumprod accumulate sequentially in the cpu's type and order, flip and roll copy,
// and sort/topk are a stable sort, whose result is unique (ties and NaN ordered as on the cpu).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/error.h"
#include "tests/reference/backends/cuda/reduce_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::cuda_scan_test {
namespace {

using namespace cuda_reduce_testing;  // NOLINT(google-build-using-namespace)

const Shape kShape{3, 5, 7};

TEST(CudaScan, CumsumAndCumprodMatchTheCpuOnEveryLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (const DType dtype : kCudaDTypes) {
    for (const Values kind : {Values::Reals, Values::Ties}) {
      for (const Layout& layout : layouts(kShape, dtype, kind, 101)) {
        const std::string what = dtype_label(dtype) + " " + layout.name;
        for (const std::int64_t dim : {0, 1, 2, -1}) {
          for (const char* op : {"cumsum", "cumprod"}) {
            expect_same_on_cuda(op, layout.tensor, {{"dim", dim}}, 0, what);
            for (const DType to : kCudaDTypes) {
              expect_same_on_cuda(op, layout.tensor, {{"dim", dim}, {"dtype", to}}, 0, what + " to " + dtype_label(to));
            }
          }
        }
      }
    }
  }
}

TEST(CudaScan, FlipAndRollMatchTheCpuOnEveryLayout) {
  FUNCSPEC_REQUIRE_GPU();
  const std::vector<std::pair<Dims, Dims>> rolls = {
      {{2}, {0}},         {{-1}, {-1}}, {{7}, {1}},  {{1, 1}, {0, 1}}, {{3, -2}, {2, 2}},
      {{-40, 9}, {1, 0}}, {{5}, {}},    {{-13}, {}}, {{0}, {0}},       {{106}, {}},
  };
  for (const DType dtype : kCudaDTypes) {
    for (const Layout& layout : layouts(kShape, dtype, Values::Reals, 111)) {
      const std::string what = dtype_label(dtype) + " " + layout.name;
      for (const Dims& dims : {Dims{}, Dims{0}, Dims{-1}, Dims{0, 2}, Dims{1, 2, 0}}) {
        expect_same_on_cuda("flip", layout.tensor, {{"dims", dims}}, 0, what);
      }
      for (const auto& [shifts, dims] : rolls) {
        expect_same_on_cuda("roll", layout.tensor, {{"shifts", shifts}, {"dims", dims}}, 0, what);
      }
    }
  }
}

TEST(CudaScan, SortAndTopkMatchTheCpuOnEveryLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (const DType dtype : kCudaDTypes) {
    // Reals bring NaN, infinities and signed zeros (which tie); Ties bring long runs of equal keys.
    for (const Values kind : {Values::Reals, Values::Ties}) {
      for (const Layout& layout : layouts(kShape, dtype, kind, 121)) {
        const std::string what = dtype_label(dtype) + " " + layout.name;
        for (const std::int64_t dim : {0, 1, 2, -1}) {
          const std::int64_t size = kShape[static_cast<std::size_t>(dim < 0 ? dim + 3 : dim)];
          for (const bool flag : {false, true}) {
            expect_same_on_cuda("sort", layout.tensor, {{"dim", dim}, {"descending", flag}}, 0, what);
            for (const std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{3}, size}) {
              expect_same_on_cuda("topk", layout.tensor, {{"k", k}, {"dim", dim}, {"largest", flag}}, 0, what);
            }
          }
        }
      }
    }
  }
}

TEST(CudaScan, EmptyAndRankZeroInputs) {
  FUNCSPEC_REQUIRE_GPU();
  for (const DType dtype : kCudaDTypes) {
    const std::string what = dtype_label(dtype);
    const Tensor empty = Tensor::empty({0, 3}, dtype);
    const Tensor scalar = storage_of({}, dtype, Values::Reals, 131);
    for (const char* op : {"cumsum", "cumprod"}) {
      expect_same_on_cuda(op, empty, {{"dim", std::int64_t{0}}}, 0, what + " [0, 3]");
      expect_same_on_cuda(op, empty, {{"dim", std::int64_t{1}}}, 0, what + " [0, 3]");
      expect_same_on_cuda(op, scalar, {{"dim", std::int64_t{0}}}, 0, what + " rank 0");
    }
    expect_same_on_cuda("flip", empty, {{"dims", Dims{0, 1}}}, 0, what + " [0, 3]");
    expect_same_on_cuda("flip", scalar, {{"dims", Dims{0}}}, 0, what + " rank 0");
    expect_same_on_cuda("roll", empty, {{"shifts", Dims{2}}, {"dims", Dims{1}}}, 0, what + " [0, 3]");
    expect_same_on_cuda("roll", empty, {{"shifts", Dims{2}}}, 0, what + " [0, 3]");
    expect_same_on_cuda("roll", scalar, {{"shifts", Dims{3}}}, 0, what + " rank 0");
    expect_same_on_cuda("roll", scalar, {{"shifts", Dims{3}}, {"dims", Dims{0}}}, 0, what + " rank 0");
    for (const std::int64_t dim : {0, 1}) {
      expect_same_on_cuda("sort", empty, {{"dim", dim}}, 0, what + " [0, 3]");
      expect_same_on_cuda("topk", empty, {{"k", std::int64_t{0}}, {"dim", dim}}, 0, what + " [0, 3]");
    }
    expect_same_on_cuda("sort", scalar, {{"dim", std::int64_t{0}}}, 0, what + " rank 0");
    for (const std::int64_t k : {0, 1}) expect_same_on_cuda("topk", scalar, {{"k", k}}, 0, what + " rank 0");
  }
}

TEST(CudaScan, InputsOverAMillionElements) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  const Shape shape{1200, 1000};
  for (const DType dtype : {DType::Int64, DType::Float32, DType::Float64}) {
    const Tensor x = storage_of(shape, dtype, Values::Reals, 141);
    const std::string what = dtype_label(dtype) + " [1200, 1000]";
    for (const std::int64_t dim : {0, 1}) {
      expect_same_on_cuda("cumsum", x, {{"dim", dim}}, 0, what);
      expect_same_on_cuda("cumprod", x, {{"dim", dim}}, 0, what);
      expect_same_on_cuda("sort", x, {{"dim", dim}, {"descending", dim == 0}}, 0, what);
      expect_same_on_cuda("topk", x, {{"k", std::int64_t{10}}, {"dim", dim}}, 0, what);
    }
    expect_same_on_cuda("flip", x, {{"dims", Dims{0, 1}}}, 0, what);
    expect_same_on_cuda("roll", x, {{"shifts", Dims{-77, 501}}, {"dims", Dims{0, 1}}}, 0, what);
    expect_same_on_cuda("roll", x, {{"shifts", Dims{123457}}}, 0, what);
  }
  // One lane of 2^20 + 3 elements with many ties: the last merge passes run on few threads.
  const std::int64_t n = (1 << 20) + 3;
  const Tensor lane = storage_of({n}, DType::Float32, Values::Ties, 142);
  for (const bool descending : {false, true}) {
    expect_same_on_cuda("sort", lane, {{"descending", descending}}, 0, "float32 one long lane");
  }
  expect_same_on_cuda("topk", lane, {{"k", std::int64_t{1000}}}, 0, "float32 one long lane");
  expect_same_on_cuda("cumsum", storage_of({n}, DType::Float32, Values::Reals, 143), {{"dim", std::int64_t{0}}}, 0,
                      "float32 one long lane");
}

TEST(CudaScan, ErrorsHaveTheCpusKinds) {
  FUNCSPEC_REQUIRE_GPU();
  // Every case raises on the cpu (error_kind_of fails the test otherwise), and the same kind on cuda.
  const auto kind_of = [](const Tensor& x, const std::string& op, const Attrs& attrs) {
    return testing_support::error_kind_of([&] { call(op, {x}, attrs); });
  };
  const Tensor x = storage_of({2, 3}, DType::Float32, Values::Reals, 151);
  const std::vector<std::pair<std::string, Attrs>> cases = {
      {"topk", {{"k", std::int64_t{4}}}},
      {"topk", {{"k", std::int64_t{-1}}}},
      {"topk", {{"k", std::int64_t{1}}, {"dim", std::int64_t{2}}}},
      {"roll", {{"shifts", Dims{1, 2}}, {"dims", Dims{0}}}},
      {"roll", {{"shifts", Dims{1, 2}}}},
      {"sort", {{"dim", std::int64_t{-3}}}},
      {"cumsum", {{"dim", std::int64_t{2}}}},
      {"flip", {{"dims", Dims{1, -1}}}},
  };
  for (const auto& [op, attrs] : cases) {
    const ErrorKind on_cpu = kind_of(x, op, attrs);
    EXPECT_NE(on_cpu, ErrorKind::Internal) << op << " " << attrs.to_string();
    EXPECT_EQ(kind_of(same_view_on_cuda(x), op, attrs), on_cpu) << op << " " << attrs.to_string();
  }
}

}  // namespace
}  // namespace funcspec::cuda_scan_test
