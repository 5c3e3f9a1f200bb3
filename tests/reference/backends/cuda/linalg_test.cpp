// The linalg family on cuda against the cpu: einsum and the matrix products built on it, the
// triangular masks, and the LU-based det, slogdet, inverse and solve. Every input is laid out
// several ways (contiguous, column-major, reversed through negative strides, padded rows with an
// offset and NaN in the gaps, broadcast) and moved to cuda as the same view.
//   Exact (identical bits): int64 einsum, einsums of one or of three or more operands (the generic
//   kernel repeats the cpu's loop), tril/triu, det, inverse, solve and slogdet's sign (the cpu's own
//   LU routines run on the device, compiled without fused multiply-adds).
//   Close: two-operand float einsums, which cuBLAS's DGEMM sums in float64 in its own order (float32
//   operands widened to float64 like the cpu's, and rounded once): float64 within the classic bound
//   for a sum of k products, |error| <= (2k + 2) u * sum |a||b| (u = 2^-53); float32 within one
//   float32 ulp (see expect_sum_close), and the cpu's bits whenever the float64 sum is exact in any
//   order, and zero sums are +0 as on the cpu (cuBLAS's -0 is not); slogdet's log|det| (CUDA's log
//   and glibc's differ by an ulp or two per pivot).
// The einsum GEMM plan is also replayed on the host (no GPU needed): gathers (widening float32),
// cuBLAS's column-major strided-batched product and the scatter (rounding to float32), checked
// against the cpu kernel and for in-bounds reads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reference/api/linalg.h"
#include "reference/api/unary.h"
#include "reference/api/view.h"
#include "reference/backends/common/einsum_plan.h"
#include "reference/backends/cuda/linalg_einsum.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_linalg_test {

using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;

// Deterministic inputs: small integers (exact in every dtype, so sums do not depend on their order),
// values in [-1, 1), or values in [-1, 1) on a grid of 2^-12 (their products are multiples of
// 2^-24 below 1 in magnitude, so a float64 sum of up to 2^28 of them is exact in any order, while
// float32 sums of them round).
class Values {
 public:
  explicit Values(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double next_unit() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) * 0x1p-53 * 2.0 - 1.0;
  }
  double next_small_integer() { return std::floor(next_unit() * 4.0); }  // in [-4, 3]
  double next_grid_unit() { return std::floor(next_unit() * 4096.0) * 0x1p-12; }
  std::vector<double> units(std::int64_t n) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < n; ++i) out.push_back(next_unit());
    return out;
  }
  std::vector<double> small_integers(std::int64_t n) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < n; ++i) out.push_back(next_small_integer());
    return out;
  }
  std::vector<double> grid_units(std::int64_t n) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < n; ++i) out.push_back(next_grid_unit());
    return out;
  }

 private:
  std::uint64_t state_;
};

enum class Layout { Contiguous, ColumnMajor, Reversed, Padded };

std::string layout_name(Layout layout) {
  switch (layout) {
    case Layout::Contiguous: return "contiguous";
    case Layout::ColumnMajor: return "column-major";
    case Layout::Reversed: return "reversed";
    case Layout::Padded: return "padded";
  }
  return "?";
}

// A cpu tensor of `shape` holding `values` (row-major) in `layout`: its storage is larger than the
// view where the layout leaves gaps, and the gaps hold NaN (floating) or a large sentinel, so a
// kernel reading a wrong element shows it.
Tensor laid_out(const std::vector<double>& values, const Shape& shape, DType dtype, Layout layout) {
  const std::size_t rank = shape.size();
  Strides strides(rank, 0);
  std::int64_t offset = 0;
  std::int64_t extent = 1;  // one past the largest offset
  bool empty = false;
  for (std::int64_t s : shape) empty = empty || s == 0;
  if (layout == Layout::ColumnMajor) {
    std::int64_t stride = 1;
    for (std::size_t d = 0; d < rank; ++d) {
      strides[d] = stride;
      stride *= std::max<std::int64_t>(shape[d], 1);
    }
  } else {
    // Row-major; Padded adds 3 unused elements after each innermost row.
    std::int64_t stride = 1;
    for (std::size_t d = rank; d-- > 0;) {
      strides[d] = stride;
      stride *= std::max<std::int64_t>(shape[d], 1) + (layout == Layout::Padded && d + 1 == rank ? 3 : 0);
    }
  }
  if (layout == Layout::Reversed) {
    for (std::size_t d = 0; d < rank; ++d) {
      if (shape[d] > 1) offset += (shape[d] - 1) * strides[d];
      strides[d] = -strides[d];
    }
  }
  if (layout == Layout::Padded) offset = 5;
  if (!empty) {
    for (std::size_t d = 0; d < rank; ++d) {
      if (strides[d] > 0) extent += (shape[d] - 1) * strides[d];
    }
    extent += offset;
  }
  const double sentinel = is_floating(dtype)     ? std::numeric_limits<double>::quiet_NaN()
                          : dtype == DType::Bool ? 1.0
                                                 : 1e6 + 7;
  std::vector<double> storage(static_cast<std::size_t>(extent + 3), sentinel);
  std::vector<std::int64_t> index(rank, 0);
  for (std::size_t linear = 0; linear < values.size(); ++linear) {
    std::int64_t at = offset;
    for (std::size_t d = 0; d < rank; ++d) at += index[d] * strides[d];
    storage[static_cast<std::size_t>(at)] = values[linear];
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  const Tensor base = from_vector(storage, {static_cast<std::int64_t>(storage.size())}, dtype);
  return Tensor::view_of(base, shape, strides, offset);
}

TensorList on_cuda(const TensorList& tensors) {
  TensorList out;
  for (const Tensor& t : tensors) out.push_back(same_view_on_cuda(t));
  return out;
}

// Exact comparison of int64 results (doubles would round large values).
void expect_identical_int64(const Tensor& on_cuda, const Tensor& on_cpu, const std::string& what) {
  ASSERT_EQ(on_cuda.shape(), on_cpu.shape()) << what;
  EXPECT_EQ(on_cuda.to_vector<std::int64_t>(), on_cpu.to_vector<std::int64_t>()) << what;
}

// The spacing of float32 values at |x|: the distance from |x| (a float32) to the next larger one.
double float32_ulp(double x) {
  const float a = std::abs(static_cast<float>(x));
  return static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity())) - static_cast<double>(a);
}

