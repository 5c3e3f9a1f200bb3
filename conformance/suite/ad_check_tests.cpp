// The generated gradient checks (docs/SPEC.md AD-8.x), one family per layer, over every op of the
// sample database whose results are differentiable:
//   AD-JVP-FD/<op>/<n>-<label>     jvp equals central finite differences along a random direction
//   AD-TRANSPOSE/<op>/<n>-<label>  vjp(v) equals J^T v with J from forward mode: <u, vjp(v)> = <jvp(u), v>
//   AD-JACOBIAN/<op>/<n>-<label>   jacrev equals the Jacobian forward mode builds (and jacfwd, reverse)
//   AD-HESSIAN/<op>/<n>-<label>    hessian equals jacrev(jacrev), symmetrized: symmetric within tolerance
//   AD-VMAP-GRAD/<op>/<n>-<label>  vmap(grad) equals the loop of grad
//   AD-HIGHER/<op>/<n>-<label>/order2|order3  second and third order against finite differences of
//                                  the order below
// Every expectation is computed by the reference in the oracle dtype (50 digits) by a route other
// than the one the case exercises (forward mode for reverse, finite differences for AD), so a run
// against the reference checks the reference too. Where the two one-sided differences disagree the
// point is a kink (relu at 0, a tie of amax): there the expectation is the reference's specified
// one-sided choice (docs/ops/<family>.md, "Derivatives"), and the case says so. Tolerances come from
// conformance/tolerances/ad.json, one entry per (check, op, dtype).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <iterator>
#include <mutex>
#include <stdexcept>

#include "conformance/case/versioned_json.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "conformance/suite/variant_samples.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::conformance {
namespace {

using transforms::PyFunction;
using transforms::PyTree;
using ToleranceJson = nlohmann::json;

// --- The tolerance table ---

struct DerivativeTolerance {
  double atol = 0;
  double rtol = 0;
};

const ToleranceJson& tolerance_table() {
  static const ToleranceJson table =
      read_versioned_json(FUNCSPEC_AD_TOLERANCES_FILE, "funcspec-ad-tolerances/1", "the AD tolerance table");
  return table;
}

DerivativeTolerance lookup_tolerance(const std::string& check, const std::string& op, DType dtype) {
  const ToleranceJson& table = tolerance_table();
  const std::string d(dtype_name(dtype));
  const ToleranceJson* entry = nullptr;
  auto try_entry = [&](const ToleranceJson& node) {
    if (entry == nullptr && node.is_object() && node.contains(d)) entry = &node[d];
  };
  if (table.contains("ops") && table["ops"].contains(op)) {
    const ToleranceJson& per_op = table["ops"][op];
    if (per_op.contains(check)) try_entry(per_op[check]);
    if (per_op.contains("*")) try_entry(per_op["*"]);
  }
  if (table.contains("checks") && table["checks"].contains(check)) try_entry(table["checks"][check]);
  if (table.contains("default")) try_entry(table["default"]);
  if (entry == nullptr || !entry->contains("atol") || !entry->contains("rtol") || !(*entry)["atol"].is_number() ||
      !(*entry)["rtol"].is_number())
    throw std::runtime_error(fmt::format("the AD tolerance table has no usable entry for ({}, {}, {})", check, op, d));
  return {(*entry)["atol"].get<double>(), (*entry)["rtol"].get<double>()};
}

// The case tolerance of an expected derivative: atol scales with the tensor's largest element.
Tolerance derivative_tolerance(const std::string& check, const std::string& op, DType dtype, const Tensor& expected) {
  const DerivativeTolerance t = lookup_tolerance(check, op, dtype);
  double scale = 1;
  for (double v : ops::to_dtype(ops::contiguous(expected), DType::Float64).to_vector<double>()) {
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  }
  return {t.atol * scale, t.rtol, 0};
}

// --- The function under test, in the oracle dtype ---

// An op call as a function of its floating tensor inputs; the other inputs stay fixed.
struct OpFunction {
  std::string op;
  Attrs attrs;
  TensorList inputs;                  // the sample's, with floating ones in the computing dtype
  std::vector<std::size_t> floating;  // positions of the differentiated inputs
  std::vector<std::size_t> results;   // positions of the floating results

