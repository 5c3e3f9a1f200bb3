// The generated composition families (docs/SPEC.md AD-8.7 to AD-8.11): the transforms nested as
// users nest them, over every op of the sample database whose results are differentiable (the op
// selection of the first-order checks, ad_samples.h), each family with its own ids:
//   AD-FWD-FWD/<op>/<sample>/jvp-jvp          jvp(jvp(f)) against finite differences of the oracle's jvp
//   AD-FWD-FWD/<op>/<sample>/jacfwd-jacfwd    jacfwd(jacfwd(s)) against the oracle's jacrev(jacrev(s))
//   AD-MIXED/<op>/<sample>/jacrev-jacfwd|jacfwd-jacrev|hessian
//                                             reverse over forward, forward over reverse and hessian
//                                             against the oracle's jacfwd(jacfwd(s)): all three agree
//   AD-VMAP-VJP/<op>/<sample>                 vmap(vjp) with batched cotangents against the loop
//   AD-VMAP-JVP/<op>/<sample>                 vmap(jvp) with batched tangents against the loop
//   AD-VMAP-JACREV/<op>/<sample>              vmap(jacrev(f)) against the loop of the oracle's jacfwd
//   AD-VMAP-HESSIAN/<op>/<sample>             vmap(hessian(s)) against the loop of the oracle's jacfwd(jacfwd)
//   AD-LINEARIZE/<op>/<sample>                linearize's jvp against finite differences, as jvp's
//   AD-VMAP-LINEARIZE/<op>/<sample>           vmap(linearize) against the loop of the oracle's jvp
// The second-order families and the vmap of Jacobians and Hessians run on higher_order_samples
// (small ones, or a shrunk one the id names); the others on every sample the first-order checks
// run. The expectations come from the reference in the oracle dtype by another route than the
// case's (NOTE: [loop-and-stack oracle] for the vmap families), with kinks handled as AD-8.1 does.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

#include "conformance/oracles/loop_and_stack.h"
#include "conformance/oracles/value_tolerance.h"
#include "conformance/suite/ad_samples.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/derivative_oracle.h"
#include "conformance/suite/derivative_tolerance.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/api/ops.h"

