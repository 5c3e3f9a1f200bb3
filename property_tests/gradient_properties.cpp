// Gradient consistency on generated programs under generated transform stacks: jvp against central
// differences of the reference in the oracle dtype; vjp as the transpose of jvp; jacfwd = jacrev;
// the hessian symmetric and equal to reverse-over-reverse; vmap(grad) = the loop of grad; linearize's
// jvp_fn = jvp. The inner stack may itself hold grad, jvp, vjp, jacrev, jacfwd or linearize, so every
// law is checked on second and third derivatives by recursion.
#include <fmt/format.h>

#include <cmath>

#include "conformance/case/case_tensors.h"
#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/suite/derivative_oracle.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/case_inputs.h"
#include "property_tests/generators.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"
#include "property_tests/vmap_loop.h"
#include "reference/api/ops.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::TensorData;

namespace {

constexpr std::string_view kFiniteDifferences = "PROP-AD/jvp-equals-finite-differences";
constexpr std::string_view kTranspose = "PROP-AD/vjp-transposes-jvp";
constexpr std::string_view kJacobians = "PROP-AD/jacfwd-equals-jacrev";
constexpr std::string_view kHessian = "PROP-AD/hessian-symmetric";
constexpr std::string_view kVmapGrad = "PROP-AD/vmap-grad-equals-loop";
constexpr std::string_view kLinearize = "PROP-AD/linearize-equals-jvp";
constexpr std::string_view kVmapVjp = "PROP-AD/vmap-vjp-batched-cotangents-equals-loop";

ProgramOptions differentiable(ProgramOptions options) {
  options.max_steps = 3;
  options.max_input_elements = 24;
  options.floating_outputs_only = true;
  options.derivatives_compared = true;
  return options;
}

// An op that changes a floating dtype (to_dtype(float32), a creation op's dtype) rounds a
// difference quotient's tiny step away, while its derivative is the identity (or zero): finite
// differences cannot see through it.
bool changes_dtype(const OpDef& op) {
  return std::any_of(op.schema.args.begin(), op.schema.args.end(),
                     [](const ArgSpec& arg) { return arg.name == "dtype"; });
}

// Discards programs with a non-finite or ill-conditioned value (below).
void require_finite(const Case& c);

// A program and an inner stack (0..1 levels), and the same plan under several outer transforms.
struct Drawn {
  GeneratedProgram program;
  std::vector<StackLevelPlan> inner;
  std::uint32_t seed = 0;
};

Drawn draw(const ProgramOptions& options, int inner_max_depth) {
  Drawn d{draw_program(options), *gen_stack_plan(0, inner_max_depth), *rc::gen::arbitrary<std::uint32_t>()};
  require_finite(d.program.program);
  return d;
}

// Where a derivative is infinite (sqrt or std at 0) its products with zero tangents are NaN by one
// route and 0 by another; near a singular matrix (slogdet, inverse of a rank-deficient product) every
// float64 route is noise of size 1/condition. Laws hold between well-conditioned finite derivatives,
// so the reference's answer filters: anything beyond kMaxDerivative is discarded.
constexpr double kMaxDerivative = 1e6;

void require_finite_derivatives(const Case& c) {
  const conformance::ProgramResult answer = conformance::run_on_reference(c);
  RC_PRE(!answer.error && answer.broken.empty());
  for (const auto& [name, data] : answer.outputs) {
    for (std::int64_t i = 0; i < data.numel(); ++i) RC_PRE(std::abs(data.element_as_double(i)) <= kMaxDerivative);
  }
}

Case under(const Drawn& d, StackTransform outer) {
  std::vector<StackLevelPlan> stack{StackLevelPlan{outer, 1, 0, 0, 0, d.seed}};
  stack.insert(stack.end(), d.inner.begin(), d.inner.end());
  std::optional<Case> c = apply_stack(d.program, stack);
  RC_PRE(c.has_value());
  RC_LOG() << "transforms: " << describe_transforms(*c) << "\n";
  require_finite_derivatives(*c);
  return std::move(*c);
}

Case without_outer(const Case& c) {
  Case inner = c;
  inner.transforms.erase(inner.transforms.begin());
  return inner;
}

double max_abs(const TensorData& t) {
  double m = 0;
  for (std::int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::abs(t.element_as_double(i)));
  return m;
}

bool all_finite(const TensorList& values) {
  for (const Tensor& v : values) {
    for (double x : ops::to_dtype(ops::contiguous(v), DType::Float64).to_vector<double>()) {
      if (!std::isfinite(x)) return false;
    }
  }
  return true;
}

// Whether two difference quotients agree to `relative` of the larger magnitude (at least 1).
bool agree(const TensorList& a, const TensorList& b, double relative) {
  for (std::size_t k = 0; k < a.size(); ++k) {
    const TensorData x = data_of(ops::to_dtype(a[k], DType::Float64));
    const TensorData y = data_of(ops::to_dtype(b[k], DType::Float64));
    const double scale = std::max(1.0, max_abs(x));
    for (std::int64_t i = 0; i < x.numel(); ++i) {
      if (std::abs(x.element_as_double(i) - y.element_as_double(i)) > relative * scale) return false;
    }
  }
  return true;
}

// The case's function (its inner stack) in the oracle dtype at `inputs` + h * `direction`.
TensorList oracle_at(const Case& inner, const std::map<std::string, Tensor, std::less<>>& inputs,
                     const std::map<std::string, Tensor, std::less<>>& direction, double h) {
  const Tensor step = from_vector(std::vector<double>{h}, {}, DType::Oracle);
  std::map<std::string, Tensor, std::less<>> at;
  for (const auto& [name, value] : inputs) {
    const Tensor x = is_floating(value.dtype()) ? ops::to_dtype(value, DType::Oracle) : value;
    auto d = direction.find(name);
    at[name] = d == direction.end() ? x : ops::add(x, ops::mul(ops::to_dtype(d->second, DType::Oracle), step));
  }
  return conformance::run_case_program(inner, at, DType::Oracle);
}

// (a - b) / step, result by result, in the oracle dtype.
TensorList difference_quotient(const TensorList& a, const TensorList& b, double step) {
  const Tensor by = from_vector(std::vector<double>{step}, {}, DType::Oracle);
  TensorList out;
  for (std::size_t k = 0; k < a.size(); ++k) out.push_back(ops::div(ops::sub(a[k], b[k]), by));
  return out;
}

// Derivative laws are about finite values: at an infinite or NaN input or result IEEE arithmetic
// legitimately differs between equivalent routes (jacfwd multiplies a zero tangent by -sin(inf)
// where jacrev never touches it), so such programs are discarded.
void require_finite(const Case& c) {
  for (const conformance::CaseInput& in : c.inputs) {
    if (in.is_literal()) continue;
    const TensorData& data = std::get<conformance::TensorSpec>(in.value).data;
    for (std::int64_t i = 0; i < data.numel(); ++i) RC_PRE(std::isfinite(data.element_as_double(i)));
  }
  // Every intermediate value too: where(mask, pow(v, 1.5), y) has finite results but a NaN branch
  // whose zero cotangent times an infinite partial is NaN in reverse mode and 0 in forward mode.
  Case every_value = c;
  every_value.outputs.clear();
  for (const conformance::OpCall& step : c.program)
    every_value.outputs.insert(every_value.outputs.end(), step.outs.begin(), step.outs.end());
  const conformance::ProgramResult values = conformance::run_on_reference(every_value);
  RC_PRE(!values.error && values.broken.empty());
  for (const auto& [name, data] : values.outputs) {
    for (std::int64_t i = 0; i < data.numel(); ++i) RC_PRE(std::isfinite(data.element_as_double(i)));
  }
  // And well-conditioned: a value the float64 (or float32) program computes as rounding noise, such
  // as slogdet of a product of rank-deficient factors (singular in exact arithmetic, det about 1e-17
  // in float64), has derivatives of noise that no two routes agree on. The oracle dtype computes the
  // same program with 168-bit floats; where the two disagree beyond rounding, the point is discarded.
  TensorList oracle;
  try {
    oracle = oracle_at(every_value, input_tensors(every_value), {}, 0);
  } catch (const Error&) {
    RC_DISCARD("the program raises in the oracle dtype");
  }
  TensorList float_values;
  for (const auto& [name, data] : values.outputs) float_values.push_back(tensor_of(data));
  const bool any_float32 = std::any_of(values.outputs.begin(), values.outputs.end(),
                                       [](const auto& named) { return named.second.dtype == DType::Float32; });
  RC_PRE(agree(float_values, oracle, any_float32 ? 1e-2 : 1e-6));
}

// Where forward and reverse mode must agree though differences cannot judge either (a kink).
PropertyCheck forward_equals_reverse_at(PropertyContext& context, const Drawn& d);

using NamedTensors = std::map<std::string, Tensor, std::less<>>;

// A second direction, unlike `u` and fixed by it (each tangent's elements rotated by one and every
// other one negated), so a counterexample replays without a new draw.
NamedTensors other_direction(const NamedTensors& u) {
  NamedTensors w;
  for (const auto& [name, tangent] : u) {
    const std::vector<double> from = ops::to_dtype(ops::contiguous(tangent), DType::Float64).to_vector<double>();
    std::vector<double> to(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) to[i] = (i % 2 == 0 ? -1.0 : 1.0) * from[(i + 1) % from.size()];
    w[name] = from_vector(to, tangent.shape(), tangent.dtype());
  }
  return w;
}

// Whether the directional derivative at `x` is linear in the direction: D(u) + D(w) = D(u + w), with
// D the central difference at step 1e-11 in the oracle dtype (`along_u` is D(u)). Where both one-sided
// differences agree, the function can still be non-differentiable: the median of tied values moves
// with the median of the tangents, an odd function of the direction but not a linear one, so no
// derivative (a linear map) matches the differences, and the spec's choice is a convention there.
bool directional_derivative_is_linear(const Case& inner, const NamedTensors& x, const NamedTensors& u,
                                      const TensorList& along_u) {
  const NamedTensors w = other_direction(u);
  NamedTensors both;
  for (const auto& [name, tangent] : u) both[name] = ops::add(tangent, w.at(name));
  const auto central = [&](const NamedTensors& direction) {
    return difference_quotient(oracle_at(inner, x, direction, 1e-11), oracle_at(inner, x, direction, -1e-11), 2e-11);
  };
  try {
    const TensorList along_w = central(w);
    const TensorList along_both = central(both);
    TensorList sum;
    for (std::size_t k = 0; k < along_u.size(); ++k) sum.push_back(ops::add(along_u[k], along_w[k]));
    return agree(sum, along_both, 1e-6);
  } catch (const Error&) {
    return true;  // the function raises along another direction: nothing to say about linearity
  }
}

// Discards a program whose derivative the dtype cannot resolve (defined below).
void require_resolvable_in_float(const Case& c, std::string_view property);

PropertyCheck jvp_equals_finite_differences(PropertyContext& context, const ProgramOptions& programs) {
  ProgramOptions options = differentiable(programs);
  options.floating_dtypes = {DType::Float64};
  // detach and its copying twin are stop-gradients by design (AD-5.2): their jvp is zero where
  // differences see the identity.
  const auto admits = options.admits;
  options.admits = [admits](const OpDef& op) {
    return op.name() != "detach" && op.name() != "detach_copy" && !changes_dtype(op) && (!admits || admits(op));
  };
  const Drawn d = draw(options, 1);
  const Case jvp_case = under(d, StackTransform::Jvp);
  const Case inner = without_outer(jvp_case);
  const auto& jvp = std::get<conformance::JvpTransform>(jvp_case.transforms.front());
  const NamedTensors x = input_tensors(jvp_case);
  NamedTensors u;
  for (const conformance::NamedTensor& t : jvp.tangents) u[t.name] = conformance::materialize_tensor(t.tensor);

  // At a kink (clamp at a tie, abs at 0) the central difference averages two one-sided slopes at
  // every step size, while the derivative there is a documented one-sided choice, not a law: the
  // forward and backward differences disagree, and the program is discarded. An oracle evaluation
  // that raises (a matrix singular in 50 digits though not in float64) is discarded too.
  TensorList value;
  TensorList plus;
  TensorList minus;
  TensorList plus_far;
  TensorList minus_far;
  const double h = 1e-16;
  try {
    value = oracle_at(inner, x, {}, 0.0);
    plus = oracle_at(inner, x, u, h);
    minus = oracle_at(inner, x, u, -h);
    plus_far = oracle_at(inner, x, u, 1e-11);
    minus_far = oracle_at(inner, x, u, -1e-11);
  } catch (const Error&) {
    RC_DISCARD("the program raises near this point in the oracle dtype");
  }
  // In 50 digits both the truncation error (h squared times the third derivative) and the rounding
  // error (1e-50 / h) stay far below float64's resolution at h = 1e-16.
  const TensorList fine = difference_quotient(plus, minus, 2 * h);
  const TensorList coarse = difference_quotient(plus_far, minus_far, 2e-11);
  const TensorList forward = difference_quotient(plus_far, value, 1e-11);
  const TensorList backward = difference_quotient(value, minus_far, 1e-11);
  RC_PRE(all_finite(value) && all_finite(fine) && all_finite(coarse) && all_finite(forward) && all_finite(backward));
  // One-sided differences that disagree, or two step sizes that do: a non-smooth point or a jump
  // closer than 1e-11. Differences have no limit there, but the derivative is still the spec's
  // one-sided choice, the same in forward and reverse mode (AD-8.3): the point is checked as
  // jacfwd against jacrev rather than discarded.
  if (!agree(forward, backward, 1e-6) || !agree(fine, coarse, 1e-9)) return forward_equals_reverse_at(context, d);

  const std::vector<std::string> names = conformance::result_names(jvp_case);
  if (names.size() != value.size() * 2) return PropertyCheck::unsupported("a result of the stack is not a tensor");
  // The oracle's values rounded to the dtypes the program produces (a float32 result of an int64
  // input stays float32), which the spec fixes and the reference's own run shows.
  const TensorList typed = conformance::run_case_program(inner, x);
  NamedResults truth;
  for (std::size_t k = 0; k < value.size(); ++k)
    truth.emplace_back(names[k], data_of(ops::to_dtype(value[k], typed.at(k).dtype())));
  for (std::size_t k = 0; k < fine.size(); ++k)
    truth.emplace_back(names[value.size() + k], data_of(ops::to_dtype(fine[k], typed.at(k).dtype())));
  PropertyCheck check = judge_law(context, expecting_values(jvp_case, kFiniteDifferences, truth),
                                  "jvp differs from central differences of the reference in the oracle dtype");
  if (check.outcome != PropertyCheck::Outcome::Violated) return check;
  // Differences with a limit that is not linear in the direction (a median of tied values) are a
  // non-smooth point too, checked as jacfwd against jacrev. Only after a violation: it costs four
  // more oracle evaluations.
  if (!directional_derivative_is_linear(inner, x, u, coarse)) return forward_equals_reverse_at(context, d);
  // A derivative float64 cannot resolve at this point (log of exp(-740), a subnormal that keeps 10 of
  // its 53 bits) fails any backend: where the reference's own jvp is not its oracle-dtype jvp within
  // the law's tolerance, the program is discarded, as for the Hessian. It runs the oracle on the
  // transformed program.
  require_resolvable_in_float(jvp_case, kFiniteDifferences);
  return check;
}

double dot(const TensorData& a, const TensorData& b, double& magnitude) {
  double sum = 0;
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    sum += a.element_as_double(i) * b.element_as_double(i);
    magnitude += std::abs(a.element_as_double(i) * b.element_as_double(i));
  }
  return sum;
}

