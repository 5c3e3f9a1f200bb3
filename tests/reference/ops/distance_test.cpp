// Hand-worked values of the norms and distances (docs/ops/distance.md): every expected number below
// was computed by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::kInf;
using testing_support::kNaN;
using testing_support::values;

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using transforms::Argnums;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

Attrs ord(double p) { return {{"ord", Scalar(p)}}; }

// The gradient of sum(op(x) * weights) with respect to x.
Tensor weighted_gradient(const std::string& op, const Tensor& x, const Attrs& attrs, const Tensor& weights) {
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    return PyTree(call_one("sum", {call_one("mul", {call_one(op, {args[0].tensor()}, attrs), weights})}));
  };
  return grad(f)({PyTree(x)}).tensor();
}

// ---------------------------------------------------------------------------------------------
// vector_norm

TEST(DistanceVectorNorm, GivesEachOrderOfThreeMinusFour) {
  const Tensor x = from_values({3, -4}, {2});
  EXPECT_THAT(values(call_one("vector_norm", {x})), ElementsAre(5));
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(1))), ElementsAre(7));
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(0))), ElementsAre(2));
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(kInf))), ElementsAre(4));
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(-kInf))), ElementsAre(3));
  // (1/3 + 1/4)^-1 = 12/7; (3^-2 + 4^-2)^(-1/2) = 12/5.
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(-1))), ElementsAre(DoubleNear(12.0 / 7.0, 1e-15)));
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(-2))), ElementsAre(DoubleNear(2.4, 1e-15)));
}

TEST(DistanceVectorNorm, ReducesTheListedDimsAndKeepsThemOnRequest) {
  const Tensor x = from_values({3, 4, 6, 8}, {2, 2});
  EXPECT_THAT(values(call_one("vector_norm", {x}, {{"dim", std::vector<std::int64_t>{1}}})), ElementsAre(5, 10));
  const Tensor kept = call_one("vector_norm", {x}, {{"dim", std::vector<std::int64_t>{-1}}, {"keepdim", true}});
  EXPECT_EQ(kept.shape(), (Shape{2, 1}));
  // dim=[] is every dim: sqrt(9 + 16 + 36 + 64) = sqrt(125).
  EXPECT_THAT(values(call_one("vector_norm", {x}, {{"dim", std::vector<std::int64_t>{}}})),
              ElementsAre(DoubleNear(std::sqrt(125.0), 1e-14)));
}

TEST(DistanceVectorNorm, DtypeCastsTheInputFirst) {
  const Tensor out = call_one("vector_norm", {from_values({3, -4}, {2}, DType::Float32)}, {{"dtype", DType::Float64}});
  EXPECT_EQ(out.dtype(), DType::Float64);
  EXPECT_THAT(values(out), ElementsAre(5));
}

TEST(DistanceVectorNorm, ANegativeOrderIsZeroAtAZeroElementWithZeroGradient) {
  const Tensor x = from_values({0, 2, -1}, {3});
  EXPECT_THAT(values(call_one("vector_norm", {x}, ord(-1))), ElementsAre(0));
  EXPECT_THAT(values(weighted_gradient("vector_norm", x, ord(-1), from_values({1}, {}))), ElementsAre(0, 0, 0));
  // A NaN beside the zero: the sum of inf and NaN is NaN, as PyTorch.
  EXPECT_TRUE(std::isnan(values(call_one("vector_norm", {from_values({0, kNaN}, {2})}, ord(-1)))[0]));
}

TEST(DistanceVectorNorm, ANegativeOrderHasPyTorchsGradient) {
  // ord=-1 at [1, 2]: norm = (1 + 1/2)^-1 = 2/3; d/dx_i = |x_i|^-2 norm^2 = [4/9, 1/9].
  const Tensor g = weighted_gradient("vector_norm", from_values({1, 2}, {2}), ord(-1), from_values({1}, {}));
  EXPECT_THAT(values(g), ElementsAre(DoubleNear(4.0 / 9.0, 1e-15), DoubleNear(1.0 / 9.0, 1e-15)));
}

TEST(DistanceVectorNorm, TheZeroVectorHasGradientZero) {
  const Tensor zeros = from_values({0, 0, 0}, {3});
  for (double p : {2.0, 1.0, 3.0, 0.5, kInf}) {
    EXPECT_THAT(values(weighted_gradient("vector_norm", zeros, ord(p), from_values({1}, {}))), ElementsAre(0, 0, 0))
        << "ord " << p;
  }
}