namespace funcspec::conformance::ad {
namespace {

// The derivative of `value` at `at` along `direction`: central differences, or where no limit
// exists (a kink, an infinite slope) the specified one from the reference's forward mode.
struct FirstOrder {
  TensorList derivative;
  bool specified = false;
};
FirstOrder directional_derivative(const VectorFunction& value, const TensorList& at, const TensorList& direction) {
  const Difference d = central_difference(value, at, direction);
  const TensorList forward = forward_derivative(value, at, direction);
  if (d.kink || any_non_finite(forward)) return {forward, true};
  return {d.derivative, false};
}

// Random directions of the floating inputs' shapes, as case tangents and in the oracle dtype.
struct Directions {
  JvpTransform transform;
  TensorList oracle;
};
Directions random_directions(const AdSample& s, std::uint64_t seed) {
  Directions d;
  for (std::size_t k = 0; k < s.floating.size(); ++k) {
    const Tensor u = random_tensor(s.sample.inputs[s.floating[k]].shape(), s.dtype, seed + k);
    d.transform.tangents.push_back({sample_input_name(s.floating[k]), tensor_spec_of(u)});
    d.oracle.push_back(in_dtype(u, DType::Oracle));
  }
  return d;
}

bool has_zero(const Tensor& t) {
  for (double v : ops::to_dtype(ops::contiguous(t), DType::Float64).to_vector<double>()) {
    if (v == 0) return true;
  }
  return false;
}

TensorList oracle_weights_of(const TensorList& weights) { return in_dtype(weights, DType::Oracle); }

const char* specified_note(bool specified) {
  return specified ? " (no limit exists here: the specified value, from the reference's forward mode)" : "";
}

Case jvp_jvp_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  Case c = program_case(s, id, {"AD-8.7"}, cs.tier, cs.f, cs.result_count);
  Directions inner = random_directions(s, s.seed + 37);
  Directions outer = random_directions(s, s.seed + 43);
  c.transforms.push_back(outer.transform);
  c.transforms.push_back(inner.transform);
  const std::vector<std::string> names = result_names(c);
  const std::size_t n = cs.f.results.size();
  expect_primal_results(c, s, oracle);
  const TensorList at = primals_of(oracle);
  const VectorFunction value = [&](const TensorList& p) { return oracle.run(p); };
  const FirstOrder along_inner = directional_derivative(value, at, inner.oracle);
  const FirstOrder along_outer = directional_derivative(value, at, outer.oracle);
  // The second derivative along (inner, outer): finite differences of the first derivative.
  const VectorFunction first = [&](const TensorList& p) { return forward_derivative(value, p, inner.oracle); };
  const FirstOrder second = directional_derivative(first, at, outer.oracle);
  c.description = fmt::format(
      "jvp(jvp(f)): the tangents equal finite differences of f, the second-order tangent finite "
      "differences of the oracle's jvp, in the oracle dtype{}",
      specified_note(along_inner.specified || along_outer.specified || second.specified));
  for (std::size_t k = 0; k < n; ++k) {
    c.expect.values.push_back(expected_derivative(names[n + k], along_inner.derivative[k], s, "fwd_over_fwd"));
    c.expect.values.push_back(expected_derivative(names[2 * n + k], along_outer.derivative[k], s, "fwd_over_fwd"));
    c.expect.values.push_back(expected_derivative(names[3 * n + k], second.derivative[k], s, "fwd_over_fwd"));
  }
  return c;
}

// The four ways a case writes a second derivative of s = sum(r * w).
enum class SecondOrder { JacfwdJacfwd, JacrevJacfwd, JacfwdJacrev, Hessian };

Case second_order_case(const AdCheckSample& cs, const std::string& id, SecondOrder layout) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  const bool forward_forward = layout == SecondOrder::JacfwdJacfwd;
  Case c = program_case(s, id, {forward_forward ? "AD-8.7" : "AD-8.8"}, cs.tier, cs.f, cs.result_count);
  const TensorList weights = weights_for(oracle, s);
  add_scalarization(c, weights);
  const auto jacobian = [&](bool forward) {
    JacobianTransform j;
    j.forward = forward;
    j.argnums = floating_argnums(s);
    return j;
  };
  switch (layout) {
    case SecondOrder::JacfwdJacfwd: c.transforms = {jacobian(true), jacobian(true)}; break;
    case SecondOrder::JacrevJacfwd: c.transforms = {jacobian(false), jacobian(true)}; break;
    case SecondOrder::JacfwdJacrev: c.transforms = {jacobian(true), jacobian(false)}; break;
    case SecondOrder::Hessian: c.transforms = {HessianTransform{floating_argnums(s)}}; break;
  }
  // Forward over forward is judged by reverse over reverse; the mixed orders and hessian by
  // forward over forward, which none of them runs.
  c.description = forward_forward
                      ? "jacfwd(jacfwd(s)) equals the oracle's jacrev(jacrev(s)) for s = sum(r * w)"
                      : "reverse over forward, forward over reverse and hessian of s = sum(r * w) equal the "
                        "oracle's jacfwd(jacfwd(s)), so they agree with each other";
  const std::vector<std::vector<Tensor>> blocks =
      oracle_second_derivative(oracle, oracle_weights_of(weights), /*forward=*/!forward_forward);
  const std::vector<std::string> names = result_names(c);
  const std::string check = forward_forward ? "fwd_over_fwd" : "mixed_order";
  for (std::size_t a = 0; a < blocks.size(); ++a) {
    for (std::size_t b = 0; b < blocks[a].size(); ++b) {
      c.expect.values.push_back(expected_derivative(names[a * blocks.size() + b], blocks[a][b], s, check));
    }
  }
  return c;
}

// The value tolerance of r * c, for the op's value tolerance on r: one more rounding (2 ulps where
// the product is subnormal, and relative precision is gone).
Tolerance product_tolerance(const AdSample& s, double largest_factor) {
  const Tolerance t = value_tolerance(s.spec->tolerance, s.dtype, s.sample.inputs);
  return {t.atol * largest_factor, t.rtol + 2 * samples::machine_epsilon(s.dtype), 2};
}

double largest_magnitude(const TensorList& tensors) {
  double m = 0;
  for (const Tensor& t : tensors) {
    for (double v : ops::to_dtype(ops::contiguous(t), DType::Float64).to_vector<double>()) m = std::max(m, std::abs(v));
  }
  return m;
}

constexpr std::int64_t batch_size = 3;