// Elementwise closeness of a two-operand contraction with k summed positions, where
// S = sum over them of the products' magnitudes (the same einsum over |operands|, on the cpu):
//   float64: |cuda - cpu| <= (2k + 2) u S, u = 2^-53 (each side's recursive sum errs by at most
//     (k - 1) u S, plus slack for S itself being rounded).
//   float32: |cuda - cpu| <= ulp32(max(|cuda|, |cpu|)) + 2k 2^-53 S. Both devices sum the same k
//     products, each exact in float64 (24 + 24 bits <= 53), in float64: s_cpu and s_cuda are each
//     within (k - 1) 2^-53 S (1 + O(k 2^-53)) <= k 2^-53 S of the exact sum, so they are at most
//     2k 2^-53 S apart. Each device then rounds once to nearest float32, moving its sum by at most
//     half the float32 spacing at it, which is at most half the spacing at the rounded result:
//     |cuda - cpu| <= |s_cuda - s_cpu| + ulp32(max(|cuda|, |cpu|)) / 2 * 2. The float64 term is
//     negligible unless the sum cancels to below about k 2^-29 S: the results are the same bits or
//     neighbouring float32 values. (Summing in float32, SGEMM erred by up to about k 2^-24 S.)
void expect_sum_close(const Tensor& on_cuda, const Tensor& on_cpu, const Tensor& bound, std::int64_t k,
                      const std::string& what) {
  ASSERT_EQ(on_cuda.device(), Device::Cuda) << what;
  ASSERT_EQ(on_cuda.shape(), on_cpu.shape()) << what;
  ASSERT_EQ(on_cuda.dtype(), on_cpu.dtype()) << what;
  const std::vector<double> got = on_cuda.to_vector<double>();
  const std::vector<double> want = on_cpu.to_vector<double>();
  const std::vector<double> magnitude = bound.to_vector<double>();
  const bool float32 = on_cpu.dtype() == DType::Float32;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << ": element " << i;
    } else if (float32) {
      EXPECT_NEAR(got[i], want[i],
                  float32_ulp(std::max(std::abs(got[i]), std::abs(want[i]))) +
                      static_cast<double>(2 * k) * 0x1p-53 * magnitude[i])
          << what << ": element " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], static_cast<double>(2 * k + 2) * 0x1p-53 * magnitude[i] + 1e-300)
          << what << ": element " << i;
    }
  }
}

// The number of summed positions of `equation` over operands of `shapes` (the plan's summed dims).
std::int64_t summed_count(const std::string& equation, const std::vector<Shape>& shapes) {
  const common::EinsumPlan plan = common::plan_einsum(equation, shapes);
  std::int64_t k = 1;
  for (std::size_t d = plan.output_rank; d < plan.sizes.size(); ++d) k *= plan.sizes[d];
  return k;
}

struct EinsumCase {
  std::string equation;
  std::vector<Shape> shapes;
};

// Two-operand contractions: matrix products of every kind, and the shapes a GEMM plan must handle.
std::vector<EinsumCase> two_operand_cases() {
  return {
      {"ij,jk->ik", {{5, 7}, {7, 3}}},                    // mm
      {"ij,jk->ik", {{37, 53}, {53, 29}}},                // mm, sizes off every tile
      {"ij,jk->ki", {{5, 7}, {7, 3}}},                    // the product's transpose
      {"bij,bjk->bik", {{3, 4, 5}, {3, 5, 2}}},           // bmm
      {"...ij,...jk->...ik", {{2, 1, 4, 5}, {3, 5, 6}}},  // matmul, broadcast batch
      {"...ij,j->...i", {{2, 6, 4}, {4}}},                // matmul, batched matrix by vector
      {"j,...jk->...k", {{4}, {2, 4, 6}}},                // matmul, vector by batched matrix
      {"ij,j->i", {{6, 4}, {4}}},                         // mv
      {"i,i->", {{9}, {9}}},                              // dot
      {"i,j->ij", {{5}, {6}}},                            // outer
      {"bij,bkj->bik", {{2, 3, 4}, {2, 5, 4}}},           // a product with the second operand transposed
      {"ij,ij->", {{4, 5}, {4, 5}}},                      // full contraction over two dims
      {"ijk,jkl->il", {{3, 4, 2}, {4, 2, 5}}},            // two contracted dims
      {"ij,kl->ijkl", {{2, 3}, {4, 2}}},                  // outer product of matrices
      {"bi,bi->b", {{4, 6}, {4, 6}}},                     // batched dot
      {"ii,i->i", {{4, 4}, {4}}},                         // a diagonal times a vector
      {"ij,i->j", {{5, 3}, {5}}},                         // vector by matrix, summed over the leading dim
      {"iaj,jb->iab", {{3, 2, 4}, {4, 5}}},               // two row dims
      {"ab,cd->", {{2, 3}, {4, 2}}},                      // sum of all products
      {"ij,->ij", {{3, 4}, {}}},                          // a rank-0 operand
      {",->", {{}, {}}},                                  // two rank-0 operands
      {"ij,jk->ik", {{3, 0}, {0, 4}}},                    // an empty contraction: zeros
      {"ij,jk->ik", {{0, 3}, {3, 4}}},                    // an empty output
      {"ij,jk->ik", {{1, 3}, {3, 1}}},                    // 1x1 result
      {"bij,bjk->ibk", {{2, 3, 4}, {2, 4, 5}}},           // an output order that needs a scatter
  };
}

// Contractions the generic kernel runs for every dtype (not exactly two operands).
std::vector<EinsumCase> generic_cases() {
  return {
      {"ii->", {{5, 5}}},                          // trace
      {"ii->i", {{5, 5}}},                         // diagonal
      {"ij->ji", {{3, 4}}},                        // transpose
      {"ij->", {{3, 4}}},                          // sum
      {"iij->j", {{3, 3, 4}}},                     // summed diagonal of a 3-D tensor
      {"ba", {{2, 3}}},                            // implicit output
      {"ij,jk,kl->il", {{3, 4}, {4, 5}, {5, 2}}},  // a chain of three
      {"i,i,i->", {{6}, {6}, {6}}},                // three-way dot
      {"ij,j,j->i", {{4, 3}, {3}, {3}}},           // matrix by two vectors
      {"i,j,k->ijk", {{2}, {3}, {4}}},             // three-way outer product
      {"->", {{}}},                                // rank 0
      {"ij->", {{0, 3}}},                          // an empty sum: zero
  };
}

const Layout kLayouts[] = {Layout::Contiguous, Layout::ColumnMajor, Layout::Reversed, Layout::Padded};

// Inputs of `c` in layout `layouts[k % 4]` for operand k.
TensorList einsum_inputs(const EinsumCase& c, DType dtype, Layout first, Layout second, Values& values, bool integers) {
  TensorList inputs;
  for (std::size_t k = 0; k < c.shapes.size(); ++k) {
    const std::int64_t n = numel_of(c.shapes[k]);
    inputs.push_back(laid_out(integers ? values.small_integers(n) : values.units(n), c.shapes[k], dtype,
                              k % 2 == 0 ? first : second));
  }
  return inputs;
}

std::string describe(const EinsumCase& c, DType dtype, Layout first, Layout second) {
  return c.equation + " " + std::string(dtype_name(dtype)) + " " + layout_name(first) + "/" + layout_name(second);
}

