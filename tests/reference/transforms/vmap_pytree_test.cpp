// vmap over nested arguments and results (NOTE: [pytrees]): prefix in_dims and out_dims, the
// errors for structures that do not fit, non-tensor leaves; and vmap in the oracle dtype.
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::error_kind_of;
using testing_support::values;

Tensor arange_of(std::int64_t n, const Shape& shape, DType dtype = DType::Float64) {
  std::vector<double> v;
  for (std::int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i));
  return call_one("to_dtype", {from_vector(v, shape, DType::Float64)}, {{"dtype", dtype}});
}

TEST(VmapPytrees, APrefixLeafAppliesToEveryLeafBelowIt) {
  // f((x, y), {'w': w}) = x * y + w, with the pair mapped at 0 and the dict not mapped.
  const Tensor x = arange_of(6, {2, 3});
  const Tensor y = arange_of(6, {2, 3});
  const Tensor w = from_values({100, 200, 300}, {3});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const PyFunction f = vmap(
      [](const std::vector<PyTree>& args) {
        const Tensor& a = args[0].children()[0].tensor();
        const Tensor& b = args[0].children()[1].tensor();
        const Tensor& c = args[1].children()[0].tensor();
        EXPECT_EQ(a.shape(), (Shape{3}));
        EXPECT_EQ(c.shape(), (Shape{3}));
        return PyTree::dict({{"out", PyTree(call_one("add", {call_one("mul", {a, b}), c}))}});
      },
      options);
  const PyTree result = f({PyTree::tuple({PyTree(x), PyTree(y)}), PyTree::dict({{"w", PyTree(w)}})});
  ASSERT_EQ(result.kind(), PyTree::Kind::Dict);
  EXPECT_EQ(result.keys(), std::vector<std::string>{"out"});
  EXPECT_EQ(values(result.children()[0].tensor()), (std::vector<double>{100, 201, 304, 109, 216, 325}));
}

TEST(VmapPytrees, InDimsThatDoNotFitTheArgumentsAreRefused) {
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree(0)});  // two entries for one argument
  const PyFunction f = vmap([](const std::vector<PyTree>& args) { return args[0]; }, options);
  EXPECT_EQ(error_kind_of([&] { f({PyTree(arange_of(4, {2, 2}))}); }), ErrorKind::VmapInvalidDims);
}

TEST(VmapPytrees, AnIntInDimForANonTensorIsRefused) {
  const PyFunction f = vmap([](const std::vector<PyTree>& args) { return args[0]; });
  EXPECT_EQ(error_kind_of([&] { f({PyTree(arange_of(2, {2})), PyTree(Scalar(2.5))}); }), ErrorKind::VmapInvalidDims);
}

TEST(VmapPytrees, NoMappedArgumentIsRefused) {
  VmapOptions options;
  options.in_dims = PyTree::none();
  const PyFunction f = vmap([](const std::vector<PyTree>& args) { return args[0]; }, options);
  EXPECT_EQ(error_kind_of([&] { f({PyTree(arange_of(2, {2}))}); }), ErrorKind::VmapInvalidDims);
}

TEST(VmapPytrees, NonTensorResultsNeedOutDimNone) {
  const Tensor x = arange_of(4, {2, 2});
  const auto returns_a_number = [](const std::vector<PyTree>& args) {
    return PyTree::tuple({PyTree(call_one("neg", {args[0].tensor()})), PyTree(Scalar(std::int64_t{7}))});
  };
  EXPECT_EQ(error_kind_of([&] { vmap(returns_a_number)({PyTree(x)}); }), ErrorKind::VmapNonTensorOutput);
  VmapOptions options;
  options.out_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const PyTree result = vmap(returns_a_number, options)({PyTree(x)});
  EXPECT_EQ(result.children()[1].scalar(), Scalar(std::int64_t{7}));
  EXPECT_EQ(values(result.children()[0].tensor()), (std::vector<double>{-0.0, -1, -2, -3}));
}

TEST(VmapPytrees, OutDimNoneForABatchedResultIsRefused) {
  VmapOptions options;
  options.out_dims = PyTree::none();
  const PyFunction f = vmap([](const std::vector<PyTree>& args) { return args[0]; }, options);
  EXPECT_EQ(error_kind_of([&] { f({PyTree(arange_of(4, {2, 2}))}); }), ErrorKind::VmapInvalidDims);
}

TEST(VmapErrors, AnOutVariantErrorLeavesOutUnwritten) {
  const Tensor out = from_values({-1, -1}, {2});
  VmapOptions options;
  options.in_dims = PyTree::tuple({PyTree(0), PyTree::none()});
  const PyFunction f = vmap(
      [](const std::vector<PyTree>& args) {
        return PyTree(call_one("neg.out", {args[0].tensor(), args[1].tensor()}));
      },
      options);
  EXPECT_EQ(error_kind_of([&] { f({PyTree(arange_of(4, {2, 2})), PyTree(out)}); }), ErrorKind::VmapOutVariant);
  EXPECT_EQ(values(out), (std::vector<double>{-1, -1}));
}

// The rules are templates over the element type like the kernels: the oracle dtype batches too,
// and agrees with the op applied example by example.
TEST(VmapOracleDtype, BatchedReductionAndMatmulEqualTheLoop) {
  const Tensor x = arange_of(12, {3, 2, 2}, DType::Oracle);
  const PyFunction f = vmap([](const std::vector<PyTree>& args) {
    const Tensor& m = args[0].tensor();
    return PyTree(call_one("sum", {call_one("matmul", {m, m})}));
  });
  const Tensor batched = f({PyTree(x)}).tensor();
  ASSERT_EQ(batched.dtype(), DType::Oracle);
  for (std::int64_t b = 0; b < 3; ++b) {
    const Tensor m = call_one("select", {x}, {{"dim", std::int64_t{0}}, {"index", b}});
    const Tensor expected = call_one("sum", {call_one("matmul", {m, m})});
    EXPECT_EQ(batched.to_vector<oracle_t>()[static_cast<std::size_t>(b)], expected.to_vector<oracle_t>()[0]);
  }
}

}  // namespace
}  // namespace funcspec::transforms
