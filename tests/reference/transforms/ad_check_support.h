#pragma once
// Checks a primitive's derivative rules numerically, for the per-family rule tests: its jvp against
// central finite differences along a random direction, vjp (the transposed linear tape) against
// jvp through <u, J^T v> = <J u, v>, and linearize's jvp_fn against jvp. Inputs should be float64
// and away from kinks (abs at 0, relu at 0), where finite differences do not apply.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"

namespace funcspec::testing_support {

inline Tensor random_like(const Tensor& like, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::vector<double> data(static_cast<std::size_t>(like.numel()));
  for (double& d : data) d = normal(rng);
  return ops::to_dtype(from_vector(data, like.shape(), DType::Float64), like.dtype());
}

inline double dot_all(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  double total = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::vector<double> x = ops::to_dtype(ops::contiguous(a[k]), DType::Float64).to_vector<double>();
    const std::vector<double> y = ops::to_dtype(ops::contiguous(b[k]), DType::Float64).to_vector<double>();
    for (std::size_t i = 0; i < x.size(); ++i) total += x[i] * y[i];
  }
  return total;
}

// Checks op's derivatives at `inputs` with respect to its floating inputs (those listed in
// `wrt`, or all floating ones when `wrt` is empty), for its floating results.
inline void expect_derivatives_consistent(const std::string& op, const TensorList& inputs, const Attrs& attrs = {},
                                          std::vector<std::size_t> wrt = {}, double fd_tolerance = 1e-6,
                                          std::uint64_t seed = 1) {
  SCOPED_TRACE(fmt::format("op {} seed {}", op, seed));
  using transforms::PyTree;
  if (wrt.empty()) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].defined() && is_floating(inputs[i].dtype())) wrt.push_back(i);
    }
  }
  // f(differentiated inputs) -> the op's floating results.
  const transforms::PyFunction f = [&](const std::vector<PyTree>& args) {
    TensorList all = inputs;
    for (std::size_t k = 0; k < wrt.size(); ++k) all[wrt[k]] = args[k].tensor();
    std::vector<PyTree> results;
    for (const Tensor& r : call(op, all, attrs)) {
      if (is_floating(r.dtype())) results.emplace_back(r);
    }
    return PyTree::tuple(results);
  };
  std::mt19937_64 rng(seed);
  std::vector<PyTree> primals;
  std::vector<PyTree> tangents;
  for (std::size_t i : wrt) {
    primals.emplace_back(inputs[i]);
    tangents.emplace_back(random_like(inputs[i], rng));
  }
  const transforms::JvpResult forward = transforms::jvp(f, primals, tangents);
  std::vector<Tensor> jvp_out;
  for (const PyTree& leaf : forward.tangent.leaves()) jvp_out.push_back(leaf.tensor());

  // Central differences in float64: error O(h^2) + rounding O(eps/h).
  const double h = 1e-6;
  std::vector<PyTree> plus;
  std::vector<PyTree> minus;
  for (std::size_t k = 0; k < wrt.size(); ++k) {
    const Tensor step = ops::mul(tangents[k].tensor(), ops::lit(h));
    plus.emplace_back(ops::add(primals[k].tensor(), step));
    minus.emplace_back(ops::sub(primals[k].tensor(), step));
  }
  const std::vector<PyTree> up = f(plus).leaves();
  const std::vector<PyTree> down = f(minus).leaves();
  ASSERT_EQ(up.size(), jvp_out.size());
  for (std::size_t r = 0; r < up.size(); ++r) {
    const std::vector<double> a = ops::to_dtype(up[r].tensor(), DType::Float64).to_vector<double>();
    const std::vector<double> b = ops::to_dtype(down[r].tensor(), DType::Float64).to_vector<double>();
    const std::vector<double> j = ops::to_dtype(ops::contiguous(jvp_out[r]), DType::Float64).to_vector<double>();
    for (std::size_t e = 0; e < a.size(); ++e) {
      const double fd = (a[e] - b[e]) / (2 * h);
      EXPECT_NEAR(j[e], fd, fd_tolerance * (1 + std::abs(fd))) << "result " << r << " element " << e;
    }
  }

  // <u, J^T v> = <J u, v>.
  const transforms::VjpResult backward = transforms::vjp(f, primals);
  std::vector<PyTree> cotangents;
  std::vector<Tensor> v;
  for (const PyTree& leaf : backward.output.leaves()) {
    v.push_back(random_like(leaf.tensor(), rng));
    cotangents.emplace_back(v.back());
  }
  const PyTree pulled = backward.vjp_fn(PyTree::tuple(cotangents));
  std::vector<Tensor> u;
  std::vector<Tensor> jt_v;
  for (std::size_t k = 0; k < wrt.size(); ++k) {
    u.push_back(tangents[k].tensor());
    jt_v.push_back(pulled.children()[k].tensor());
  }
  const double lhs = dot_all(u, jt_v);
  const double rhs = dot_all(jvp_out, v);
  EXPECT_NEAR(lhs, rhs, 1e-10 * (1 + std::abs(rhs))) << "<u, vjp(v)> != <jvp(u), v>";

  // linearize's jvp_fn equals jvp.
  const transforms::LinearizeResult lin = transforms::linearize(f, primals);
  const std::vector<PyTree> lin_out = lin.jvp_fn(tangents).leaves();
  for (std::size_t r = 0; r < lin_out.size(); ++r) {
    const std::vector<double> a = ops::to_dtype(lin_out[r].tensor(), DType::Float64).to_vector<double>();
    const std::vector<double> b = ops::to_dtype(ops::contiguous(jvp_out[r]), DType::Float64).to_vector<double>();
    for (std::size_t e = 0; e < a.size(); ++e) EXPECT_NEAR(a[e], b[e], 1e-12 * (1 + std::abs(b[e])));
  }
}

}  // namespace funcspec::testing_support
