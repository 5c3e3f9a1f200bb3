#include <gtest/gtest.h>

#include "reference/core/promotion.h"

namespace funcspec {
namespace {

Tensor dimensioned(DType d) { return Tensor::empty({2}, d); }
Tensor zero_dim(DType d) { return Tensor::empty({}, d); }
Tensor literal(const Scalar& s) { return Tensor::wrapped_scalar(s); }

DType result_of(std::initializer_list<Tensor> operands) { return result_type(std::vector<Tensor>(operands)); }

TEST(PromoteTypes, FollowsTheLattice) {
  EXPECT_EQ(promote_types(DType::Bool, DType::Int64), DType::Int64);
  EXPECT_EQ(promote_types(DType::Int64, DType::Float32), DType::Float32);
  EXPECT_EQ(promote_types(DType::Float32, DType::Float64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Float64, DType::Oracle), DType::Oracle);
  EXPECT_EQ(promote_types(DType::Bool, DType::Bool), DType::Bool);
}

// The examples of PyTorch's type promotion documentation, restated for these dtypes.
TEST(ResultType, LiteralsOfTheSameCategoryDoNotWiden) {
  EXPECT_EQ(result_of({dimensioned(DType::Float32), literal(2.5)}), DType::Float32);
  EXPECT_EQ(result_of({dimensioned(DType::Int64), literal(7)}), DType::Int64);
}

TEST(ResultType, FloatLiteralOnIntegersGivesTheDefaultFloat) {
  EXPECT_EQ(result_of({dimensioned(DType::Int64), literal(2.5)}), DType::Float32);
  EXPECT_EQ(result_of({dimensioned(DType::Bool), literal(2.5)}), DType::Float32);
}

TEST(ResultType, IntLiteralOnBoolGivesInt64) {
  EXPECT_EQ(result_of({dimensioned(DType::Bool), literal(1)}), DType::Int64);
  EXPECT_EQ(result_of({dimensioned(DType::Bool), literal(true)}), DType::Bool);
}

TEST(ResultType, ZeroDimTensorsWidenOnlyAcrossCategories) {
  EXPECT_EQ(result_of({dimensioned(DType::Float32), zero_dim(DType::Float64)}), DType::Float32);
  EXPECT_EQ(result_of({dimensioned(DType::Int64), zero_dim(DType::Float64)}), DType::Float64);
  EXPECT_EQ(result_of({zero_dim(DType::Float32), zero_dim(DType::Float64)}), DType::Float64);
}

TEST(ResultType, ZeroDimOutranksLiterals) {
  EXPECT_EQ(result_of({zero_dim(DType::Int64), literal(2.5)}), DType::Float32);
  EXPECT_EQ(result_of({zero_dim(DType::Float64), literal(2.5)}), DType::Float64);
}

TEST(ResultType, OracleIsTheWidestFloat) {
  EXPECT_EQ(result_of({dimensioned(DType::Oracle), dimensioned(DType::Float64)}), DType::Oracle);
  EXPECT_EQ(result_of({dimensioned(DType::Float64), zero_dim(DType::Oracle)}), DType::Float64);
  EXPECT_EQ(result_of({dimensioned(DType::Int64), zero_dim(DType::Oracle)}), DType::Oracle);
}

TEST(CanCast, NeverIntoALowerCategory) {
  EXPECT_TRUE(can_cast(DType::Int64, DType::Float32));
  EXPECT_TRUE(can_cast(DType::Float64, DType::Float32));  // same category: allowed
  EXPECT_FALSE(can_cast(DType::Float32, DType::Int64));
  EXPECT_FALSE(can_cast(DType::Int64, DType::Bool));
  EXPECT_TRUE(can_cast(DType::Bool, DType::Int64));
}

}  // namespace
}  // namespace funcspec