TensorList absolute(const TensorList& inputs) {
  TensorList out;
  for (const Tensor& t : inputs) out.push_back(ops::abs(t));
  return out;
}

// ---------------------------------------------------------------------------------------------
// einsum

TEST(CudaLinalgEinsum, TwoFloatOperandsGoThroughCublasWithinTheirBounds) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(1);
  for (const EinsumCase& c : two_operand_cases()) {
    for (DType dtype : {DType::Float32, DType::Float64}) {
      for (Layout first : kLayouts) {
        for (Layout second : kLayouts) {
          const TensorList inputs = einsum_inputs(c, dtype, first, second, values, false);
          const std::string what = describe(c, dtype, first, second);
          const Tensor want = ops::einsum(c.equation, inputs);
          const Tensor got = ops::einsum(c.equation, on_cuda(inputs));
          expect_sum_close(got, want, ops::einsum(c.equation, absolute(inputs)), summed_count(c.equation, c.shapes),
                           what);
        }
      }
    }
  }
}

TEST(CudaLinalgEinsum, Float32SumsExactInFloat64AreTheCpuBits) {
  FUNCSPEC_REQUIRE_GPU();
  // Values on the 2^-12 grid: every float64 sum is exact whatever cuBLAS's order, so both devices
  // round the same exact sum once and agree bit for bit. A float32 sum (SGEMM) would not.
  Values values(15);
  std::vector<EinsumCase> cases = two_operand_cases();
  // k = 1000: cuBLAS's tiled (split) sums; sized for a GPU, and the emulator's cuBLAS does not split.
  if (!cuda_testing::kOnHostEmulator) cases.push_back({"ij,jk->ik", {{300, 1000}, {1000, 200}}});
  for (const EinsumCase& c : cases) {
    for (Layout first : kLayouts) {
      for (Layout second : kLayouts) {
        TensorList inputs;
        for (std::size_t k = 0; k < c.shapes.size(); ++k) {
          inputs.push_back(laid_out(values.grid_units(numel_of(c.shapes[k])), c.shapes[k], DType::Float32,
                                    k % 2 == 0 ? first : second));
        }
        expect_identical(ops::einsum(c.equation, on_cuda(inputs)), ops::einsum(c.equation, inputs),
                         describe(c, DType::Float32, first, second));
      }
    }
  }
}

TEST(CudaLinalgEinsum, TwoFloat32OperandsAreCarriedInFloat64LikeTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // 1e8 + 1 - 1e8 is 1 in float64 but 0 in float32 (SGEMM's answer); 2 + 1e8 + 3 rounds once, to
  // 100000008 (float32's spacing there is 8).
  const Tensor a = from_values({1e8, 1, -1e8, 2, 1e8, 3}, {2, 3}, DType::Float32);
  const Tensor ones = from_values({1, 1, 1, 1, 1, 1}, {3, 2}, DType::Float32);
  const Tensor got = ops::mm(same_view_on_cuda(a), same_view_on_cuda(ones));
  expect_identical(got, ops::mm(a, ones), "mm");
  EXPECT_EQ(got.to_vector<double>(), (std::vector<double>{1, 1, 100000008, 100000008}));
  const Tensor v = from_values({1e8, 1, -1e8}, {3}, DType::Float32);
  const Tensor w = from_values({1, 1, 1}, {3}, DType::Float32);
  expect_identical(ops::dot(same_view_on_cuda(v), same_view_on_cuda(w)), ops::dot(v, w), "dot");
  EXPECT_EQ(ops::dot(same_view_on_cuda(v), same_view_on_cuda(w)).to_vector<double>(), std::vector<double>{1.0});
  // Products beyond float32's range are fine in float64: 1e60 - 1e60 is 0 (in float32, inf - inf).
  const Tensor big = from_values({1e30, 1e30}, {2}, DType::Float32);
  const Tensor signs = from_values({1e30, -1e30}, {2}, DType::Float32);
  const Tensor cancelled = ops::dot(same_view_on_cuda(big), same_view_on_cuda(signs));
  expect_identical(cancelled, ops::dot(big, signs), "dot 1e60 - 1e60");
  EXPECT_EQ(cancelled.to_vector<double>(), std::vector<double>{0.0});
}

TEST(CudaLinalgEinsum, IntegerValuedFloatsAreExactWhateverTheSummationOrder) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(2);
  for (const EinsumCase& c : two_operand_cases()) {
    for (DType dtype : {DType::Float32, DType::Float64}) {
      const TensorList inputs = einsum_inputs(c, dtype, Layout::Padded, Layout::ColumnMajor, values, true);
      expect_identical(ops::einsum(c.equation, on_cuda(inputs)), ops::einsum(c.equation, inputs),
                       describe(c, dtype, Layout::Padded, Layout::ColumnMajor));
    }
  }
}

TEST(CudaLinalgEinsum, Int64IsExactForEveryEquationAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(3);
  std::vector<EinsumCase> cases = two_operand_cases();
  for (const EinsumCase& c : generic_cases()) cases.push_back(c);
  for (const EinsumCase& c : cases) {
    for (Layout first : kLayouts) {
      for (Layout second : kLayouts) {
        const TensorList inputs = einsum_inputs(c, DType::Int64, first, second, values, true);
        expect_identical_int64(ops::einsum(c.equation, on_cuda(inputs)), ops::einsum(c.equation, inputs),
                               describe(c, DType::Int64, first, second));
      }
    }
  }
}

TEST(CudaLinalgEinsum, Int64WrapsAroundAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor a = from_vector<std::int64_t>({std::int64_t{1} << 62, 3, -(std::int64_t{1} << 61)}, {3}, DType::Int64);
  const Tensor b = from_vector<std::int64_t>({4, 5, 7}, {3}, DType::Int64);
  expect_identical_int64(ops::dot(same_view_on_cuda(a), same_view_on_cuda(b)), ops::dot(a, b), "dot");
  expect_identical_int64(ops::outer(same_view_on_cuda(a), same_view_on_cuda(b)), ops::outer(a, b), "outer");
}

TEST(CudaLinalgEinsum, OneOrThreeOperandsGiveTheCpuBitsInEveryFloatDtype) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(4);
  for (const EinsumCase& c : generic_cases()) {
    for (DType dtype : {DType::Float32, DType::Float64}) {
      for (Layout first : kLayouts) {
        for (Layout second : kLayouts) {
          const TensorList inputs = einsum_inputs(c, dtype, first, second, values, false);
          expect_identical(ops::einsum(c.equation, on_cuda(inputs)), ops::einsum(c.equation, inputs),
                           describe(c, dtype, first, second));
        }
      }
    }
  }
}

