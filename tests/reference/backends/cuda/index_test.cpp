// The index family on cuda against the cpu: cat, index_select, gather, scatter_add, index_add and
// masked_fill give the cpu's bits (every dtype, non-contiguous operands, empty and rank-0 tensors,
// sizes past one grid), and bad index values raise the cpu's error, message included.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"

namespace funcspec::cuda_index_test {

using cuda_testing::expect_identical;
using cuda_testing::same_view_on_cuda;

constexpr DType kCudaDtypes[] = {DType::Bool, DType::Int64, DType::Float32, DType::Float64};

// Values of `shape` in `dtype` that vary with the position and `salt`: floats of many magnitudes
// (so sums depend on their order), int64 values spread over the whole range (so sums wrap), bools
// of both values.
Tensor sample(const Shape& shape, DType dtype, std::int64_t salt = 0) {
  const std::int64_t n = numel_of(shape);
  if (dtype == DType::Int64) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t k = static_cast<std::uint64_t>(i + 977 * salt + 1) * 0x9E3779B97F4A7C15ull;
      v[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(i % 5 == 0 ? k : k % 1000);
    }
    return from_vector(v, shape, dtype);
  }
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t k = (i * 7919 + salt * 104729) % 1009;
    double x = static_cast<double>(k - 504) * 0.173;
    for (std::int64_t e = 0; e < (i + salt) % 7; ++e) x *= 10.0;
    v[static_cast<std::size_t>(i)] = dtype == DType::Bool ? static_cast<double>(k % 3 == 0) : x;
  }
  return from_vector(v, shape, dtype);
}

// int64 indices i * step + shift modulo `bound` (repeats when step and bound share a factor).
Tensor indices(const Shape& shape, std::int64_t bound, std::int64_t step = 7, std::int64_t shift = 3) {
  const std::int64_t n = numel_of(shape);
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * step + shift) % bound;
  return from_vector(v, shape, DType::Int64);
}

Tensor transposed(const Tensor& t) {
  return call_one("transpose", {t}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}});
}

Tensor reshaped(const Tensor& t, const std::vector<std::int64_t>& shape) {
  return call_one("reshape", {t}, {{"shape", shape}});
}

// t's values through transposed strides (t has at least 2 dims).
Tensor non_contiguous(const Tensor& t) { return transposed(call_one("contiguous", {transposed(t)})); }

// The 1-d t read backwards through a negative stride (the view of a reversed copy).
Tensor reversed_view(const Tensor& t) {
  const std::int64_t n = t.numel();
  std::vector<double> values = t.to_vector<double>();
  std::vector<double> backwards(values.rbegin(), values.rend());
  const Tensor storage = from_vector(backwards, {n}, t.dtype());
  return Tensor::view_of(storage, {n}, {-1}, n - 1);
}

// t's values as a view at an offset inside a larger storage.
Tensor offset_view(const Tensor& t) {
  const Tensor padded = call_one("cat", {sample({3}, t.dtype(), 5), reshaped(t, {t.numel()})});
  return Tensor::view_of(padded, t.shape(), contiguous_strides(t.shape()), 3);
}

// The inputs as the same views on cuda; literals stay on the host (the dispatcher moves them).
TensorList on_cuda(const TensorList& inputs) {
  TensorList moved;
  for (const Tensor& t : inputs) moved.push_back(t.is_wrapped_number() ? t : same_view_on_cuda(t));
  return moved;
}

// Runs `op` on cpu and on the same views moved to cuda, and expects the cpu's bits.
void expect_same_on_cuda(std::string_view op, const TensorList& inputs, const Attrs& attrs, const std::string& what) {
  const TensorList on_cpu = call(op, inputs, attrs);
  const TensorList moved = on_cuda(inputs);
  const TensorList on_gpu = call(op, moved, attrs);
  ASSERT_EQ(on_gpu.size(), on_cpu.size()) << what;
  for (std::size_t k = 0; k < on_cpu.size(); ++k) expect_identical(on_gpu[k], on_cpu[k], what);
}

// The message of the funcspec::Error that fn throws, prefixed by its kind.
template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return std::string(error_kind_name(e.kind())) + ": " + e.what();
  }
  return "no error";
}

