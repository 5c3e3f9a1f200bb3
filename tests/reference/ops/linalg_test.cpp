// Hand-worked values for the linalg family: every expected number below was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "reference/api/conversion.h"
#include "reference/api/linalg.h"
#include "reference/ops/registry.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::error_kind_of;
using testing_support::expect_error_kind;
using testing_support::kInf;
using testing_support::kNaN;
using testing_support::values;

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename Fn>
void expect_error(Fn&& fn, ErrorKind kind, const std::string& fragment) {
  try {
    fn();
    ADD_FAILURE() << "expected a " << error_kind_name(kind) << " error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_THAT(e.what(), HasSubstr(fragment));
  }
}

Tensor meta(const Shape& shape, DType dtype = DType::Float64) { return Tensor::empty(shape, dtype, Device::Meta); }

// ---------------------------------------------------------------------------------------------
// einsum

TEST(LinalgEinsum, ExplicitMatrixProduct) {
  const Tensor a = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor b = from_values({5, 6, 7, 8}, {2, 2});
  const Tensor c = ops::einsum("ij,jk->ik", {a, b});
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  EXPECT_THAT(values(c), ElementsAre(19, 22, 43, 50));
}

TEST(LinalgEinsum, ImplicitOutputIsLabelsSeenOnceInAlphabeticalOrder) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});        // labels b, a
  const Tensor y = from_values({1, 0, 0, 1, 1, 1, 2, 0}, {4, 2});  // labels c, b
  const Tensor out = ops::einsum("ba,cb", {x, y});                 // -> ac
  EXPECT_EQ(out.shape(), (Shape{3, 4}));
  EXPECT_THAT(values(out), ElementsAre(1, 4, 5, 2, 2, 5, 7, 4, 3, 6, 9, 6));
}

TEST(LinalgEinsum, ImplicitOutputPutsUppercaseLabelsFirst) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor out = ops::einsum("aB", {x});  // -> Ba, a transpose
  EXPECT_EQ(out.shape(), (Shape{3, 2}));
  EXPECT_THAT(values(out), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(LinalgEinsum, IgnoresSpaces) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_THAT(values(ops::einsum(" i j -> j ", {x})), ElementsAre(5, 7, 9));
}

TEST(LinalgEinsum, RepeatedLabelTakesTheDiagonal) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  EXPECT_THAT(values(ops::einsum("ii->i", {x})), ElementsAre(1, 4));
}

TEST(LinalgEinsum, RepeatedLabelAbsentFromOutputSumsTheDiagonal) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor explicit_trace = ops::einsum("ii->", {x});
  const Tensor implicit_trace = ops::einsum("ii", {x});
  EXPECT_EQ(explicit_trace.dim(), 0);
  EXPECT_EQ(implicit_trace.dim(), 0);
  EXPECT_THAT(values(explicit_trace), ElementsAre(5));
  EXPECT_THAT(values(implicit_trace), ElementsAre(5));
}

TEST(LinalgEinsum, EllipsisBroadcastsBatchDims) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 1, 2});
  const Tensor y = from_values({1, 1, 1, 0, 0, 1}, {3, 2});
  const Tensor out = ops::einsum("...i,...i->...", {x, y});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(out), ElementsAre(3, 1, 2, 7, 3, 4));
}

TEST(LinalgEinsum, EllipsisAbsentFromOutputIsSummed) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  EXPECT_THAT(values(ops::einsum("...i->i", {x})), ElementsAre(4, 6));
}

TEST(LinalgEinsum, ImplicitOutputKeepsEllipsisDimsFirst) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {3, 2});
  const Tensor out = ops::einsum("i...", {x});  // -> ...i, a transpose
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(out), ElementsAre(1, 3, 5, 2, 4, 6));
}

TEST(LinalgEinsum, SizeOneDimsBroadcastAcrossOperands) {
  const Tensor x = from_values({1, 2}, {2, 1});
  const Tensor y = from_values({1, 2, 3}, {1, 3});
  const Tensor out = ops::einsum("ij,ij->ij", {x, y});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(out), ElementsAre(1, 2, 3, 2, 4, 6));
}

