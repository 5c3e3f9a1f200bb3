#include "conformance/suite/ad_samples.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "conformance/oracles/value_tolerance.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/derivative_tolerance.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "conformance/suite/tier_samples.h"
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

ExpectedValue expected_derivative(const std::string& name, const Tensor& oracle_value, const AdSample& s,
                                  const std::string& check) {
  const bool special_point = !s.sample.special_point.empty();
  return expected(name, oracle_value, s.dtype,
                  derivative_tolerance(check, s.spec->op, s.dtype, oracle_value, special_point));
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

namespace {}  // namespace

std::optional<AdCheckSample> checkable_sample(const std::string& name, const OpDef& op, const SampleCall& drawn_call,
                                              DType dtype, std::size_t index) {
  AdSample s{drawn_call.spec, drawn_call.sample, dtype, drawn_call.seed, {}};
  for (std::size_t p = 0; p < s.sample.inputs.size(); ++p) {
    const Tensor& t = s.sample.inputs[p];
    if (t.defined() && !t.is_wrapped_number() && is_floating(t.dtype())) s.floating.push_back(p);
  }
  // An explicit result dtype pins the computation to that dtype, which the oracle cannot extend.
  const bool pinned_dtype = s.sample.attrs.has("dtype") && !s.sample.attrs.is_none("dtype");
  if (s.floating.empty() || !all_finite(s.sample) || pinned_dtype || !s.sample.no_derivative.empty() ||
      s.sample.derivative_error) {
    return std::nullopt;
  }
  // Which results are floating is known only by running the op (once, in the sample's dtype).
  // Derivatives are checked where the op's values are finite and keep the inputs' dtype: a
  // NaN result (sqrt of a negative) has no derivative to check, and a result cast to another
  // dtype (to_dtype, sum(dtype=...)) is not a function the oracle can extend.
  OpFunction f{name, s.sample.attrs, s.sample.inputs, s.floating, {}, samples::sample_program(*s.spec, s.sample)};
  std::size_t result_count = 0;
  bool checkable = true;
  try {
    const TensorList out =
        samples::run_program(op.name(), f.program, samples::clone_inputs(s.sample.inputs), s.sample.attrs);
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
  return AdCheckSample{std::move(s), std::move(f), result_count, index, suffix, Tier::Nightly, {}};
}

namespace {

// Whether two result lists are of the same kind: count, dtypes and ranks.
bool same_kind_of_results(const TensorList& a, const TensorList& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t r = 0; r < a.size(); ++r) {
    if (a[r].dtype() != b[r].dtype() || a[r].dim() != b[r].dim()) return false;
  }
  return true;
}

// The sample with every dim of its tensor inputs (its floating ones only, or all of them) cut to
// at most `k` elements.
samples::OpSample cut_dims(const samples::OpSample& sample, std::int64_t k, bool floating_only) {
  samples::OpSample cut = sample;
  for (Tensor& t : cut.inputs) {
    if (!t.defined() || t.is_wrapped_number() || (floating_only && !is_floating(t.dtype()))) continue;
    Tensor narrowed = t;
    for (std::int64_t d = 0; d < narrowed.dim(); ++d) {
      if (narrowed.shape()[static_cast<std::size_t>(d)] > k) narrowed = ops::narrow(narrowed, d, 0, k);
    }
    t = ops::contiguous(ops::clone(narrowed));
  }
  cut.label = fmt::format("{} cut to {} per dim", sample.label, k);
  return cut;
}

std::optional<AdCheckSample> shrunk(const AdCheckSample& original) {
  const OpDef& op = OpRegistry::instance().get(original.f.op);
  TensorList original_results;
  try {
    original_results = samples::run_program(op.name(), original.f.program,
                                            samples::clone_inputs(original.s.sample.inputs), original.s.sample.attrs);
  } catch (const Error&) {
    return std::nullopt;
  }
  for (std::int64_t k : {3, 2, 1}) {
    for (bool floating_only : {false, true}) {
      const samples::OpSample cut = cut_dims(original.s.sample, k, floating_only);
      if (floating_numel(cut, original.s.floating) > higher_order_numel_limit) continue;
      std::optional<AdCheckSample> candidate =
          checkable_sample(original.f.op, op, SampleCall{original.s.spec, cut, original.s.dtype, original.s.seed},
                           original.s.dtype, original.index);
      if (!candidate || candidate->f.results != original.f.results) continue;
      TensorList results;
      try {
        results = samples::run_program(op.name(), candidate->f.program, samples::clone_inputs(cut.inputs), cut.attrs);
      } catch (const Error&) {
        continue;
      }
      if (!same_kind_of_results(results, original_results)) continue;
      candidate->suffix = fmt::format("{}{}-{}-shrunk{}", original.s.dtype == DType::Float32 ? "float32/" : "",
                                      original.index, id_slug(original.s.sample.label), k);
      candidate->provenance = fmt::format(
          "no sample of the op has at most {} floating elements: sample {} ({}) with every dim{} cut to its first {}",
          higher_order_numel_limit, original.index, original.s.sample.label,
          floating_only ? " of its floating inputs" : "", k);
      return candidate;
    }
  }
  return std::nullopt;
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
      std::vector<samples::OpSample> drawn_samples;
      for (const SampleCall& c : drawn.calls) drawn_samples.push_back(c.sample);
      const std::vector<std::size_t> at_pr = pr_sample_indices(drawn_samples);
      for (std::size_t i = 0; i < drawn.calls.size(); ++i) {
        if (std::optional<AdCheckSample> s = checkable_sample(name, *op, drawn.calls[i], dtype, i)) {
          const bool pr = dtype == DType::Float64 && std::find(at_pr.begin(), at_pr.end(), i) != at_pr.end();
          s->tier = pr ? Tier::Pr : Tier::Nightly;
          op_samples.samples.push_back(std::move(*s));
        }
      }
      all.push_back(std::move(op_samples));
    }
  }
  return all;
}