  TensorList run(const TensorList& args) const {
    TensorList all = inputs;
    for (std::size_t k = 0; k < floating.size(); ++k) all[floating[k]] = args[k];
    const TensorList out = call(op, all, attrs);
    TensorList chosen;
    for (std::size_t r : results) chosen.push_back(out.at(r));
    return chosen;
  }
  PyFunction tuple_function() const {
    return [this](const std::vector<PyTree>& args) {
      TensorList ts;
      for (const PyTree& a : args) ts.push_back(a.tensor());
      std::vector<PyTree> out;
      for (Tensor& t : run(ts)) out.emplace_back(std::move(t));
      return PyTree::tuple(out);
    };
  }
  // s = sum_k sum(r_k * w_k): a scalar through every floating result.
  Tensor scalarized(const TensorList& args, const TensorList& weights) const {
    const TensorList out = run(args);
    Tensor s;
    for (std::size_t k = 0; k < out.size(); ++k) {
      const Tensor term = ops::sum(ops::mul(out[k], weights[k]));
      s = s.defined() ? ops::add(s, term) : term;
    }
    return s;
  }
  PyFunction scalar_function(const TensorList& weights) const {
    return [this, weights](const std::vector<PyTree>& args) {
      TensorList ts;
      for (const PyTree& a : args) ts.push_back(a.tensor());
      return PyTree(scalarized(ts, weights));
    };
  }
};

Tensor in_dtype(const Tensor& t, DType dtype) {
  if (!t.defined() || t.is_wrapped_number() || !is_floating(t.dtype())) return t;
  return ops::to_dtype(t, dtype);
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

// Central differences of `value` along `direction` in the oracle dtype; `kink` reports points where
// the one-sided differences disagree (the derivative there is a choice, not a limit).
struct Difference {
  TensorList derivative;
  bool kink = false;
};

Difference central_difference(const std::function<TensorList(const TensorList&)>& value, const TensorList& at,
                              const TensorList& direction) {
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

// The reference's own jvp of `value` at `at` along `direction`: the specified derivative, for
// points where no limit exists.
TensorList forward_derivative(const std::function<TensorList(const TensorList&)>& value, const TensorList& at,
                              const TensorList& direction) {
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

// --- Case building ---

struct AdSample {
  const samples::OpSampleSpec* spec = nullptr;
  samples::OpSample sample;
  DType dtype = DType::Float64;  // of the floating inputs
  std::uint64_t seed = 0;
  std::vector<std::size_t> floating;
};

// The sample's op as a one-step program over x0.. with results r0..; the case's outputs are the
// floating results.
Case program_case(const AdSample& s, const std::string& id, std::vector<std::string> clauses, Tier tier,
                  const OpFunction& f, std::size_t result_count) {
  Case c = one_step_case(SampleCall{s.spec, s.sample, s.dtype, s.seed}, id, std::move(clauses), tier, result_count);
  for (std::size_t r : f.results) c.outputs.push_back(fmt::format("r{}", r));
  return c;
}

// Appends s = sum_k sum(r_k * w_k) to the program, with the weights as inputs w0...
void add_scalarization(Case& c, const TensorList& weights) {
  std::string total;
  for (std::size_t k = 0; k < weights.size(); ++k) {
    const std::string w = fmt::format("w{}", k);
    c.inputs.push_back(case_input_of(w, weights[k]));
    const std::string product = fmt::format("p{}", k);
    const std::string term = fmt::format("t{}", k);
    c.program.push_back({{product}, "mul", {c.outputs[k], w}, {}});
    c.program.push_back({{term}, "sum", {product}, {}});
    if (total.empty()) {
      total = term;
    } else {
      const std::string next = fmt::format("a{}", k);
      c.program.push_back({{next}, "add", {total, term}, {}});
      total = next;
    }
  }
  c.program.push_back({{"s"}, "clone", {total}, {}});
  c.outputs = {"s"};
}

ExpectedValue expected(const std::string& name, const Tensor& oracle_value, DType dtype,
                       std::optional<Tolerance> tolerance) {
  const Tensor rounded = ops::contiguous(in_dtype(oracle_value, dtype));
  return {name, tensor_spec_of(rounded), tolerance};
}

ExpectedValue expected_derivative(const std::string& name, const Tensor& oracle_value, DType dtype,
                                  const std::string& check, const std::string& op) {
  return expected(name, oracle_value, dtype, derivative_tolerance(check, op, dtype, oracle_value));
}

// The primal results' expectations, with the op's stated value tolerance.
void expect_primal_results(Case& c, const AdSample& s, const OpFunction& oracle) {
  const TensorList values = oracle.run(primals_of(oracle));
  for (std::size_t k = 0; k < values.size(); ++k) {
    const Tolerance t = value_tolerance(s.spec->tolerance, s.dtype, s.sample.inputs);
    c.expect.values.push_back(expected(c.outputs[k], values[k], s.dtype, t));
  }
}

ArgNums floating_argnums(const AdSample& s) {
  ArgNums a;
  a.selectors.clear();
  for (std::size_t i : s.floating) a.selectors.emplace_back(sample_input_name(i));
  a.written_as_list = true;
  return a;
}

TensorList weights_for(const OpFunction& oracle, const AdSample& s) {
  TensorList weights;
  const TensorList values = oracle.run(primals_of(oracle));
  for (std::size_t k = 0; k < values.size(); ++k) {
    weights.push_back(random_tensor(values[k].shape(), s.dtype, s.seed + 101 + k));
  }
  return weights;
}

// argnums selecting each of n arguments, as a tuple.
transforms::Argnums every_argument(std::size_t n) {
  transforms::Argnums argnums;
  argnums.positions.clear();
  for (std::size_t j = 0; j < n; ++j) argnums.positions.push_back(static_cast<std::int64_t>(j));
  argnums.tuple = true;
  return argnums;
}

std::vector<PyTree> as_arguments(const TensorList& tensors) { return {tensors.begin(), tensors.end()}; }

// The tensors of a tuple of tuples, as [i][j].
std::vector<std::vector<Tensor>> nested_blocks(const PyTree& tree) {
  std::vector<std::vector<Tensor>> blocks;
  for (const PyTree& row : tree.children()) {
    std::vector<Tensor> r;
    for (const PyTree& block : row.children()) r.push_back(block.tensor());
    blocks.push_back(std::move(r));
  }
  return blocks;
}

// The Jacobian blocks d r_k / d x_j by forward mode (true) or reverse mode, in the oracle dtype.
std::vector<std::vector<Tensor>> oracle_jacobian(const OpFunction& oracle, bool forward) {
  const transforms::Argnums argnums = every_argument(oracle.floating.size());
  const PyFunction f = oracle.tuple_function();
  const PyFunction jac = forward ? transforms::jacfwd(f, {argnums, false, transforms::Randomness::Error})
                                 : transforms::jacrev(f, {argnums, false, std::nullopt});
  return nested_blocks(jac(as_arguments(primals_of(oracle))));
}

// --- The six checks ---

Case jvp_fd_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier, std::size_t result_count) {
  const OpFunction oracle = in_oracle(f);
  Case c = program_case(s, id, {"AD-8.1"}, tier, f, result_count);
  JvpTransform jvp;
  TensorList directions;
  for (std::size_t k = 0; k < s.floating.size(); ++k) {
    const Tensor& x = s.sample.inputs[s.floating[k]];
    const Tensor u = random_tensor(x.shape(), s.dtype, s.seed + 7 + k);
    jvp.tangents.push_back({sample_input_name(s.floating[k]), tensor_spec_of(u)});
    directions.push_back(in_dtype(u, DType::Oracle));
  }
  c.transforms.push_back(jvp);
  expect_primal_results(c, s, oracle);
  const auto value = [&](const TensorList& at) { return oracle.run(at); };
  const Difference d = central_difference(value, primals_of(oracle), directions);
  TensorList derivative = d.derivative;
  const TensorList specified = forward_derivative(value, primals_of(oracle), directions);
  if (d.kink || any_non_finite(specified)) {
    c.description =
        "where the op has no derivative (a kink, or an infinite slope) the expectation is the specified "
        "one (docs/ops, Derivatives), from the reference's forward mode";
    derivative = specified;
  } else {
    c.description = "jvp along a random direction equals central finite differences in the oracle dtype";
  }
  for (std::size_t k = 0; k < derivative.size(); ++k) {
    c.expect.values.push_back(
        expected_derivative(fmt::format("jvp({})", c.outputs[k]), derivative[k], s.dtype, "jvp_fd", s.spec->op));
  }
  return c;
}

Case transpose_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier,
                    std::size_t result_count) {
  const OpFunction oracle = in_oracle(f);
  Case c = program_case(s, id, {"AD-8.2"}, tier, f, result_count);
  c.description = "vjp(v) equals J^T v with J built by forward mode, so <u, vjp(v)> = <jvp(u), v> for every u";
  VjpTransform vjp;
  const TensorList values = oracle.run(primals_of(oracle));
  TensorList cotangents;
  for (std::size_t k = 0; k < values.size(); ++k) {
    const Tensor v = random_tensor(values[k].shape(), s.dtype, s.seed + 13 + k);
    vjp.cotangents.push_back({c.outputs[k], tensor_spec_of(v)});
    cotangents.push_back(in_dtype(v, DType::Oracle));
  }
  c.transforms.push_back(vjp);
  expect_primal_results(c, s, oracle);
  const std::vector<std::vector<Tensor>> jac = oracle_jacobian(oracle, /*forward=*/true);
  for (std::size_t j = 0; j < s.floating.size(); ++j) {
    const Tensor& x = s.sample.inputs[s.floating[j]];
    Tensor total;
    for (std::size_t k = 0; k < values.size(); ++k) {
      // J_kj reshaped [n_out, n_in]; v_k as [n_out, 1]: the sum over outputs of v * J.
      const Tensor block = ops::reshape(jac[k][j], {values[k].numel(), x.numel()});
      const Tensor v = ops::reshape(cotangents[k], {values[k].numel(), 1});
      const Tensor term = ops::sum(ops::mul(block, v), std::vector<std::int64_t>{0});
      total = total.defined() ? ops::add(total, term) : term;
    }
    if (!total.defined()) total = ops::zeros({x.numel()}, DType::Oracle);
    total = ops::reshape(total, x.shape());
    c.expect.values.push_back(expected_derivative(fmt::format("vjp({})", sample_input_name(s.floating[j])), total,
                                                  s.dtype, "transpose", s.spec->op));
  }
  return c;
}

Case jacobian_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier, std::size_t result_count,
                   bool forward_case) {
  const OpFunction oracle = in_oracle(f);
  Case c = program_case(s, id, {"AD-8.3"}, tier, f, result_count);
  c.description = forward_case ? "jacfwd equals the Jacobian reverse mode builds in the oracle dtype"
                               : "jacrev equals the Jacobian forward mode builds in the oracle dtype";
  JacobianTransform jac;
  jac.forward = forward_case;
  jac.argnums = floating_argnums(s);
  c.transforms.push_back(jac);
  const std::vector<std::vector<Tensor>> blocks = oracle_jacobian(oracle, /*forward=*/!forward_case);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    for (std::size_t j = 0; j < blocks[k].size(); ++j) {
      c.expect.values.push_back(
          expected_derivative(fmt::format("jac({}, {})", c.outputs[k], sample_input_name(s.floating[j])), blocks[k][j],
                              s.dtype, "jacobian", s.spec->op));
    }
  }
  return c;
}

