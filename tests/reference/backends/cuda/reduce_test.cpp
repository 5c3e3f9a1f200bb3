// The CUDA reductions against the cpu's: every op and dtype on many layouts, empty and rank-0
// inputs, and reductions long enough (> 4096 elements) to take the chunked tree of NOTE: [cuda
// reduction order] (reduce_launch.h), whose float64 results are checked bit for bit against the
// same tree evaluated on the host.
//
// Bounds: everything is compared bit for bit except where stated. Up to 4096 reduced elements the
// kernels fold in the cpu's order, so even float sums, products and norms p = 1, 2 are identical;
// integer, bool, min/max/arg and norm p = 0, +-inf results are exact in any order. The norms with
// another p call pow (CUDA's double pow is within 2 ulps, glibc's within 1): float64 within 16 ulps
// (the sum's relative error, divided by p, plus the final pow's), float32 within 1 ulp (the two
// doubles are that close, so they round to the same or adjacent floats). Chunked float32 sums of
// positive values: the cpu's and the tree's double sums both lie within (n-1) 2^-53 of the exact
// sum relative to it, 2.7e-9 for n = 1.2e7, far below float32's spacing 2^-24, so they round to
// the same or adjacent floats: 1 ulp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "reference/backends/cuda/reduce_launch.h"
#include "reference/core/error.h"
#include "tests/reference/backends/cuda/reduce_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::cuda_reduce_test {
namespace {

using namespace cuda_reduce_testing;  // NOLINT(google-build-using-namespace)

// The dims attributes of the reductions over int[]? dim, on a rank-3 input.
std::vector<Attrs> dims_attrs() {
  std::vector<Attrs> out;
  for (const bool keepdim : {false, true}) {
    out.push_back({{"keepdim", keepdim}});
    for (const Dims& dims : {Dims{0}, Dims{1}, Dims{-1}, Dims{0, 2}, Dims{2, 0}, Dims{1, 2}, Dims{0, 1, 2}}) {
      out.push_back({{"dim", dims}, {"keepdim", keepdim}});
    }
  }
  return out;
}

TEST(CudaReduce, SumProdAllAnyAmaxAminMatchTheCpuOnEveryLayout) {
  FUNCSPEC_REQUIRE_GPU();
  const Shape shape{3, 5, 7};
  for (const DType dtype : kCudaDTypes) {
    for (const Values kind : {Values::Reals, Values::Ties}) {
      for (const Layout& layout : layouts(shape, dtype, kind, 11)) {
        const std::string what = dtype_label(dtype) + " " + layout.name;
        for (const Attrs& attrs : dims_attrs()) {
          for (const char* op : {"sum", "prod", "all", "any", "amax", "amin"}) {
            expect_same_on_cuda(op, layout.tensor, attrs, 0, what);
          }
        }
      }
    }
  }
}

TEST(CudaReduce, SumAndProdWithADtype) {
  FUNCSPEC_REQUIRE_GPU();
  for (const DType from : kCudaDTypes) {
    const Tensor x = storage_of({4, 6}, from, Values::Reals, 5);
    for (const DType to : kCudaDTypes) {
      for (const char* op : {"sum", "prod"}) {
        expect_same_on_cuda(op, x, {{"dim", Dims{1}}, {"dtype", to}}, 0, dtype_label(from) + " to " + dtype_label(to));
      }
    }
  }
}

TEST(CudaReduce, ArgmaxArgminMatchTheCpuOnEveryLayout) {
  FUNCSPEC_REQUIRE_GPU();
  const Shape shape{4, 6, 5};
  for (const DType dtype : {DType::Int64, DType::Float32, DType::Float64}) {
    for (const Values kind : {Values::Reals, Values::Ties}) {
      for (const Layout& layout : layouts(shape, dtype, kind, 23)) {
        const std::string what = dtype_label(dtype) + " " + layout.name;
        for (const bool keepdim : {false, true}) {
          std::vector<Attrs> all = {{{"keepdim", keepdim}}};
          for (const std::int64_t dim : {0, 1, 2, -1}) all.push_back({{"dim", dim}, {"keepdim", keepdim}});
          for (const Attrs& attrs : all) {
            expect_same_on_cuda("argmax", layout.tensor, attrs, 0, what);
            expect_same_on_cuda("argmin", layout.tensor, attrs, 0, what);
          }
        }
      }
    }
  }
}

// How far a norm of order p over at most 4096 elements may lie from the cpu's, in ulps of its dtype:
// bit for bit without pow (p = 0, 1, 2, +-inf), else the bound of the file's comment.
double norm_ulps(DType dtype, double p) {
  if (p == 0 || p == 1 || p == 2 || std::isinf(p)) return 0;
  return dtype == DType::Float32 ? 1 : 16;
}

TEST(CudaReduce, NormOfEveryOrderMatchesTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Shape shape{3, 5, 7};
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    for (const Layout& layout : layouts(shape, dtype, Values::Reals, 31)) {
      const std::string what = dtype_label(dtype) + " " + layout.name;
      for (const Attrs& dims : dims_attrs()) {
        for (const double p : {0.0, 1.0, 2.0, kInf, -kInf, 3.0, 0.5}) {
          Attrs attrs = dims;
          attrs.set("p", Scalar(p));
          expect_same_on_cuda("norm", layout.tensor, attrs, norm_ulps(dtype, p), what);
        }
      }
    }
  }
}

