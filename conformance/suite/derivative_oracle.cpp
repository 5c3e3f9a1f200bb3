#include "conformance/suite/derivative_oracle.h"

#include <cmath>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/random/generator.h"

namespace funcspec::conformance::ad {

TensorList OpFunction::run(const TensorList& args) const {
  TensorList all = inputs;
  for (std::size_t k = 0; k < floating.size(); ++k) all[floating[k]] = args[k];
  const TensorList out = samples::run_program(op, program, all, attrs);
  TensorList chosen;
  for (std::size_t r : results) chosen.push_back(out.at(r));
  return chosen;
}

PyFunction OpFunction::tuple_function() const {
  return [this](const std::vector<PyTree>& args) {
    TensorList ts;
    for (const PyTree& a : args) ts.push_back(a.tensor());
    std::vector<PyTree> out;
    for (Tensor& t : run(ts)) out.emplace_back(std::move(t));
    return PyTree::tuple(out);
  };
}

Tensor OpFunction::scalarized(const TensorList& args, const TensorList& weights) const {
  const TensorList out = run(args);
  Tensor s;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const Tensor term = ops::sum(ops::mul(out[k], weights[k]));
    s = s.defined() ? ops::add(s, term) : term;
  }
  return s;
}

PyFunction OpFunction::scalar_function(const TensorList& weights) const {
  return [this, weights](const std::vector<PyTree>& args) {
    TensorList ts;
    for (const PyTree& a : args) ts.push_back(a.tensor());
    return PyTree(scalarized(ts, weights));
  };
}

Tensor in_dtype(const Tensor& t, DType dtype) {
  if (!t.defined() || t.is_wrapped_number() || !is_floating(t.dtype())) return t;
  return ops::to_dtype(t, dtype);
}

TensorList in_dtype(const TensorList& tensors, DType dtype) {
  TensorList out;
  for (const Tensor& t : tensors) out.push_back(in_dtype(t, dtype));
  return out;
}

OpFunction in_oracle(const OpFunction& f) {
  OpFunction g = f;
  for (Tensor& t : g.inputs) t = in_dtype(t, DType::Oracle);
  return g;
}

TensorList primals_of(const OpFunction& f) {
  TensorList p;
  for (std::size_t i : f.floating) p.push_back(f.inputs[i]);
  return p;
}

Tensor random_tensor(const Shape& shape, DType dtype, std::uint64_t seed) {
  random::GeneratorScope scope(seed);
  return ops::to_dtype(
      call_one("randn", {},
               {{"size", std::vector<std::int64_t>(shape.begin(), shape.end())}, {"dtype", DType::Float64}}),
      dtype);
}

Difference central_difference(const VectorFunction& value, const TensorList& at, const TensorList& direction) {
  // Two steps: at a smooth point the central differences agree to ~h^2; across a kink or a jump
  // (a tie of maximum) the one-sided differences, or the two steps, disagree by orders of magnitude.
  auto central = [&](double step, TensorList* one_sided_forward, TensorList* one_sided_backward) {
    const Scalar h(step);
    TensorList plus;
    TensorList minus;
    for (std::size_t k = 0; k < at.size(); ++k) {
      const Tensor delta = ops::mul(direction[k], ops::lit(h));
      plus.push_back(ops::add(at[k], delta));
      minus.push_back(ops::sub(at[k], delta));
    }
    const TensorList up = value(plus);
    const TensorList down = value(minus);
    TensorList out;
    const TensorList mid = one_sided_forward != nullptr ? value(at) : TensorList{};
    for (std::size_t r = 0; r < up.size(); ++r) {
      out.push_back(ops::div(ops::sub(up[r], down[r]), ops::lit(Scalar(2 * step))));
      if (one_sided_forward != nullptr) {
        one_sided_forward->push_back(ops::div(ops::sub(up[r], mid[r]), ops::lit(h)));
        one_sided_backward->push_back(ops::div(ops::sub(mid[r], down[r]), ops::lit(h)));
      }
    }
    return out;
  };
  TensorList forward;
  TensorList backward;
  Difference d;
  d.derivative = central(1e-20, &forward, &backward);
  const TensorList coarse = central(1e-17, nullptr, nullptr);
  auto disagree = [](const Tensor& a, const Tensor& b) {
    const std::vector<double> x = ops::to_dtype(a, DType::Float64).to_vector<double>();
    const std::vector<double> y = ops::to_dtype(b, DType::Float64).to_vector<double>();
    for (std::size_t e = 0; e < x.size(); ++e) {
      if (!(std::abs(x[e] - y[e]) <= 1e-12 * (1 + std::abs(x[e])))) return true;
    }
    return false;
  };
  for (std::size_t r = 0; r < d.derivative.size(); ++r) {
    d.kink = d.kink || disagree(forward[r], backward[r]) || disagree(d.derivative[r], coarse[r]);
  }
  return d;
}