// vjp's truth when the transposition law fails: J^T v with J assembled column by column from the
// backend's own jvp along each basis direction, so the counterexample states the law as values.
std::optional<NamedResults> transpose_of_jvp(const PropertyContext& context, const Case& jvp_case,
                                             const Case& vjp_case) {
  const auto& vjp = std::get<conformance::VjpTransform>(vjp_case.transforms.front());
  const std::vector<std::string> vjp_names = conformance::result_names(vjp_case);
  const std::size_t results = vjp.cotangents.size();
  NamedResults truth;
  if (vjp_names.size() < jvp_case.inputs.size()) return std::nullopt;
  Case basis = jvp_case;
  auto& tangents = std::get<conformance::JvpTransform>(basis.transforms.front()).tangents;
  const std::vector<conformance::NamedTensor> directions = tangents;
  for (std::size_t i = 0; i < directions.size(); ++i) {
    const TensorData& shape_of = directions[i].tensor.data;
    std::vector<double> column_sums(static_cast<std::size_t>(shape_of.numel()), 0.0);
    for (std::int64_t j = 0; j < shape_of.numel(); ++j) {
      for (std::size_t k = 0; k < directions.size(); ++k) {
        std::vector<double> e(static_cast<std::size_t>(directions[k].tensor.data.numel()), 0.0);
        if (k == i) e[static_cast<std::size_t>(j)] = 1.0;
        tangents[k].tensor = {};
        tangents[k].tensor.data =
            data_of(from_vector(e, directions[k].tensor.data.shape, directions[k].tensor.data.dtype));
      }
      const Answer column = ask(context, basis);
      if (!column.outputs) return std::nullopt;
      double magnitude = 0;
      double sum = 0;
      for (std::size_t r = 0; r < results; ++r)
        sum += dot(vjp.cotangents[r].tensor.data, column.outputs->at(column.outputs->size() - results + r).second,
                   magnitude);
      column_sums[static_cast<std::size_t>(j)] = sum;
    }
    const std::string& name = vjp_names[vjp_names.size() - directions.size() + i];
    truth.emplace_back(name, data_of(from_vector(column_sums, shape_of.shape, shape_of.dtype)));
  }
  // The primal results, as the backend's vjp gave them (the law says nothing new about them).
  NamedResults with_primals;
  const Answer primal = ask(context, without_outer(vjp_case));
  if (!primal.outputs) return std::nullopt;
  for (const auto& named : *primal.outputs) with_primals.push_back(named);
  for (auto& named : truth) with_primals.push_back(std::move(named));
  return with_primals;
}