TEST(CudaReduce, SpecialValuesPropagateAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // NaN first / after an infinity, signed zeros first and second, infinities of both signs.
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor xd =
        from_values({1, kNaN, 3, -kInf, -0.0, 0.0, 0.0, -0.0, kInf, 2, kNaN, -kInf, -0.0, -0.0, 5, 1}, {4, 4}, dtype);
    for (const std::int64_t dim : {0, 1}) {
      for (const char* op : {"sum", "prod", "amax", "amin", "all", "any"}) {
        expect_same_on_cuda(op, xd, {{"dim", Dims{dim}}}, 0, dtype_label(dtype));
      }
      for (const char* op : {"argmax", "argmin"}) expect_same_on_cuda(op, xd, {{"dim", dim}}, 0, dtype_label(dtype));
      for (const double p : {0.0, 1.0, 2.0, kInf, -kInf}) {
        expect_same_on_cuda("norm", xd, {{"dim", Dims{dim}}, {"p", Scalar(p)}}, 0, dtype_label(dtype));
      }
    }
  }
}

TEST(CudaReduce, Int64SumsAndProductsWrapAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const Tensor x =
      from_vector(std::vector<std::int64_t>{max, 1, max, max, -max, 3, 1LL << 40, 1LL << 30}, {4, 2}, DType::Int64);
  for (const char* op : {"sum", "prod"}) {
    expect_same_on_cuda(op, x, {}, 0, "int64");
    expect_same_on_cuda(op, x, {{"dim", Dims{0}}}, 0, "int64");
    expect_same_on_cuda(op, x, {{"dim", Dims{1}}}, 0, "int64");
  }
}

