// solve_triangular and cholesky / cholesky_ex on cuda against the cpu: both run the same per-matrix
// routines (reference/backends/common/linalg_triangular_solve.h, linalg_cholesky.h), compiled
// without fused multiply-adds on the device, so the results are the cpu's bits, contiguous or
// column-major, with broadcast batch dims, failing factorizations and empty batches included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_triangular_test {

using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;

// Values in [-1, 1) from a fixed linear congruential sequence, with `diagonal` added on the
// diagonal of each trailing square matrix, laid out row-major or column-major.
Tensor matrices(std::uint64_t seed, const Shape& shape, DType dtype, double diagonal, bool column_major) {
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  const std::int64_t rows = shape[shape.size() - 2], cols = shape[shape.size() - 1];
  std::vector<double> values(static_cast<std::size_t>(numel_of(shape)));
  for (std::size_t e = 0; e < values.size(); ++e) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values[e] = static_cast<double>(state >> 11) * 0x1p-53 * 2.0 - 1.0;
    const std::int64_t within = static_cast<std::int64_t>(e) % (rows * cols);
    if (within / cols == within % cols) values[e] += diagonal;
  }
  if (!column_major) return from_vector(values, shape, dtype);
  Shape swapped = shape;
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  const Tensor stored = from_vector(values, swapped, dtype);
  Strides strides = stored.strides();
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::view_of(stored, shape, strides, 0);
}

TEST(CudaLinalgSolveTriangular, IsTheCpuBitsForEveryOption) {
  FUNCSPEC_REQUIRE_GPU();
  struct Case {
    Shape a, b;
    bool left;
  };
  const std::vector<Case> cases = {{{3, 3}, {3, 2}, true},       {{4, 4}, {2, 4}, false},
                                   {{2, 3, 3}, {2, 3, 1}, true}, {{2, 1, 3, 3}, {4, 3, 2}, true},
                                   {{0, 3, 3}, {0, 3, 2}, true}, {{3, 3}, {3, 0}, true},
                                   {{0, 0}, {0, 2}, true},       {{1, 1}, {3, 1}, false}};
  std::uint64_t seed = 1;
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Case& c : cases) {
      for (const bool column_major : {false, true}) {
        const Tensor a = matrices(seed++, c.a, dtype, 4.0, column_major);
        const Tensor b = matrices(seed++, c.b, dtype, 0.0, !column_major);
        for (const bool upper : {false, true}) {
          for (const bool unitriangular : {false, true}) {
            const Attrs attrs{{"upper", upper}, {"left", c.left}, {"unitriangular", unitriangular}};
            expect_identical(call_one("solve_triangular", {same_view_on_cuda(a), same_view_on_cuda(b)}, attrs),
                             call_one("solve_triangular", {a, b}, attrs),
                             std::string(dtype_name(dtype)) + " A " + shape_to_string(c.a) + " B " +
                                 shape_to_string(c.b) + (upper ? " upper" : " lower") + (unitriangular ? " unit" : "") +
                                 (c.left ? " left" : " right"));
          }
        }
      }
    }
  }
}

TEST(CudaLinalgCholesky, IsTheCpuBitsAndInfoFailingMatricesIncluded) {
  FUNCSPEC_REQUIRE_GPU();
  std::uint64_t seed = 100;
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Shape& shape : std::vector<Shape>{{3, 3}, {2, 4, 4}, {2, 2, 5, 5}, {0, 3, 3}, {0, 0}, {1, 1}}) {
      for (const bool column_major : {false, true}) {
        // A diagonal of 1.5 makes some of these matrices positive-definite and others not.
        const Tensor a = matrices(seed++, shape, dtype, 1.5, column_major);
        for (const bool upper : {false, true}) {
          const std::string what = std::string(dtype_name(dtype)) + " " + shape_to_string(shape) +
                                   (column_major ? " column-major" : "") + (upper ? " upper" : "");
          const TensorList on_cpu = call("cholesky_ex", {a}, {{"upper", upper}});
          const TensorList on_cuda = call("cholesky_ex", {same_view_on_cuda(a)}, {{"upper", upper}});
          expect_identical(on_cuda[0], on_cpu[0], "cholesky_ex L " + what);
          EXPECT_EQ(on_cuda[1].to_vector<std::int64_t>(), on_cpu[1].to_vector<std::int64_t>()) << what;
        }
      }
    }
  }
  const Tensor failing = from_values({4, 2, 2, -1}, {2, 2});
  try {
    call_one("cholesky", {same_view_on_cuda(failing)});
    ADD_FAILURE() << "cholesky of a matrix that is not positive-definite returned on cuda";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::NotPositiveDefinite) << e.what();
  }
}

}  // namespace funcspec::cuda_triangular_test
