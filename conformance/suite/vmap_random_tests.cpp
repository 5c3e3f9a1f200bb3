// VMAP-RANDOM/<op>/<same|different>/<n>-<label>/<mapped|unmapped>: the randomness identities of
// NOTE: [vmap randomness], for every sample of every random op, against the unbatched op drawn with
// the same seed.
#include <fmt/format.h>

#include "conformance/case/case_tensors.h"
#include "conformance/samples/sample_checks.h"
#include "conformance/suite/conformance_test.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"

namespace funcspec::conformance {
namespace {

constexpr std::int64_t kBatch = 3;

// Random ops whose tensor inputs set the distribution (not only the draw's shape).
bool sets_distribution(const std::string& op) { return op == "bernoulli" || op == "normal" || op == "multinomial"; }

// Random ops drawing one value per element of their (broadcast) inputs.
bool elementwise(const std::string& op) { return op != "multinomial"; }

Tensor repeated(const Tensor& t, std::int64_t times) {
  const Tensor one = call_one("unsqueeze", {t}, {{"dim", std::int64_t{0}}});
  Shape size = one.shape();
  size[0] = times;
  return call_one("contiguous",
                  {call_one("expand", {one}, {{"size", std::vector<std::int64_t>(size.begin(), size.end())}})});
}

// The op drawn once under `seed` (throws what the op throws).
TensorList draw(const OpDef& op, const TensorList& inputs, const Attrs& attrs, std::uint64_t seed) {
  random::GeneratorScope scope(seed);
  return call(op, samples::clone_inputs(inputs), attrs);
}

Case vmap_random_case(const OpDef& op, const std::vector<samples::OpSample>& examples, bool same, bool mapped,
                      const std::string& id, Tier tier, std::uint64_t seed) {
  const samples::OpSample& first = examples.front();
  Case c;
  c.id = id;
  c.clauses = {same ? "VMAP-2.2" : "VMAP-2.3"};
  c.tier = tier;
  c.seed = seed;
  c.description = fmt::format("vmap(randomness='{}') of {} [{}], {}: {}", same ? "same" : "different", op.name(),
                              first.label, mapped ? "its tensor inputs mapped" : "nothing of it mapped",
                              same ? "every example equals the unbatched draw with the same seed"
                                   : "equals the unbatched draw over [B, *shape] with the same seed");
  OpCall step{{}, op.name(), {}, first.attrs};
  DimSpec in_dims;
  in_dims.form = DimSpec::Form::ByName;
  TensorList stacked_inputs;
  bool any_mapped = false;
  // The identity for 'different' is the unbatched call over [B, *shape], shape being an example's
  // result shape: elementwise inputs are broadcast to it before they are stacked.
  std::optional<Shape> example_shape;
  if (elementwise(op.name()) && !op.schema.tensor_args().empty()) {
    try {
      example_shape = draw(op, first.inputs, first.attrs, seed).at(0).shape();
    } catch (const Error&) {
    }
  }
  auto as_example = [&](const Tensor& t) {
    if (!example_shape || t.is_wrapped_number()) return t;
    return call_one("expand", {t}, {{"size", std::vector<std::int64_t>(example_shape->begin(), example_shape->end())}});
  };
  for (std::size_t i = 0; i < first.inputs.size(); ++i) {
    const Tensor& input = first.inputs[i];
    const std::string name = fmt::format("x{}", i);
    if (!input.defined()) {
      step.args.push_back(std::nullopt);
      stacked_inputs.push_back(input);
      continue;
    }
    step.args.push_back(name);
    const bool map_this = mapped && !input.is_wrapped_number();
    TensorList parts;
    for (const samples::OpSample& e : examples) parts.push_back(e.inputs[i]);
    TensorList example_parts;
    for (const Tensor& p : parts) example_parts.push_back(as_example(p));
    const Tensor stacked = input.is_wrapped_number() ? input : call_one("stack", parts, {{"dim", std::int64_t{0}}});
    const Tensor stacked_examples =
        input.is_wrapped_number() ? input : call_one("stack", example_parts, {{"dim", std::int64_t{0}}});
    stacked_inputs.push_back(input.is_wrapped_number() ? input
                             : map_this                ? stacked_examples
                                                       : repeated(as_example(input), kBatch));
    c.inputs.push_back(case_input_of(name, map_this ? stacked : input));
    in_dims.by_name.emplace_back(name, map_this ? std::optional<std::int64_t>(0) : std::nullopt);
    any_mapped = any_mapped || map_this;
  }
  if (!any_mapped) {
    // Something must be mapped for vmap to have a batch: an input the program does not use.
    c.inputs.push_back(case_input_of("batch", Tensor::empty({kBatch}, DType::Float64)));
    in_dims.by_name.emplace_back("batch", 0);
  }
  step.outs = {"r0"};
  c.program.push_back(step);
  c.outputs = {"r0"};
  VmapTransform vmap;
  vmap.in_dims = in_dims;
  vmap.randomness = same ? Randomness::Same : Randomness::Different;
  c.transforms.push_back(vmap);

  if (same && any_mapped && sets_distribution(op.name())) {
    c.expect.error = ErrorKind::VmapRandomness;
    return c;
  }
  TensorList expected;
  try {
    if (same) {
      expected = {repeated(draw(op, first.inputs, first.attrs, seed).at(0), kBatch)};
    } else if (op.schema.tensor_args().empty()) {
      Attrs batched = first.attrs;
      std::vector<std::int64_t> size{kBatch};
      for (std::int64_t s : first.attrs.get_int_list("size")) size.push_back(s);
      batched.set("size", size);
      expected = draw(op, {}, batched, seed);
    } else {
      expected = draw(op, stacked_inputs, first.attrs, seed);
    }
  } catch (const Error& e) {
    c.expect.error = e.kind();
    return c;
  }
  c.expect.values.push_back(
      ExpectedValue{"r0", TensorSpec{tensor_data_of(expected.at(0)), "", false, {}, false}, std::nullopt});
  return c;
}

}  // namespace

void add_vmap_random_tests(const SuiteOptions& options, ConformanceTests& tests) {
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->kind != OpKind::Random) continue;
    const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op->name());
    if (spec == nullptr) continue;
    std::vector<std::vector<samples::OpSample>> draws;
    for (std::int64_t d = 0; d < kBatch; ++d) {
      std::vector<samples::OpSample> samples;
      for (SampleCall& call : draw_samples(*spec, DType::Float64, options.seed, static_cast<int>(d) + 1).calls)
        samples.push_back(std::move(call.sample));
      draws.push_back(std::move(samples));
    }
    for (std::size_t index = 0; index < draws[0].size(); ++index) {
      std::vector<samples::OpSample> examples;
      for (const auto& d : draws) {
        if (d.size() > index) examples.push_back(d[index]);
      }
      if (examples.size() != static_cast<std::size_t>(kBatch)) continue;
      for (bool same : {true, false}) {
        for (bool mapped : {false, true}) {
          const std::string id = fmt::format("VMAP-RANDOM/{}/{}/{}-{}/{}", op->name(), same ? "same" : "different",
                                             index, id_slug(examples[0].label), mapped ? "mapped" : "unmapped");
          const Tier tier = index == 0 && !mapped ? Tier::Smoke : index < 2 ? Tier::Pr : Tier::Nightly;
          tests.push_back({id,
                           {same ? "VMAP-2.2" : "VMAP-2.3"},
                           tier,
                           "op sample database",
                           [op, examples, same, mapped, id, tier, seed = options.seed]() {
                             return vmap_random_case(*op, examples, same, mapped, id, tier, seed);
                           }});
        }
      }
    }
  }
}

}  // namespace funcspec::conformance