TEST(CudaLinalgEinsum, ThreeFloat32OperandsAreCarriedInFloat64LikeTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // 1e8 + 1 - 1e8 is 1 in float64 but 0 in float32: the generic kernel keeps the cpu's accumulator.
  const Tensor a = from_values({1e8, 1, -1e8}, {3}, DType::Float32);
  const Tensor ones = from_values({1, 1, 1}, {3}, DType::Float32);
  const TensorList inputs = {a, ones, ones};
  const Tensor got = ops::einsum("i,i,i->", on_cuda(inputs));
  expect_identical(got, ops::einsum("i,i,i->", inputs), "i,i,i->");
  EXPECT_EQ(got.to_vector<double>(), std::vector<double>{1.0});
}

TEST(CudaLinalgEinsum, BroadcastOperandsWithZeroStrides) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(5);
  for (DType dtype : {DType::Float32, DType::Float64, DType::Int64}) {
    const Tensor a = ops::expand(from_vector(values.small_integers(20), {1, 4, 5}, dtype), {3, 4, 5});
    const Tensor b = from_vector(values.small_integers(30), {3, 5, 2}, dtype);
    const Tensor row = ops::expand(from_vector(values.small_integers(5), {1, 5}, dtype), {4, 5});
    const Tensor col = ops::expand(from_vector(values.small_integers(5), {5, 1}, dtype), {5, 6});
    expect_identical(ops::bmm(same_view_on_cuda(a), same_view_on_cuda(b)), ops::bmm(a, b), "bmm, expanded self");
    expect_identical(ops::mm(same_view_on_cuda(row), same_view_on_cuda(col)), ops::mm(row, col), "mm, expanded");
    const Tensor a4 = ops::expand(a, {2, 3, 4, 5});
    expect_identical(ops::matmul(same_view_on_cuda(a4), same_view_on_cuda(b)), ops::matmul(a4, b),
                     "matmul, rank 4 expanded");
  }
}

TEST(CudaLinalgEinsum, MatrixProductOpsOnTransposedInputs) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(6);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor a = from_vector(values.units(6 * 4), {6, 4}, dtype);
    const Tensor b = from_vector(values.units(6 * 5), {6, 5}, dtype);
    const Tensor v = from_vector(values.units(6), {6}, dtype);
    const Tensor at = ops::transpose(a, 0, 1);  // [4, 6], column-major
    const Tensor ab = ops::abs(a);
    const Tensor bb = ops::abs(b);
    const Tensor vb = ops::abs(v);
    expect_sum_close(ops::mm(same_view_on_cuda(at), same_view_on_cuda(b)), ops::mm(at, b),
                     ops::mm(ops::transpose(ab, 0, 1), bb), 6, "mm(a.t(), b)");
    expect_sum_close(ops::mv(same_view_on_cuda(at), same_view_on_cuda(v)), ops::mv(at, v),
                     ops::mv(ops::transpose(ab, 0, 1), vb), 6, "mv(a.t(), v)");
    expect_sum_close(ops::matmul(same_view_on_cuda(v), same_view_on_cuda(b)), ops::matmul(v, b), ops::matmul(vb, bb), 6,
                     "matmul(v, b)");
    expect_sum_close(ops::dot(same_view_on_cuda(v), same_view_on_cuda(v)), ops::dot(v, v), ops::dot(vb, vb), 6,
                     "dot(v, v)");
    expect_sum_close(ops::trace(same_view_on_cuda(ops::mm(at, a))), ops::trace(ops::mm(at, a)),
                     ops::trace(ops::mm(ops::transpose(ab, 0, 1), ab)), 6 * 4, "trace(a.t() a)");
  }
}

TEST(CudaLinalgEinsum, ZeroSumsArePositiveAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  // The cpu's sum starts at +0, so it is +0 even where every product is -0; cuBLAS stores a single
  // product as is. One term (outer products, a rank-0 factor) and several, with C written into the
  // output directly (float64 outer, mm) or scattered (float32, or a transposed output), and float64
  // products that underflow to -0.
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const std::string name(dtype_name(dtype));
    const Tensor negative_zeros = from_values({-0.0, -0.0, -0.0}, {3}, dtype);
    const Tensor positive = from_values({1, 2, 3}, {3}, dtype);
    const Tensor negative = from_values({-1, -2, -3}, {3}, dtype);
    const Tensor zeros = from_values({0, 0, 0}, {3}, dtype);
    const Tensor zero = from_values({0}, {}, dtype);
    const Tensor matrix = from_values({-1, 2, -3, 4, -5, 6}, {2, 3}, dtype);
    // dot with every product -0; outer (k = 1) into its own layout and transposed; a rank-0 factor;
    // mm with k = 1; mv whose products have both signs (+0 anyway).
    const std::vector<std::pair<std::string, TensorList>> cases = {
        {"i,i->", {negative_zeros, positive}},
        {"i,j->ij", {negative, zeros}},
        {"i,j->ji", {negative, zeros}},
        {"ij,->ij", {matrix, zero}},
        {"ik,kj->ij", {ops::reshape(negative, {3, 1}), ops::reshape(zeros, {1, 3})}},
        {"ij,j->i", {matrix, negative_zeros}},
    };
    for (const auto& [equation, inputs] : cases) {
      expect_identical(ops::einsum(equation, on_cuda(inputs)), ops::einsum(equation, inputs), equation + " " + name);
    }
  }
  const Tensor tiny = from_values({1e-200, 1e-200}, {2}, DType::Float64);
  const Tensor negative_tiny = from_values({-1e-200, -1e-200}, {2}, DType::Float64);
  expect_identical(ops::dot(same_view_on_cuda(tiny), same_view_on_cuda(negative_tiny)), ops::dot(tiny, negative_tiny),
                   "dot of products that underflow to -0");
  expect_identical(ops::outer(same_view_on_cuda(tiny), same_view_on_cuda(negative_tiny)),
                   ops::outer(tiny, negative_tiny), "outer of products that underflow to -0");
}

TEST(CudaLinalgEinsum, NanAndInfinityPropagateThroughCublas) {
  FUNCSPEC_REQUIRE_GPU();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor a = from_values({1, nan, 0, 2, inf, 1}, {2, 3}, dtype);
    const Tensor b = from_values({1, 0, 0, 1, 2, 3}, {3, 2}, dtype);
    // Row 0 meets a NaN; row 1 meets an infinity times 0 (NaN), then times 1 (infinity).
    expect_identical(ops::mm(same_view_on_cuda(a), same_view_on_cuda(b)), ops::mm(a, b), "mm with NaN and inf");
  }
}