std::vector<AdCheckSample> higher_order_samples(const AdOpSamples& op_samples) {
  const Tier first_tier = op_samples.dtype == DType::Float64 ? Tier::Pr : Tier::Nightly;
  auto numel = [](const AdCheckSample& c) { return floating_numel(c.s.sample, c.s.floating); };
  // A size-0 sample checks shapes, not derivatives: the choices below are among samples with elements.
  auto has_elements = [&](const AdCheckSample& c) { return numel(c) > 0; };
  const auto smallest = [&](auto& list) {
    return std::min_element(list.begin(), list.end(), [&](const AdCheckSample& a, const AdCheckSample& b) {
      return has_elements(a) && (!has_elements(b) || numel(a) < numel(b));
    });
  };
  std::vector<AdCheckSample> within;
  for (const AdCheckSample& c : op_samples.samples) {
    if (numel(c) <= higher_order_numel_limit) within.push_back(c);
  }
  if (std::any_of(within.begin(), within.end(), has_elements)) {
    if (std::none_of(within.begin(), within.end(),
                     [&](const AdCheckSample& c) { return c.tier == first_tier && has_elements(c); }))
      smallest(within)->tier = first_tier;
    return within;
  }
  std::vector<AdCheckSample> with_elements;
  std::copy_if(op_samples.samples.begin(), op_samples.samples.end(), std::back_inserter(with_elements), has_elements);
  if (with_elements.empty()) return within;  // every sample is empty: no derivative to check
  const AdCheckSample& least = *smallest(with_elements);
  if (std::optional<AdCheckSample> cut = shrunk(least)) {
    cut->tier = first_tier;
    within.push_back(*cut);
    return within;
  }
  AdCheckSample as_is = least;
  as_is.tier = first_tier;
  as_is.suffix += "-smallest-sample";
  as_is.provenance =
      fmt::format("no sample of the op with elements has at most {} floating elements and none shrinks: the smallest",
                  higher_order_numel_limit);
  within.push_back(as_is);
  return within;
}

}  // namespace funcspec::conformance::ad
