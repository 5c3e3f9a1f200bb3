#pragma once
// Helpers shared by the transform tests: tensor functions as the PyFunctions the transforms take,
// and float64 scalars.
#include <functional>
#include <vector>

#include "reference/core/tensor.h"
#include "reference/transforms/pytree.h"
#include "reference/transforms/vmap.h"

namespace funcspec::testing_support {

using Fn1 = std::function<Tensor(const Tensor&)>;

// `f` as a PyFunction of one tensor argument that returns one tensor.
inline transforms::PyFunction lift(const Fn1& f) {
  return [f](const std::vector<transforms::PyTree>& args) { return transforms::PyTree(f(args.at(0).tensor())); };
}

// Calls a PyFunction of one tensor argument whose result is one tensor.
inline Tensor call1(const transforms::PyFunction& f, const Tensor& x) { return f({transforms::PyTree(x)}).tensor(); }

// A float64 tensor of rank 0.
inline Tensor scalar(double v) { return from_values({v}, {}); }

}  // namespace funcspec::testing_support
