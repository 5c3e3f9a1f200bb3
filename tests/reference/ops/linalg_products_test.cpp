// Hand-worked values for the scaled and tensor products of the linalg family (addmm, addmv, addr,
// baddbmm, addbmm, kron, tensordot, vecdot, diag_embed): every expected number below was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::kInf;
using testing_support::kNaN;
using testing_support::values;

using ::testing::ElementsAre;
using transforms::Argnums;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

Attrs scales(Scalar beta, Scalar alpha) { return {{"beta", beta}, {"alpha", alpha}}; }

Tensor empty(const Shape& shape, DType dtype = DType::Float64) { return Tensor::empty(shape, dtype); }

// ---------------------------------------------------------------------------------------------
// addmm and the other scaled products

TEST(LinalgAddmm, AddsTheScaledProductToTheScaledSelf) {
  const Tensor self = from_values({1, 1, 1, 1}, {2, 2});
  const Tensor mat1 = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor mat2 = from_values({5, 6, 7, 8}, {2, 2});  // mat1 @ mat2 = [[19, 22], [43, 50]]
  EXPECT_THAT(values(call_one("addmm", {self, mat1, mat2})), ElementsAre(20, 23, 44, 51));
  EXPECT_THAT(values(call_one("addmm", {self, mat1, mat2}, scales(2, 0.5))), ElementsAre(11.5, 13, 23.5, 27));
}

TEST(LinalgAddmm, BroadcastsSelfToTheProductShape) {
  const Tensor row = from_values({10, 20}, {2});
  const Tensor mat1 = from_values({1, 0, 0, 1}, {2, 2});
  const Tensor mat2 = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor out = call_one("addmm", {row, mat1, mat2});
  EXPECT_EQ(out.shape(), (Shape{2, 2}));
  EXPECT_THAT(values(out), ElementsAre(11, 22, 13, 24));
}

TEST(LinalgAddmm, BetaZeroIgnoresNanAndInfInSelf) {
  // The docs' example (docs/ops/linalg.md): 0 * nan would be nan.
  const Tensor self = from_values({kNaN, kInf, 1, -kInf}, {2, 2});
  const Tensor mat1 = from_values({0.5, -1}, {2, 1});
  const Tensor mat2 = from_values({1.5, 2}, {1, 2});
  EXPECT_THAT(values(call_one("addmm", {self, mat1, mat2}, scales(0, 1))), ElementsAre(0.75, 1, -1.5, -2));
  EXPECT_THAT(values(call_one("addmm", {self, mat1, mat2}, scales(0.0, 2))), ElementsAre(1.5, 2, -3, -4));
  // Any other beta multiplies self, so the NaN reaches the result.
  EXPECT_TRUE(std::isnan(values(call_one("addmm", {self, mat1, mat2}, scales(1e-300, 1)))[0]));
}

TEST(LinalgAddmm, BetaZeroGivesSelfAZeroGradientAndTheOthersFiniteOnes) {
  const Tensor self = from_values({kNaN, kInf, 1, -kInf}, {2, 2});
  const Tensor mat1 = from_values({0.5, -1}, {2, 1});
  const Tensor mat2 = from_values({1.5, 2}, {1, 2});
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor out = call_one("addmm", {args[0].tensor(), args[1].tensor(), args[2].tensor()}, scales(0, 3));
    return PyTree(call_one("sum", {out}));
  };
  const PyTree gradients = grad(f, {Argnums::many({0, 1, 2})})({PyTree(self), PyTree(mat1), PyTree(mat2)});
  ASSERT_EQ(gradients.children().size(), 3u);
  EXPECT_THAT(values(gradients.children()[0].tensor()), ElementsAre(0, 0, 0, 0));
  EXPECT_THAT(values(gradients.children()[1].tensor()), ElementsAre(10.5, 10.5));  // 3 * (1.5 + 2)
  EXPECT_THAT(values(gradients.children()[2].tensor()), ElementsAre(-1.5, -1.5));  // 3 * (0.5 - 1)
}