TEST(CudaReduce, EmptyAndRankZeroInputs) {
  FUNCSPEC_REQUIRE_GPU();
  for (const DType dtype : kCudaDTypes) {
    const std::string what = dtype_label(dtype);
    const Tensor empty = Tensor::empty({0, 3}, dtype);
    for (const char* op : {"sum", "prod", "all", "any"}) {
      expect_same_on_cuda(op, empty, {}, 0, what + " [0, 3]");
      expect_same_on_cuda(op, empty, {{"dim", Dims{0}}}, 0, what + " [0, 3] dim 0");
      expect_same_on_cuda(op, empty, {{"dim", Dims{1}}, {"keepdim", true}}, 0, what + " [0, 3] dim 1");
    }
    expect_same_on_cuda("amax", empty, {{"dim", Dims{1}}}, 0, what + " [0, 3] dim 1 (no outputs)");
    const Tensor scalar = storage_of({}, dtype, Values::Reals, 3);
    for (const char* op : {"sum", "prod", "all", "any", "amax", "amin"}) {
      expect_same_on_cuda(op, scalar, {}, 0, what + " rank 0");
      expect_same_on_cuda(op, scalar, {{"dim", Dims{0}}, {"keepdim", true}}, 0, what + " rank 0 dim 0");
    }
    if (dtype != DType::Bool) {
      expect_same_on_cuda("argmax", scalar, {}, 0, what + " rank 0");
      expect_same_on_cuda("argmin", scalar, {{"dim", std::int64_t{-1}}}, 0, what + " rank 0");
    }
    if (is_floating(dtype)) {
      for (const double p : {0.0, 1.0, 2.0, 3.0}) {
        // An empty norm is pow(+0, 1/p) for p = 3: +0 in both libraries (C's Annex F and CUDA's
        // documented special values), so bit for bit; one element's goes through pow twice.
        expect_same_on_cuda("norm", empty, {{"dim", Dims{0}}, {"p", Scalar(p)}}, 0, what + " empty");
        expect_same_on_cuda("norm", scalar, {{"p", Scalar(p)}}, norm_ulps(dtype, p), what + " rank 0");
      }
    }
  }
}

// The float64 sum of `x` along the tree of NOTE: [cuda reduction order], evaluated on the host.
double tree_sum(const std::vector<double>& x) {
  const auto fold = [](const std::vector<double>& v, std::size_t begin, std::size_t end) {
    double total = 0;
    for (std::size_t i = begin; i < end; ++i) total += v[i];
    return total;
  };
  const auto chunk = static_cast<std::size_t>(cuda::kReduceChunk);
  const auto group = static_cast<std::size_t>(cuda::kReduceGroup);
  if (x.size() <= chunk) return fold(x, 0, x.size());
  std::vector<double> level;
  for (std::size_t begin = 0; begin < x.size(); begin += chunk)
    level.push_back(fold(x, begin, std::min(x.size(), begin + chunk)));
  while (level.size() > 1) {
    std::vector<double> next;
    for (std::size_t begin = 0; begin < level.size(); begin += group) {
      next.push_back(fold(level, begin, std::min(level.size(), begin + group)));
    }
    level = std::move(next);
  }
  return level[0];
}

constexpr std::int64_t kLarge = 12'000'017;  // > 1e7, not a multiple of the chunk

TEST(CudaReduce, FullSumsOverTenMillionElementsTakeTheChunkedTree) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  // Exactly representable sums: identical to the cpu in every dtype.
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor exact = from_vector(make_values(kLarge, Values::Exact, 41), {kLarge}, dtype);
    expect_same_on_cuda("sum", exact, {}, 0, dtype_label(dtype) + " exact values");
    expect_same_on_cuda("amax", exact, {}, 0, dtype_label(dtype));
    expect_same_on_cuda("argmin", exact, {}, 0, dtype_label(dtype));
    expect_same_on_cuda("norm", exact, {{"p", Scalar(1.0)}}, 0, dtype_label(dtype) + " exact values");
  }
  expect_same_on_cuda("sum", from_vector(make_ints(kLarge, 43), {kLarge}, DType::Int64), {}, 0, "int64");
  expect_same_on_cuda("prod", from_vector(make_ints(kLarge, 44), {kLarge}, DType::Int64), {}, 0, "int64");
  // Positive reals: float32 within 1 ulp of the cpu (see the top of the file).
  std::vector<double> positive = make_values(kLarge, Values::Reals, 45);
  for (double& v : positive) v = std::isfinite(v) ? 1 + std::abs(v) : 2.5;
  expect_same_on_cuda("sum", from_vector(positive, {kLarge}, DType::Float32), {}, 1, "float32 positive reals");
  // float64: exactly the tree's value, on every run.
  const Tensor x = from_vector(positive, {kLarge}, DType::Float64);
  const Tensor on_cuda = to_cuda({x})[0];
  const double expected = tree_sum(positive);
  for (int run = 0; run < 3; ++run) {
    const double got = call_one("sum", {on_cuda}).to_vector<double>()[0];
    EXPECT_EQ(got, expected) << "run " << run;
  }
}

