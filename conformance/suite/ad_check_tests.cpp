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
// conformance/tolerances/ad.json, one entry per (check, op, dtype) (derivative_tolerance.h). Which
// samples each family checks, and at which tier: ad_samples.h (the second and third order on
// higher_order_samples). The nested transforms are ad_composition_tests.cpp's.
#include <fmt/format.h>

#include <iterator>

#include "conformance/oracles/loop_and_stack.h"
#include "conformance/suite/ad_samples.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/derivative_oracle.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/api/ops.h"
#include "reference/transforms/autodiff.h"

namespace funcspec::conformance::ad {
namespace {

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
    c.expect.values.push_back(expected_derivative(fmt::format("jvp({})", c.outputs[k]), derivative[k], s, "jvp_fd"));
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
    c.expect.values.push_back(
        expected_derivative(fmt::format("vjp({})", sample_input_name(s.floating[j])), total, s, "transpose"));
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
      c.expect.values.push_back(expected_derivative(
          fmt::format("jac({}, {})", c.outputs[k], sample_input_name(s.floating[j])), blocks[k][j], s, "jacobian"));
    }
  }
  return c;
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
  const std::vector<std::vector<Tensor>> h = oracle_second_derivative(oracle, oracle_weights, /*forward=*/false);
  // At a special point the first derivative is a convention (AD-8.12), not the derivative of a
  // function, and the derivative of a convention need not be symmetric (pinv at a rank change,
  // OPS-9.3): there the hessian is jacrev(jacrev(s)) as it is.
  const bool special_point = !s.sample.special_point.empty();
  if (special_point) {
    c.description = "at a special point, hessian of s = sum(r * w) equals jacrev(jacrev(s)), symmetric or not";
  }
  for (std::size_t a = 0; a < h.size(); ++a) {
    for (std::size_t b = 0; b < h.size(); ++b) {
      if (special_point) {
        c.expect.values.push_back(expected_derivative(
            fmt::format("hess(s, {}, {})", sample_input_name(s.floating[a]), sample_input_name(s.floating[b])), h[a][b],
            s, "hessian"));
        continue;
      }
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
          s, "hessian"));
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
                                                  loop.results[j], s, "vmap_grad"));
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
    c.expect.values.push_back(expected_derivative(lower_names[k], lower[k], s, "higher"));
  }
  for (std::size_t k = 0; k < top.size(); ++k) {
    c.expect.values.push_back(expected_derivative(fmt::format("jvp({})", lower_names[k]), top[k], s, "higher"));
  }
  return c;
}

}  // namespace
}  // namespace funcspec::conformance::ad

namespace funcspec::conformance {

void add_ad_check_tests(const SuiteOptions& options, ConformanceTests& tests) {
  using namespace ad;
  // Only what the selected tier runs is registered: every check costs oracle evaluations to build.
  auto add = [&](const std::string& id, const std::string& clause, Tier t, std::function<Case()> build) {
    if (t > options.tier) return;
    tests.push_back({id, {clause}, t, "AD gradient checks", std::move(build)});
  };
  for (const AdOpSamples& op_samples : ad_op_samples(options)) {
    const std::string& name = op_samples.op;
    for (const AdCheckSample& checked : op_samples.samples) {
      const AdSample& s = checked.s;
      const OpFunction& f = checked.f;
      const std::size_t result_count = checked.result_count;
      const std::string& suffix = checked.suffix;
      const Tier tier = checked.tier;
      const std::string jvp_id = fmt::format("AD-JVP-FD/{}/{}", name, suffix);
      add(jvp_id, "AD-8.1", tier,
          [s, f, jvp_id, tier, result_count] { return jvp_fd_case(s, f, jvp_id, tier, result_count); });
      const std::string transpose_id = fmt::format("AD-TRANSPOSE/{}/{}", name, suffix);
      add(transpose_id, "AD-8.2", tier,
          [s, f, transpose_id, tier, result_count] { return transpose_case(s, f, transpose_id, tier, result_count); });
      const std::string jacrev_id = fmt::format("AD-JACOBIAN/{}/{}/jacrev", name, suffix);
      add(jacrev_id, "AD-8.3", tier,
          [s, f, jacrev_id, tier, result_count] { return jacobian_case(s, f, jacrev_id, tier, result_count, false); });
      const std::string jacfwd_id = fmt::format("AD-JACOBIAN/{}/{}/jacfwd", name, suffix);
      add(jacfwd_id, "AD-8.3", Tier::Nightly, [s, f, jacfwd_id, result_count] {
        return jacobian_case(s, f, jacfwd_id, Tier::Nightly, result_count, true);
      });
    }
    // The second and third order grow as the square and cube of the inputs: small samples only,
    // and a shrunk one where the op has none (higher_order_samples).
    for (const AdCheckSample& checked : higher_order_samples(op_samples)) {
      const AdSample& s = checked.s;
      const OpFunction& f = checked.f;
      const std::size_t result_count = checked.result_count;
      const std::string& suffix = checked.suffix;
      const Tier tier = checked.tier;
      const std::string note = checked.provenance;
      const auto noted = [note](Case c) {
        if (!note.empty()) c.description += fmt::format(" (on a generated sample: {})", note);
        return c;
      };
      const std::string hessian_id = fmt::format("AD-HESSIAN/{}/{}", name, suffix);
      add(hessian_id, "AD-8.4", tier, [=] { return noted(hessian_case(s, f, hessian_id, tier, result_count)); });
      const std::string vmap_id = fmt::format("AD-VMAP-GRAD/{}/{}", name, suffix);
      add(vmap_id, "AD-8.5", tier, [=] { return noted(vmap_grad_case(s, f, vmap_id, tier, result_count)); });
      const std::string order2_id = fmt::format("AD-HIGHER/{}/{}/order2", name, suffix);
      add(order2_id, "AD-8.6", tier, [=] { return noted(higher_case(s, f, order2_id, tier, result_count, 2)); });
      const std::string order3_id = fmt::format("AD-HIGHER/{}/{}/order3", name, suffix);
      add(order3_id, "AD-8.6", Tier::Nightly,
          [=] { return noted(higher_case(s, f, order3_id, Tier::Nightly, result_count, 3)); });
    }
  }
}

}  // namespace funcspec::conformance