// Expects the cuda run of `op` to fail exactly as the cpu run does.
void expect_same_error_on_cuda(std::string_view op, const TensorList& inputs, const Attrs& attrs) {
  const std::string on_cpu = error_of([&] { call(op, inputs, attrs); });
  const TensorList moved = on_cuda(inputs);
  const std::string on_gpu = error_of([&] { call(op, moved, attrs); });
  EXPECT_NE(on_cpu, "no error") << op;
  EXPECT_EQ(on_gpu, on_cpu) << op;
}

std::string name_of(DType dtype) { return std::string(dtype_name(dtype)); }

TEST(CudaIndex, CatJoinsEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const Tensor a = sample({3, 4}, dtype, 1), b = sample({3, 2}, dtype, 2), c = sample({5, 4}, dtype, 3);
    const std::string what = "cat " + name_of(dtype);
    expect_same_on_cuda("cat", {a, b, non_contiguous(b)}, {{"dim", std::int64_t{1}}}, what + " dim 1");
    expect_same_on_cuda("cat", {non_contiguous(a), offset_view(c)}, {{"dim", std::int64_t{0}}}, what + " dim 0");
    expect_same_on_cuda("cat", {a, sample({0}, dtype), sample({3, 0}, dtype), b}, {{"dim", std::int64_t{-1}}},
                        what + " with empty inputs");
    expect_same_on_cuda("cat", {reversed_view(sample({6}, dtype)), sample({2}, dtype)}, {{"dim", std::int64_t{0}}},
                        what + " negative stride");
    expect_same_on_cuda("cat", {sample({0, 4}, dtype), sample({0, 4}, dtype)}, {{"dim", std::int64_t{0}}},
                        what + " all empty");
  }
}

TEST(CudaIndex, CatOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor a = sample({2, 300000}, DType::Float32, 1), b = sample({2, 400000}, DType::Float32, 2);
  expect_same_on_cuda("cat", {a, non_contiguous(b)}, {{"dim", std::int64_t{1}}}, "large cat");
}

TEST(CudaIndex, IndexSelectEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "index_select " + name_of(dtype);
    const Tensor self = sample({4, 5}, dtype, 1);
    const Tensor index = indices({7}, 4);
    expect_same_on_cuda("index_select", {self, index}, {{"dim", std::int64_t{0}}}, what + " dim 0");
    expect_same_on_cuda("index_select", {non_contiguous(self), indices({6}, 5)}, {{"dim", std::int64_t{1}}},
                        what + " transposed self");
    expect_same_on_cuda("index_select", {offset_view(self), reversed_view(indices({9}, 5))},
                        {{"dim", std::int64_t{-1}}}, what + " offset self, reversed index");
    expect_same_on_cuda("index_select", {self, indices({}, 5)}, {{"dim", std::int64_t{1}}}, what + " 0-d index");
    expect_same_on_cuda("index_select", {sample({}, dtype), indices({1}, 1)}, {{"dim", std::int64_t{0}}},
                        what + " 0-d self");
    expect_same_on_cuda("index_select", {self, indices({0}, 4)}, {{"dim", std::int64_t{0}}}, what + " empty index");
    expect_same_on_cuda("index_select", {sample({0, 5}, dtype), indices({3}, 5)}, {{"dim", std::int64_t{1}}},
                        what + " empty self");
  }
}

TEST(CudaIndex, IndexSelectOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  expect_same_on_cuda("index_select", {sample({3, 400000}, DType::Float64), indices({5}, 3)},
                      {{"dim", std::int64_t{0}}}, "large index_select");
}

TEST(CudaIndex, GatherEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "gather " + name_of(dtype);
    const Tensor self = sample({4, 5, 3}, dtype, 1);
    for (std::int64_t dim = 0; dim < 3; ++dim) {
      const std::int64_t size = self.shape()[static_cast<std::size_t>(dim)];
      expect_same_on_cuda("gather", {self, indices({3, 4, 2}, size)}, {{"dim", dim}},
                          what + " dim " + std::to_string(dim));
    }
    expect_same_on_cuda("gather", {non_contiguous(sample({5, 6}, dtype)), non_contiguous(indices({4, 6}, 5))},
                        {{"dim", std::int64_t{0}}}, what + " transposed");
    const Tensor broadcast_index =
        call_one("expand", {indices({1, 3}, 6)}, {{"size", std::vector<std::int64_t>{5, 3}}});
    expect_same_on_cuda("gather", {offset_view(sample({5, 6}, dtype)), broadcast_index}, {{"dim", std::int64_t{1}}},
                        what + " broadcast index");
    expect_same_on_cuda("gather", {sample({}, dtype), indices({}, 1)}, {{"dim", std::int64_t{0}}}, what + " 0-d");
    expect_same_on_cuda("gather", {sample({4, 5}, dtype), indices({0, 5}, 4)}, {{"dim", std::int64_t{0}}},
                        what + " empty index");
  }
}