TEST(CudaReduce, LongRowsAndColumnsTakeTheChunkedTree) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  // Rows of 9000 (3 chunks) of a contiguous [1500, 9000] and columns of a [9000, 300]: float64
  // sums must be the tree's value for each output; exact values identical to the cpu in float32.
  const std::int64_t rows = 1500, length = 9000, columns = 300;
  const std::vector<double> values = make_values(rows * length, Values::Reals, 51);
  std::vector<double> finite = values;
  for (double& v : finite) v = std::isfinite(v) ? v : 1.5;
  const Tensor wide = from_vector(finite, {rows, length}, DType::Float64);
  const std::vector<double> row_sums = call_one("sum", {to_cuda({wide})[0]}, {{"dim", Dims{1}}}).to_vector<double>();
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::vector<double> row(finite.begin() + r * length, finite.begin() + (r + 1) * length);
    ASSERT_EQ(row_sums[static_cast<std::size_t>(r)], tree_sum(row)) << "row " << r;
  }
  const Tensor tall = from_vector(std::vector<double>(finite.begin(), finite.begin() + length * columns),
                                  {length, columns}, DType::Float64);
  const std::vector<double> column_sums = call_one("sum", {to_cuda({tall})[0]}, {{"dim", Dims{0}}}).to_vector<double>();
  for (std::int64_t c = 0; c < columns; ++c) {
    std::vector<double> column;
    for (std::int64_t r = 0; r < length; ++r) column.push_back(finite[static_cast<std::size_t>(r * columns + c)]);
    ASSERT_EQ(column_sums[static_cast<std::size_t>(c)], tree_sum(column)) << "column " << c;
  }
  // Every op on long rows and columns whose results are exact in any order, and special values.
  const Tensor exact = from_vector(make_values(rows * length, Values::Exact, 52), {rows, length}, DType::Float32);
  const Tensor specials = from_vector(values, {rows, length}, DType::Float32);
  for (const std::int64_t dim : {0, 1}) {
    for (const char* op : {"sum", "amax", "amin", "all", "any"}) {
      expect_same_on_cuda(op, exact, {{"dim", Dims{dim}}}, 0, "float32 exact values");
      expect_same_on_cuda(op, specials, {{"dim", Dims{dim}}}, 0, "float32 with specials");
    }
    for (const char* op : {"argmax", "argmin"}) {
      expect_same_on_cuda(op, exact, {{"dim", dim}}, 0, "float32 exact values");
      expect_same_on_cuda(op, specials, {{"dim", dim}}, 0, "float32 with specials");
    }
    for (const double p : {0.0, kInf, -kInf}) {
      expect_same_on_cuda("norm", specials, {{"dim", Dims{dim}}, {"p", Scalar(p)}}, 0, "float32 with specials");
    }
  }
  // A reduction over two non-adjacent dims of a permuted view (the strided walker), longer than a chunk.
  const Tensor cube = from_vector(make_values(40 * 30 * 200, Values::Exact, 53), {40, 30, 200}, DType::Float64);
  const Tensor permuted = Tensor::view_of(cube, {200, 30, 40}, {1, 200, 6000}, 0);
  for (const char* op : {"sum", "argmax", "amin"}) {
    const Attrs attrs = std::string(op) == "argmax" ? Attrs{} : Attrs{{"dim", Dims{0, 2}}};
    expect_same_on_cuda(op, permuted, attrs, 0, "permuted float64");
  }
}