// vmap over vjp whose cotangents are batched while the primals are not, as torch.func's
// vmap(vjp_fn)(cotangents): the program returns q_k = r_k * c_k with c_k batched inputs and vjp
// pulls back ones, so the cotangent reaching the op is c_k, one per example.
Case vmap_vjp_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  Case c = program_case(s, id, {"AD-8.9"}, cs.tier, cs.f, cs.result_count);
  c.description = "vmap(vjp) with batched cotangents (unbatched primals) equals the loop of J^T c over the examples";
  const TensorList values = oracle.run(primals_of(oracle));
  const std::vector<oracles::BatchLevel> batch{{batch_size, 0}};
  std::vector<TensorList> cotangent_examples(values.size());
  VjpTransform vjp;
  VmapTransform vmap;
  vmap.in_dims.form = DimSpec::Form::ByName;
  std::vector<std::string> products;
  for (std::size_t k = 0; k < values.size(); ++k) {
    for (std::int64_t e = 0; e < batch_size; ++e) {
      cotangent_examples[k].push_back(random_tensor(values[k].shape(), s.dtype, s.seed + 53 + 7 * k + e));
    }
    const std::string name = fmt::format("c{}", k);
    const std::string product = fmt::format("q{}", k);
    c.inputs.push_back(case_input_of(name, oracles::batch_of(cotangent_examples[k], cotangent_examples[k][0], batch)));
    c.program.push_back({{product}, "mul", {c.outputs[k], name}, {}});
    vmap.in_dims.by_name.emplace_back(name, 0);
    vjp.cotangents.push_back({product, tensor_spec_of(ops::ones(values[k].shape(), s.dtype))});
    products.push_back(product);
  }
  c.outputs = products;
  c.transforms = {vmap, vjp};
  // J is the same for every example (the primals are not batched): built once, by forward mode.
  const std::vector<std::vector<Tensor>> jac = oracle_jacobian(oracle, /*forward=*/true);
  const oracles::LoopAndStack loop = oracles::loop_and_stack(batch, [&](std::int64_t e) {
    TensorList results;
    for (std::size_t k = 0; k < values.size(); ++k)
      results.push_back(
          ops::mul(values[k], in_dtype(cotangent_examples[k][static_cast<std::size_t>(e)], DType::Oracle)));
    for (std::size_t j = 0; j < s.floating.size(); ++j) {
      const Tensor& x = s.sample.inputs[s.floating[j]];
      Tensor total = ops::zeros({x.numel()}, DType::Oracle);
      for (std::size_t k = 0; k < values.size(); ++k) {
        const Tensor block = ops::reshape(jac[k][j], {values[k].numel(), x.numel()});
        const Tensor v = ops::reshape(in_dtype(cotangent_examples[k][static_cast<std::size_t>(e)], DType::Oracle),
                                      {values[k].numel(), 1});
        total = ops::add(total, ops::sum(ops::mul(block, v), std::vector<std::int64_t>{0}));
      }
      results.push_back(ops::reshape(total, x.shape()));
    }
    for (const Tensor& v : values) results.push_back(v);  // vjp(c_k) = r_k
    return results;
  });
  if (loop.error) throw *loop.error;
  const std::vector<std::string> names = result_names(c);
  const std::size_t n = values.size();
  TensorList all_cotangents;
  for (const TensorList& examples : cotangent_examples)
    all_cotangents.insert(all_cotangents.end(), examples.begin(), examples.end());
  for (std::size_t k = 0; k < n; ++k)
    c.expect.values.push_back(
        expected(names[k], loop.results[k], s.dtype, product_tolerance(s, largest_magnitude(all_cotangents))));
  // Then vjp of each floating input in declaration order: the sample's, then c_k.
  for (std::size_t j = 0; j < s.floating.size(); ++j)
    c.expect.values.push_back(expected_derivative(names[n + j], loop.results[n + j], s, "vmap_vjp"));
  const Tolerance value_bound = value_tolerance(s.spec->tolerance, s.dtype, s.sample.inputs);
  for (std::size_t k = 0; k < n; ++k) {
    c.expect.values.push_back(
        expected(names[n + s.floating.size() + k], loop.results[n + s.floating.size() + k], s.dtype, value_bound));
  }
  return c;
}

