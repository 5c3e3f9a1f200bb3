#include "conformance/samples/sample_checks.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::samples {
namespace {

Tensor to_meta(const Tensor& t) {
  if (!t.defined()) return t;
  // Keep the geometry so meta sees the same strides (views, expanded inputs) as cpu does.
  auto impl =
      std::make_shared<TensorImpl>(nullptr, t.shape(), t.strides(), t.storage_offset(), t.dtype(), Device::Meta);
  impl->set_wrapped_number(t.is_wrapped_number());
  return Tensor(impl);
}

std::string describe(const OpSampleSpec& spec, const OpSample& sample, std::uint64_t seed) {
  return fmt::format("{} [{}] (sample seed {})", spec.op, sample.label, seed);
}

struct Outcome {
  TensorList outputs;
  std::optional<ErrorKind> error;
  std::string message;
};

// The sample's program (NOTE: [non-unique results]): the bare op unless its spec declares one.
Outcome run(const OpSampleSpec& spec, const OpSample& sample, const TensorList& inputs, const Attrs& attrs,
            std::uint64_t random_seed) {
  random::GeneratorScope scope(random_seed);
  try {
    return {run_program(spec.op, sample_program(spec, sample), inputs, attrs), std::nullopt, ""};
  } catch (const Error& e) {
    return {{}, e.kind(), e.what()};
  }
}

}  // namespace

TensorList convert_floating_inputs(const TensorList& inputs, DType floating) {
  TensorList out;
  for (const Tensor& t : inputs) {
    if (!t.defined() || !is_floating(t.dtype()) || t.is_wrapped_number()) {
      out.push_back(t);
      continue;
    }
    out.push_back(call_one("to_dtype", {t}, {{"dtype", floating}}));
  }
  return out;
}

TensorList clone_inputs(const TensorList& inputs) {
  TensorList out;
  for (const Tensor& t : inputs) {
    if (!t.defined() || t.is_wrapped_number()) {
      out.push_back(t);
      continue;
    }
    // A fresh storage laid out like the original one, so strided samples stay strided.
    const Tensor fresh_storage = call_one("clone", {Tensor::view_of(t, {t.storage()->numel()}, {1}, 0)});
    out.push_back(Tensor::view_of(fresh_storage, t.shape(), t.strides(), t.storage_offset()));
  }
  return out;
}

// The samples of `spec`, or nothing with a failure recorded when generating them throws (a sample
// that needs an op the backend lacks must cost that op's verdict, not the run).
std::vector<OpSample> generate_or_record(const OpSampleSpec& spec, DType floating, SampleRng& rng,
                                         SampleVerdict& verdict) {
  try {
    return spec.generate(floating, rng);
  } catch (const std::exception& e) {
    verdict.failures.push_back(fmt::format("{}: generating the samples failed: {}", spec.op, e.what()));
    return {};
  }
}

SampleVerdict check_meta_agrees(const OpSampleSpec& spec, std::uint64_t seed) {
  SampleVerdict verdict{spec.op, "meta", 0, 0, 0, {}};
  const OpDef& op = OpRegistry::instance().get(spec.op);
  SampleRng rng(seed);
  for (const OpSample& sample : generate_or_record(spec, DType::Float64, rng, verdict)) {
    ++verdict.samples_run;
    TensorList meta_inputs;
    for (const Tensor& t : sample.inputs) meta_inputs.push_back(to_meta(t));
    // Ops without tensor inputs (creation ops) are placed by their device attribute.
    Attrs meta_attrs = sample.attrs;
    if (op.schema.find_arg("device") != nullptr) meta_attrs.set("device", std::string("meta"));
    const Outcome on_meta = run(spec, sample, meta_inputs, meta_attrs, seed);
    const Outcome on_cpu = run(spec, sample, clone_inputs(sample.inputs), sample.attrs, seed);
    const std::string where = describe(spec, sample, seed);
    if (op.kind == OpKind::DynamicShape || op.kind == OpKind::ScalarExtraction) {
      if (on_meta.error != ErrorKind::DataDependentOnMeta) {
        verdict.failures.push_back(fmt::format("{}: expected data_dependent_on_meta on meta, got {}", where,
                                               on_meta.error ? error_kind_name(*on_meta.error) : "no error"));
      }
      continue;
    }
    if (on_meta.error != on_cpu.error) {
      verdict.failures.push_back(fmt::format("{}: cpu {} but meta {}", where,
                                             on_cpu.error ? on_cpu.message : "succeeded",
                                             on_meta.error ? on_meta.message : "succeeded"));
      continue;
    }
    if (on_cpu.error) continue;
    if (on_meta.outputs.size() != on_cpu.outputs.size()) {
      verdict.failures.push_back(
          fmt::format("{}: {} outputs on cpu, {} on meta", where, on_cpu.outputs.size(), on_meta.outputs.size()));
      continue;
    }
    for (std::size_t i = 0; i < on_cpu.outputs.size(); ++i) {
      const Tensor& c = on_cpu.outputs[i];
      const Tensor& m = on_meta.outputs[i];
      if (c.shape() != m.shape() || c.dtype() != m.dtype() || m.device() != Device::Meta || m.has_storage()) {
        verdict.failures.push_back(fmt::format("{}: output {} is {} {} on cpu but {} {} on {} (storage: {})", where, i,
                                               shape_to_string(c.shape()), dtype_name(c.dtype()),
                                               shape_to_string(m.shape()), dtype_name(m.dtype()),
                                               device_name(m.device()), m.has_storage()));
      }
    }
  }
  return verdict;
}