TEST(CudaLinalgEinsum, LargeProductsExerciseTheGridStrideLoops) {
  FUNCSPEC_REQUIRE_GPU_SCALE();
  Values values(7);
  // 1.1e6 outputs: float32 gathered into float64 and rounded by the scatter, the generic kernel
  // (int64), and a float64 gather plus a scatter (an output order that is no GEMM layout).
  const Tensor a32 = from_vector(values.small_integers(1100 * 16), {1100, 16}, DType::Float32);
  const Tensor b32 = from_vector(values.small_integers(16 * 1000), {16, 1000}, DType::Float32);
  expect_identical(ops::mm(same_view_on_cuda(a32), same_view_on_cuda(b32)), ops::mm(a32, b32), "large mm");
  const Tensor u = from_vector(values.small_integers(1100), {1100}, DType::Int64);
  const Tensor v = from_vector(values.small_integers(1000), {1000}, DType::Int64);
  expect_identical_int64(ops::outer(same_view_on_cuda(u), same_view_on_cuda(v)), ops::outer(u, v), "large outer");
  const TensorList inputs = {
      laid_out(values.small_integers(4 * 600 * 8), {4, 600, 8}, DType::Float64, Layout::Reversed),
      from_vector(values.small_integers(4 * 8 * 500), {4, 8, 500}, DType::Float64)};
  expect_identical(ops::einsum("bij,bjk->ibk", on_cuda(inputs)), ops::einsum("bij,bjk->ibk", inputs),
                   "large scattered product");
}

TEST(CudaLinalgEinsum, ErrorsMatchTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor a = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor flags = from_values({1, 0}, {2}, DType::Bool);
  for (const auto& [equation, operands] : std::vector<std::pair<std::string, TensorList>>{
           {"ij,jk->ik", {a}}, {"ijk->i", {a}}, {"i,i->", {flags, flags}}, {"ij->k", {a}}}) {
    std::string cpu_message, cuda_message;
    ErrorKind cpu_kind = ErrorKind::Internal, cuda_kind = ErrorKind::Internal;
    try {
      ops::einsum(equation, operands);
    } catch (const Error& e) {
      cpu_kind = e.kind();
      cpu_message = e.what();
    }
    try {
      ops::einsum(equation, on_cuda(operands));
    } catch (const Error& e) {
      cuda_kind = e.kind();
      cuda_message = e.what();
    }
    EXPECT_NE(cpu_message, "") << equation;
    EXPECT_EQ(cuda_kind, cpu_kind) << equation;
    EXPECT_EQ(cuda_message, cpu_message) << equation;
  }
}

// ---------------------------------------------------------------------------------------------
// tril, triu

TEST(CudaLinalgTriangular, EveryDtypeLayoutAndDiagonal) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(8);
  for (DType dtype : {DType::Bool, DType::Int64, DType::Float32, DType::Float64}) {
    for (const Shape& shape : std::vector<Shape>{{5, 7}, {2, 3, 4, 6}, {1, 1}, {0, 3}, {3, 0}, {2, 0, 4}}) {
      for (Layout layout : kLayouts) {
        std::vector<double> v = values.small_integers(numel_of(shape));
        if (dtype == DType::Bool) {
          for (double& x : v) x = x < 0 ? 1 : 0;
        }
        const Tensor t = laid_out(v, shape, dtype, layout);
        for (std::int64_t diagonal : {-10, -2, -1, 0, 1, 3, 10}) {
          const std::string what = std::string(dtype_name(dtype)) + " " + shape_to_string(shape) + " " +
                                   layout_name(layout) + " diagonal " + std::to_string(diagonal);
          expect_identical(ops::tril(same_view_on_cuda(t), diagonal), ops::tril(t, diagonal), "tril " + what);
          expect_identical(ops::triu(same_view_on_cuda(t), diagonal), ops::triu(t, diagonal), "triu " + what);
        }
      }
    }
  }
}

TEST(CudaLinalgTriangular, KeepsSignedZerosAndNan) {
  FUNCSPEC_REQUIRE_GPU();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor t = from_values({-0.0, nan, 1, nan, -0.0, 2, 3, 4, -0.0}, {3, 3});
  expect_identical(ops::tril(same_view_on_cuda(t)), ops::tril(t), "tril");
  expect_identical(ops::triu(same_view_on_cuda(t)), ops::triu(t), "triu");
}

TEST(CudaLinalgTriangular, LargeInputExercisesTheGridStrideLoop) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(9);
  const Tensor t = laid_out(values.units(1100 * 1000), {1100, 1000}, DType::Float32, Layout::ColumnMajor);
  expect_identical(ops::tril(same_view_on_cuda(t), 7), ops::tril(t, 7), "tril");
  expect_identical(ops::triu(same_view_on_cuda(t), -7), ops::triu(t, -7), "triu");
}

// ---------------------------------------------------------------------------------------------
// det, slogdet, inverse, solve

// Random matrices in [-1, 1): partial pivoting swaps rows, and they are invertible in practice.
Tensor random_matrices(Values& values, const Shape& shape, DType dtype, Layout layout) {
  return laid_out(values.units(numel_of(shape)), shape, dtype, layout);
}

const std::vector<Shape> kSquareShapes = {{1, 1},       {2, 2},    {4, 4}, {7, 7},   {3, 5, 5},
                                          {2, 3, 3, 3}, {0, 3, 3}, {0, 0}, {2, 0, 0}};

TEST(CudaLinalgLu, DetInverseAreTheCpuBits) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(10);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Shape& shape : kSquareShapes) {
      for (Layout layout : kLayouts) {
        const Tensor a = random_matrices(values, shape, dtype, layout);
        const std::string what =
            std::string(dtype_name(dtype)) + " " + shape_to_string(shape) + " " + layout_name(layout);
        expect_identical(ops::det(same_view_on_cuda(a)), ops::det(a), "det " + what);
        expect_identical(ops::inverse(same_view_on_cuda(a)), ops::inverse(a), "inverse " + what);
      }
    }
  }
}

TEST(CudaLinalgLu, SlogdetSignIsExactAndLogIsClose) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(11);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Shape& shape : kSquareShapes) {
      for (Layout layout : kLayouts) {
        const Tensor a = random_matrices(values, shape, dtype, layout);
        const std::string what =
            std::string(dtype_name(dtype)) + " " + shape_to_string(shape) + " " + layout_name(layout);
        const auto [sign, log_abs] = ops::slogdet(a);
        const auto [cuda_sign, cuda_log_abs] = ops::slogdet(same_view_on_cuda(a));
        expect_identical(cuda_sign, sign, "slogdet sign " + what);
        // Each pivot's log may differ by ~2 ulps between CUDA's log and glibc's; n of them are summed.
        const std::int64_t n = shape.back();
        const double epsilon = dtype == DType::Float32 ? 0x1p-23 : 0x1p-52;
        const std::vector<double> got = cuda_log_abs.to_vector<double>();
        const std::vector<double> want = log_abs.to_vector<double>();
        ASSERT_EQ(got.size(), want.size()) << what;
        for (std::size_t i = 0; i < got.size(); ++i) {
          EXPECT_NEAR(got[i], want[i], 16.0 * static_cast<double>(n + 1) * epsilon * std::max(1.0, std::abs(want[i])))
              << "slogdet log " << what << ": element " << i;
        }
      }
    }
  }
}