PropertyCheck vjp_transposes_jvp(PropertyContext& context, const ProgramOptions& programs) {
  const Drawn d = draw(differentiable(programs), 1);
  const Case jvp_case = under(d, StackTransform::Jvp);
  const Case vjp_case = under(d, StackTransform::Vjp);
  const Answer forward = ask(context, jvp_case);
  const Answer reverse = ask(context, vjp_case);
  for (const Answer* a : {&forward, &reverse}) {
    if (a->unsupported) return PropertyCheck::unsupported(*a->unsupported);
    if (!a->fault.empty())
      return PropertyCheck::violated("the backend gave no answer: " + a->fault,
                                     expecting_reference_answer(a == &forward ? jvp_case : vjp_case, kTranspose));
    if (a->error)
      return PropertyCheck::violated(
          fmt::format("the backend raised {} on a program the reference runs", error_kind_name(*a->error)),
          expecting_values(vjp_case, kTranspose, {}));
  }
  const auto& jvp = std::get<conformance::JvpTransform>(jvp_case.transforms.front());
  const auto& vjp = std::get<conformance::VjpTransform>(vjp_case.transforms.front());
  const std::size_t results = vjp.cotangents.size();
  // Positions, not names: nested levels name their results alike up to a #k suffix. jvp's last
  // results are the tangents of the inner results, vjp's last results the cotangents of the floating
  // inputs, both in order; the cotangents and tangents were drawn in the same orders.
  double magnitude = 0;
  // The tolerance is that of the least precise tensor in either product: a float32 input converted
  // to float64 has a float64 tangent but a float32 cotangent.
  const TensorData* least_precise = &forward.outputs->back().second;
  auto consider = [&](const TensorData& t) {
    if (t.dtype == DType::Float32) least_precise = &t;
  };
  double lhs = 0;  // <v, J u>
  for (std::size_t r = 0; r < results; ++r) {
    const TensorData& v = vjp.cotangents[r].tensor.data;
    const TensorData& ju = forward.outputs->at(forward.outputs->size() - results + r).second;
    lhs += dot(v, ju, magnitude);
    consider(v);
    consider(ju);
  }
  double rhs = 0;  // <J^T v, u>
  const std::size_t inputs = jvp.tangents.size();
  for (std::size_t i = 0; i < inputs; ++i) {
    const TensorData& jtv = reverse.outputs->at(reverse.outputs->size() - inputs + i).second;
    const TensorData& u = jvp.tangents[i].tensor.data;
    rhs += dot(jtv, u, magnitude);
    consider(jtv);
    consider(u);
  }
  RC_PRE(std::isfinite(lhs) && std::isfinite(rhs));
  const conformance::Tolerance tolerance = property_tolerance(kTranspose, *least_precise);
  const double allowed = std::max(tolerance.atol, tolerance.rtol) * std::max(1.0, magnitude);
  if (std::abs(lhs - rhs) <= allowed) return PropertyCheck::holds(std::abs(lhs - rhs));
  const std::string why = fmt::format("<v, jvp(u)> = {} but <vjp(v), u> = {} (difference {:.3g} > {:.3g})", lhs, rhs,
                                      std::abs(lhs - rhs), allowed);
  const std::optional<NamedResults> truth = transpose_of_jvp(context, jvp_case, vjp_case);
  if (!truth) return PropertyCheck::violated(why, std::nullopt);
  return PropertyCheck::violated(why, expecting_values(vjp_case, kTranspose, *truth));
}