TEST(LinalgEinsum, MultipliesThreeOperands) {
  const Tensor a = from_values({1, 2, 3}, {3});
  const Tensor b = from_values({4, 5, 6}, {3});
  const Tensor c = from_values({1, 1, 2}, {3});
  EXPECT_THAT(values(ops::einsum("i,i,i->", {a, b, c})), ElementsAre(50));
}

TEST(LinalgEinsum, RankZeroOperands) {
  const Tensor a = from_values({2}, {});
  const Tensor b = from_values({3}, {});
  EXPECT_THAT(values(ops::einsum(",->", {a, b})), ElementsAre(6));
}

TEST(LinalgEinsum, EmptyContractionGivesZeros) {
  const Tensor out =
      ops::einsum("ij,jk->ik", {Tensor::empty({2, 0}, DType::Float64), Tensor::empty({0, 3}, DType::Float64)});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(out), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(LinalgEinsum, SizeZeroOutputDim) {
  const Tensor out =
      ops::einsum("ij,jk->ik", {Tensor::empty({0, 2}, DType::Float64), Tensor::empty({2, 3}, DType::Float64)});
  EXPECT_EQ(out.shape(), (Shape{0, 3}));
}

TEST(LinalgEinsum, NanAndInfTimesZeroPropagate) {
  const Tensor zero_one = from_values({0, 1}, {2});
  EXPECT_TRUE(std::isnan(values(ops::einsum("i,i->", {from_values({kNaN, 1}, {2}), zero_one}))[0]));
  EXPECT_TRUE(std::isnan(values(ops::einsum("i,i->", {from_values({kInf, 1}, {2}), zero_one}))[0]));
}

TEST(LinalgEinsum, ReadsNonContiguousOperands) {
  const Tensor base = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor transposed = Tensor::view_of(base, {3, 2}, {1, 3}, 0);  // [[1,4],[2,5],[3,6]]
  EXPECT_THAT(values(ops::einsum("ij->i", {transposed})), ElementsAre(5, 7, 9));
}

TEST(LinalgEinsum, Float32IsAccumulatedInFloat64) {
  // Summed in float32, each 2^-24 would be lost against 1 (round half to even); summed in float64
  // the two add up to 2^-23, which float32 holds.
  const Tensor x = from_values({1, std::ldexp(1.0, -24), std::ldexp(1.0, -24)}, {3}, DType::Float32);
  const Tensor ones = from_values({1, 1, 1}, {3}, DType::Float32);
  const Tensor out = ops::einsum("i,i->", {x, ones});
  EXPECT_EQ(out.dtype(), DType::Float32);
  EXPECT_EQ(values(out)[0], 1.0 + std::ldexp(1.0, -23));
}

TEST(LinalgEinsum, Int64IsExactAndWrapsOnOverflow) {
  const Tensor a = from_values({3, 4}, {2}, DType::Int64);
  const Tensor b = from_values({5, 6}, {2}, DType::Int64);
  const Tensor exact = ops::einsum("i,i->", {a, b});
  EXPECT_EQ(exact.dtype(), DType::Int64);
  EXPECT_EQ(exact.to_vector<std::int64_t>()[0], 39);
  const Tensor big = from_values({std::ldexp(1.0, 62)}, {1}, DType::Int64);
  const Tensor two = from_values({2}, {1}, DType::Int64);
  EXPECT_EQ(ops::einsum("i,i->", {big, two}).to_vector<std::int64_t>()[0], std::numeric_limits<std::int64_t>::min());
}

TEST(LinalgEinsum, PromotesOperandsToACommonDtype) {
  const Tensor f32 = from_values({1.5, 2}, {2}, DType::Float32);
  const Tensor i64 = from_values({2, 3}, {2}, DType::Int64);
  const Tensor f64 = from_values({1, 1}, {2}, DType::Float64);
  const Tensor mixed = ops::einsum("i,i->", {f32, i64});
  EXPECT_EQ(mixed.dtype(), DType::Float32);
  EXPECT_THAT(values(mixed), ElementsAre(9));
  EXPECT_EQ(ops::einsum("i,i->", {f32, f64}).dtype(), DType::Float64);
}

TEST(LinalgEinsum, InfersShapeOnMeta) {
  const Tensor out = ops::einsum("b...ij,jk->b...ik", {meta({2, 5, 3, 4}), meta({4, 6})});
  EXPECT_EQ(out.device(), Device::Meta);
  EXPECT_EQ(out.shape(), (Shape{2, 5, 3, 6}));
}

TEST(LinalgEinsum, RejectsWrongOperandCount) {
  const Tensor x = from_values({1, 2}, {2});
  expect_error([&] { ops::einsum("i,i->", {x}); }, ErrorKind::InvalidArgument, "2 operand terms but 1 operands");
  expect_error([&] { ops::einsum("i->", {}); }, ErrorKind::InvalidArgument, "[einsum]");
}

TEST(LinalgEinsum, RejectsTermRankMismatch) {
  expect_error([&] { ops::einsum("ij->", {from_values({1, 2}, {2})}); }, ErrorKind::ShapeMismatch, "operand 0");
  expect_error([&] { ops::einsum("ij...->", {from_values({1, 2}, {2})}); }, ErrorKind::ShapeMismatch, "at least 2");
}

TEST(LinalgEinsum, RejectsRepeatedLabelWithDifferentSizesInOneOperand) {
  expect_error(
      [&] {
        ops::einsum("ii->i", {Tensor::empty({2, 3}, DType::Float64)});
      },
      ErrorKind::ShapeMismatch, "repeated in operand 0");
}

TEST(LinalgEinsum, RejectsLabelSizesThatDoNotBroadcast) {
  expect_error(
      [&] {
        ops::einsum("ij,jk->ik", {Tensor::empty({2, 3}, DType::Float64), Tensor::empty({4, 2}, DType::Float64)});
      },
      ErrorKind::ShapeMismatch, "subscript 'j'");
}

TEST(LinalgEinsum, RejectsBool) {
  const Tensor b = from_values({1, 0}, {2}, DType::Bool);
  expect_error([&] { ops::einsum("i,i->", {b, b}); }, ErrorKind::DtypeNotSupported, "[einsum]");
}

TEST(LinalgEinsum, RejectsMalformedEquations) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  expect_error([&] { ops::einsum("i1->i", {x}); }, ErrorKind::InvalidArgument, "invalid character '1'");
  expect_error([&] { ops::einsum("i.j->i", {x}); }, ErrorKind::InvalidArgument, "ellipsis");
  expect_error([&] { ops::einsum("ij->k", {x}); }, ErrorKind::InvalidArgument, "appears in no operand");
  expect_error([&] { ops::einsum("ij->ii", {x}); }, ErrorKind::InvalidArgument, "more than once");
  expect_error([&] { ops::einsum("ij->i->j", {x}); }, ErrorKind::InvalidArgument, "single term");
}