SampleVerdict check_oracle_agrees(const OpSampleSpec& spec, DType floating, std::uint64_t seed) {
  SampleVerdict verdict{spec.op, fmt::format("oracle-{}", dtype_name(floating)), 0, 0, 0, {}};
  if (!spec.oracle_exemption.empty()) return verdict;
  SampleRng rng(seed);
  const double eps = machine_epsilon(floating);
  const double allowed = floating == DType::Float32 ? spec.tolerance.ulps32 : spec.tolerance.ulps64;
  const double smallest_normal = floating == DType::Float32 ? static_cast<double>(std::numeric_limits<float>::min())
                                                            : std::numeric_limits<double>::min();
  for (const OpSample& sample : generate_or_record(spec, floating, rng, verdict)) {
    ++verdict.samples_run;
    const std::string where = describe(spec, sample, seed);
    const TensorList oracle_inputs = convert_floating_inputs(sample.inputs, DType::Oracle);
    const Outcome low = run(spec, sample, clone_inputs(sample.inputs), sample.attrs, seed);
    const Outcome high = run(spec, sample, oracle_inputs, sample.attrs, seed);
    if (low.error != high.error) {
      verdict.failures.push_back(fmt::format("{}: {} gives {} but oracle gives {}", where, dtype_name(floating),
                                             low.error ? low.message : "a result",
                                             high.error ? high.message : "a result"));
      continue;
    }
    if (low.error) {
      ++verdict.error_samples;
      continue;
    }
    const double floor = spec.tolerance.magnitude_floor(sample.inputs);
    for (std::size_t i = 0; i < low.outputs.size(); ++i) {
      const Tensor& got = low.outputs[i];
      const Tensor& want = high.outputs[i];
      if (got.shape() != want.shape()) {
        verdict.failures.push_back(fmt::format("{}: output {} has shape {} but the oracle's has {}", where, i,
                                               shape_to_string(got.shape()), shape_to_string(want.shape())));
        continue;
      }
      if (!is_floating(got.dtype())) {
        if (got.to_vector<double>() != want.to_vector<double>()) {
          verdict.failures.push_back(fmt::format("{}: output {} ({}) differs from the oracle's: {} vs {}", where, i,
                                                 dtype_name(got.dtype()), got.to_string(), want.to_string()));
        }
        continue;
      }
      // Compare in the oracle dtype so the reference value is not rounded before the difference.
      const std::vector<oracle_t> g = call_one("to_dtype", {got}, {{"dtype", DType::Oracle}}).to_vector<oracle_t>();
      const std::vector<oracle_t> w = want.to_vector<oracle_t>();
      for (std::size_t k = 0; k < g.size(); ++k) {
        const bool g_nan = boost::multiprecision::isnan(g[k]), w_nan = boost::multiprecision::isnan(w[k]);
        // The oracle's value as the lower dtype would hold it: overflow to infinity is expected.
        const double w_rounded =
            floating == DType::Float32 ? static_cast<double>(w[k].convert_to<float>()) : w[k].convert_to<double>();
        if (g_nan || w_nan || std::isinf(w_rounded)) {
          const double gd = g[k].convert_to<double>();
          const bool same = (g_nan && w_nan) || (!g_nan && !w_nan && gd == w_rounded);
          if (!same) {
            verdict.failures.push_back(
                fmt::format("{}: output {} element {}: got {} but the oracle gives {}", where, i, k, gd, w_rounded));
          }
          continue;
        }
        // Below the dtype's smallest normal number results are spaced eps * that number apart, so
        // an error there counts in units of that spacing (as value_tolerance's whole ulps do).
        const double magnitude = std::max({std::abs(w[k].convert_to<double>()), floor, smallest_normal});
        const double error = boost::multiprecision::abs(g[k] - w[k]).convert_to<double>() / (eps * magnitude);
        verdict.max_error_ulps = std::max(verdict.max_error_ulps, error);
        if (error > allowed) {
          verdict.failures.push_back(fmt::format(
              "{}: output {} element {}: got {:.17g}, oracle {:.17g}: error {:.3g} ulps exceeds the stated bound {}",
              where, i, k, g[k].convert_to<double>(), w[k].convert_to<double>(), error, allowed));
        }
      }
    }
  }
  if (verdict.samples_run > 0 && verdict.error_samples == verdict.samples_run) {
    verdict.failures.push_back(fmt::format("{}: every sample raised an error, so no value was compared", spec.op));
  }
  return verdict;
}

}  // namespace funcspec::samples