// `c` against another case's answer from the same backend (the truth of an equivalence law).
PropertyCheck equals_backend_answer(PropertyContext& context, const Case& c, const Case& truth_case,
                                    std::string_view property, const std::string& what) {
  const Answer truth = ask(context, truth_case);
  if (truth.unsupported) return PropertyCheck::unsupported(*truth.unsupported);
  if (!truth.fault.empty())
    return PropertyCheck::violated("the backend gave no answer: " + truth.fault,
                                   expecting_reference_answer(truth_case, property));
  if (truth.error) return judge_law(context, expecting_error(c, *truth.error), what);
  NamedResults renamed = *truth.outputs;
  const std::vector<std::string> names = conformance::result_names(c);
  if (names.size() != renamed.size()) return PropertyCheck::unsupported("the two stacks name different results");
  for (std::size_t k = 0; k < names.size(); ++k) renamed[k].first = names[k];
  // Which floating dtype a derivative of a mixed-precision program has is not what these laws are
  // about (torch.func's jacrev gives the input's dtype, its jacfwd the result's): the truth takes the
  // candidate's floating dtype, and the two are compared at the precision of the less precise one
  // (a float32 jacrev holds no more than float32's digits of a float64 jacfwd).
  const Answer candidate = ask(context, c);
  std::vector<std::optional<conformance::Tolerance>> coarser(renamed.size());
  if (candidate.outputs && candidate.outputs->size() == renamed.size()) {
    for (std::size_t k = 0; k < renamed.size(); ++k) {
      const DType want = candidate.outputs->at(k).second.dtype;
      const DType have = renamed[k].second.dtype;
      if (!is_floating(want) || !is_floating(have) || want == have) continue;
      if (have == DType::Float32) coarser[k] = property_tolerance(property, renamed[k].second);
      renamed[k].second = data_of(ops::to_dtype(tensor_of(renamed[k].second), want));
    }
  }
  Case expectation = expecting_values(c, property, renamed);
  for (std::size_t k = 0; k < coarser.size(); ++k) {
    if (coarser[k]) expectation.expect.values[k].tolerance = *coarser[k];
  }
  return judge_law(context, std::move(expectation), what);
}