TensorList forward_derivative(const VectorFunction& value, const TensorList& at, const TensorList& direction) {
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    TensorList point;
    for (const PyTree& a : args) point.push_back(a.tensor());
    std::vector<PyTree> results;
    for (Tensor& t : value(point)) results.emplace_back(std::move(t));
    return PyTree::tuple(results);
  };
  const transforms::JvpResult pushed = transforms::jvp(f, {at.begin(), at.end()}, {direction.begin(), direction.end()});
  TensorList out;
  for (const PyTree& t : pushed.tangent.children()) out.push_back(t.tensor());
  return out;
}

bool any_non_finite(const TensorList& tensors) {
  for (const Tensor& t : tensors) {
    for (double v : ops::to_dtype(ops::contiguous(t), DType::Float64).to_vector<double>()) {
      if (!std::isfinite(v)) return true;
    }
  }
  return false;
}

transforms::Argnums every_argument(std::size_t n) {
  transforms::Argnums argnums;
  argnums.positions.clear();
  for (std::size_t j = 0; j < n; ++j) argnums.positions.push_back(static_cast<std::int64_t>(j));
  argnums.tuple = true;
  return argnums;
}

std::vector<PyTree> as_arguments(const TensorList& tensors) { return {tensors.begin(), tensors.end()}; }

std::vector<std::vector<Tensor>> nested_blocks(const PyTree& tree) {
  std::vector<std::vector<Tensor>> blocks;
  for (const PyTree& row : tree.children()) {
    std::vector<Tensor> r;
    for (const PyTree& block : row.children()) r.push_back(block.tensor());
    blocks.push_back(std::move(r));
  }
  return blocks;
}

std::vector<std::vector<Tensor>> oracle_jacobian(const OpFunction& oracle, bool forward) {
  const transforms::Argnums argnums = every_argument(oracle.floating.size());
  const PyFunction f = oracle.tuple_function();
  const PyFunction jac = forward ? transforms::jacfwd(f, {argnums, false, transforms::Randomness::Error})
                                 : transforms::jacrev(f, {argnums, false, std::nullopt});
  return nested_blocks(jac(as_arguments(primals_of(oracle))));
}

std::vector<std::vector<Tensor>> oracle_second_derivative(const OpFunction& oracle, const TensorList& weights,
                                                          bool forward) {
  const transforms::Argnums argnums = every_argument(oracle.floating.size());
  const PyFunction s = oracle.scalar_function(weights);
  const PyFunction h = forward
                           ? transforms::jacfwd(transforms::jacfwd(s, {argnums, false, transforms::Randomness::Error}),
                                                {argnums, false, transforms::Randomness::Error})
                           : transforms::jacrev(transforms::jacrev(s, {argnums, false, {}}), {argnums, false, {}});
  return nested_blocks(h(as_arguments(primals_of(oracle))));  // [a][b] = d/dx_b (ds/dx_a)
}

}  // namespace funcspec::conformance::ad