// vmap over jvp whose tangents are batched: each floating input x_i enters the op as
// x_i + a * d_i with a = 0 (so the point is x_i exactly) and d_i a batched input; jvp pushes the
// tangent 1 of a, so the tangent reaching the op is d_i, one per example.
Case vmap_jvp_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  Case c = program_case(s, id, {"AD-8.9"}, cs.tier, cs.f, cs.result_count);
  c.description = "vmap(jvp) with batched tangents equals the loop of the oracle's jvp over the examples";
  const std::vector<oracles::BatchLevel> batch{{batch_size, 0}};
  c.inputs.push_back(case_input_of("a", ops::zeros({}, s.dtype)));
  VmapTransform vmap;
  vmap.in_dims.form = DimSpec::Form::ByName;
  std::vector<OpCall> shifts;
  std::map<std::string, std::string> shifted;
  std::vector<TensorList> direction_examples(s.floating.size());
  for (std::size_t k = 0; k < s.floating.size(); ++k) {
    const Tensor& x = s.sample.inputs[s.floating[k]];
    for (std::int64_t e = 0; e < batch_size; ++e)
      direction_examples[k].push_back(random_tensor(x.shape(), s.dtype, s.seed + 61 + 7 * k + e));
    const std::string x_name = sample_input_name(s.floating[k]);
    const std::string d_name = fmt::format("d{}", k);
    c.inputs.push_back(
        case_input_of(d_name, oracles::batch_of(direction_examples[k], direction_examples[k][0], batch)));
    vmap.in_dims.by_name.emplace_back(d_name, 0);
    shifts.push_back({{fmt::format("m{}", k)}, "mul", {d_name, std::string("a")}, {}});
    shifts.push_back({{fmt::format("z{}", k)}, "add", {x_name, fmt::format("m{}", k)}, {}});
    shifted[x_name] = fmt::format("z{}", k);
    if (has_zero(x)) {
      // -0 + 0 is +0, and the sign of a zero is an input (atan2 at the origin): zeros stay x's,
      // and their tangent is 0.
      const std::string zero = fmt::format("zero{}", k);
      c.inputs.push_back({zero, LiteralSpec{Scalar(0.0)}});
      shifts.push_back({{fmt::format("at_zero{}", k)}, "eq", {x_name, zero}, {}});
      shifts.push_back(
          {{fmt::format("y{}", k)}, "where", {fmt::format("at_zero{}", k), x_name, fmt::format("z{}", k)}, {}});
      shifted[x_name] = fmt::format("y{}", k);
      for (Tensor& example : direction_examples[k])
        example = ops::where(ops::eq(x, ops::lit(0.0)), ops::zeros_like(example), example);
    }
  }
  for (OpCall& step : c.program) {
    for (std::optional<std::string>& arg : step.args) {
      if (arg && shifted.count(*arg) > 0) arg = shifted[*arg];
    }
  }
  c.program.insert(c.program.begin(), shifts.begin(), shifts.end());
  JvpTransform jvp;
  jvp.tangents.push_back({"a", tensor_spec_of(ops::ones({}, s.dtype))});
  c.transforms = {vmap, jvp};
  const TensorList at = primals_of(oracle);
  const TensorList values = oracle.run(at);
  const VectorFunction value = [&](const TensorList& p) { return oracle.run(p); };
  const oracles::LoopAndStack loop = oracles::loop_and_stack(batch, [&](std::int64_t e) {
    TensorList direction;
    for (const TensorList& examples : direction_examples)
      direction.push_back(in_dtype(examples[static_cast<std::size_t>(e)], DType::Oracle));
    TensorList results = values;
    for (Tensor& t : forward_derivative(value, at, direction)) results.push_back(t);
    return results;
  });
  if (loop.error) throw *loop.error;
  const std::vector<std::string> names = result_names(c);
  const std::size_t n = values.size();
  const Tolerance value_bound = value_tolerance(s.spec->tolerance, s.dtype, s.sample.inputs);
  for (std::size_t k = 0; k < n; ++k) {
    c.expect.values.push_back(expected(names[k], loop.results[k], s.dtype, value_bound));
    c.expect.values.push_back(expected_derivative(names[n + k], loop.results[n + k], s, "vmap_jvp"));
  }
  return c;
}

// A batch of 3 examples of the sample: each floating input scaled by 1, 1.01 and 0.99 (sign and
// domain kept), or the sample three times where it sits at a special point; batched at dim 0.
struct ScaledBatch {
  AdSample batched;
  std::vector<oracles::BatchLevel> levels;
  VmapTransform vmap;
  std::vector<TensorList> examples;  // [k][e]: floating input k of example e, as the case holds it
};
constexpr double example_scales[] = {1.0, 1.01, 0.99};