PropertyCheck forward_equals_reverse_at(PropertyContext& context, const Drawn& d) {
  return equals_backend_answer(context, under(d, StackTransform::Jacfwd), under(d, StackTransform::Jacrev), kJacobians,
                               "at a point where differences have no limit, jacfwd differs from jacrev");
}

// Second derivatives amplify ill-conditioning beyond what the values show (the hessian of
// sum(inverse(M)) carries M's inverse three times, so a matrix whose inverse float64 computes to
// 1e-7 has a hessian float64 computes to no better than 1e-9). Where the reference's own float64
// derivative is not its oracle-dtype derivative within the law's tolerance, float64 cannot resolve
// the law at this point for any backend, and the program is discarded.
void require_resolvable_in_float(const Case& c, std::string_view property) {
  const conformance::ProgramResult answer = conformance::run_on_reference(c);
  RC_PRE(!answer.error && answer.broken.empty());
  TensorList oracle;
  try {
    oracle = oracle_at(c, input_tensors(c), {}, 0);
  } catch (const Error&) {
    RC_DISCARD("the derivative raises in the oracle dtype");
  }
  RC_PRE(oracle.size() == answer.outputs.size());
  for (std::size_t k = 0; k < oracle.size(); ++k) {
    const TensorData& got = answer.outputs[k].second;
    const TensorData truth = data_of(ops::to_dtype(oracle[k], got.dtype));
    const conformance::Tolerance tolerance = property_tolerance(property, truth);
    for (std::int64_t i = 0; i < truth.numel(); ++i) {
      const double x = got.element_as_double(i);
      const double y = truth.element_as_double(i);
      RC_PRE(std::abs(x - y) <= tolerance.atol + tolerance.rtol * std::abs(y));
    }
  }
}