// ---------------------------------------------------------------------------------------------
// matrix products

TEST(LinalgMm, MultipliesMatrices) {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = from_values({1, 0, 0, 1, 1, 1}, {3, 2});
  const Tensor c = ops::mm(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 2}));
  EXPECT_THAT(values(c), ElementsAre(4, 5, 10, 11));
}

TEST(LinalgMm, RejectsMismatchedInnerSizes) {
  expect_error(
      [&] {
        ops::mm(Tensor::empty({2, 3}, DType::Float64), Tensor::empty({2, 3}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "[mm]");
}

TEST(LinalgMm, RejectsNonMatrices) {
  expect_error(
      [&] {
        ops::mm(Tensor::empty({3}, DType::Float64), Tensor::empty({3, 2}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "[mm]");
}

TEST(LinalgMm, RejectsMixedDtypes) {
  expect_error(
      [&] {
        ops::mm(Tensor::empty({2, 2}, DType::Float32), Tensor::empty({2, 2}, DType::Float64));
      },
      ErrorKind::DtypeNotSupported, "same dtype");
}

TEST(LinalgMm, OutVariantWritesIntoOut) {
  const Tensor a = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor b = from_values({5, 6, 7, 8}, {2, 2});
  const Tensor out = Tensor::empty({2, 2}, DType::Float64);
  const Tensor returned = ops::mm_out(a, b, out);
  EXPECT_TRUE(returned.is_same(out));
  EXPECT_THAT(values(out), ElementsAre(19, 22, 43, 50));
}

TEST(LinalgMm, OutVariantRejectsAWronglyShapedOut) {
  const Tensor a = from_values({1, 2, 3, 4}, {2, 2});
  expect_error([&] { ops::mm_out(a, a, Tensor::empty({4}, DType::Float64)); }, ErrorKind::OutShapeMismatch, "mm.out");
}

TEST(LinalgBmm, MultipliesEachBatchElement) {
  const Tensor a = from_values({1, 2, 3, 4}, {2, 1, 2});
  const Tensor b = from_values({1, 1, 2, 0}, {2, 2, 1});
  const Tensor c = ops::bmm(a, b);
  EXPECT_EQ(c.shape(), (Shape{2, 1, 1}));
  EXPECT_THAT(values(c), ElementsAre(3, 6));
}

TEST(LinalgBmm, RejectsDifferentBatchSizes) {
  expect_error(
      [&] {
        ops::bmm(Tensor::empty({2, 2, 2}, DType::Float64), Tensor::empty({1, 2, 2}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "batch sizes");
}

TEST(LinalgMv, MultipliesMatrixByVector) {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_THAT(values(ops::mv(a, from_values({1, 0, -1}, {3}))), ElementsAre(-2, -2));
}

TEST(LinalgMv, RejectsMismatchedSizes) {
  expect_error(
      [&] {
        ops::mv(Tensor::empty({2, 3}, DType::Float64), Tensor::empty({2}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "[mv]");
}

TEST(LinalgDot, InnerProduct) {
  const Tensor d = ops::dot(from_values({1, 2, 3}, {3}), from_values({4, 5, 6}, {3}));
  EXPECT_EQ(d.dim(), 0);
  EXPECT_THAT(values(d), ElementsAre(32));
}

TEST(LinalgDot, EmptyVectorsGiveZero) {
  EXPECT_THAT(values(ops::dot(Tensor::empty({0}, DType::Float64), Tensor::empty({0}, DType::Float64))), ElementsAre(0));
}

TEST(LinalgDot, RequiresEqualDtypes) {
  expect_error([&] { ops::dot(from_values({1}, {1}, DType::Float32), from_values({1}, {1}, DType::Float64)); },
               ErrorKind::DtypeNotSupported, "[dot]");
}

TEST(LinalgDot, RequiresEqualLengths) {
  expect_error([&] { ops::dot(from_values({1, 2}, {2}), from_values({1}, {1})); }, ErrorKind::ShapeMismatch, "[dot]");
}

TEST(LinalgDot, RequiresVectors) {
  expect_error(
      [&] {
        ops::dot(from_values({1, 2}, {1, 2}), from_values({1, 2}, {2}));
      },
      ErrorKind::ShapeMismatch, "[dot]");
}

TEST(LinalgOuter, OuterProduct) {
  const Tensor o = ops::outer(from_values({1, 2}, {2}), from_values({3, 4, 5}, {3}));
  EXPECT_EQ(o.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(o), ElementsAre(3, 4, 5, 6, 8, 10));
}

TEST(LinalgOuter, PromotesDtypes) {
  const Tensor o = ops::outer(from_values({1, 2}, {2}, DType::Int64), from_values({0.5}, {1}, DType::Float32));
  EXPECT_EQ(o.dtype(), DType::Float32);
  EXPECT_THAT(values(o), ElementsAre(0.5, 1));
}

TEST(LinalgMatmul, VectorByVectorIsAScalar) {
  const Tensor r = ops::matmul(from_values({1, 2, 3}, {3}), from_values({4, 5, 6}, {3}));
  EXPECT_EQ(r.dim(), 0);
  EXPECT_THAT(values(r), ElementsAre(32));
}

TEST(LinalgMatmul, MatrixByVector) {
  const Tensor r = ops::matmul(from_values({1, 2, 3, 4}, {2, 2}), from_values({1, 1}, {2}));
  EXPECT_EQ(r.shape(), (Shape{2}));
  EXPECT_THAT(values(r), ElementsAre(3, 7));
}

TEST(LinalgMatmul, VectorByMatrixDropsThePrependedDim) {
  const Tensor r = ops::matmul(from_values({1, 1}, {2}), from_values({1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(r.shape(), (Shape{2}));
  EXPECT_THAT(values(r), ElementsAre(4, 6));
}

TEST(LinalgMatmul, BatchDimsBroadcast) {
  const Tensor a = from_values({1, 2, 3, 4}, {2, 1, 1, 2});     // two 1x2 rows
  const Tensor b = from_values({1, 0, 0, 1, 1, 1}, {3, 2, 1});  // three 2x1 columns
  const Tensor r = ops::matmul(a, b);
  EXPECT_EQ(r.shape(), (Shape{2, 3, 1, 1}));
  EXPECT_THAT(values(r), ElementsAre(1, 2, 3, 3, 4, 7));
}

TEST(LinalgMatmul, BatchedMatrixByVector) {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  const Tensor r = ops::matmul(a, from_values({1, -1}, {2}));
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_THAT(values(r), ElementsAre(-1, -1, -1, -1));
}

TEST(LinalgMatmul, VectorByBatchedMatrix) {
  const Tensor b = from_values({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  const Tensor r = ops::matmul(from_values({1, -1}, {2}), b);
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_THAT(values(r), ElementsAre(-2, -2, -2, -2));
}

TEST(LinalgMatmul, RejectsRankZero) {
  expect_error([&] { ops::matmul(from_values({1}, {}), from_values({1}, {1})); }, ErrorKind::ShapeMismatch, "[matmul]");
}

TEST(LinalgMatmul, RejectsMismatchedContractedSizes) {
  expect_error(
      [&] {
        ops::matmul(Tensor::empty({2, 3}, DType::Float64), Tensor::empty({2}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "[matmul]");
}

TEST(LinalgMatmul, RejectsBatchDimsThatDoNotBroadcast) {
  expect_error(
      [&] {
        ops::matmul(Tensor::empty({2, 2, 2}, DType::Float64), Tensor::empty({3, 2, 2}, DType::Float64));
      },
      ErrorKind::ShapeMismatch, "[matmul]");
}

TEST(LinalgMatmul, OutVariantWritesIntoOut) {
  const Tensor out = Tensor::empty({2}, DType::Float64);
  ops::matmul_out(from_values({1, 2, 3, 4}, {2, 2}), from_values({1, 1}, {2}), out);
  EXPECT_THAT(values(out), ElementsAre(3, 7));
}

TEST(LinalgTrace, SumsTheDiagonal) {
  const Tensor t = ops::trace(from_values({1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(t.dim(), 0);
  EXPECT_THAT(values(t), ElementsAre(5));
}

TEST(LinalgTrace, KeepsInt64) {
  const Tensor t = ops::trace(from_values({1, 2, 3, 4}, {2, 2}, DType::Int64));
  EXPECT_EQ(t.dtype(), DType::Int64);
  EXPECT_EQ(t.to_vector<std::int64_t>()[0], 5);
}

TEST(LinalgTrace, NonSquareSumsTheLeadingSquarePart) {
  EXPECT_THAT(values(ops::trace(from_values({1, 2, 3, 4, 5, 6}, {2, 3}))), ElementsAre(6));
}

TEST(LinalgTrace, RejectsNonMatrices) {
  expect_error([&] { ops::trace(from_values({1, 2}, {2})); }, ErrorKind::ShapeMismatch, "[trace]");
}

// ---------------------------------------------------------------------------------------------
// tril / triu

TEST(LinalgTril, KeepsTheLowerTriangle) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_THAT(values(ops::tril(x)), ElementsAre(1, 0, 0, 4, 5, 0, 7, 8, 9));
}

TEST(LinalgTril, DiagonalOffsetMovesTheBoundary) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_THAT(values(ops::tril(x, -1)), ElementsAre(0, 0, 0, 4, 0, 0, 7, 8, 0));
  EXPECT_THAT(values(ops::tril(x, 1)), ElementsAre(1, 2, 0, 4, 5, 6, 7, 8, 9));
}

TEST(LinalgTril, MaskedNanBecomesZeroAndKeptNanStays) {
  const Tensor x = from_values({kNaN, kNaN, 1, 2}, {2, 2});
  const std::vector<double> r = values(ops::tril(x));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_THAT(std::vector<double>(r.begin() + 1, r.end()), ElementsAre(0, 1, 2));
}

TEST(LinalgTril, AppliesToEachBatchElementOfANonSquareBatch) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3});
  EXPECT_THAT(values(ops::tril(x)), ElementsAre(1, 0, 0, 4, 5, 0, 7, 0, 0, 10, 11, 0));
}

TEST(LinalgTril, KeepsBoolDtype) {
  const Tensor x = from_values({1, 1, 1, 1}, {2, 2}, DType::Bool);
  const Tensor r = ops::tril(x);
  EXPECT_EQ(r.dtype(), DType::Bool);
  EXPECT_THAT(values(r), ElementsAre(1, 0, 1, 1));
}

TEST(LinalgTril, RejectsFewerThanTwoDims) {
  expect_error([&] { ops::tril(from_values({1, 2}, {2})); }, ErrorKind::ShapeMismatch, "[tril]");
}

TEST(LinalgTril, InPlaceVariantWritesIntoSelf) {
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor returned = ops::tril_(x);
  EXPECT_TRUE(returned.is_same(x));
  EXPECT_THAT(values(x), ElementsAre(1, 0, 3, 4));
}

TEST(LinalgTriu, KeepsTheUpperTriangle) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  EXPECT_THAT(values(ops::triu(x)), ElementsAre(1, 2, 3, 0, 5, 6, 0, 0, 9));
  EXPECT_THAT(values(ops::triu(x, 1)), ElementsAre(0, 2, 3, 0, 0, 6, 0, 0, 0));
}

TEST(LinalgTriu, ReadsANonContiguousInput) {
  const Tensor base = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor transposed = Tensor::view_of(base, {2, 2}, {1, 2}, 0);  // [[1,3],[2,4]]
  EXPECT_THAT(values(ops::triu(transposed)), ElementsAre(1, 3, 0, 4));
}

TEST(LinalgTriu, OutVariantWritesIntoOut) {
  const Tensor out = Tensor::empty({2, 2}, DType::Int64);
  ops::triu_out(from_values({1, 2, 3, 4}, {2, 2}, DType::Int64), out);
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 0, 4}));
}

// ---------------------------------------------------------------------------------------------
// det / slogdet / inverse / solve

TEST(LinalgDet, TwoByTwo) {
  const std::vector<double> d = values(ops::det(from_values({1, 2, 3, 4}, {2, 2})));
  EXPECT_NEAR(d[0], -2.0, 1e-14);
}

TEST(LinalgDet, DiagonalIsTheProductExactly) {
  EXPECT_THAT(values(ops::det(from_values({2, 0, 0, 0, 3, 0, 0, 0, 4}, {3, 3}))), ElementsAre(24));
}

TEST(LinalgDet, RowSwapFlipsTheSign) {
  EXPECT_THAT(values(ops::det(from_values({0, 1, 1, 0}, {2, 2}))), ElementsAre(-1));
}

TEST(LinalgDet, SingularIsZero) { EXPECT_THAT(values(ops::det(from_values({1, 2, 2, 4}, {2, 2}))), ElementsAre(0)); }

TEST(LinalgDet, EmptyMatrixHasDeterminantOne) {
  const Tensor d = ops::det(Tensor::empty({0, 0}, DType::Float64));
  EXPECT_EQ(d.dim(), 0);
  EXPECT_THAT(values(d), ElementsAre(1));
}

TEST(LinalgDet, IsBatched) {
  const Tensor a = from_values({2, 0, 0, 3, 0, 1, 1, 0}, {2, 2, 2});
  const Tensor d = ops::det(a);
  EXPECT_EQ(d.shape(), (Shape{2}));
  EXPECT_THAT(values(d), ElementsAre(6, -1));
}

TEST(LinalgDet, NanPropagates) { EXPECT_TRUE(std::isnan(values(ops::det(from_values({0, 1, kNaN, 0}, {2, 2})))[0])); }

TEST(LinalgDet, RejectsIntegers) {
  expect_error(
      [&] {
        ops::det(from_values({1, 0, 0, 1}, {2, 2}, DType::Int64));
      },
      ErrorKind::DtypeNotSupported, "[det]");
}

TEST(LinalgDet, RejectsNonSquare) {
  expect_error([&] { ops::det(Tensor::empty({2, 3}, DType::Float64)); }, ErrorKind::ShapeMismatch, "[det]");
  expect_error([&] { ops::det(Tensor::empty({3}, DType::Float64)); }, ErrorKind::ShapeMismatch, "[det]");
}

TEST(LinalgSlogdet, SignAndLogOfAbsoluteValue) {
  const auto [sign, logabsdet] = ops::slogdet(from_values({-2, 0, 0, 3}, {2, 2}));
  EXPECT_THAT(values(sign), ElementsAre(-1));
  EXPECT_NEAR(values(logabsdet)[0], std::log(6.0), 1e-15);
}

TEST(LinalgSlogdet, PermutationHasLogZero) {
  const auto [sign, logabsdet] = ops::slogdet(from_values({0, 1, 1, 0}, {2, 2}));
  EXPECT_THAT(values(sign), ElementsAre(-1));
  EXPECT_THAT(values(logabsdet), ElementsAre(0));
}

TEST(LinalgSlogdet, SingularGivesZeroAndMinusInfinity) {
  const auto [sign, logabsdet] = ops::slogdet(from_values({1, 2, 2, 4}, {2, 2}));
  EXPECT_THAT(values(sign), ElementsAre(0));
  EXPECT_THAT(values(logabsdet), ElementsAre(-kInf));
}

TEST(LinalgSlogdet, NanGivesNanSign) {
  const auto [sign, logabsdet] = ops::slogdet(from_values({kNaN, 0, 0, 1}, {2, 2}));
  EXPECT_TRUE(std::isnan(values(sign)[0]));
  EXPECT_TRUE(std::isnan(values(logabsdet)[0]));
}

TEST(LinalgInverse, TwoByTwo) {
  // [[4, 7], [2, 6]]⁻¹ = [[6, -7], [-2, 4]] / 10
  const std::vector<double> r = values(ops::inverse(from_values({4, 7, 2, 6}, {2, 2})));
  const std::vector<double> expected{0.6, -0.7, -0.2, 0.4};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(r[i], expected[i], 1e-15) << i;
}

TEST(LinalgInverse, PermutationIsItsTranspose) {
  const Tensor p = from_values({0, 1, 0, 0, 0, 1, 1, 0, 0}, {3, 3});
  EXPECT_THAT(values(ops::inverse(p)), ElementsAre(0, 0, 1, 1, 0, 0, 0, 1, 0));
}

TEST(LinalgInverse, EmptyMatrix) {
  EXPECT_EQ(ops::inverse(Tensor::empty({3, 0, 0}, DType::Float64)).shape(), (Shape{3, 0, 0}));
}

TEST(LinalgInverse, SingularIsAnErrorNamingTheBatchElement) {
  const Tensor a = from_values({1, 0, 0, 1, 1, 2, 2, 4}, {2, 2, 2});
  expect_error([&] { ops::inverse(a); }, ErrorKind::SingularMatrix, "batch element 1");
}

TEST(LinalgInverse, RejectsNonSquare) {
  expect_error([&] { ops::inverse(Tensor::empty({2, 3}, DType::Float32)); }, ErrorKind::ShapeMismatch, "[inverse]");
}

TEST(LinalgInverse, InfersShapeOnMeta) {
  const Tensor r = ops::inverse(meta({4, 3, 3}, DType::Float32));
  EXPECT_EQ(r.shape(), (Shape{4, 3, 3}));
  EXPECT_EQ(r.dtype(), DType::Float32);
}

const Shape kTwoByTwo{2, 2};

Tensor upper_unit() { return from_values({1, 2, 0, 1}, kTwoByTwo); }  // x + 2y = b0, y = b1

TEST(LinalgSolve, VectorRightHandSide) {
  EXPECT_THAT(values(ops::solve(upper_unit(), from_values({3, 5}, {2}))), ElementsAre(-7, 5));
}

TEST(LinalgSolve, MatrixRightHandSide) {
  const Tensor x = ops::solve(upper_unit(), from_values({3, 1, 5, 2}, kTwoByTwo));
  EXPECT_THAT(values(x), ElementsAre(-7, -3, 5, 2));
}

TEST(LinalgSolve, FromTheRight) {
  // [x0, x1]·[[1, 2], [0, 1]] = [x0, 2·x0 + x1] = [3, 5]
  EXPECT_THAT(values(ops::solve(upper_unit(), from_values({3, 5}, {2}), false)), ElementsAre(3, -1));
  // each row of X solves the same
  const Tensor rows = ops::solve(upper_unit(), from_values({3, 5, 1, 2}, kTwoByTwo), false);
  EXPECT_THAT(values(rows), ElementsAre(3, -1, 1, 0));
}

TEST(LinalgSolve, PivotsRows) {
  // [[0, 1], [1, 0]]·x = [2, 3] needs a row swap: x = [3, 2]
  EXPECT_THAT(values(ops::solve(from_values({0, 1, 1, 0}, kTwoByTwo), from_values({2, 3}, {2}))), ElementsAre(3, 2));
}

TEST(LinalgSolve, VectorCaseFollowsTorchLinalgSolve) {
  // B of shape A.shape[:-1] is a batch of vectors; any other B of rank A.dim() - 1 is a matrix.
  EXPECT_EQ(ops::solve(meta({3, 2, 2}), meta({3, 2})).shape(), (Shape{3, 2}));
  EXPECT_EQ(ops::solve(meta({3, 2, 2}), meta({2, 4})).shape(), (Shape{3, 2, 4}));
  EXPECT_EQ(ops::solve(meta({3, 2, 2}), meta({2})).shape(), (Shape{3, 2}));
}

TEST(LinalgSolve, BatchDimsBroadcast) {
  EXPECT_EQ(ops::solve(meta({1, 4, 3, 3}), meta({5, 1, 3, 2})).shape(), (Shape{5, 4, 3, 2}));
  const Tensor a = from_values({1, 0, 0, 1, 2, 0, 0, 2}, {2, 2, 2});
  EXPECT_THAT(values(ops::solve(a, from_values({2, 4}, {2}))), ElementsAre(2, 4, 1, 2));
}

TEST(LinalgSolve, SingularIsAnError) {
  expect_error(
      [&] {
        ops::solve(from_values({1, 2, 2, 4}, kTwoByTwo), from_values({1, 1}, {2}));
      },
      ErrorKind::SingularMatrix, "[solve]");
}

TEST(LinalgSolve, RejectsIncompatibleShapes) {
  expect_error([&] { ops::solve(meta({2, 2}), meta({3})); }, ErrorKind::ShapeMismatch, "[solve]");
  expect_error([&] { ops::solve(meta({2, 2}), meta({3, 1})); }, ErrorKind::ShapeMismatch, "[solve]");
  expect_error([&] { ops::solve(meta({2, 3}), meta({2, 1})); }, ErrorKind::ShapeMismatch, "square");
  expect_error([&] { ops::solve(meta({2, 2, 2}), meta({3, 2, 1})); }, ErrorKind::ShapeMismatch, "[solve]");
}

TEST(LinalgSolve, RejectsMixedOrIntegerDtypes) {
  expect_error(
      [&] {
        ops::solve(meta({2, 2}, DType::Float32), meta({2}, DType::Float64));
      },
      ErrorKind::DtypeNotSupported, "same dtype");
  expect_error(
      [&] {
        ops::solve(meta({2, 2}, DType::Int64), meta({2}, DType::Int64));
      },
      ErrorKind::DtypeNotSupported, "[solve]");
}

}  // namespace
}  // namespace funcspec
