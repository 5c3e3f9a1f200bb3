#include "conformance/suite/variant_samples.h"

#include "conformance/samples/sample_checks.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::conformance {
namespace {

// The out= variant's inputs: the functional's tensor inputs (absent optional ones spelt out, so
// `out` lands in its schema position) followed by an `out` shaped like the functional's result.
TensorList with_out_tensor(const OpDef& functional, const samples::OpSample& sample) {
  TensorList inputs = sample.inputs;
  const std::size_t declared = functional.schema.tensor_args().size();
  while (inputs.size() < declared) inputs.emplace_back();
  Tensor out = Tensor::empty({0}, DType::Float64);
  try {
    // The values do not matter, only the result's dtype and shape: any seed will do.
    random::GeneratorScope scope(0);
    const TensorList results = call(functional.name(), samples::clone_inputs(sample.inputs), sample.attrs);
    if (!results.empty()) out = call_one("zeros_like", {results.front()});
  } catch (const Error&) {
    // The functional raises, so the variant must too; any out will do.
  }
  inputs.push_back(out);
  return inputs;
}

samples::OpSampleSpec variant_spec(const OpDef& variant, const OpDef& functional,
                                   const samples::OpSampleSpec& functional_spec) {
  samples::OpSampleSpec spec;
  spec.op = variant.name();
  spec.tolerance = functional_spec.tolerance;
  spec.oracle_exemption = functional_spec.oracle_exemption;
  const bool out_variant = variant.kind == OpKind::OutVariant;
  spec.generate = [&functional, &functional_spec, out_variant](DType floating, samples::SampleRng& rng) {
    std::vector<samples::OpSample> samples = functional_spec.generate(floating, rng);
    if (out_variant) {
      for (samples::OpSample& sample : samples) sample.inputs = with_out_tensor(functional, sample);
    }
    return samples;
  };
  return spec;
}

}  // namespace

const std::map<std::string, samples::OpSampleSpec>& all_sample_specs() {
  static const std::map<std::string, samples::OpSampleSpec> specs = [] {
    std::map<std::string, samples::OpSampleSpec> all = samples::OpSampleRegistry::instance().all();
    for (const OpDef* op : OpRegistry::instance().all()) {
      if (op->functional.empty()) continue;
      const OpDef* functional = OpRegistry::instance().find(op->functional);
      const samples::OpSampleSpec* functional_spec = samples::OpSampleRegistry::instance().find(op->functional);
      if (functional == nullptr || functional_spec == nullptr) continue;
      all.emplace(op->name(), variant_spec(*op, *functional, *functional_spec));
    }
    return all;
  }();
  return specs;
}

}  // namespace funcspec::conformance