PropertyCheck hessian_symmetric(PropertyContext& context, const ProgramOptions& programs) {
  ProgramOptions options = differentiable(programs);
  options.scalar_first_output = true;
  options.max_outputs = 1;
  const GeneratedProgram program = draw_program(options);
  const Case& base = program.program;
  require_finite(base);
  std::optional<std::int64_t> wrt;
  for (std::size_t i = 0; i < base.inputs.size() && !wrt; ++i) {
    if (!base.inputs[i].is_literal() && is_floating(std::get<conformance::TensorSpec>(base.inputs[i].value).data.dtype))
      wrt = static_cast<std::int64_t>(i);
  }
  RC_PRE(wrt.has_value());
  conformance::ArgNums argnums;
  argnums.selectors = {*wrt};
  Case hessian = base;
  hessian.transforms = {conformance::HessianTransform{argnums}};
  Case reverse_over_reverse = base;
  conformance::JacobianTransform jacrev;
  jacrev.argnums = argnums;
  reverse_over_reverse.transforms = {jacrev, jacrev};
  require_finite_derivatives(hessian);
  require_finite_derivatives(reverse_over_reverse);
  require_resolvable_in_float(hessian, kHessian);
  require_resolvable_in_float(reverse_over_reverse, kHessian);

  const Answer h = ask(context, hessian);
  if (h.unsupported) return PropertyCheck::unsupported(*h.unsupported);
  if (h.outputs && h.outputs->size() == 1) {
    // Symmetry: H[i, j] = H[j, i] over the flattened input.
    const TensorData& values = h.outputs->front().second;
    const auto n = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(values.numel()))));
    if (n * n == values.numel()) {
      const Tensor square = ops::reshape(tensor_of(values), {n, n});
      const Tensor symmetric = ops::div(ops::add(square, ops::transpose(square, 0, 1)), ops::lit(2.0));
      NamedResults truth{{h.outputs->front().first,
                          data_of(ops::contiguous(ops::reshape(
                              symmetric, std::vector<std::int64_t>(values.shape.begin(), values.shape.end()))))}};
      const PropertyCheck symmetric_check =
          judge_law(context, expecting_values(hessian, kHessian, truth), "the hessian is not symmetric");
      if (symmetric_check.outcome != PropertyCheck::Outcome::Holds) return symmetric_check;
    }
  }
  return equals_backend_answer(context, hessian, reverse_over_reverse, kHessian,
                               "hessian (forward over reverse) differs from reverse over reverse");
}