// The Hessian blocks d/dx_b d/dx_a s by reverse-over-reverse in the oracle dtype.
std::vector<std::vector<Tensor>> oracle_hessian(const OpFunction& oracle, const TensorList& weights) {
  const transforms::Argnums argnums = every_argument(oracle.floating.size());
  const PyFunction h = transforms::jacrev(transforms::jacrev(oracle.scalar_function(weights), {argnums, false, {}}),
                                          {argnums, false, {}});
  return nested_blocks(h(as_arguments(primals_of(oracle))));  // [a][b] = d/dx_b (ds/dx_a)
}

Case hessian_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier, std::size_t result_count) {
  const OpFunction oracle = in_oracle(f);
  Case c = program_case(s, id, {"AD-8.4"}, tier, f, result_count);
  c.description =
      "hessian of s = sum(r * w) equals jacrev(jacrev(s)) symmetrized: a backend's hessian must be "
      "symmetric within tolerance";
  const TensorList weights = weights_for(oracle, s);
  add_scalarization(c, weights);
  HessianTransform hessian;
  hessian.argnums = floating_argnums(s);
  c.transforms.push_back(hessian);
  TensorList oracle_weights;
  for (const Tensor& w : weights) oracle_weights.push_back(in_dtype(w, DType::Oracle));
  const std::vector<std::vector<Tensor>> h = oracle_hessian(oracle, oracle_weights);
  for (std::size_t a = 0; a < h.size(); ++a) {
    for (std::size_t b = 0; b < h.size(); ++b) {
      // H_ab has shape a.shape + b.shape; H_ba^T moves b's dims behind a's.
      const Tensor& ab = h[a][b];
      const Tensor& ba = h[b][a];
      const std::int64_t rank_a = s.sample.inputs[s.floating[a]].dim();
      const std::int64_t rank_b = s.sample.inputs[s.floating[b]].dim();
      std::vector<std::int64_t> order;
      for (std::int64_t d = 0; d < rank_a; ++d) order.push_back(rank_b + d);
      for (std::int64_t d = 0; d < rank_b; ++d) order.push_back(d);
      const Tensor symmetric = ops::div(ops::add(ab, ops::permute(ba, order)), ops::lit(Scalar(2.0)));
      c.expect.values.push_back(expected_derivative(
          fmt::format("hess(s, {}, {})", sample_input_name(s.floating[a]), sample_input_name(s.floating[b])), symmetric,
          s.dtype, "hessian", s.spec->op));
    }
  }
  return c;
}

