// A write into a primal between vjp (or linearize) and the call of the function it returned
// (docs/SPEC.md, AD-2.5; NOTE: Storage::version).
#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec::transforms {
namespace {

using testing_support::error_kind_of;
using testing_support::lift;
using testing_support::values;

PyFunction squared_elementwise() {
  return lift([](const Tensor& t) { return ops::mul(t, t); });
}

TEST(WrittenPrimal, VjpFnRaisesAfterAWriteIntoThePrimal) {
  const Tensor x = from_values({1.0, 2.0}, {2});
  const VjpResult r = vjp(squared_elementwise(), {PyTree(x)});
  call("add_", {x, x}, {});
  EXPECT_EQ(error_kind_of([&] { r.vjp_fn(PyTree(from_values({1.0, 1.0}, {2}))); }), ErrorKind::AdInputModified);
}

TEST(WrittenPrimal, AWriteThroughAViewOfThePrimalCounts) {
  const Tensor x = from_values({1.0, 2.0}, {2});
  const VjpResult r = vjp(squared_elementwise(), {PyTree(x)});
  const Tensor second = call_one("select", {x}, {{"dim", std::int64_t{0}}, {"index", std::int64_t{1}}});
  call("mul_", {second, second}, {});
  EXPECT_EQ(error_kind_of([&] { r.vjp_fn(PyTree(from_values({1.0, 1.0}, {2}))); }), ErrorKind::AdInputModified);
}

TEST(WrittenPrimal, LinearizeJvpFnRaisesAfterAWriteIntoThePrimal) {
  const Tensor x = from_values({1.0, 2.0}, {2});
  const LinearizeResult r = linearize(squared_elementwise(), {PyTree(x)});
  call("add_", {x, x}, {});
  EXPECT_EQ(error_kind_of([&] { r.jvp_fn({PyTree(from_values({1.0, 1.0}, {2}))}); }), ErrorKind::AdInputModified);
}

TEST(WrittenPrimal, AWriteIntoAClonePassesAndVjpFnStaysCallable) {
  const Tensor x = from_values({1.0, 2.0}, {2});
  const VjpResult r = vjp(squared_elementwise(), {PyTree(x)});
  const Tensor copy = call_one("clone", {x}, {});
  call("add_", {copy, copy}, {});
  const PyTree first = r.vjp_fn(PyTree(from_values({1.0, 1.0}, {2})));
  EXPECT_EQ(values(first.children()[0].tensor()), (std::vector<double>{2.0, 4.0}));
  const PyTree again = r.vjp_fn(PyTree(from_values({1.0, 1.0}, {2})));
  EXPECT_EQ(values(again.children()[0].tensor()), (std::vector<double>{2.0, 4.0}));
}

}  // namespace
}  // namespace funcspec::transforms