// A draw of in_dim for a tensor of unbatched rank `rank`: 0, another dim of its range (negative dims
// included), or not mapped.
std::optional<std::int64_t> draw_in_dim(std::int64_t rank) {
  switch (*rc::gen::inRange(0, 3)) {
    case 0: return 0;
    case 1: return batch_dim_choice(*rc::gen::inRange(0u, 16u), rank);
    default: return std::nullopt;
  }
}

// torch.func's vmap(vjp_fn)(cotangents) with the primals batched too, each argument at a dim of its
// own: the program's results r_k become q_k = r_k * c_k with c_k batched inputs, and vjp pulls back
// ones, so the cotangent reaching r_k is c_k, one per example. The loop runs vjp on each example.
PropertyCheck vmap_vjp_equals_loop(PropertyContext& context, const ProgramOptions& programs) {
  const GeneratedProgram program = draw_program(differentiable(programs));
  const Case& base = program.program;
  require_finite(base);
  const conformance::ProgramResult values = conformance::run_on_reference(base);
  RC_PRE(!values.error && values.broken.empty() && !values.outputs.empty());
  const auto batch = static_cast<std::int64_t>(*rc::gen::inRange(0, 4));

  Case c = base;
  c.id = "generated";
  conformance::VmapTransform vmap;
  vmap.in_dims.form = conformance::DimSpec::Form::ByPosition;
  vmap.out_dims.form = conformance::DimSpec::Form::All;
  vmap.out_dims.all = 0;
  std::vector<std::vector<conformance::CaseInput>> draws;
  for (std::int64_t b = 0; b < batch; ++b) draws.push_back(draw_inputs(program, static_cast<int>(b)));
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::optional<std::int64_t> dim;
    if (is_tensor_input(c.inputs[i]))
      dim = draw_in_dim(static_cast<std::int64_t>(spec_of(c.inputs[i]).data.shape.size()));
    vmap.in_dims.by_position.push_back(dim);
    if (!dim) continue;
    TensorList examples;
    for (const auto& inputs : draws) examples.push_back(conformance::materialize_tensor(spec_of(inputs[i])));
    const Tensor like = conformance::materialize_tensor(spec_of(c.inputs[i]));
    c.inputs[i] = conformance::case_input_of(c.inputs[i].name,
                                             ops::contiguous(oracles::batch_of(examples, like, {{batch, *dim}})));
  }
  conformance::VjpTransform vjp;
  const std::uint32_t seed = *rc::gen::arbitrary<std::uint32_t>();
  c.outputs.clear();
  for (std::size_t k = 0; k < values.outputs.size(); ++k) {
    const auto& [result, data] = values.outputs[k];
    const std::string cotangent = fmt::format("cotangent{}", k);
    const std::string product = fmt::format("pulled{}", k);
    TensorList examples;
    for (std::int64_t b = 0; b < batch; ++b)
      examples.push_back(conformance::ad::random_tensor(data.shape, data.dtype, seed + 101 * k + b));
    const Tensor like = ops::zeros(data.shape, data.dtype);
    const std::int64_t dim = *rc::gen::element(std::int64_t{0}, std::int64_t{-1});
    c.inputs.push_back(
        conformance::case_input_of(cotangent, ops::contiguous(oracles::batch_of(examples, like, {{batch, dim}}))));
    vmap.in_dims.by_position.push_back(dim);
    conformance::OpCall multiply;
    multiply.outs = {product};
    multiply.op = "mul";
    multiply.args = {result, cotangent};
    c.program.push_back(multiply);
    c.outputs.push_back(product);
    vjp.cotangents.push_back({product, conformance::tensor_spec_of(ops::ones(data.shape, data.dtype))});
  }
  c.transforms = {vmap, vjp};
  RC_LOG() << "transforms: " << describe_transforms(c) << "\n";
  require_finite_derivatives(c);
  return check_vmap_equals_loop(context, c);
}

}  // namespace