Case vmap_grad_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier,
                    std::size_t result_count) {
  const OpFunction oracle = in_oracle(f);
  const TensorList weights = weights_for(oracle, s);
  // The batch: each floating input scaled by 1, 1.01 and 0.99 (sign and domain kept), so every
  // example computes something different.
  const double scales[] = {1.0, 1.01, 0.99};
  AdSample batched = s;
  const std::vector<oracles::BatchLevel> batch{{static_cast<std::int64_t>(std::size(scales)), 0}};
  for (std::size_t i : s.floating) {
    TensorList examples;
    for (double scale : scales) examples.push_back(ops::mul(s.sample.inputs[i], ops::lit(Scalar(scale))));
    batched.sample.inputs[i] = oracles::batch_of(examples, s.sample.inputs[i], batch);
  }
  Case c = program_case(batched, id, {"AD-8.5"}, tier, f, result_count);
  c.description = "vmap(grad(s)) over a batch of 3 equals grad(s) on each example, stacked";
  add_scalarization(c, weights);
  VmapTransform vmap;
  vmap.in_dims.form = DimSpec::Form::ByName;
  for (std::size_t i : s.floating) vmap.in_dims.by_name.emplace_back(sample_input_name(i), 0);
  GradTransform grad;
  grad.argnums = floating_argnums(s);
  c.transforms.push_back(vmap);
  c.transforms.push_back(grad);
  TensorList oracle_weights;
  for (const Tensor& w : weights) oracle_weights.push_back(in_dtype(w, DType::Oracle));
  // The loop (NOTE: [loop-and-stack oracle]) of grad in the oracle dtype: its truth is the exact
  // gradient of each example, held to the AD tolerance table as every gradient is.
  const oracles::LoopAndStack loop = oracles::loop_and_stack(batch, [&](std::int64_t e) {
    TensorList args;
    for (const Tensor& p : primals_of(oracle))
      args.push_back(ops::mul(p, ops::lit(Scalar(scales[static_cast<std::size_t>(e)]))));
    // The example rounded as the case's input is, then the oracle's gradient there.
    for (std::size_t k = 0; k < args.size(); ++k) args[k] = in_dtype(in_dtype(args[k], s.dtype), DType::Oracle);
    const PyTree g = transforms::grad(oracle.scalar_function(oracle_weights),
                                      {every_argument(args.size()), false})(as_arguments(args));
    TensorList gradients;
    for (const PyTree& child : g.children()) gradients.push_back(child.tensor());
    return gradients;
  });
  if (loop.error) throw *loop.error;  // the sample's gradient raises: not a case to build
  for (std::size_t j = 0; j < loop.results.size(); ++j) {
    c.expect.values.push_back(expected_derivative(fmt::format("grad(s, {})", sample_input_name(s.floating[j])),
                                                  loop.results[j], s.dtype, "vmap_grad", s.spec->op));
  }
  return c;
}