TEST(CudaLinalgLu, SolveIsTheCpuBitsOnEverySide) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(12);
  struct SolveCase {
    Shape a;
    Shape b;
    bool left;
  };
  const std::vector<SolveCase> cases = {
      {{3, 3}, {3, 4}, true},    {{3, 3}, {4, 3}, false},         {{3, 3}, {3}, true},
      {{2, 3, 3}, {2, 3}, true}, {{2, 4, 4}, {2, 4, 2}, true},    {{2, 4, 4}, {2, 5, 4}, false},
      {{3, 3}, {2, 3, 2}, true}, {{2, 1, 3, 3}, {4, 3, 1}, true}, {{0, 3, 3}, {0, 3, 2}, true},
      {{3, 3}, {3, 0}, true},    {{1, 1}, {1, 1}, false},
  };
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const SolveCase& c : cases) {
      for (Layout layout : kLayouts) {
        const Tensor a = random_matrices(values, c.a, dtype, layout);
        const Tensor b =
            random_matrices(values, c.b, dtype, layout == Layout::Reversed ? Layout::Padded : Layout::Reversed);
        const std::string what = std::string(dtype_name(dtype)) + " A " + shape_to_string(c.a) + " B " +
                                 shape_to_string(c.b) + (c.left ? " left " : " right ") + layout_name(layout);
        expect_identical(ops::solve(same_view_on_cuda(a), same_view_on_cuda(b), c.left), ops::solve(a, b, c.left),
                         "solve " + what);
      }
    }
  }
}

TEST(CudaLinalgLu, SingularMatricesAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor singular = from_values({1, 2, 2, 4}, {2, 2}, dtype);
    expect_identical(ops::det(same_view_on_cuda(singular)), ops::det(singular), "det");
    const auto [sign, log_abs] = ops::slogdet(singular);
    const auto [cuda_sign, cuda_log_abs] = ops::slogdet(same_view_on_cuda(singular));
    expect_identical(cuda_sign, sign, "slogdet sign");
    expect_identical(cuda_log_abs, log_abs, "slogdet log");
    // The third matrix of the batch (element 2) and the fourth are singular: the error names the first.
    const Tensor batch = from_values({1, 0, 0, 1, 2, 1, 1, 1, 0, 0, 0, 3, 1, 1, 1, 1}, {2, 2, 2, 2}, dtype);
    const Tensor rhs = from_values({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2}, dtype);
    const std::vector<std::pair<std::string, std::function<Tensor(bool)>>> calls = {
        {"inverse 2x2", [&](bool cuda) { return ops::inverse(cuda ? same_view_on_cuda(singular) : singular); }},
        {"inverse batch", [&](bool cuda) { return ops::inverse(cuda ? same_view_on_cuda(batch) : batch); }},
        {"solve batch",
         [&](bool cuda) {
           return ops::solve(cuda ? same_view_on_cuda(batch) : batch, cuda ? same_view_on_cuda(rhs) : rhs);
         }},
        {"solve right",
         [&](bool cuda) {
           return ops::solve(
               cuda ? same_view_on_cuda(singular) : singular,
               cuda ? same_view_on_cuda(from_values({1, 2}, {1, 2}, dtype)) : from_values({1, 2}, {1, 2}, dtype),
               false);
         }},
    };
    for (const auto& [what, call] : calls) {
      std::string messages[2];
      for (int cuda = 0; cuda < 2; ++cuda) {
        try {
          call(cuda == 1);
          ADD_FAILURE() << what << ": no error on " << (cuda == 1 ? "cuda" : "cpu");
        } catch (const Error& e) {
          EXPECT_EQ(e.kind(), ErrorKind::SingularMatrix) << what << ": " << e.what();
          messages[cuda] = e.what();
        }
      }
      EXPECT_EQ(messages[1], messages[0]) << what;
      EXPECT_THAT(messages[0], ::testing::HasSubstr("is singular")) << what;
    }
  }
}

TEST(CudaLinalgLu, NanPropagatesAsOnTheCpu) {
  FUNCSPEC_REQUIRE_GPU();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor a = from_values({0, 1, nan, 0}, {2, 2});
  expect_identical(ops::det(same_view_on_cuda(a)), ops::det(a), "det");
  expect_identical(ops::inverse(same_view_on_cuda(a)), ops::inverse(a), "inverse");
  expect_identical(ops::slogdet(same_view_on_cuda(a)).first, ops::slogdet(a).first, "slogdet sign");
}

// eigh: the cpu's Jacobi routine (reference/backends/common/linalg_jacobi.h) runs on the device, one
// thread per matrix, without fused multiply-adds; sqrt and division are correctly rounded on both.
TEST(CudaLinalgSpectral, EighIsTheCpuBits) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(12);
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Shape& shape : kSquareShapes) {
      for (Layout layout : kLayouts) {
        for (const char* uplo : {"L", "U"}) {
          const Tensor a = random_matrices(values, shape, dtype, layout);
          const std::string what = std::string(dtype_name(dtype)) + " " + shape_to_string(shape) + " " +
                                   layout_name(layout) + " UPLO=" + uplo;
          const TensorList on_cpu = call("eigh", {a}, {{"UPLO", std::string(uplo)}});
          const TensorList on_cuda = call("eigh", {same_view_on_cuda(a)}, {{"UPLO", std::string(uplo)}});
          expect_identical(on_cuda[0], on_cpu[0], "eigenvalues " + what);
          expect_identical(on_cuda[1], on_cpu[1], "eigenvectors " + what);
        }
      }
    }
  }
}