TEST(CudaIndex, GatherOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  expect_same_on_cuda("gather", {sample({8, 200000}, DType::Int64), indices({6, 200000}, 8, 5)},
                      {{"dim", std::int64_t{0}}}, "large gather");
}

TEST(CudaIndex, ScatterAddAccumulatesInTheCpusOrder) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "scatter_add " + name_of(dtype);
    const Tensor self = sample({4, 5, 3}, dtype, 1);
    for (std::int64_t dim = 0; dim < 3; ++dim) {
      const std::size_t d = static_cast<std::size_t>(dim);
      // index smaller than self and src outside dim, and longer than self along dim: many repeats.
      Shape index_shape{3, 4, 2}, src_shape{4, 5, 3};
      index_shape[d] = 9;
      src_shape[d] = 10;
      expect_same_on_cuda("scatter_add",
                          {self, indices(index_shape, self.shape()[d], 5, 1), sample(src_shape, dtype, 2)},
                          {{"dim", dim}}, what + " dim " + std::to_string(dim));
    }
    expect_same_on_cuda("scatter_add",
                        {non_contiguous(sample({5, 6}, dtype)), non_contiguous(indices({8, 6}, 5, 3, 2)),
                         offset_view(sample({8, 6}, dtype, 3))},
                        {{"dim", std::int64_t{0}}}, what + " non-contiguous");
    expect_same_on_cuda("scatter_add",
                        {reversed_view(sample({6}, dtype)), reversed_view(indices({10}, 6)), sample({12}, dtype, 4)},
                        {{"dim", std::int64_t{0}}}, what + " negative strides");
    expect_same_on_cuda("scatter_add", {sample({}, dtype), indices({}, 1), sample({}, dtype, 2)},
                        {{"dim", std::int64_t{0}}}, what + " 0-d");
    expect_same_on_cuda("scatter_add", {sample({4, 5}, dtype), indices({0, 5}, 4), sample({3, 5}, dtype)},
                        {{"dim", std::int64_t{0}}}, what + " empty index");
  }
}

TEST(CudaIndex, ScatterAddOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  // 1.2M outputs, each receiving about 2 sources in an order-sensitive float sum.
  expect_same_on_cuda(
      "scatter_add",
      {sample({4, 300000}, DType::Float32), indices({8, 300000}, 4, 3, 1), sample({8, 300000}, DType::Float32, 7)},
      {{"dim", std::int64_t{0}}}, "large scatter_add");
}

TEST(CudaIndex, IndexAddAccumulatesInTheCpusOrder) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "index_add " + name_of(dtype);
    const Scalar alpha = dtype == DType::Bool    ? Scalar(true)
                         : dtype == DType::Int64 ? Scalar(std::int64_t{-3})
                                                 : Scalar(0.37);
    const Tensor self = sample({4, 5, 3}, dtype, 1);
    for (std::int64_t dim = 0; dim < 3; ++dim) {
      Shape source_shape = self.shape();
      source_shape[static_cast<std::size_t>(dim)] = 9;
      const std::int64_t size = self.shape()[static_cast<std::size_t>(dim)];
      expect_same_on_cuda("index_add", {self, indices({9}, size, 5, 1), sample(source_shape, dtype, 2)},
                          {{"dim", dim}, {"alpha", alpha}}, what + " dim " + std::to_string(dim));
    }
    expect_same_on_cuda("index_add",
                        {non_contiguous(sample({5, 6}, dtype)), reversed_view(indices({8}, 6, 5, 2)),
                         offset_view(sample({5, 8}, dtype, 3))},
                        {{"dim", std::int64_t{1}}, {"alpha", alpha}}, what + " non-contiguous");
    expect_same_on_cuda("index_add", {sample({}, dtype), indices({}, 1), sample({}, dtype, 2)},
                        {{"dim", std::int64_t{0}}, {"alpha", alpha}}, what + " 0-d");
    expect_same_on_cuda("index_add", {sample({4, 5}, dtype), indices({0}, 4), sample({0, 5}, dtype)},
                        {{"dim", std::int64_t{0}}, {"alpha", alpha}}, what + " empty index");
  }
}