TEST(LinalgAddmm, Int64StaysInt64) {
  const Tensor self = from_values({1, 2}, {2}, DType::Int64);
  const Tensor mat1 = from_values({1, 2, 3, 4}, {2, 2}, DType::Int64);
  const Tensor mat2 = from_values({1, 0, 0, 1}, {2, 2}, DType::Int64);
  const Tensor out = call_one("addmm", {self, mat1, mat2}, scales(std::int64_t{2}, std::int64_t{-1}));
  EXPECT_EQ(out.dtype(), DType::Int64);
  EXPECT_THAT(values(out), ElementsAre(1, 2, -1, 0));
}

TEST(LinalgAddmm, RejectsBadShapesDtypesAndScales) {
  const Tensor m = empty({2, 2});
  expect_op_error("addmm", {m, empty({2, 3}), empty({2, 2})}, {}, ErrorKind::ShapeMismatch, "contracted");
  expect_op_error("addmm", {m, empty({2}), m}, {}, ErrorKind::ShapeMismatch, "[addmm]");
  expect_op_error("addmm", {empty({3, 2, 2}), m, m}, {}, ErrorKind::ShapeMismatch, "does not broadcast");
  expect_op_error("addmm", {empty({3}), m, m}, {}, ErrorKind::ShapeMismatch, "[addmm]");
  expect_op_error("addmm", {empty({2, 2}, DType::Float32), m, m}, {}, ErrorKind::DtypeNotSupported, "dtype");
  expect_op_error("addmm", {m, m, empty({2, 2}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported, "same dtype");
  const Tensor b = empty({2, 2}, DType::Bool);
  expect_op_error("addmm", {b, b, b}, {}, ErrorKind::DtypeNotSupported, "[addmm]");
  const Tensor i = empty({2, 2}, DType::Int64);
  expect_op_error("addmm", {i, i, i}, scales(0.5, 1), ErrorKind::InvalidArgument, "beta");
  expect_op_error("addmm", {m, m, m}, scales(1, true), ErrorKind::InvalidArgument, "alpha");
}

TEST(LinalgAddmv, AddsTheScaledMatrixVectorProduct) {
  const Tensor mat = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor vec = from_values({1, -1}, {2});  // mat @ vec = [-1, -1]
  EXPECT_THAT(values(call_one("addmv", {from_values({5}, {1}), mat, vec}, scales(2, 3))), ElementsAre(7, 7));
  EXPECT_THAT(values(call_one("addmv", {from_values({kNaN, 1}, {2}), mat, vec}, scales(0, 1))), ElementsAre(-1, -1));
  expect_op_error("addmv", {empty({2}), mat, empty({3})}, {}, ErrorKind::ShapeMismatch, "contracted");
  expect_op_error("addmv", {empty({3}), mat, vec}, {}, ErrorKind::ShapeMismatch, "[addmv]");
  expect_op_error("addmv", {empty({2, 2}), mat, vec}, {}, ErrorKind::ShapeMismatch, "does not broadcast");
}

TEST(LinalgAddr, AddsTheScaledOuterProductAndPromotes) {
  const Tensor self = from_values({1, 2, 3, 4, 5, 6}, {2, 3}, DType::Int64);
  const Tensor vec1 = from_values({1, 2}, {2});
  const Tensor vec2 = from_values({1, 0, -1}, {3}, DType::Int64);
  const Tensor out = call_one("addr", {self, vec1, vec2}, scales(std::int64_t{1}, 0.5));
  EXPECT_EQ(out.dtype(), DType::Float64);
  EXPECT_THAT(values(out), ElementsAre(1.5, 2, 2.5, 5, 5, 5));
  const Tensor nan_self = from_values({kNaN}, {1});
  EXPECT_THAT(values(call_one("addr", {nan_self, vec1, from_values({1, 0, -1}, {3})}, scales(0, 1))),
              ElementsAre(1, 0, -1, 2, 0, -2));
  expect_op_error("addr", {self, empty({2, 1}), vec2}, {}, ErrorKind::ShapeMismatch, "[addr]");
}

TEST(LinalgBaddbmm, AddsEachBatchElementsProduct) {
  const Tensor batch1 = from_values({1, 2, 3, 4}, {2, 1, 2});
  const Tensor batch2 = from_values({1, 1, 2, 0}, {2, 2, 1});  // products [[3]] and [[6]]
  const Tensor out = call_one("baddbmm", {from_values({1, 10}, {2, 1, 1}), batch1, batch2}, scales(2, -1));
  EXPECT_EQ(out.shape(), (Shape{2, 1, 1}));
  EXPECT_THAT(values(out), ElementsAre(-1, 14));
  expect_op_error("baddbmm", {empty({1}), batch1, empty({3, 2, 1})}, {}, ErrorKind::ShapeMismatch, "batch sizes");
}

TEST(LinalgAddbmm, SumsTheBatchOfProducts) {
  const Tensor batch1 = from_values({1, 2, 3, 4}, {2, 1, 2});
  const Tensor batch2 = from_values({1, 1, 2, 0}, {2, 2, 1});  // 3 + 6
  EXPECT_THAT(values(call_one("addbmm", {from_values({1}, {1, 1}), batch1, batch2})), ElementsAre(10));
  EXPECT_THAT(values(call_one("addbmm", {from_values({-kInf}, {1, 1}), batch1, batch2}, scales(0, 1))), ElementsAre(9));
  EXPECT_THAT(values(call_one("addbmm", {from_values({4}, {}), empty({0, 1, 2}), empty({0, 2, 1})}, scales(0.5, 1))),
              ElementsAre(2));
  expect_op_error("addbmm", {empty({2, 1}), batch1, batch2}, {}, ErrorKind::ShapeMismatch, "does not broadcast");
}

// ---------------------------------------------------------------------------------------------
// kron, tensordot, vecdot, diag_embed

TEST(LinalgKron, BlocksOfOtherScaledBySelfsElements) {
  const Tensor a = from_values({1, 2}, {1, 2});
  const Tensor b = from_values({1, 10, 100, 1000}, {2, 2});
  const Tensor out = call_one("kron", {a, b});
  EXPECT_EQ(out.shape(), (Shape{2, 4}));
  EXPECT_THAT(values(out), ElementsAre(1, 10, 2, 20, 100, 1000, 200, 2000));
}

TEST(LinalgKron, PadsTheSmallerRankWithLeadingOnes) {
  const Tensor a = from_values({1, 2}, {2});
  const Tensor b = from_values({1, 10, 100, 1000}, {2, 2});  // a as [1, 2]
  const Tensor out = call_one("kron", {b, a});
  EXPECT_EQ(out.shape(), (Shape{2, 4}));
  EXPECT_THAT(values(out), ElementsAre(1, 2, 10, 20, 100, 200, 1000, 2000));
  EXPECT_THAT(values(call_one("kron", {from_values({3}, {}), a})), ElementsAre(3, 6));
}

Attrs dims(std::vector<std::int64_t> self, std::vector<std::int64_t> other) {
  return {{"dims_self", std::move(self)}, {"dims_other", std::move(other)}};
}

TEST(LinalgTensordot, ContractsThePairedDims) {
  const Tensor a = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_THAT(values(call_one("tensordot", {a, from_values({1, 0, -1}, {3})}, dims({1}, {0}))), ElementsAre(-2, -2));
  // sum_ij x[i, j] * y[j, i] = 1·1 + 2·0 + 3·0 + 4·2.
  const Tensor x = from_values({1, 2, 3, 4}, {2, 2});
  const Tensor y = from_values({1, 0, 0, 2}, {2, 2});
  const Tensor full = call_one("tensordot", {x, y}, dims({0, -1}, {1, 0}));
  EXPECT_EQ(full.shape(), Shape{});
  EXPECT_THAT(values(full), ElementsAre(9));
  // No dims: the outer product, self's dims first.
  EXPECT_EQ(call_one("tensordot", {a, y}, dims({}, {})).shape(), (Shape{2, 3, 2, 2}));
}

TEST(LinalgTensordot, SumsASizeOneDimOnItsOwn) {
  const Tensor a = from_values({1, 2}, {2, 1});
  const Tensor b = from_values({1, 2, 3, 4, 5, 6}, {3, 2});  // column sums 9 and 12
  EXPECT_THAT(values(call_one("tensordot", {a, b}, dims({1}, {0}))), ElementsAre(9, 12, 18, 24));
}

TEST(LinalgTensordot, RejectsBadDimLists) {
  const Tensor a = empty({2, 3});
  expect_op_error("tensordot", {a, a}, dims({1}, {0, 1}), ErrorKind::InvalidArgument, "same length");
  expect_op_error("tensordot", {a, a}, dims({1}, {0}), ErrorKind::ShapeMismatch, "must match");
  expect_op_error("tensordot", {a, a}, dims({1, 1}, {1, 1}), ErrorKind::InvalidArgument, "more than once");
  expect_op_error("tensordot", {a, a}, dims({2}, {0}), ErrorKind::DimOutOfRange, "[tensordot]");
  expect_op_error("tensordot", {empty(Shape{}), a}, dims({0}, {0}), ErrorKind::DimOutOfRange, "[tensordot]");
  expect_op_error("tensordot", {a, empty({3, 2}, DType::Float32)}, dims({1}, {0}), ErrorKind::DtypeNotSupported,
                  "same dtype");
}

TEST(LinalgVecdot, SumsProductsAlongDim) {
  const Tensor x = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor y = from_values({1, 0, -1}, {3});
  EXPECT_THAT(values(call_one("vecdot", {x, y})), ElementsAre(-2, -2));
  EXPECT_THAT(values(call_one("vecdot", {x, from_values({1, -1}, {2, 1})}, {{"dim", std::int64_t{0}}})),
              ElementsAre(-3, -3, -3));
}

TEST(LinalgVecdot, RejectsMixedAndIntegerDtypesAndBadDims) {
  const Tensor x = empty({2, 3});
  expect_op_error("vecdot", {x, empty({2, 3}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported, "same dtype");
  const Tensor i = empty({3}, DType::Int64);
  expect_op_error("vecdot", {i, i}, {}, ErrorKind::DtypeNotSupported, "[vecdot]");
  expect_op_error("vecdot", {x, x}, {{"dim", std::int64_t{2}}}, ErrorKind::DimOutOfRange, "[vecdot]");
  expect_op_error("vecdot", {x, empty({4})}, {}, ErrorKind::ShapeMismatch, "[vecdot]");
}

TEST(LinalgDiagEmbed, PlacesTheLastDimOnADiagonal) {
  const Tensor v = from_values({1, 2}, {2});
  EXPECT_THAT(values(call_one("diag_embed", {v})), ElementsAre(1, 0, 0, 2));
  const Tensor above = call_one("diag_embed", {v}, {{"offset", std::int64_t{1}}});
  EXPECT_EQ(above.shape(), (Shape{3, 3}));
  EXPECT_THAT(values(above), ElementsAre(0, 1, 0, 0, 0, 2, 0, 0, 0));
}

TEST(LinalgDiagEmbed, PutsThePlanesAtDim1AndDim2) {
  // [2 batch, 2 diagonal] with the planes in dims 0 and 2: out[i, b, j] = (i == j) * v[b, i].
  const Tensor v = from_values({1, 2, 3, 4}, {2, 2});
  const Attrs attrs{{"offset", std::int64_t{0}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{2}}};
  const Tensor out = call_one("diag_embed", {v}, attrs);
  EXPECT_EQ(out.shape(), (Shape{2, 2, 2}));
  EXPECT_THAT(values(out), ElementsAre(1, 0, 3, 0, 0, 2, 0, 4));
}

TEST(LinalgDiagEmbed, RejectsEqualOrOutOfRangeDims) {
  const Tensor v = empty({3});
  const Attrs same{{"offset", std::int64_t{0}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{0}}};
  expect_op_error("diag_embed", {v}, same, ErrorKind::InvalidArgument, "differ");
  const Attrs far{{"offset", std::int64_t{0}}, {"dim1", std::int64_t{0}}, {"dim2", std::int64_t{2}}};
  expect_op_error("diag_embed", {v}, far, ErrorKind::DimOutOfRange, "[diag_embed]");
  expect_op_error("diag_embed", {empty(Shape{})}, {}, ErrorKind::DimOutOfRange, "[diag_embed]");
}

}  // namespace
}  // namespace funcspec