// The gradient of s (order 2) or its Hessian (order 3) at `at`, in the oracle dtype, flattened in
// the order the case names them.
TensorList lower_order(const OpFunction& oracle, const TensorList& weights, const TensorList& at, int order) {
  const transforms::Argnums argnums = every_argument(at.size());
  PyFunction g = transforms::jacrev(oracle.scalar_function(weights), {argnums, false, {}});
  if (order == 3) g = transforms::jacrev(g, {argnums, false, {}});
  TensorList out;
  for (const PyTree& leaf : g(as_arguments(at)).leaves()) out.push_back(leaf.tensor());
  return out;
}

Case higher_case(const AdSample& s, const OpFunction& f, const std::string& id, Tier tier, std::size_t result_count,
                 int order) {
  const OpFunction oracle = in_oracle(f);
  const TensorList weights = weights_for(oracle, s);
  Case c = program_case(s, id, {"AD-8.6"}, tier, f, result_count);
  add_scalarization(c, weights);
  JvpTransform jvp;
  TensorList directions;
  for (std::size_t k = 0; k < s.floating.size(); ++k) {
    const Tensor& x = s.sample.inputs[s.floating[k]];
    const Tensor u = random_tensor(x.shape(), s.dtype, s.seed + 29 + k);
    jvp.tangents.push_back({sample_input_name(s.floating[k]), tensor_spec_of(u)});
    directions.push_back(in_dtype(u, DType::Oracle));
  }
  c.transforms.push_back(jvp);
  std::vector<std::string> lower_names;
  if (order == 2) {
    GradTransform grad;
    grad.argnums = floating_argnums(s);
    c.transforms.push_back(grad);
    for (std::size_t i : s.floating) lower_names.push_back(fmt::format("grad(s, {})", sample_input_name(i)));
  } else {
    HessianTransform hessian;
    hessian.argnums = floating_argnums(s);
    c.transforms.push_back(hessian);
    for (std::size_t a : s.floating) {
      for (std::size_t b : s.floating)
        lower_names.push_back(fmt::format("hess(s, {}, {})", sample_input_name(a), sample_input_name(b)));
    }
  }
  TensorList oracle_weights;
  for (const Tensor& w : weights) oracle_weights.push_back(in_dtype(w, DType::Oracle));
  const TensorList at = primals_of(oracle);
  const TensorList lower = lower_order(oracle, oracle_weights, at, order);
  const auto lower_at = [&](const TensorList& point) { return lower_order(oracle, oracle_weights, point, order); };
  const Difference d = central_difference(lower_at, at, directions);
  const bool specified = d.kink || any_non_finite(lower);
  c.description =
      fmt::format("order {}: jvp of the order-{} derivative equals its central finite differences{}", order, order - 1,
                  specified ? " (no limit exists here: the specified value, from the reference)" : "");
  TensorList top = d.derivative;
  if (specified) top = forward_derivative(lower_at, at, directions);
  for (std::size_t k = 0; k < lower.size(); ++k) {
    c.expect.values.push_back(expected_derivative(lower_names[k], lower[k], s.dtype, "higher", s.spec->op));
  }
  for (std::size_t k = 0; k < top.size(); ++k) {
    c.expect.values.push_back(
        expected_derivative(fmt::format("jvp({})", lower_names[k]), top[k], s.dtype, "higher", s.spec->op));
  }
  return c;
}

