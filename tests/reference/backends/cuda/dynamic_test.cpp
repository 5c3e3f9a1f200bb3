// The dynamic family on cuda against the cpu: item and is_nonzero read the one element back to the
// host; nonzero and masked_select give the cpu's rows in row-major order, their output on cuda.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_dynamic_test {

using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;

constexpr DType kCudaDtypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

std::string name_of(DType dtype) { return std::string(dtype_name(dtype)); }

// Zeros, except about one element in `every` (all of them for 1): NaN, -0.0 (a zero), 2.5, -inf
// or -7 among the floats, a non-zero value for bool and int64.
Tensor sparse(const Shape& shape, DType dtype, std::int64_t every = 3) {
  const std::int64_t n = numel_of(shape);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 2.5,
                             -std::numeric_limits<double>::infinity(), -7.0};
  std::vector<double> v(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = (i * 7919) % 1009;
    if (k % every != 0) continue;
    v[static_cast<std::size_t>(i)] =
        is_floating(dtype) ? specials[static_cast<std::size_t>(k % 5)] : static_cast<double>(k + 1);
  }
  return from_vector(v, shape, dtype);
}

Tensor filled(const Shape& shape, DType dtype, double value) {
  return from_vector(std::vector<double>(static_cast<std::size_t>(numel_of(shape)), value), shape, dtype);
}

Tensor transposed(const Tensor& t) {
  return call_one("transpose", {t}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}});
}

Tensor non_contiguous(const Tensor& t) { return transposed(call_one("contiguous", {transposed(t)})); }

void expect_same_on_cuda(std::string_view op, const TensorList& inputs, const std::string& what) {
  const Tensor on_cpu = call_one(op, inputs, {});
  TensorList moved;
  for (const Tensor& t : inputs) moved.push_back(same_view_on_cuda(t));
  const Tensor on_gpu = call_one(op, moved, {});
  expect_identical(on_gpu, on_cpu, what);
}

// item and is_nonzero: the same host value (a wrapped number) of the same dtype.
void expect_same_scalar_on_cuda(std::string_view op, const Tensor& self, const std::string& what) {
  const Tensor on_cpu = call_one(op, {self}, {});
  const Tensor on_gpu = call_one(op, {same_view_on_cuda(self)}, {});
  ASSERT_TRUE(on_gpu.is_wrapped_number()) << what;
  ASSERT_EQ(on_gpu.dtype(), on_cpu.dtype()) << what;
  const double got = on_gpu.to_vector<double>().at(0), want = on_cpu.to_vector<double>().at(0);
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what;
  } else {
    EXPECT_EQ(got, want) << what;
    EXPECT_EQ(std::signbit(got), std::signbit(want)) << what;
  }
}

TEST(CudaDynamic, ItemAndIsNonzeroReadTheElementBack) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const Tensor values = sparse({25}, dtype, 1);
    for (std::int64_t i = 0; i < 25; ++i) {
      // A one-element view at offset i of a larger storage, as 0-d and as shape [1, 1].
      const Tensor element = Tensor::view_of(values, {}, {}, i);
      const Tensor boxed = Tensor::view_of(values, {1, 1}, {5, 1}, i);
      const std::string what = name_of(dtype) + " element " + std::to_string(i);
      expect_same_scalar_on_cuda("item", element, "item " + what);
      expect_same_scalar_on_cuda("item", boxed, "item [1, 1] " + what);
      expect_same_scalar_on_cuda("is_nonzero", element, "is_nonzero " + what);
    }
  }
}

TEST(CudaDynamic, ItemOfSeveralElementsRaisesTheCpusError) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor two = sparse({2}, DType::Float32, 1);
  std::string on_cpu, on_gpu;
  try {
    call("item", {two}, {});
  } catch (const Error& e) {
    on_cpu = std::string(error_kind_name(e.kind())) + e.what();
  }
  try {
    call("item", {same_view_on_cuda(two)}, {});
  } catch (const Error& e) {
    on_gpu = std::string(error_kind_name(e.kind())) + e.what();
  }
  EXPECT_FALSE(on_cpu.empty());
  EXPECT_EQ(on_gpu, on_cpu);
}

TEST(CudaDynamic, NonzeroEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "nonzero " + name_of(dtype);
    expect_same_on_cuda("nonzero", {sparse({7}, dtype)}, what + " 1-d");
    expect_same_on_cuda("nonzero", {sparse({3, 4, 5}, dtype)}, what + " 3-d");
    expect_same_on_cuda("nonzero", {non_contiguous(sparse({6, 9}, dtype))}, what + " transposed");
    const Tensor broadcast =
        call_one("expand", {sparse({1, 6}, dtype, 2)}, {{"size", std::vector<std::int64_t>{4, 6}}});
    expect_same_on_cuda("nonzero", {broadcast}, what + " broadcast");
    expect_same_on_cuda("nonzero", {Tensor::view_of(sparse({10}, dtype, 1), {3}, {-3}, 9)}, what + " negative stride");
    expect_same_on_cuda("nonzero", {filled({}, dtype, 3)}, what + " 0-d non-zero");
    expect_same_on_cuda("nonzero", {filled({}, dtype, 0)}, what + " 0-d zero");
    expect_same_on_cuda("nonzero", {filled({}, dtype, -0.0)}, what + " 0-d negative zero");
    expect_same_on_cuda("nonzero", {sparse({4, 0, 3}, dtype)}, what + " empty");
    expect_same_on_cuda("nonzero", {filled({5, 5}, dtype, 0)}, what + " all zero");
  }
}

TEST(CudaDynamic, NonzeroOfManyChunks) {
  FUNCSPEC_REQUIRE_GPU();
  // 1.2M elements: hundreds of chunks, uneven counts per chunk.
  expect_same_on_cuda("nonzero", {sparse({300, 4000}, DType::Float32, 7)}, "large nonzero");
  expect_same_on_cuda("nonzero", {non_contiguous(sparse({1100, 1100}, DType::Bool, 2))}, "large transposed nonzero");
}

TEST(CudaDynamic, MaskedSelectEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "masked_select " + name_of(dtype);
    const Tensor self = sparse({4, 6}, dtype, 1);
    expect_same_on_cuda("masked_select", {self, sparse({4, 6}, DType::Bool, 2)}, what);
    expect_same_on_cuda("masked_select", {non_contiguous(self), non_contiguous(sparse({4, 6}, DType::Bool, 3))},
                        what + " transposed");
    expect_same_on_cuda("masked_select", {self, sparse({1, 6}, DType::Bool, 2)}, what + " broadcast mask");
    expect_same_on_cuda("masked_select", {sparse({6}, dtype, 1), sparse({3, 1}, DType::Bool, 2)},
                        what + " broadcast both");
    expect_same_on_cuda("masked_select", {sparse({}, dtype, 1), sparse({}, DType::Bool, 1)}, what + " 0-d");
    expect_same_on_cuda("masked_select", {sparse({0, 6}, dtype), sparse({0, 6}, DType::Bool)}, what + " empty");
    expect_same_on_cuda("masked_select", {self, filled({4, 6}, DType::Bool, 0)}, what + " nothing selected");
  }
}

TEST(CudaDynamic, MaskedSelectOfManyChunks) {
  FUNCSPEC_REQUIRE_GPU();
  expect_same_on_cuda("masked_select", {sparse({1200, 1000}, DType::Float64, 1), sparse({1200, 1000}, DType::Bool, 5)},
                      "large masked_select");
}

}  // namespace funcspec::cuda_dynamic_test
