#include <gtest/gtest.h>

#include "reference/ops/dispatch.h"

namespace funcspec {
namespace {

TEST(Add, BroadcastsAndPromotes) {
  const Tensor a = from_values({1, 2, 3}, {3}, DType::Int64);
  const Tensor b = Tensor::wrapped_scalar(Scalar(0.5));
  const Tensor c = call_one("add", {a, b});
  EXPECT_EQ(c.dtype(), DType::Float32);
  EXPECT_EQ(c.to_vector<double>(), (std::vector<double>{1.5, 2.5, 3.5}));
}

}  // namespace
}  // namespace funcspec