// --- Which ops and samples ---

bool differentiable_kind(const OpDef& op) {
  return op.kind == OpKind::Primitive || op.kind == OpKind::Composite || op.kind == OpKind::View;
}

bool all_finite(const samples::OpSample& sample) {
  for (const Tensor& t : sample.inputs) {
    if (!t.defined() || t.is_wrapped_number() || !is_floating(t.dtype())) continue;
    for (double v : ops::to_dtype(ops::contiguous(t), DType::Float64).to_vector<double>()) {
      if (!std::isfinite(v)) return false;
    }
  }
  return true;
}

std::int64_t floating_numel(const samples::OpSample& sample, const std::vector<std::size_t>& floating) {
  std::int64_t n = 0;
  for (std::size_t i : floating) n += sample.inputs[i].numel();
  return n;
}

}  // namespace

void add_ad_check_tests(const SuiteOptions& options, ConformanceTests& tests) {
  for (const auto& [name, spec] : all_sample_specs()) {
    const OpDef* op = OpRegistry::instance().find(name);
    if (op == nullptr || !differentiable_kind(*op) || op->random || transforms::non_differentiable(*op) ||
        !spec.oracle_exemption.empty())
      continue;
    for (DType dtype : {DType::Float64, DType::Float32}) {
      if (dtype == DType::Float32 && options.tier < Tier::Nightly) continue;
      SampleDraw drawn = draw_samples(spec, dtype, options.seed, 0);
      if (!drawn.generation_error.empty()) continue;  // OPS-VALUES reports it
      for (std::size_t i = 0; i < drawn.calls.size(); ++i) {
        if (i > 0 && options.tier < Tier::Nightly) break;
        const SampleCall& drawn_call = drawn.calls[i];
        AdSample s{drawn_call.spec, drawn_call.sample, dtype, drawn_call.seed, {}};
        for (std::size_t p = 0; p < s.sample.inputs.size(); ++p) {
          const Tensor& t = s.sample.inputs[p];
          if (t.defined() && !t.is_wrapped_number() && is_floating(t.dtype())) s.floating.push_back(p);
        }
        // An explicit result dtype pins the computation to that dtype, which the oracle cannot extend.
        const bool pinned_dtype = s.sample.attrs.has("dtype") && !s.sample.attrs.is_none("dtype");
        if (s.floating.empty() || !all_finite(s.sample) || pinned_dtype) continue;
        // Which results are floating is known only by running the op (once, in the sample's dtype).
        // Derivatives are checked where the op's values are finite and keep the inputs' dtype: a
        // NaN result (sqrt of a negative) has no derivative to check, and a result cast to another
        // dtype (to_dtype, sum(dtype=...)) is not a function the oracle can extend.
        OpFunction f{name, s.sample.attrs, s.sample.inputs, s.floating, {}};
        std::size_t result_count = 0;
        bool checkable = true;
        try {
          const TensorList out = call(*op, samples::clone_inputs(s.sample.inputs), s.sample.attrs);
          result_count = out.size();
          for (std::size_t r = 0; r < out.size(); ++r) {
            if (!is_floating(out[r].dtype())) continue;
            f.results.push_back(r);
            checkable = checkable && out[r].dtype() == dtype && !any_non_finite({out[r]});
          }
        } catch (const Error&) {
          continue;  // a sample that raises checks errors, not derivatives
        }
        if (f.results.empty() || !checkable) continue;
        const std::string suffix =
            fmt::format("{}{}-{}", dtype == DType::Float32 ? "float32/" : "", i, id_slug(s.sample.label));
        // The first sample of each op at pr; every sample (and float32) from nightly on.
        const Tier tier = dtype == DType::Float64 && i == 0 ? Tier::Pr : Tier::Nightly;
        const bool small = floating_numel(s.sample, s.floating) <= 12;
        // Only what the selected tier runs is registered: every check costs oracle evaluations to build.
        auto add = [&](const std::string& id, const std::string& clause, Tier t, std::function<Case()> build) {
          if (t > options.tier) return;
          tests.push_back({id, {clause}, t, "AD gradient checks", std::move(build)});
        };
        const std::string jvp_id = fmt::format("AD-JVP-FD/{}/{}", name, suffix);
        add(jvp_id, "AD-8.1", tier,
            [s, f, jvp_id, tier, result_count] { return jvp_fd_case(s, f, jvp_id, tier, result_count); });
        const std::string transpose_id = fmt::format("AD-TRANSPOSE/{}/{}", name, suffix);
        add(transpose_id, "AD-8.2", tier, [s, f, transpose_id, tier, result_count] {
          return transpose_case(s, f, transpose_id, tier, result_count);
        });
        const std::string jacrev_id = fmt::format("AD-JACOBIAN/{}/{}/jacrev", name, suffix);
        add(jacrev_id, "AD-8.3", tier, [s, f, jacrev_id, tier, result_count] {
          return jacobian_case(s, f, jacrev_id, tier, result_count, false);
        });
        const std::string jacfwd_id = fmt::format("AD-JACOBIAN/{}/{}/jacfwd", name, suffix);
        add(jacfwd_id, "AD-8.3", Tier::Nightly, [s, f, jacfwd_id, result_count] {
          return jacobian_case(s, f, jacfwd_id, Tier::Nightly, result_count, true);
        });
        if (!small) continue;  // the second and third order grow as the square and cube of the inputs
        const std::string hessian_id = fmt::format("AD-HESSIAN/{}/{}", name, suffix);
        add(hessian_id, "AD-8.4", tier,
            [s, f, hessian_id, tier, result_count] { return hessian_case(s, f, hessian_id, tier, result_count); });
        const std::string vmap_id = fmt::format("AD-VMAP-GRAD/{}/{}", name, suffix);
        add(vmap_id, "AD-8.5", tier,
            [s, f, vmap_id, tier, result_count] { return vmap_grad_case(s, f, vmap_id, tier, result_count); });
        const std::string order2_id = fmt::format("AD-HIGHER/{}/{}/order2", name, suffix);
        add(order2_id, "AD-8.6", tier,
            [s, f, order2_id, tier, result_count] { return higher_case(s, f, order2_id, tier, result_count, 2); });
        const std::string order3_id = fmt::format("AD-HIGHER/{}/{}/order3", name, suffix);
        add(order3_id, "AD-8.6", Tier::Nightly,
            [s, f, order3_id, result_count] { return higher_case(s, f, order3_id, Tier::Nightly, result_count, 3); });
      }
    }
  }
}

}  // namespace funcspec::conformance