ScaledBatch scaled_batch(const AdSample& s) {
  ScaledBatch b{s, {{batch_size, 0}}, {}, {}};
  b.vmap.in_dims.form = DimSpec::Form::ByName;
  // A sample at a special point is repeated: scaled, it would leave the point (or round off it: a
  // zero variance of 2.0 scaled by 1.01 is no longer exactly zero).
  const bool repeat = !s.sample.special_point.empty();
  for (std::size_t i : s.floating) {
    TensorList examples;
    for (double scale : example_scales)
      examples.push_back(repeat ? s.sample.inputs[i] : ops::mul(s.sample.inputs[i], ops::lit(Scalar(scale))));
    b.batched.sample.inputs[i] = oracles::batch_of(examples, s.sample.inputs[i], b.levels);
    b.vmap.in_dims.by_name.emplace_back(sample_input_name(i), 0);
    b.examples.push_back(std::move(examples));
  }
  return b;
}

// The oracle's function at example e of the batch: the example's inputs exactly as the case holds
// them, in the oracle dtype.
OpFunction at_example(const OpFunction& oracle, const ScaledBatch& b, std::int64_t e) {
  OpFunction g = oracle;
  for (std::size_t k = 0; k < g.floating.size(); ++k)
    g.inputs[g.floating[k]] = in_dtype(b.examples[k][static_cast<std::size_t>(e)], DType::Oracle);
  return g;
}

// Blocks [i][j] in the order the case names its results: i outer, j inner.
TensorList in_result_order(const std::vector<std::vector<Tensor>>& blocks) {
  TensorList flat;
  for (const std::vector<Tensor>& row : blocks) flat.insert(flat.end(), row.begin(), row.end());
  return flat;
}

Case vmap_jacrev_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  const ScaledBatch b = scaled_batch(s);
  Case c = program_case(b.batched, id, {"AD-8.10"}, cs.tier, cs.f, cs.result_count);
  c.description = "vmap(jacrev(f)) over a batch of 3 equals the oracle's jacfwd(f) on each example, stacked";
  JacobianTransform jac;
  jac.argnums = floating_argnums(s);
  c.transforms = {b.vmap, jac};
  const oracles::LoopAndStack loop = oracles::loop_and_stack(b.levels, [&](std::int64_t e) {
    return in_result_order(oracle_jacobian(at_example(oracle, b, e), /*forward=*/true));
  });
  if (loop.error) throw *loop.error;
  const std::vector<std::string> names = result_names(c);
  for (std::size_t k = 0; k < names.size(); ++k)
    c.expect.values.push_back(expected_derivative(names[k], loop.results[k], s, "vmap_jacrev"));
  return c;
}

Case vmap_hessian_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  const TensorList weights = weights_for(oracle, s);
  const ScaledBatch b = scaled_batch(s);
  Case c = program_case(b.batched, id, {"AD-8.10"}, cs.tier, cs.f, cs.result_count);
  c.description = "vmap(hessian(s)) over a batch of 3 equals the oracle's jacfwd(jacfwd(s)) on each example, stacked";
  add_scalarization(c, weights);
  c.transforms = {b.vmap, HessianTransform{floating_argnums(s)}};
  const TensorList oracle_weights = oracle_weights_of(weights);
  const oracles::LoopAndStack loop = oracles::loop_and_stack(b.levels, [&](std::int64_t e) {
    return in_result_order(oracle_second_derivative(at_example(oracle, b, e), oracle_weights, /*forward=*/true));
  });
  if (loop.error) throw *loop.error;
  const std::vector<std::string> names = result_names(c);
  for (std::size_t k = 0; k < names.size(); ++k)
    c.expect.values.push_back(expected_derivative(names[k], loop.results[k], s, "vmap_hessian"));
  return c;
}

Case linearize_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  Case c = program_case(s, id, {"AD-8.11"}, cs.tier, cs.f, cs.result_count);
  Directions u = random_directions(s, s.seed + 7);  // jvp's direction in AD-JVP-FD: the same point and tangent
  u.transform.linearize = true;
  c.transforms.push_back(u.transform);
  expect_primal_results(c, s, oracle);
  const VectorFunction value = [&](const TensorList& p) { return oracle.run(p); };
  const FirstOrder d = directional_derivative(value, primals_of(oracle), u.oracle);
  c.description = fmt::format(
      "linearize's linear map applied to a tangent equals jvp at the same point: central finite differences "
      "in the oracle dtype{}",
      specified_note(d.specified));
  const std::vector<std::string> names = result_names(c);
  const std::size_t n = d.derivative.size();
  for (std::size_t k = 0; k < n; ++k)
    c.expect.values.push_back(expected_derivative(names[n + k], d.derivative[k], s, "linearize"));
  return c;
}