void add_gradient_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kFiniteDifferences),
                 "jvp of a program under any inner stack equals central differences of the reference in the oracle "
                 "dtype along a random direction; where differences have no limit (a kink), jacfwd equals jacrev",
                 {"AD-8.1", "AD-8.6", "AD-2.2", "AD-4.2", "AD-8.3"},
                 100,
                 "",
                 [programs](PropertyContext& context) { return jvp_equals_finite_differences(context, programs); }});
  out.push_back({std::string(kTranspose),
                 "<v, jvp(u)> = <vjp(v), u> for random u, v, under any inner stack",
                 {"AD-8.2", "AD-2.1"},
                 150,
                 "",
                 [programs](PropertyContext& context) { return vjp_transposes_jvp(context, programs); }});
  out.push_back({std::string(kJacobians),
                 "jacfwd equals jacrev under any inner stack",
                 {"AD-8.3", "AD-3.1", "AD-3.3"},
                 150,
                 "",
                 [programs](PropertyContext& context) {
                   const Drawn d = draw(differentiable(programs), 1);
                   const Case forward = under(d, StackTransform::Jacfwd);
                   const Case reverse = under(d, StackTransform::Jacrev);
                   PropertyCheck check =
                       equals_backend_answer(context, forward, reverse, kJacobians, "jacfwd differs from jacrev");
                   // Where the reference's own derivative is not its oracle-dtype derivative within
                   // the law's tolerance (second derivatives of eigenvectors at nearly tied
                   // eigenvalues in float32), the dtype cannot resolve the law for any backend.
                   // Checked only after a violation: it runs the oracle on both stacks.
                   if (check.outcome == PropertyCheck::Outcome::Violated) {
                     require_resolvable_in_float(forward, kJacobians);
                     require_resolvable_in_float(reverse, kJacobians);
                   }
                   return check;
                 }});
  out.push_back({std::string(kHessian),
                 "the hessian of a scalar program is symmetric and equals jacrev(jacrev)",
                 {"AD-8.4", "AD-3.4"},
                 100,
                 "",
                 [programs](PropertyContext& context) { return hessian_symmetric(context, programs); }});
  out.push_back({std::string(kVmapGrad),
                 "vmap of grad (under any inner stack) equals the loop of grad over the examples",
                 {"AD-8.5"},
                 150,
                 "",
                 [programs](PropertyContext& context) {
                   ProgramOptions options = differentiable(programs);
                   options.scalar_first_output = true;
                   StackLevelPlan grad;
                   grad.transform = StackTransform::Grad;
                   const std::optional<Case> c = draw_vmapped_case(
                       options, {StackTransform::Jvp, StackTransform::Vjp, StackTransform::Grad}, 1, {grad});
                   return check_vmap_equals_loop(context, *c);
                 }});
  out.push_back({std::string(kVmapVjp),
                 "vmap of vjp with batched cotangents, the primals batched at dims of their own (0, another, "
                 "negative, or not at all), equals the loop of vjp over the examples",
                 {"AD-8.9"},
                 60,
                 "",
                 [programs](PropertyContext& context) { return vmap_vjp_equals_loop(context, programs); }});
  out.push_back({std::string(kLinearize),
                 "linearize's jvp_fn equals jvp with the same tangents, under any inner stack",
                 {"AD-2.3"},
                 150,
                 "",
                 [programs](PropertyContext& context) {
                   const Drawn d = draw(differentiable(programs), 1);
                   return equals_backend_answer(context, under(d, StackTransform::Linearize),
                                                under(d, StackTransform::Jvp), kLinearize,
                                                "linearize's jvp_fn differs from jvp");
                 }});
}

}  // namespace funcspec::properties