// svd: the cpu's one-sided Jacobi routine (reference/backends/common/linalg_svd.h) runs on the device,
// one thread per matrix, without fused multiply-adds: the same bits, the completion of full factors
// and of empty matrices included.
TEST(CudaLinalgSvd, SvdIsTheCpuBits) {
  FUNCSPEC_REQUIRE_GPU();
  Values values(13);
  std::vector<Shape> shapes = kSquareShapes;
  shapes.insert(shapes.end(), {{5, 3}, {3, 5}, {2, 4, 1}, {1, 4}, {0, 3}, {3, 0}, {0, 2, 3}});
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Shape& shape : shapes) {
      for (Layout layout : kLayouts) {
        for (bool full : {false, true}) {
          const Tensor a = random_matrices(values, shape, dtype, layout);
          const std::string what = std::string(dtype_name(dtype)) + " " + shape_to_string(shape) + " " +
                                   layout_name(layout) + (full ? " full" : " reduced");
          const TensorList on_cpu = call("svd", {a}, {{"full_matrices", full}});
          const TensorList on_cuda = call("svd", {same_view_on_cuda(a)}, {{"full_matrices", full}});
          expect_identical(on_cuda[0], on_cpu[0], "U " + what);
          expect_identical(on_cuda[1], on_cpu[1], "S " + what);
          expect_identical(on_cuda[2], on_cpu[2], "Vh " + what);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The GEMM plan, replayed on the host (runs without a GPU in any build with the CUDA backend).

#if FUNCSPEC_HAVE_CUDA

// Reads element `offset` (relative to the view's first element) of t's storage as a double (a
// float32 widened exactly), failing the test when it lies outside the storage: what the GPU would
// read out of bounds.
double storage_element(const Tensor& t, std::int64_t offset, const std::string& what) {
  const std::int64_t at = t.storage_offset() + offset;
  EXPECT_TRUE(at >= 0 && at < t.storage()->numel()) << what << ": reads storage element " << at;
  if (at < 0 || at >= t.storage()->numel()) return std::numeric_limits<double>::quiet_NaN();
  if (t.dtype() == DType::Float32) return static_cast<double>(t.data<float>()[offset]);
  return t.data<double>()[offset];
}

// A GEMM operand as cuBLAS would see it: `read(i)` is element i past the operand's base.
struct ReplayOperand {
  std::vector<double> gathered;
  const Tensor* tensor = nullptr;

  double at(std::int64_t i, const std::string& what) const {
    if (tensor == nullptr) {
      EXPECT_TRUE(i >= 0 && i < static_cast<std::int64_t>(gathered.size())) << what << ": scratch element " << i;
      return gathered.at(static_cast<std::size_t>(i));
    }
    return storage_element(*tensor, i, what);
  }
};

ReplayOperand replay_operand(const cuda::EinsumGemmOperand& op, const Tensor& t, const std::string& what) {
  ReplayOperand out;
  if (!op.gathered) {
    out.tensor = &t;
    return out;
  }
  std::int64_t count = 1;
  for (std::int64_t s : op.gather_sizes) count *= s;
  std::vector<std::int64_t> index(op.gather_sizes.size(), 0);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < index.size(); ++d) offset += index[d] * op.gather_strides[d];
    out.gathered.push_back(storage_element(t, offset, what + " (gather)"));
    for (std::size_t d = index.size(); d-- > 0;) {
      if (++index[d] < op.gather_sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// Element (row, col) of op(Z) as cuBLAS defines it: Z is column-major with leading dimension ld.
double op_element(const ReplayOperand& z, const cuda::EinsumGemmOperand& op, std::int64_t base, std::int64_t row,
                  std::int64_t col, const std::string& what) {
  return op.transposed ? z.at(base + col + row * op.ld, what) : z.at(base + row + col * op.ld, what);
}

// The output (row-major, contiguous) that the plan computes for `inputs`: C in double (the DGEMM,
// each sum started from its first product as cuBLAS's are, not from +0), then every entry stored
// after adding +0, in place or by the scatter (which rounds a widened plan's to float32).
std::vector<double> replay(const cuda::EinsumGemmPlan& g, const TensorList& inputs, std::int64_t out_numel,
                           const std::string& what) {
  const ReplayOperand x = replay_operand(g.x, inputs[g.left], what + " X");
  const ReplayOperand y = replay_operand(g.y, inputs[g.right], what + " Y");
  std::vector<double> c(static_cast<std::size_t>(g.direct_output ? out_numel : g.batch * g.m * g.n),
                        std::numeric_limits<double>::quiet_NaN());
  // gemm(transa = y, transb = x, m = n, n = m, k): C(i, j) at i + j * ldc, i < n, j < m.
  for (std::int64_t b = 0; b < g.batch; ++b) {
    for (std::int64_t i = 0; i < g.n; ++i) {
      for (std::int64_t j = 0; j < g.m; ++j) {
        double sum = 0;
        for (std::int64_t l = 0; l < g.k; ++l) {
          const double product = op_element(y, g.y, b * g.y.batch_stride, i, l, what + " Y") *
                                 op_element(x, g.x, b * g.x.batch_stride, l, j, what + " X");
          sum = l == 0 ? product : sum + product;
        }
        const std::int64_t at = b * g.c_batch_stride + i + j * g.ldc;
        EXPECT_TRUE(at >= 0 && at < static_cast<std::int64_t>(c.size())) << what << ": writes C element " << at;
        if (at >= 0 && at < static_cast<std::int64_t>(c.size())) c[static_cast<std::size_t>(at)] = sum;
      }
    }
  }
  if (g.direct_output) {
    for (double& entry : c) entry += 0.0;
    return c;
  }
  // The scatter into a contiguous output.
  std::vector<double> out(static_cast<std::size_t>(out_numel), std::numeric_limits<double>::quiet_NaN());
  std::int64_t count = 1;
  for (std::int64_t s : g.scatter_sizes) count *= s;
  std::vector<std::int64_t> index(g.scatter_sizes.size(), 0);
  for (std::int64_t linear = 0; linear < count; ++linear) {
    std::int64_t from = 0;
    std::int64_t to = 0;
    for (std::size_t d = 0; d < index.size(); ++d) {
      from += index[d] * g.scatter_from_strides[d];
      to += index[d] * g.scatter_to_strides[d];
    }
    const double value = c.at(static_cast<std::size_t>(from));
    out.at(static_cast<std::size_t>(to)) =
        g.widened ? static_cast<double>(static_cast<float>(value + 0.0)) : value + 0.0;
    for (std::size_t d = index.size(); d-- > 0;) {
      if (++index[d] < g.scatter_sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

std::optional<cuda::EinsumGemmPlan> gemm_plan_for(const std::string& equation, const TensorList& inputs,
                                                  const Tensor& out) {
  std::vector<Shape> shapes;
  std::vector<Strides> strides;
  for (const Tensor& t : inputs) {
    shapes.push_back(t.shape());
    strides.push_back(t.strides());
  }
  return cuda::plan_einsum_gemm(common::plan_einsum(equation, shapes), shapes, strides, out.strides(), out.dtype());
}

// Equality of the bits, the sign of zero included (the replayed outputs hold no NaN).
void expect_same_bits(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << what << ": element " << i;
    EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << what << ": sign of element " << i;
  }
}

// float64 on small integers and float32 on the 2^-12 grid: sums exact in double, so the replay
// (which sums in its own order, like cuBLAS) must give the cpu's bits, after the float32 rounding;
// zero sums included (the small integers make one-term products (-x)·0, which cuBLAS leaves -0).
TEST(CudaLinalgEinsumGemmPlan, ReplayedOnTheHostEqualsTheCpuKernel) {
  Values values(13);
  for (DType dtype : {DType::Float64, DType::Float32}) {
    for (const EinsumCase& c : two_operand_cases()) {
      for (Layout first : kLayouts) {
        for (Layout second : kLayouts) {
          TensorList inputs;
          for (std::size_t k = 0; k < c.shapes.size(); ++k) {
            const std::int64_t n = numel_of(c.shapes[k]);
            inputs.push_back(laid_out(dtype == DType::Float32 ? values.grid_units(n) : values.small_integers(n),
                                      c.shapes[k], dtype, k % 2 == 0 ? first : second));
          }
          const std::string what = describe(c, dtype, first, second);
          const Tensor want = ops::einsum(c.equation, inputs);
          const std::optional<cuda::EinsumGemmPlan> g = gemm_plan_for(c.equation, inputs, want);
          if (summed_count(c.equation, c.shapes) == 0) {
            EXPECT_FALSE(g.has_value()) << what << ": an empty contraction is the generic kernel's";
            continue;
          }
          ASSERT_TRUE(g.has_value()) << what;
          EXPECT_EQ(g->widened, dtype == DType::Float32) << what;
          if (g->widened) {
            // float32 reaches cuBLAS only as float64 copies, and C only through the rounding scatter.
            EXPECT_TRUE(g->x.gathered && g->y.gathered) << what;
            EXPECT_FALSE(g->direct_output) << what;
          }
          if (want.numel() == 0) continue;  // the kernel returns before running the plan
          expect_same_bits(replay(*g, inputs, want.numel(), what), want.to_vector<double>(), what);
        }
      }
    }
  }
}

TEST(CudaLinalgEinsumGemmPlan, Float32RoundsOnceLikeTheCpu) {
  // Sums that float32 cannot carry: 1e8 + 1 - 1e8 (1 in float64), and 2 + 1e8 + 3 rounded once.
  const Tensor a = from_values({1e8, 1, -1e8, 2, 1e8, 3}, {2, 3}, DType::Float32);
  const Tensor b = from_values({1, 1, 1, 1, 1, 1}, {3, 2}, DType::Float32);
  const Tensor want = ops::einsum("ij,jk->ik", {a, b});
  ASSERT_EQ(want.to_vector<double>(), (std::vector<double>{1, 1, 100000008, 100000008}));
  const std::optional<cuda::EinsumGemmPlan> g = gemm_plan_for("ij,jk->ik", {a, b}, want);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(replay(*g, {a, b}, want.numel(), "mm"), want.to_vector<double>());
}

TEST(CudaLinalgEinsumGemmPlan, CommonProductsReadAndWriteInPlace) {
  Values values(14);
  for (DType dtype : {DType::Float64, DType::Float32}) {
    const Tensor a = from_vector(values.units(64 * 32), {64, 32}, dtype);
    const Tensor a_column_major = laid_out(values.units(64 * 32), {64, 32}, dtype, Layout::ColumnMajor);
    const Tensor b = from_vector(values.units(32 * 48), {32, 48}, dtype);
    const Tensor b_column_major = laid_out(values.units(32 * 48), {32, 48}, dtype, Layout::ColumnMajor);
    const Tensor batched_a = from_vector(values.units(3 * 64 * 32), {3, 64, 32}, dtype);
    const Tensor batched_b = from_vector(values.units(3 * 32 * 48), {3, 32, 48}, dtype);
    const Tensor v = from_vector(values.units(32), {32}, dtype);
    // With `flat`: the operands and the output are contiguous, so each float32 copy is one flat dim.
    struct Product {
      std::string equation;
      TensorList inputs;
      bool flat;
    };
    const std::vector<Product> cases = {
        {"ij,jk->ik", {a, b}, true},                             // mm, the benchmark's case
        {"ij,jk->ik", {a_column_major, b_column_major}, false},  // mm of transposed storage
        {"ij,jk->ki", {a, b}, false},                            // the product's transpose: the operands swap roles
        {"bij,bjk->bik", {batched_a, batched_b}, true},          // bmm
        {"...ij,...jk->...ik", {batched_a, b}, true},            // matmul with a shared matrix
        {"ij,j->i", {a, v}, true},                               // mv
        {"i,i->", {v, v}, true},                                 // dot
    };
    for (const Product& p : cases) {
      const std::string what = p.equation + " " + std::string(dtype_name(dtype));
      const Tensor out = ops::einsum(p.equation, p.inputs);
      const std::optional<cuda::EinsumGemmPlan> g = gemm_plan_for(p.equation, p.inputs, out);
      ASSERT_TRUE(g.has_value()) << what;
      if (dtype == DType::Float64) {
        EXPECT_FALSE(g->x.gathered) << what;
        EXPECT_FALSE(g->y.gathered) << what;
        EXPECT_TRUE(g->direct_output) << what;
        continue;
      }
      // float32: widened on the way in, rounded on the way out; contiguous copies are flat.
      EXPECT_TRUE(g->widened) << what;
      EXPECT_TRUE(g->x.gathered && g->y.gathered) << what;
      EXPECT_FALSE(g->direct_output) << what;
      if (p.flat) {
        EXPECT_EQ(g->x.gather_strides, std::vector<std::int64_t>{1}) << what;
        EXPECT_EQ(g->y.gather_strides, std::vector<std::int64_t>{1}) << what;
        // (dot's output has rank 0: its scatter has no dims at all.)
        const std::vector<std::int64_t> unit =
            out.dim() == 0 ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{1};
        EXPECT_EQ(g->scatter_from_strides, unit) << what;
        EXPECT_EQ(g->scatter_to_strides, unit) << what;
      }
    }
  }
  // The benchmark's 4096x4096 product: in float64 one DGEMM, no copies; in float32 one DGEMM
  // between three flat copies (two widening, one rounding).
  const common::EinsumPlan plan = common::plan_einsum("ij,jk->ik", {{4096, 4096}, {4096, 4096}});
  for (DType dtype : {DType::Float64, DType::Float32}) {
    const std::optional<cuda::EinsumGemmPlan> g =
        cuda::plan_einsum_gemm(plan, {{4096, 4096}, {4096, 4096}}, {{4096, 1}, {4096, 1}}, {4096, 1}, dtype);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->batch, 1);
    EXPECT_EQ(g->m, 4096);
    EXPECT_EQ(g->n, 4096);
    EXPECT_EQ(g->k, 4096);
    EXPECT_FALSE(g->x.transposed || g->y.transposed);
    if (dtype == DType::Float64) {
      EXPECT_FALSE(g->x.gathered || g->y.gathered);
      EXPECT_TRUE(g->direct_output);
    } else {
      const std::vector<std::int64_t> flat = {4096 * 4096};
      EXPECT_EQ(g->x.gather_sizes, flat);
      EXPECT_EQ(g->y.gather_sizes, flat);
      EXPECT_EQ(g->scatter_sizes, flat);
      EXPECT_FALSE(g->direct_output);
    }
  }
}

#endif  // FUNCSPEC_HAVE_CUDA

}  // namespace funcspec::cuda_linalg_test
