#include <gtest/gtest.h>

#include "reference/core/tensor.h"

namespace funcspec {
namespace {

TEST(Tensor, EmptyIsContiguousAndZeroFilled) {
  const Tensor t = Tensor::empty({2, 3}, DType::Float64);
  EXPECT_EQ(t.strides(), (Strides{3, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.to_vector<double>(), std::vector<double>(6, 0.0));
}

TEST(Tensor, ViewsShareStorageAndSeeEachOthersWrites) {
  const Tensor base = from_values({0, 1, 2, 3, 4, 5}, {2, 3});
  // The transpose of base, built from geometry alone.
  const Tensor transposed = Tensor::view_of(base, {3, 2}, {1, 3}, 0);
  EXPECT_TRUE(transposed.shares_storage_with(base));
  EXPECT_FALSE(transposed.is_contiguous());
  EXPECT_EQ(transposed.to_vector<double>(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  base.data<double>()[1] = 10;  // base[0][1] is transposed[1][0]
  EXPECT_EQ(transposed.to_vector<double>()[2], 10);
}

TEST(Tensor, NegativeStridesWalkBackwards) {
  const Tensor base = from_values({1, 2, 3}, {3});
  const Tensor reversed = Tensor::view_of(base, {3}, {-1}, 2);
  EXPECT_EQ(reversed.to_vector<double>(), (std::vector<double>{3, 2, 1}));
}

TEST(Tensor, MetaHasShapeAndDtypeButNoStorage) {
  const std::int64_t before = allocation_stats(Device::Meta).allocations;
  const Tensor t = Tensor::empty({1000, 1000}, DType::Float32, Device::Meta);
  EXPECT_FALSE(t.has_storage());
  EXPECT_EQ(t.numel(), 1000000);
  EXPECT_EQ(allocation_stats(Device::Meta).allocations, before);
  EXPECT_THROW(t.to_vector<float>(), Error);
}

TEST(Tensor, AllocationStatsTrackLiveBytes) {
  const std::int64_t live_before = allocation_stats(Device::Cpu).live_bytes;
  {
    const Tensor t = Tensor::empty({256}, DType::Float64);
    EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes, live_before + 256 * 8);
    const Tensor alias = Tensor::view_of(t, {16, 16}, {16, 1}, 0);  // a view allocates nothing
    EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes, live_before + 256 * 8);
  }
  EXPECT_EQ(allocation_stats(Device::Cpu).live_bytes, live_before);
}

TEST(Tensor, WrappedScalarIsAZeroDimLiteral) {
  const Tensor t = Tensor::wrapped_scalar(Scalar(2.5));
  EXPECT_EQ(t.dim(), 0);
  EXPECT_TRUE(t.is_wrapped_number());
  EXPECT_EQ(t.dtype(), DType::Float64);
  EXPECT_EQ(t.to_vector<double>(), std::vector<double>{2.5});
}

TEST(Tensor, ContiguityIgnoresSizeOneDims) {
  const Tensor base = Tensor::empty({3}, DType::Int64);
  EXPECT_TRUE(Tensor::view_of(base, {3, 1}, {1, 7}, 0).is_contiguous());
  EXPECT_TRUE(Tensor::view_of(base, {0, 3}, {5, 9}, 0).is_contiguous());  // nothing to lay out
}

TEST(Tensor, PrintsNestedValues) {
  EXPECT_EQ(from_values({1, 2, 3, 4}, {2, 2}, DType::Int64).to_string(), "tensor([[1, 2], [3, 4]], dtype=int64)");
  EXPECT_EQ(Tensor::empty({0, 2}, DType::Bool).to_string(), "tensor([], dtype=bool)");
  EXPECT_EQ(Tensor::empty({2}, DType::Float32, Device::Meta).to_string(),
            "tensor(..., size=[2], dtype=float32, device=meta)");
}

TEST(Tensor, OracleElementsKeepTheirPrecision) {
  const Tensor t = from_vector(std::vector<oracle_t>{oracle_t(1) / 3}, {1}, DType::Oracle);
  const oracle_t third = t.to_vector<oracle_t>()[0];
  EXPECT_LT(boost::multiprecision::abs(third * 3 - 1), oracle_t("1e-48"));
}

}  // namespace
}  // namespace funcspec
