#include "conformance/suite/ad_samples.h"

#include <fmt/format.h>

#include <cmath>

#include "conformance/oracles/value_tolerance.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/derivative_tolerance.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "conformance/suite/variant_samples.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::conformance::ad {
namespace {

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

}  // namespace

Case program_case(const AdSample& s, const std::string& id, std::vector<std::string> clauses, Tier tier,
                  const OpFunction& f, std::size_t result_count) {
  Case c = one_step_case(SampleCall{s.spec, s.sample, s.dtype, s.seed}, id, std::move(clauses), tier, result_count);
  for (std::size_t r : f.results) c.outputs.push_back(fmt::format("r{}", r));
  return c;
}

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

std::int64_t floating_numel(const samples::OpSample& sample, const std::vector<std::size_t>& floating) {
  std::int64_t n = 0;
  for (std::size_t i : floating) n += sample.inputs[i].numel();
  return n;
}

namespace {

// The sample as a check of `op`'s derivatives, or nothing when it has none to check.
std::optional<AdCheckSample> checkable_sample(const std::string& name, const OpDef& op, const SampleCall& drawn_call,
                                              DType dtype, std::size_t index) {
  AdSample s{drawn_call.spec, drawn_call.sample, dtype, drawn_call.seed, {}};
  for (std::size_t p = 0; p < s.sample.inputs.size(); ++p) {
    const Tensor& t = s.sample.inputs[p];
    if (t.defined() && !t.is_wrapped_number() && is_floating(t.dtype())) s.floating.push_back(p);
  }
  // An explicit result dtype pins the computation to that dtype, which the oracle cannot extend.
  const bool pinned_dtype = s.sample.attrs.has("dtype") && !s.sample.attrs.is_none("dtype");
  if (s.floating.empty() || !all_finite(s.sample) || pinned_dtype) return std::nullopt;
  // Which results are floating is known only by running the op (once, in the sample's dtype).
  // Derivatives are checked where the op's values are finite and keep the inputs' dtype: a
  // NaN result (sqrt of a negative) has no derivative to check, and a result cast to another
  // dtype (to_dtype, sum(dtype=...)) is not a function the oracle can extend.
  OpFunction f{name, s.sample.attrs, s.sample.inputs, s.floating, {}};
  std::size_t result_count = 0;
  bool checkable = true;
  try {
    const TensorList out = call(op, samples::clone_inputs(s.sample.inputs), s.sample.attrs);
    result_count = out.size();
    for (std::size_t r = 0; r < out.size(); ++r) {
      if (!is_floating(out[r].dtype())) continue;
      f.results.push_back(r);
      checkable = checkable && out[r].dtype() == dtype && !any_non_finite({out[r]});
    }
  } catch (const Error&) {
    return std::nullopt;  // a sample that raises checks errors, not derivatives
  }
  if (f.results.empty() || !checkable) return std::nullopt;
  const std::string suffix =
      fmt::format("{}{}-{}", dtype == DType::Float32 ? "float32/" : "", index, id_slug(s.sample.label));
  return AdCheckSample{std::move(s), std::move(f), result_count, index, suffix};
}

}  // namespace

std::vector<AdOpSamples> ad_op_samples(const SuiteOptions& options) {
  std::vector<AdOpSamples> all;
  for (const auto& [name, spec] : all_sample_specs()) {
    const OpDef* op = OpRegistry::instance().find(name);
    if (op == nullptr || !differentiable_kind(*op) || op->random || transforms::non_differentiable(*op) ||
        !spec.oracle_exemption.empty())
      continue;
    for (DType dtype : {DType::Float64, DType::Float32}) {
      if (dtype == DType::Float32 && options.tier < Tier::Nightly) continue;
      SampleDraw drawn = draw_samples(spec, dtype, options.seed, 0);
      if (!drawn.generation_error.empty()) continue;  // OPS-VALUES reports it
      AdOpSamples op_samples{name, dtype, {}};
      for (std::size_t i = 0; i < drawn.calls.size(); ++i) {
        if (i > 0 && options.tier < Tier::Nightly) break;
        if (std::optional<AdCheckSample> s = checkable_sample(name, *op, drawn.calls[i], dtype, i))
          op_samples.samples.push_back(std::move(*s));
      }
      all.push_back(std::move(op_samples));
    }
  }
  return all;
}

}  // namespace funcspec::conformance::ad