TEST(CudaReduce, ContiguousRowsAroundTheStagingAndChunkSizes) {
  FUNCSPEC_REQUIRE_GPU();
  // Rows shorter than the staged kernel's minimum, around its tile widths (32, 64) and around the
  // chunk size, in every dtype; float64 sums of finite reals checked against the host's tree.
  const std::int64_t rows = 37;
  // On the host emulator, the lengths around the tile widths and one past the chunk size.
  const std::vector<std::int64_t> lengths =
      cuda_testing::kOnHostEmulator ? std::vector<std::int64_t>{63, 64, 65, 100, 4097}
                                    : std::vector<std::int64_t>{63, 64, 65, 100, 4095, 4096, 4097, 8192, 8193};
  for (const std::int64_t length : lengths) {
    for (const DType dtype : kCudaDTypes) {
      const std::string what = dtype_label(dtype) + " rows of " + std::to_string(length);
      const Tensor specials = storage_of({rows, length}, dtype, Values::Reals, 81);
      const Tensor exact = storage_of({rows, length}, dtype, Values::Exact, 82);
      for (const char* op : {"amax", "amin", "all", "any"}) {
        expect_same_on_cuda(op, specials, {{"dim", Dims{1}}}, 0, what);
      }
      expect_same_on_cuda("sum", exact, {{"dim", Dims{1}}}, 0, what + " exact values");
      if (dtype != DType::Bool) {
        expect_same_on_cuda("argmax", specials, {{"dim", std::int64_t{1}}}, 0, what);
        expect_same_on_cuda("argmin", exact, {{"dim", std::int64_t{1}}}, 0, what + " exact values");
      }
    }
    std::vector<double> finite = make_values(rows * length, Values::Reals, 83);
    for (double& v : finite) v = std::isfinite(v) ? v : -2.25;
    const Tensor x = from_vector(finite, {rows, length}, DType::Float64);
    const std::vector<double> sums = call_one("sum", {to_cuda({x})[0]}, {{"dim", Dims{1}}}).to_vector<double>();
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::vector<double> row(finite.begin() + r * length, finite.begin() + (r + 1) * length);
      ASSERT_EQ(sums[static_cast<std::size_t>(r)], tree_sum(row)) << "row " << r << " of " << length;
    }
  }
}

TEST(CudaReduce, ComposedReductionsRunOnCuda) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor x = storage_of({6, 9}, DType::Float64, Values::Exact, 61);
  // Their other ops (div, sub, mul, sqrt) round correctly on both sides.
  for (const char* op : {"mean", "var", "std"}) expect_same_on_cuda(op, x, {{"dim", Dims{1}}}, 0, "float64");
}

TEST(CudaReduce, ErrorsHaveTheCpusKinds) {
  FUNCSPEC_REQUIRE_GPU();
  // Every case raises on the cpu (error_kind_of fails the test otherwise), and the same kind on cuda.
  const auto kind_of = [](const Tensor& x, const std::string& op, const Attrs& attrs) {
    return testing_support::error_kind_of([&] { call(op, {x}, attrs); });
  };
  const Tensor empty = Tensor::empty({0, 3}, DType::Float32);
  const Tensor x = storage_of({2, 3}, DType::Float32, Values::Reals, 71);
  const Tensor bools = storage_of({2, 3}, DType::Bool, Values::Reals, 72);
  const std::vector<std::pair<Tensor, std::pair<std::string, Attrs>>> cases = {
      {empty, {"amax", {{"dim", Dims{0}}}}},
      {empty, {"argmin", {}}},
      {empty, {"norm", {{"p", Scalar(kInf)}}}},
      {x, {"norm", {{"p", Scalar(-1.0)}}}},
      {x, {"sum", {{"dim", Dims{2}}}}},
      {x, {"sum", {{"dim", Dims{1, -1}}}}},
      {bools, {"argmax", {}}},
  };
  for (const auto& [input, op_attrs] : cases) {
    const ErrorKind on_cpu = kind_of(input, op_attrs.first, op_attrs.second);
    EXPECT_NE(on_cpu, ErrorKind::Internal) << op_attrs.first;
    EXPECT_EQ(kind_of(same_view_on_cuda(input), op_attrs.first, op_attrs.second), on_cpu) << op_attrs.first;
  }
}

}  // namespace
}  // namespace funcspec::cuda_reduce_test
