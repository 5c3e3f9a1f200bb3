#pragma once
// Helpers shared by the module tests: seeded tensors, state dicts in another dtype, comparisons of
// pytrees of tensors, and finite differences in the oracle dtype (the independent oracle every
// derivative through functional_call is checked against).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "reference/api/ops.h"
#include "reference/modules/module.h"
#include "reference/random/generator.h"
#include "reference/transforms/pytree.h"

namespace funcspec::testing_support {

using transforms::PyTree;

// Module state in float64 on cpu: what the tests build models with, for tight comparisons.
inline constexpr modules::ModuleOptions kFloat64Options{DType::Float64, Device::Cpu};

// A standard-normal tensor drawn under GeneratorScope(seed), converted to `dtype`.
inline Tensor normal_tensor(const Shape& shape, std::uint64_t seed, DType dtype = DType::Float64) {
  random::GeneratorScope scope(seed);
  return ops::to_dtype(ops::randn(shape, DType::Float64), dtype);
}

// The same tree with every tensor leaf converted to `dtype`.
inline PyTree converted(const PyTree& tree, DType dtype) {
  std::vector<PyTree> leaves = tree.leaves();
  for (PyTree& leaf : leaves) {
    if (leaf.is_tensor()) leaf = PyTree(ops::to_dtype(leaf.tensor(), dtype));
  }
  return tree.with_leaves(leaves);
}

// A dict PyTree's value at `key`.
inline const Tensor& entry(const PyTree& dict, const std::string& key) {
  for (std::size_t i = 0; i < dict.keys().size(); ++i) {
    if (dict.keys()[i] == key) return dict.children()[i].tensor();
  }
  ADD_FAILURE() << "no key '" << key << "' in " << dict.describe();
  static const Tensor none;
  return none;
}

// Expects two trees of the same structure whose tensors agree within `tolerance` (absolute, plus
// relative to the expected value); exact when 0.
inline void expect_trees_near(const PyTree& got, const PyTree& want, double tolerance) {
  ASSERT_EQ(got.describe(), want.describe());
  const std::vector<PyTree> a = got.leaves();
  const std::vector<PyTree> b = want.leaves();
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!b[k].is_tensor()) continue;
    const std::vector<double> x = ops::to_dtype(a[k].tensor(), DType::Float64).to_vector<double>();
    const std::vector<double> y = ops::to_dtype(b[k].tensor(), DType::Float64).to_vector<double>();
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (tolerance == 0) {
        EXPECT_EQ(x[i], y[i]) << "leaf " << k << " element " << i;
      } else {
        EXPECT_NEAR(x[i], y[i], tolerance * (1 + std::abs(y[i]))) << "leaf " << k << " element " << i;
      }
    }
  }
}

// `tensor` with `delta` added at flat element `index` (any dtype, the oracle's included).
inline Tensor nudged(const Tensor& tensor, std::int64_t index, double delta) {
  std::vector<double> one_hot(static_cast<std::size_t>(tensor.numel()), 0.0);
  one_hot[static_cast<std::size_t>(index)] = 1.0;
  const Tensor direction = from_vector(one_hot, tensor.shape(), tensor.dtype());
  return ops::add(tensor, ops::mul(direction, ops::lit(delta)));
}

// The tree with the leaf `leaf` nudged at `index` by `delta`.
inline PyTree nudged_tree(const PyTree& tree, std::size_t leaf, std::int64_t index, double delta) {
  std::vector<PyTree> leaves = tree.leaves();
  leaves[leaf] = PyTree(nudged(leaves[leaf].tensor(), index, delta));
  return tree.with_leaves(leaves);
}

using ScalarOfTree = std::function<Tensor(const PyTree& at)>;

// The gradient of the rank-0 `f` at `at` by central differences with step h, computed in the
// oracle dtype (`at` is converted to it, so f runs in 50-digit arithmetic): truncation O(h^2) and
// rounding O(1e-50 / h) both lie far below float64's resolution. Returned as float64, with the
// structure of `at`.
inline PyTree oracle_gradient(const ScalarOfTree& f, const PyTree& at, double h = 1e-20) {
  const PyTree oracle_at = converted(at, DType::Oracle);
  std::vector<PyTree> gradient = at.leaves();
  for (std::size_t leaf = 0; leaf < gradient.size(); ++leaf) {
    const Tensor& like = gradient[leaf].tensor();
    std::vector<double> slopes(static_cast<std::size_t>(like.numel()));
    for (std::int64_t i = 0; i < like.numel(); ++i) {
      const Tensor up = f(nudged_tree(oracle_at, leaf, i, h));
      const Tensor down = f(nudged_tree(oracle_at, leaf, i, -h));
      const Tensor slope = ops::div(ops::sub(up, down), ops::lit(2 * h));
      slopes[static_cast<std::size_t>(i)] = ops::to_dtype(slope, DType::Float64).to_vector<double>().at(0);
    }
    gradient[leaf] = PyTree(from_vector(slopes, like.shape(), DType::Float64));
  }
  return at.with_leaves(gradient);
}

}  // namespace funcspec::testing_support