TEST(CudaIndex, IndexAddOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  expect_same_on_cuda(
      "index_add", {sample({3, 400000}, DType::Float64), indices({7}, 3, 2, 0), sample({7, 400000}, DType::Float64, 5)},
      {{"dim", std::int64_t{0}}, {"alpha", Scalar(-1.5)}}, "large index_add");
}

TEST(CudaIndex, MaskedFillEveryDtypeAndLayout) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : kCudaDtypes) {
    const std::string what = "masked_fill " + name_of(dtype);
    const Tensor self = sample({4, 5}, dtype, 1);
    const Tensor mask = sample({4, 5}, DType::Bool, 2);
    // The value converts to self's dtype: a float literal, an int64 0-d tensor, a bool 0-d tensor.
    expect_same_on_cuda("masked_fill", {self, mask, Tensor::wrapped_scalar(Scalar(-2.75))}, {}, what + " literal");
    expect_same_on_cuda("masked_fill", {non_contiguous(self), non_contiguous(mask), sample({}, DType::Int64, 3)}, {},
                        what + " transposed");
    expect_same_on_cuda("masked_fill", {offset_view(self), sample({1, 5}, DType::Bool, 4), sample({}, DType::Bool, 0)},
                        {}, what + " broadcast mask");
    expect_same_on_cuda("masked_fill", {sample({}, dtype), sample({}, DType::Bool, 0), sample({}, DType::Float64, 2)},
                        {}, what + " 0-d");
    expect_same_on_cuda("masked_fill", {sample({0, 5}, dtype), sample({0, 5}, DType::Bool), sample({}, dtype)}, {},
                        what + " empty");
  }
}

TEST(CudaIndex, MaskedFillOfMoreThanOneGrid) {
  FUNCSPEC_REQUIRE_GPU();
  expect_same_on_cuda(
      "masked_fill",
      {sample({1200, 1000}, DType::Float32), sample({1200, 1000}, DType::Bool, 1), Tensor::wrapped_scalar(Scalar(0.1))},
      {}, "large masked_fill");
}

TEST(CudaIndex, IndexValuesOutOfRangeRaiseTheCpusError) {
  FUNCSPEC_REQUIRE_GPU();
  // The first bad value in row-major order is the one reported, on both backends.
  const Tensor bad = from_vector(std::vector<std::int64_t>{0, 2, 9, -1, 1, 7}, {6}, DType::Int64);
  const Tensor negative = from_vector(std::vector<std::int64_t>{1, -4, 0, 12}, {4}, DType::Int64);
  const Tensor self = sample({3, 4}, DType::Float32);
  expect_same_error_on_cuda("index_select", {self, bad}, {{"dim", std::int64_t{0}}});
  expect_same_error_on_cuda("index_select", {self, reversed_view(negative)}, {{"dim", std::int64_t{1}}});
  expect_same_error_on_cuda("gather", {self, reshaped(bad, {2, 3})}, {{"dim", std::int64_t{1}}});
  expect_same_error_on_cuda("gather", {self, non_contiguous(reshaped(negative, {2, 2}))}, {{"dim", std::int64_t{0}}});
  expect_same_error_on_cuda("scatter_add", {self, reshaped(bad, {2, 3}), sample({2, 3}, DType::Float32)},
                            {{"dim", std::int64_t{1}}});
  expect_same_error_on_cuda("index_add", {self, bad, sample({3, 6}, DType::Float32)},
                            {{"dim", std::int64_t{1}}, {"alpha", Scalar(1.0)}});
  expect_same_error_on_cuda("index_select",
                            {sample({}, DType::Int64), from_vector(std::vector<std::int64_t>{1}, {}, DType::Int64)},
                            {{"dim", std::int64_t{0}}});
}

}  // namespace funcspec::cuda_index_test