Case vmap_linearize_case(const AdCheckSample& cs, const std::string& id) {
  const AdSample& s = cs.s;
  const OpFunction oracle = in_oracle(cs.f);
  const ScaledBatch b = scaled_batch(s);
  Case c = program_case(b.batched, id, {"AD-8.11"}, cs.tier, cs.f, cs.result_count);
  c.description = "vmap(linearize) over a batch of 3 equals the oracle's jvp on each example, stacked";
  Directions u = random_directions(s, s.seed + 71);
  u.transform.linearize = true;
  c.transforms = {b.vmap, u.transform};
  const oracles::LoopAndStack loop = oracles::loop_and_stack(b.levels, [&](std::int64_t e) {
    const OpFunction g = at_example(oracle, b, e);
    const VectorFunction value = [&](const TensorList& p) { return g.run(p); };
    TensorList results = g.run(primals_of(g));
    for (Tensor& t : forward_derivative(value, primals_of(g), u.oracle)) results.push_back(t);
    return results;
  });
  if (loop.error) throw *loop.error;
  const std::vector<std::string> names = result_names(c);
  const std::size_t n = cs.f.results.size();
  const Tolerance value_bound = value_tolerance(s.spec->tolerance, s.dtype, b.batched.sample.inputs);
  for (std::size_t k = 0; k < n; ++k) {
    c.expect.values.push_back(expected(names[k], loop.results[k], s.dtype, value_bound));
    c.expect.values.push_back(expected_derivative(names[n + k], loop.results[n + k], s, "vmap_linearize"));
  }
  return c;
}

}  // namespace
}  // namespace funcspec::conformance::ad

namespace funcspec::conformance {

void add_ad_composition_tests(const SuiteOptions& options, ConformanceTests& tests) {
  using namespace ad;
  for (const AdOpSamples& op_samples : ad_op_samples(options)) {
    const std::string& op = op_samples.op;
    // Only what the selected tier runs is registered: every case costs oracle evaluations to build.
    const auto add = [&](const AdCheckSample& cs, const std::string& id, const std::string& clause,
                         std::function<Case(const AdCheckSample&, const std::string&)> build) {
      if (cs.tier > options.tier) return;
      tests.push_back({id, {clause}, cs.tier, "AD composition checks", [cs, id, build] {
                         Case c = build(cs, id);
                         if (!cs.provenance.empty())
                           c.description += fmt::format(" (on a generated sample: {})", cs.provenance);
                         return c;
                       }});
    };
    for (const AdCheckSample& cs : op_samples.samples) {
      add(cs, fmt::format("AD-VMAP-VJP/{}/{}", op, cs.suffix), "AD-8.9", vmap_vjp_case);
      add(cs, fmt::format("AD-VMAP-JVP/{}/{}", op, cs.suffix), "AD-8.9", vmap_jvp_case);
      add(cs, fmt::format("AD-LINEARIZE/{}/{}", op, cs.suffix), "AD-8.11", linearize_case);
      add(cs, fmt::format("AD-VMAP-LINEARIZE/{}/{}", op, cs.suffix), "AD-8.11", vmap_linearize_case);
    }
    for (const AdCheckSample& cs : higher_order_samples(op_samples)) {
      const auto second = [](SecondOrder layout) {
        return [layout](const AdCheckSample& s, const std::string& id) { return second_order_case(s, id, layout); };
      };
      add(cs, fmt::format("AD-FWD-FWD/{}/{}/jvp-jvp", op, cs.suffix), "AD-8.7", jvp_jvp_case);
      add(cs, fmt::format("AD-FWD-FWD/{}/{}/jacfwd-jacfwd", op, cs.suffix), "AD-8.7",
          second(SecondOrder::JacfwdJacfwd));
      add(cs, fmt::format("AD-MIXED/{}/{}/jacrev-jacfwd", op, cs.suffix), "AD-8.8", second(SecondOrder::JacrevJacfwd));
      add(cs, fmt::format("AD-MIXED/{}/{}/jacfwd-jacrev", op, cs.suffix), "AD-8.8", second(SecondOrder::JacfwdJacrev));
      add(cs, fmt::format("AD-MIXED/{}/{}/hessian", op, cs.suffix), "AD-8.8", second(SecondOrder::Hessian));
      add(cs, fmt::format("AD-VMAP-JACREV/{}/{}", op, cs.suffix), "AD-8.10", vmap_jacrev_case);
      add(cs, fmt::format("AD-VMAP-HESSIAN/{}/{}", op, cs.suffix), "AD-8.10", vmap_hessian_case);
    }
  }
}

}  // namespace funcspec::conformance
