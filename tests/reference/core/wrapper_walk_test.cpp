// The one walk through transform wrappers (NOTE: [wrapper walk]): whatever transforms are stacked, the
// memory a tensor's values live in and the wrappers it carries are found through each payload's own
// account of what it wraps.
#include "reference/core/wrapper_walk.h"

#include <gtest/gtest.h>

#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/batched.h"
#include "reference/transforms/dual.h"
#include "reference/transforms/functionalize.h"
#include "reference/transforms/linear_trace.h"
#include "reference/transforms/vmap.h"
#include "tests/reference/test_support.h"
#include "tests/reference/transforms/pyfunction_support.h"

namespace funcspec {
namespace {

using testing_support::call1;
using testing_support::lift;
using testing_support::matrix23;
using transforms::PyTree;

bool any_wrapper(const TransformPayload& /*payload*/) { return true; }
bool is_batched(const TransformPayload& p) { return dynamic_cast<const transforms::BatchedPayload*>(&p) != nullptr; }
bool is_dual(const TransformPayload& p) { return dynamic_cast<const transforms::DualPayload*>(&p) != nullptr; }
bool is_linear(const TransformPayload& p) { return dynamic_cast<const transforms::LinearPayload*>(&p) != nullptr; }

TEST(WrapperWalk, APlainTensorsMemoryIsItsStorageWhichItsViewsShare) {
  const Tensor x = matrix23();
  EXPECT_EQ(memory_identity(x), x.storage().get());
  EXPECT_EQ(memory_identity(ops::transpose(x, 0, 1)), x.storage().get());
  EXPECT_NE(memory_identity(ops::neg(x)), x.storage().get());
  EXPECT_EQ(memory_identity(Tensor()), nullptr);
  EXPECT_EQ(find_wrapper(x, any_wrapper), nullptr);
}

TEST(WrapperWalk, ADualOfABatchedTensorLivesInTheBatchsMemoryAndFindsBothWrappers) {
  const Tensor x = matrix23();
  int runs = 0;
  // vmap over jvp: each example is a dual (the inner level) whose primal is batched.
  call1(transforms::vmap(lift([&](const Tensor& row) {
          EXPECT_EQ(memory_identity(row), x.storage().get());
          const PyTree out = transforms::jvp(lift([&](const Tensor& dual) {
                                               ++runs;
                                               EXPECT_EQ(memory_identity(dual), x.storage().get());
                                               EXPECT_EQ(memory_identity(ops::select(dual, 0, 1)), x.storage().get());
                                               const Tensor fresh = ops::mul(dual, dual);
                                               EXPECT_NE(memory_identity(fresh), nullptr);
                                               EXPECT_NE(memory_identity(fresh), x.storage().get());
                                               EXPECT_EQ(find_wrapper(dual, any_wrapper), dual.payload());
                                               const TransformPayload* batched = find_wrapper(dual, is_batched);
                                               EXPECT_NE(batched, nullptr);
                                               EXPECT_EQ(batched, row.payload());
                                               return dual;
                                             }),
                                             {PyTree(row)}, {PyTree(ops::ones_like(row))})
                                 .output;
          return out.tensor();
        })),
        x);
  EXPECT_EQ(runs, 1);  // vmap calls its function once, on the whole batch
}

TEST(WrapperWalk, ADualsMemoryIsItsPrimalsWhileTheWalkAlsoVisitsItsTangent) {
  const Tensor primal = matrix23();
  const Tensor tangents = ops::stack({matrix23(), matrix23()}, 0);
  int runs = 0;
  // A plain primal with batched tangents: the batch is found through the tangent.
  call1(transforms::vmap(lift([&](const Tensor& tangent) {
          return transforms::jvp(lift([&](const Tensor& dual) {
                                   ++runs;
                                   EXPECT_EQ(memory_identity(dual), primal.storage().get());
                                   EXPECT_EQ(find_wrapper(dual, is_batched), tangent.payload());
                                   return dual;
                                 }),
                                 {PyTree(primal)}, {PyTree(tangent)})
              .tangent.tensor();
        })),
        tangents);
  EXPECT_EQ(runs, 1);
}

TEST(WrapperWalk, ALinearVariableHasNoMemory) {
  const Tensor x = matrix23();
  int runs = 0;
  // Under vjp, each input is a dual whose tangent is a variable of the linear trace.
  transforms::vjp(lift([&](const Tensor& dual) {
                    ++runs;
                    EXPECT_TRUE(is_dual(*dual.payload()));
                    EXPECT_EQ(memory_identity(dual), x.storage().get());
                    const TransformPayload* variable = find_wrapper(dual, is_linear);
                    EXPECT_NE(variable, nullptr);
                    EXPECT_EQ(variable->wrapped_values(), nullptr);
                    EXPECT_TRUE(variable->also_wrapped().empty());
                    EXPECT_EQ(memory_identity(static_cast<const transforms::DualPayload*>(dual.payload())->tangent()),
                              nullptr);
                    return dual;
                  }),
                  {PyTree(x)});
  EXPECT_EQ(runs, 1);
}

TEST(WrapperWalk, AFunctionalizedTensorLivesInItsAliasGroupWhichItsViewsShare) {
  const Tensor x = matrix23();
  int runs = 0;
  call1(transforms::functionalize(lift([&](const Tensor& argument) {
          ++runs;
          const void* group = transforms::functional_alias_group(argument);
          EXPECT_NE(group, nullptr);
          EXPECT_EQ(memory_identity(argument), group);
          EXPECT_EQ(memory_identity(ops::transpose(argument, 0, 1)), group);
          EXPECT_NE(memory_identity(ops::neg(argument)), group);
          return argument;
        })),
        x);
  EXPECT_EQ(runs, 1);
}

}  // namespace
}  // namespace funcspec