TEST(DistanceVectorNorm, TiesOfTheInfNormSplitTheGradient) {
  const Tensor g =
      weighted_gradient("vector_norm", from_values({1.5, -1.5, 0.5}, {3}), ord(kInf), from_values({1}, {}));
  EXPECT_THAT(values(g), ElementsAre(0.5, -0.5, 0));
}

TEST(DistanceVectorNorm, RejectsWhatPyTorchRejects) {
  const Tensor empty = Tensor::empty({0, 3}, DType::Float64);
  expect_op_error("vector_norm", {empty}, ord(-1), ErrorKind::InvalidArgument, "empty");
  expect_op_error("vector_norm", {empty}, ord(kInf), ErrorKind::InvalidArgument, "empty");
  EXPECT_THAT(values(call_one("vector_norm", {empty}, ord(1))), ElementsAre(0));
  expect_op_error("vector_norm", {from_values({1}, {1}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported, "x");
  expect_op_error("vector_norm", {from_values({1}, {1})}, {{"dtype", DType::Float32}}, ErrorKind::DtypeNotSupported,
                  "narrowing");
  expect_op_error("vector_norm", {from_values({1}, {1})}, {{"dtype", DType::Int64}}, ErrorKind::DtypeNotSupported,
                  "dtype");
  expect_op_error("vector_norm", {from_values({1}, {1})}, {{"ord", Scalar(true)}}, ErrorKind::InvalidArgument, "bool");
  expect_op_error("vector_norm", {from_values({1}, {1})}, {{"dim", std::vector<std::int64_t>{1}}},
                  ErrorKind::DimOutOfRange, "");
}

// ---------------------------------------------------------------------------------------------
// dist

TEST(DistanceDist, IsTheNormOfTheBroadcastDifference) {
  const Tensor a = from_values({1, 2}, {2});
  const Tensor b = from_values({4, 6}, {2});
  EXPECT_THAT(values(call_one("dist", {a, b})), ElementsAre(5));
  EXPECT_THAT(values(call_one("dist", {a, b}, {{"p", Scalar(1)}})), ElementsAre(7));
  EXPECT_THAT(values(call_one("dist", {a, b}, {{"p", Scalar(kInf)}})), ElementsAre(4));
  // [[3, 0], [0, 4]] - [0, 0] over all four elements.
  EXPECT_THAT(values(call_one("dist", {from_values({3, 0, 0, 4}, {2, 2}), from_values({0, 0}, {2})})), ElementsAre(5));
  const Tensor promoted = call_one("dist", {from_values({1}, {1}, DType::Float32), from_values({3}, {1})});
  EXPECT_EQ(promoted.dtype(), DType::Float64);
  EXPECT_THAT(values(promoted), ElementsAre(2));
}

TEST(DistanceDist, ZeroDistanceHasGradientZero) {
  const Tensor x = from_values({1.5, -2}, {2});
  for (double p : {2.0, 1.0, kInf}) {
    const PyFunction f = [p](const std::vector<PyTree>& args) {
      return PyTree(call_one("dist", {args[0].tensor(), args[1].tensor()}, {{"p", Scalar(p)}}));
    };
    const PyTree g = grad(f, {Argnums::many({0, 1})})({PyTree(x), PyTree(x)});
    EXPECT_THAT(values(g.children()[0].tensor()), ElementsAre(0, 0)) << "p " << p;
    EXPECT_THAT(values(g.children()[1].tensor()), ElementsAre(0, 0)) << "p " << p;
  }
}

TEST(DistanceDist, RejectsIntegersAndEmptyInfNorms) {
  const Tensor ints = from_values({1, 2}, {2}, DType::Int64);
  expect_op_error("dist", {ints, ints}, {}, ErrorKind::DtypeNotSupported, "dist");
  const Tensor empty = Tensor::empty({0}, DType::Float64);
  expect_op_error("dist", {empty, empty}, {{"p", Scalar(kInf)}}, ErrorKind::InvalidArgument, "empty");
}

// ---------------------------------------------------------------------------------------------
// renorm

Attrs renorm_attrs(double p, std::int64_t dim, double maxnorm) {
  return {{"p", Scalar(p)}, {"dim", dim}, {"maxnorm", Scalar(maxnorm)}};
}

TEST(DistanceRenorm, ScalesTheSlicesAboveMaxnorm) {
  // Row 0 has norm 5 > 1 and is scaled by 1 / (5 + 1e-7); row 1 has norm 0.5 and stays.
  const Tensor x = from_values({3, 4, 0.3, 0.4}, {2, 2});
  const double scale = 1.0 / (5.0 + 1e-7);
  EXPECT_THAT(values(call_one("renorm", {x}, renorm_attrs(2, 0, 1))),
              ElementsAre(DoubleNear(3 * scale, 1e-15), DoubleNear(4 * scale, 1e-15), 0.3, 0.4));
  // Along dim 1 the slices are the columns: [3, 0.3] (1-norm 3.3) and [4, 0.4] (4.4), maxnorm 4.
  EXPECT_THAT(values(call_one("renorm", {x}, renorm_attrs(1, 1, 4))),
              ElementsAre(3, DoubleNear(4 * 4 / (4.4 + 1e-7), 1e-15), 0.3, DoubleNear(0.4 * 4 / (4.4 + 1e-7), 1e-15)));
}

TEST(DistanceRenorm, AtTheThresholdNothingIsScaledAndTheGradientIsTheIdentity) {
  const Tensor x = from_values({3, 4}, {1, 2});
  const Tensor w = from_values({1, -2}, {1, 2});
  EXPECT_THAT(values(call_one("renorm", {x}, renorm_attrs(2, 0, 5))), ElementsAre(3, 4));
  EXPECT_THAT(values(weighted_gradient("renorm", x, renorm_attrs(2, 0, 5), w)), ElementsAre(1, -2));
  // A zero slice with maxnorm 0 is at the threshold too: the identity's gradient, PyTorch's
  // renorm_backward (the function is 0 all around it, so finite differences cannot see this).
  const Tensor zeros = from_values({0, 0}, {1, 2});
  EXPECT_THAT(values(weighted_gradient("renorm", zeros, renorm_attrs(2, 0, 0), w)), ElementsAre(1, -2));
}

TEST(DistanceRenorm, AboveTheThresholdTheGradientIsPyTorchs) {
  // renorm_backward: factor (g - x (x . g) / (norm (norm + 1e-7))), factor = maxnorm / (norm + 1e-7);
  // x = [3, 4], g = [1, 0], norm 5, maxnorm 1: x . g = 3.
  const double e = 1e-7, factor = 1 / (5 + e), radial = 3 / (5 * (5 + e));
  const Tensor g =
      weighted_gradient("renorm", from_values({3, 4}, {1, 2}), renorm_attrs(2, 0, 1), from_values({1, 0}, {1, 2}));
  EXPECT_THAT(values(g),
              ElementsAre(DoubleNear(factor * (1 - 3 * radial), 1e-15), DoubleNear(factor * (0 - 4 * radial), 1e-15)));
}

TEST(DistanceRenorm, RejectsWhatPyTorchRejects) {
  const Tensor m = from_values({1, 2, 3, 4}, {2, 2});
  expect_op_error("renorm", {from_values({1, 2}, {2})}, renorm_attrs(2, 0, 1), ErrorKind::ShapeMismatch, "2 dims");
  expect_op_error("renorm", {m}, renorm_attrs(0, 0, 1), ErrorKind::InvalidArgument, "positive");
  expect_op_error("renorm", {m}, renorm_attrs(-1, 0, 1), ErrorKind::InvalidArgument, "positive");
  expect_op_error("renorm", {m}, renorm_attrs(2, 0, -1), ErrorKind::InvalidArgument, "maxnorm");
  expect_op_error("renorm", {m}, renorm_attrs(2, 2, 1), ErrorKind::DimOutOfRange, "");
  expect_op_error("renorm", {from_values({1, 2, 3, 4}, {2, 2}, DType::Int64)}, renorm_attrs(2, 0, 1),
                  ErrorKind::DtypeNotSupported, "renorm");
}

// ---------------------------------------------------------------------------------------------
// cross and linalg_cross

TEST(DistanceCross, CrossesThreeVectors) {
  const Tensor a = from_values({1, 2, 3}, {3});
  const Tensor b = from_values({4, 5, 6}, {3});
  // [2·6 - 3·5, 3·4 - 1·6, 1·5 - 2·4]
  EXPECT_THAT(values(call_one("linalg_cross", {a, b})), ElementsAre(-3, 6, -3));
  EXPECT_THAT(values(call_one("cross", {a, b})), ElementsAre(-3, 6, -3));
  const Tensor ints =
      call_one("linalg_cross", {from_values({1, 2, 3}, {3}, DType::Int64), from_values({4, 5, 6}, {3}, DType::Int64)});
  EXPECT_EQ(ints.dtype(), DType::Int64);
  EXPECT_THAT(values(ints), ElementsAre(-3, 6, -3));
}

TEST(DistanceCross, CrossesAlongDimAndBroadcastsTheOtherDims) {
  // Columns of [3, 2]: e1 x e2 = e3 and e2 x e3 = e1.
  const Tensor a = from_values({1, 0, 0, 1, 0, 0}, {3, 2});
  const Tensor b = from_values({0, 0, 1, 0, 0, 1}, {3, 2});
  EXPECT_THAT(values(call_one("linalg_cross", {a, b}, {{"dim", std::int64_t{0}}})), ElementsAre(0, 1, 0, 0, 1, 0));
  // One row of self against two rows of other.
  const Tensor row = from_values({1, 0, 0}, {1, 3});
  const Tensor rows = from_values({0, 1, 0, 0, 0, 1}, {2, 3});
  const Tensor out = call_one("linalg_cross", {row, rows});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_THAT(values(out), ElementsAre(0, 0, 1, 0, -1, 0));
}

TEST(DistanceCross, DimNoneIsTheFirstDimOfSizeThreeOfSelf) {
  // self [1, 3]: dim 1, although the broadcast shape [3, 3] has size 3 at dim 0 too.
  const Tensor a = from_values({1, 0, 0}, {1, 3});
  const Tensor b = from_values({1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 3});
  EXPECT_THAT(values(call_one("cross", {a, b})), ElementsAre(0, 0, 0, 0, 0, 1, 0, -1, 0));
  expect_op_error("cross", {from_values({1, 2, 3, 4}, {2, 2}), from_values({1, 2, 3, 4}, {2, 2})}, {},
                  ErrorKind::ShapeMismatch, "no dim of size 3");
}

TEST(DistanceCross, TheGradientIsTheOtherCrossedWithTheCotangent) {
  // sum(w · (a × b)) = a · (b × w): the gradient in a is b × w = [4, 5, 6] × [1, 0, 0] = [0, 6, -5].
  const PyFunction f = [](const std::vector<PyTree>& args) {
    const Tensor c = call_one("linalg_cross", {args[0].tensor(), args[1].tensor()});
    return PyTree(call_one("sum", {call_one("mul", {c, from_values({1, 0, 0}, {3})})}));
  };
  const PyTree g =
      grad(f, {Argnums::many({0, 1})})({PyTree(from_values({1, 2, 3}, {3})), PyTree(from_values({4, 5, 6}, {3}))});
  EXPECT_THAT(values(g.children()[0].tensor()), ElementsAre(0, 6, -5));
  // and in b it is w × a = [1, 0, 0] × [1, 2, 3] = [0, -3, 2].
  EXPECT_THAT(values(g.children()[1].tensor()), ElementsAre(0, -3, 2));
}

TEST(DistanceCross, RejectsWhatPyTorchRejects) {
  const Tensor v = from_values({1, 2, 3}, {3});
  expect_op_error("linalg_cross", {from_values({1, 2, 3, 4}, {4}), from_values({1, 2, 3, 4}, {4})}, {},
                  ErrorKind::ShapeMismatch, "length 3");
  expect_op_error("linalg_cross", {from_values({1, 2, 3, 4, 5, 6}, {2, 3}), v}, {}, ErrorKind::ShapeMismatch,
                  "same number of dims");
  expect_op_error("linalg_cross", {v, from_values({1, 2, 3}, {3}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported,
                  "same dtype");
  expect_op_error("linalg_cross", {from_values({1, 0, 1}, {3}, DType::Bool), from_values({1, 0, 1}, {3}, DType::Bool)},
                  {}, ErrorKind::DtypeNotSupported, "");
  expect_op_error("cross", {v, v}, {{"dim", std::int64_t{1}}}, ErrorKind::DimOutOfRange, "");
}

// ---------------------------------------------------------------------------------------------
// diag and multi_dot

TEST(DistanceDiag, PlacesAVectorOnADiagonal) {
  const Tensor out = call_one("diag", {from_values({1, 2}, {2})}, {{"diagonal", std::int64_t{1}}});
  EXPECT_EQ(out.shape(), (Shape{3, 3}));
  EXPECT_THAT(values(out), ElementsAre(0, 1, 0, 0, 0, 2, 0, 0, 0));
  EXPECT_THAT(values(call_one("diag", {from_values({5}, {1})}, {{"diagonal", std::int64_t{-1}}})),
              ElementsAre(0, 0, 5, 0));
}

TEST(DistanceDiag, TakesADiagonalOfAMatrixAsACopy) {
  const Tensor m = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_THAT(values(call_one("diag", {m})), ElementsAre(1, 5));
  EXPECT_THAT(values(call_one("diag", {m}, {{"diagonal", std::int64_t{1}}})), ElementsAre(2, 6));
  EXPECT_THAT(values(call_one("diag", {m}, {{"diagonal", std::int64_t{-1}}})), ElementsAre(4));
  EXPECT_EQ(call_one("diag", {m}, {{"diagonal", std::int64_t{3}}}).shape(), (Shape{0}));
  const Tensor d = call_one("diag", {m});
  EXPECT_NE(d.storage().get(), m.storage().get());
}

TEST(DistanceDiag, RejectsRanksOtherThanOneAndTwo) {
  expect_op_error("diag", {from_values({1}, {})}, {}, ErrorKind::ShapeMismatch, "1-D or 2-D");
  expect_op_error("diag", {Tensor::empty({2, 2, 2}, DType::Float64)}, {}, ErrorKind::ShapeMismatch, "1-D or 2-D");
}

TEST(DistanceMultiDot, ChainsTheProductsAndDropsTheVectorDims) {
  const Tensor row = from_values({1, 2}, {2});
  const Tensor m = from_values({1, 0, 1, 1}, {2, 2});
  const Tensor column = from_values({3, 4}, {2});
  // [1, 2]·m = [3, 2]; [3, 2]·[3, 4] = 17.
  const Tensor scalar = call_one("multi_dot", {row, m, column});
  EXPECT_EQ(scalar.shape(), (Shape{}));
  EXPECT_THAT(values(scalar), ElementsAre(17));
  EXPECT_THAT(values(call_one("multi_dot", {row, m})), ElementsAre(3, 2));
  EXPECT_THAT(values(call_one("multi_dot", {m, column})), ElementsAre(3, 7));
  // m·m·m = [[1, 0], [3, 1]].
  EXPECT_THAT(values(call_one("multi_dot", {m, m, m})), ElementsAre(1, 0, 3, 1));
  EXPECT_THAT(values(call_one("multi_dot", {row, column})), ElementsAre(11));
}

TEST(DistanceMultiDot, RejectsWhatPyTorchRejects) {
  const Tensor m = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_op_error("multi_dot", {m}, {}, ErrorKind::InvalidArgument, "at least 2");
  expect_op_error("multi_dot", {m, m}, {}, ErrorKind::ShapeMismatch, "cannot be multiplied");
  expect_op_error("multi_dot", {m, from_values({1, 2, 3}, {3}), from_values({1}, {1})}, {}, ErrorKind::ShapeMismatch,
                  "2-D");
  expect_op_error("multi_dot", {m, Tensor::empty({1, 3, 2}, DType::Float64)}, {}, ErrorKind::ShapeMismatch,
                  "1-D or 2-D");
  expect_op_error("multi_dot", {m, from_values({1, 2, 3}, {3}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported,
                  "one dtype");
}

// ---------------------------------------------------------------------------------------------
// cov and corrcoef

// Rows [0, 1, 2] and [2, 1, 0.5]: means 1 and 7/6, centered [-1, 0, 1] and [5/6, -1/6, -2/3].
Tensor two_variables() { return from_values({0, 1, 2, 2, 1, 0.5}, {2, 3}); }

TEST(DistanceCov, CovariesTheRowsOverTheColumns) {
  // [[2/2, (-5/6 - 2/3)/2], [., (25 + 1 + 16)/36/2]] = [[1, -0.75], [-0.75, 7/12]].
  EXPECT_THAT(values(call_one("cov", {two_variables()})),
              ElementsAre(DoubleNear(1, 1e-15), DoubleNear(-0.75, 1e-15), DoubleNear(-0.75, 1e-15),
                          DoubleNear(7.0 / 12.0, 1e-15)));
  // One variable: rank 0, ((4/3)² + (1/3)² + (5/3)²) / 2 = 7/3.
  const Tensor one = call_one("cov", {from_values({1, 2, 4}, {3})});
  EXPECT_EQ(one.shape(), (Shape{}));
  EXPECT_THAT(values(one), ElementsAre(DoubleNear(7.0 / 3.0, 1e-15)));
  const Tensor ints = call_one("cov", {from_values({1, 2, 4}, {3}, DType::Int64)});
  EXPECT_EQ(ints.dtype(), DType::Float32);
}

TEST(DistanceCov, CorrectionAtOrBeyondTheSampleCountDividesByZero) {
  // correction 0 divides by 3: [[2/3, -0.5], [-0.5, 7/18]].
  EXPECT_THAT(values(call_one("cov", {two_variables()}, {{"correction", std::int64_t{0}}}))[1],
              DoubleNear(-0.5, 1e-15));
  for (std::int64_t c : {3, 5}) {
    EXPECT_THAT(values(call_one("cov", {two_variables()}, {{"correction", c}})), ElementsAre(kInf, -kInf, -kInf, kInf))
        << "correction " << c;
  }
}

TEST(DistanceCov, WeightsTheObservations) {
  // fweights [1, 2, 1]: Σw = 4, means 1 and 1.125, normalizer 4 - 1 = 3; cov_00 = (1 + 0 + 1) / 3.
  const Tensor f = from_values({1, 2, 1}, {3}, DType::Int64);
  EXPECT_THAT(values(call_one("cov", {two_variables(), f, Tensor()}))[0], DoubleNear(2.0 / 3.0, 1e-15));
  // aweights [1, 1, 2]: Σw = 4, Σw·a = 6, normalizer 4 - 6/4 = 2.5; row 0's mean (0 + 1 + 4)/4 = 1.25,
  // cov_00 = (1.5625 + 0.0625 + 2·0.5625) / 2.5 = 1.1.
  const Tensor a = from_values({1, 1, 2}, {3});
  EXPECT_THAT(values(call_one("cov", {two_variables(), Tensor(), a}))[0], DoubleNear(1.1, 1e-15));
  // Both: w = [1, 2, 2], Σw = 5, Σw·a = 7, normalizer 5 - 7/5 = 3.6; mean (0 + 2 + 4)/5 = 1.2,
  // cov_00 = (1.44 + 2·0.04 + 2·0.64) / 3.6 = 2.8 / 3.6.
  EXPECT_THAT(values(call_one("cov", {two_variables(), f, a}))[0], DoubleNear(2.8 / 3.6, 1e-15));
}

TEST(DistanceCov, RejectsWhatPyTorchRejects) {
  const Tensor x = two_variables();
  expect_op_error("cov", {Tensor::empty({2, 2, 2}, DType::Float64)}, {}, ErrorKind::ShapeMismatch, "at most 2");
  expect_op_error("cov", {from_values({1, 0}, {2}, DType::Bool)}, {}, ErrorKind::DtypeNotSupported, "cov");
  expect_op_error("cov", {x, from_values({1, 2, 1}, {3}), Tensor()}, {}, ErrorKind::DtypeNotSupported, "fweights");
  expect_op_error("cov", {x, Tensor(), from_values({1, 2, 1}, {3}, DType::Int64)}, {}, ErrorKind::DtypeNotSupported,
                  "aweights");
  expect_op_error("cov", {x, from_values({1, 2}, {2}, DType::Int64), Tensor()}, {}, ErrorKind::ShapeMismatch,
                  "observations");
}

TEST(DistanceCorrcoef, NormalizesTheCovarianceByTheDeviations) {
  // -0.75 / sqrt(1 · 7/12).
  const std::vector<double> r = values(call_one("corrcoef", {two_variables()}));
  EXPECT_THAT(r, ElementsAre(DoubleNear(1, 1e-15), DoubleNear(-0.75 / std::sqrt(7.0 / 12.0), 1e-15),
                             DoubleNear(-0.75 / std::sqrt(7.0 / 12.0), 1e-15), DoubleNear(1, 1e-15)));
  EXPECT_THAT(values(call_one("corrcoef", {from_values({1, 2, 4}, {3})})), ElementsAre(1));
  // A constant variable has no deviation: 0 / 0 in its row and column.
  const std::vector<double> constant = values(call_one("corrcoef", {from_values({1, 1, 1, 1, 2, 3}, {2, 3})}));
  EXPECT_TRUE(std::isnan(constant[0]) && std::isnan(constant[1]) && std::isnan(constant[2]));
  EXPECT_THAT(constant[3], DoubleNear(1, 1e-15));
}

// ---------------------------------------------------------------------------------------------
// cdist, pdist, cosine_similarity, pairwise_distance

Attrs cdist_mode(const char* mode) { return {{"compute_mode", std::string(mode)}}; }

TEST(DistanceCdist, MeasuresEveryPairOfRows) {
  // x1 rows [0, 0], [3, 4]; x2 rows [0, 0], [1, 1].
  const Tensor x1 = from_values({0, 0, 3, 4}, {2, 2});
  const Tensor x2 = from_values({0, 0, 1, 1}, {2, 2});
  EXPECT_THAT(values(call_one("cdist", {x1, x2})),
              ElementsAre(0, DoubleNear(std::sqrt(2.0), 1e-15), 5, DoubleNear(std::sqrt(13.0), 1e-15)));
  EXPECT_THAT(values(call_one("cdist", {x1, x2}, {{"p", 1.0}})), ElementsAre(0, 2, 7, 5));
  EXPECT_THAT(values(call_one("cdist", {x1, x2}, {{"p", kInf}})), ElementsAre(0, 1, 4, 3));
  EXPECT_THAT(values(call_one("cdist", {x1, x2}, {{"p", 0.0}})), ElementsAre(0, 2, 2, 2));
  // Batch dims broadcast: [2, 1, 2] against [3, 2] gives [2, 1, 3].
  EXPECT_EQ(
      call_one("cdist", {Tensor::empty({2, 1, 2}, DType::Float64), Tensor::empty({3, 2}, DType::Float64)}).shape(),
      (Shape{2, 1, 3}));
  // No features: 0 for every p, inf included.
  EXPECT_THAT(values(call_one("cdist", {Tensor::empty({1, 0}, DType::Float64), Tensor::empty({2, 0}, DType::Float64)},
                              {{"p", kInf}})),
              ElementsAre(0, 0));
}

TEST(DistanceCdist, TheMatrixProductModeComputesTheCancellingFormula) {
  // 1 and 1 + 2^-30: the direct difference is exact, ||x1||² + ||x2||² - 2·x1·x2 loses it entirely
  // (1 + (1 + 2^-29) - 2·(1 + 2^-30) rounds to 0).
  const double close = 1.0 + std::ldexp(1.0, -30);
  const Tensor x1 = from_values({1}, {1, 1});
  const Tensor x2 = from_values({close}, {1, 1});
  EXPECT_THAT(values(call_one("cdist", {x1, x2}, cdist_mode("donot_use_mm_for_euclid_dist"))),
              ElementsAre(std::ldexp(1.0, -30)));
  EXPECT_THAT(values(call_one("cdist", {x1, x2}, cdist_mode("use_mm_for_euclid_dist"))), ElementsAre(0));
  // The default uses the product only past 25 rows.
  EXPECT_THAT(values(call_one("cdist", {x1, x2})), ElementsAre(std::ldexp(1.0, -30)));
  expect_op_error("cdist", {x1, x2}, cdist_mode("mm"), ErrorKind::InvalidArgument, "compute_mode");
}

TEST(DistanceCdist, DerivativesArePyTorchsAtZeroDistancesAndInfTies) {
  // cdist(a, x) at a = x has a zero distance: derivative 0 in every mode.
  const Tensor x = from_values({1.5, -2}, {1, 2});
  for (const char* mode : {"use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"}) {
    const PyFunction f = [&](const std::vector<PyTree>& args) {
      return PyTree(call_one("sum", {call_one("cdist", {args[0].tensor(), x}, cdist_mode(mode))}));
    };
    EXPECT_THAT(values(grad(f)({PyTree(x)}).tensor()), ElementsAre(0, 0)) << mode;
  }
  const PyFunction at_tie = [](const std::vector<PyTree>& args) {
    return PyTree(
        call_one("sum", {call_one("cdist", {args[0].tensor(), from_values({1, -1}, {1, 2})}, {{"p", kInf}})}));
  };
  EXPECT_THAT(values(grad(at_tie)({PyTree(from_values({0, 0}, {1, 2}))}).tensor()), ElementsAre(-1, 1));
  // Away from the tie the largest |difference| takes it all: [0, 0] against [1, -2].
  const PyFunction untied = [](const std::vector<PyTree>& args) {
    return PyTree(
        call_one("sum", {call_one("cdist", {args[0].tensor(), from_values({1, -2}, {1, 2})}, {{"p", kInf}})}));
  };
  EXPECT_THAT(values(grad(untied)({PyTree(from_values({0, 0}, {1, 2}))}).tensor()), ElementsAre(0, 1));
}

TEST(DistanceCdist, RejectsWhatPyTorchRejects) {
  const Tensor m = from_values({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_op_error("cdist", {from_values({1, 2}, {2}), from_values({1, 2}, {2})}, {}, ErrorKind::ShapeMismatch,
                  "at least 2 dims");
  expect_op_error("cdist", {m, from_values({1, 2}, {1, 2})}, {}, ErrorKind::ShapeMismatch, "columns");
  expect_op_error("cdist", {m, m}, {{"p", -1.0}}, ErrorKind::InvalidArgument, "non-negative");
  expect_op_error("cdist", {m, from_values({1, 2, 3}, {1, 3}, DType::Float32)}, {}, ErrorKind::DtypeNotSupported,
                  "same dtype");
  const Tensor ints = from_values({1, 2}, {1, 2}, DType::Int64);
  expect_op_error("cdist", {ints, ints}, {}, ErrorKind::DtypeNotSupported, "x1");
}

TEST(DistancePdist, MeasuresThePairsOfRowsInRowMajorOrder) {
  // Rows [0, 0], [3, 4], [0, 1]: pairs (0, 1), (0, 2), (1, 2).
  const Tensor x = from_values({0, 0, 3, 4, 0, 1}, {3, 2});
  EXPECT_THAT(values(call_one("pdist", {x})), ElementsAre(5, 1, DoubleNear(std::sqrt(18.0), 1e-15)));
  EXPECT_THAT(values(call_one("pdist", {x}, {{"p", kInf}})), ElementsAre(4, 1, 3));
  EXPECT_EQ(call_one("pdist", {from_values({1, 2}, {1, 2})}).shape(), (Shape{0}));
  expect_op_error("pdist", {from_values({1, 2}, {2})}, {}, ErrorKind::ShapeMismatch, "2-D");
  expect_op_error("pdist", {x}, {{"p", -1.0}}, ErrorKind::InvalidArgument, "non-negative");
}

TEST(DistanceCosineSimilarity, DividesByTheNormsClampedAtEps) {
  // [3, 4]·[4, 3] / 25 = 24/25; [1, 0]·[0, 1] = 0.
  const Tensor x1 = from_values({3, 4, 1, 0}, {2, 2});
  const Tensor x2 = from_values({4, 3, 0, 1}, {2, 2});
  EXPECT_THAT(values(call_one("cosine_similarity", {x1, x2})), ElementsAre(DoubleNear(0.96, 1e-15), 0));
  // eps = 10 clamps both norms (5 and 5): 24 / 100.
  EXPECT_THAT(values(call_one("cosine_similarity", {from_values({3, 4}, {2}), from_values({4, 3}, {2})},
                              {{"dim", std::int64_t{0}}, {"eps", 10.0}})),
              ElementsAre(DoubleNear(0.24, 1e-15)));
  expect_op_error("cosine_similarity",
                  {from_values({1, 2}, {1, 2}, DType::Int64), from_values({1, 2}, {1, 2}, DType::Int64)}, {},
                  ErrorKind::DtypeNotSupported, "not floating");
}

TEST(DistanceCosineSimilarity, BelowEpsTheDivisorIsDifferentiatedAsTheNorm) {
  const PyFunction f = [](const std::vector<PyTree>& args) {
    return PyTree(call_one("sum", {call_one("cosine_similarity", {args[0].tensor(), from_values({3, 4}, {1, 2})})}));
  };
  // At [0, 0]: [0.6, 0.8] / eps. At [1e-9, 0]: that minus (a·b/|b|)(a/|a|)/eps² = 6e6 in the first.
  const std::vector<double> at_zero = values(grad(f)({PyTree(from_values({0, 0}, {1, 2}))}).tensor());
  EXPECT_THAT(at_zero, ElementsAre(DoubleNear(6e7, 1e-7), DoubleNear(8e7, 1e-7)));
  const std::vector<double> below = values(grad(f)({PyTree(from_values({1e-9, 0}, {1, 2}))}).tensor());
  EXPECT_THAT(below, ElementsAre(DoubleNear(5.4e7, 1e-6), DoubleNear(8e7, 1e-7)));
}

TEST(DistancePairwiseDistance, AddsEpsToEveryDifference) {
  const Tensor a = from_values({1, 2}, {2});
  EXPECT_THAT(values(call_one("pairwise_distance", {a, a})), ElementsAre(DoubleNear(std::sqrt(2.0) * 1e-6, 1e-21)));
  // [3, 4] - [0, 0] + 0 over the last dim, keepdim.
  const Tensor d = call_one("pairwise_distance", {from_values({3, 4, 0, 0}, {2, 2}), from_values({0, 0}, {2})},
                            {{"eps", 0.0}, {"keepdim", true}});
  EXPECT_EQ(d.shape(), (Shape{2, 1}));
  EXPECT_THAT(values(d), ElementsAre(5, 0));
  const Tensor ints = call_one("pairwise_distance",
                               {from_values({1, 2}, {1, 2}, DType::Int64), from_values({1, 3}, {1, 2}, DType::Int64)});
  EXPECT_EQ(ints.dtype(), DType::Float32);
}

}  // namespace
}  // namespace funcspec
