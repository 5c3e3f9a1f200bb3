// vmap equals the loop (NOTE: [vmap semantics], NOTE: [loop-and-stack oracle]) on generated programs
// under generated transform stacks, and the engine-only verdict that the reference batched them all with native rules.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>

#include "conformance/oracles/loop_and_stack.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"
#include "property_tests/vmap_loop.h"
#include "reference/transforms/fallback_log.h"

namespace funcspec::properties {

using conformance::Case;

namespace {

constexpr std::string_view kEqualsLoop = "PROP-VMAP/equals-loop";

}  // namespace

std::vector<std::optional<std::int64_t>> in_dims_per_input(const Case& c, const conformance::DimSpec& in_dims) {
  switch (in_dims.form) {
    case conformance::DimSpec::Form::ByPosition: return in_dims.by_position;
    case conformance::DimSpec::Form::All: return std::vector<std::optional<std::int64_t>>(c.inputs.size(), in_dims.all);
    case conformance::DimSpec::Form::ByName: break;
  }
  std::vector<std::optional<std::int64_t>> dims(c.inputs.size());
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    for (const auto& [name, dim] : in_dims.by_name) {
      if (name == c.inputs[i].name) dims[i] = dim;
    }
  }
  return dims;
}

std::optional<Case> draw_vmapped_case(const ProgramOptions& options, std::vector<StackTransform> inner_allowed,
                                      int inner_max_depth, std::vector<StackLevelPlan> forced_inner) {
  const GeneratedProgram program = draw_program(options);
  std::vector<StackLevelPlan> stack = *gen_stack_plan(1, 1, {StackTransform::Vmap});
  for (StackLevelPlan& level : forced_inner) {
    level.seed = *rc::gen::arbitrary<std::uint32_t>();
    stack.push_back(level);
  }
  if (inner_max_depth > 0) {
    for (const StackLevelPlan& level : *gen_stack_plan(0, inner_max_depth, std::move(inner_allowed)))
      stack.push_back(level);
  }
  std::optional<Case> c = apply_stack(program, stack);
  RC_PRE(c.has_value());
  RC_LOG() << "transforms: " << describe_transforms(*c) << "\n";
  return c;
}

namespace {

// The law on `c` with the loop's examples answered by `answer_example`.
PropertyCheck judge_vmap_against_loop(const PropertyContext& context, const Case& c,
                                      const std::function<Answer(const Case&)>& answer_example) {
  const auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
  Case inner = c;
  inner.transforms.erase(inner.transforms.begin());
  const std::vector<std::optional<std::int64_t>> in_dims = in_dims_per_input(c, vmap.in_dims);

  // The batch size: the mapped dim of any mapped input (the stack built them all alike).
  std::int64_t batch = -1;
  std::vector<std::optional<std::int64_t>> dims(in_dims.size());
  for (std::size_t i = 0; i < in_dims.size() && i < c.inputs.size(); ++i) {
    if (!in_dims[i] || c.inputs[i].is_literal()) continue;
    const Shape& shape = std::get<conformance::TensorSpec>(c.inputs[i].value).data.shape;
    const std::int64_t rank = static_cast<std::int64_t>(shape.size());
    dims[i] = *in_dims[i] < 0 ? *in_dims[i] + rank : *in_dims[i];
    batch = shape[static_cast<std::size_t>(*dims[i])];
  }
  if (batch < 0) return PropertyCheck::unsupported("no input is mapped");

  std::vector<std::string> names;  // the results' names
  const auto example_results = [&](std::int64_t b) {
    Case example = inner;
    example.inputs = slice_inputs(c.inputs, dims, b);
    return example_outputs(answer_example(example), b, names);
  };
  // An empty batch's results take their shapes from the reference on meta.
  const auto example_shapes = [&] {
    Case meta = inner;
    meta.device = Device::Meta;
    for (std::size_t i = 0; i < meta.inputs.size(); ++i) {
      if (meta.inputs[i].is_literal()) continue;
      auto& spec = std::get<conformance::TensorSpec>(meta.inputs[i].value);
      if (dims[i]) spec.data.shape.erase(spec.data.shape.begin() + *dims[i]);
      spec.data.bytes.clear();
      spec.values_omitted = true;
      spec.layout = {};
    }
    const conformance::ProgramResult on_meta = conformance::run_on_reference(meta);
    if (!on_meta.broken.empty() || on_meta.unsupported || on_meta.error)
      throw LoopGaveUp{
          PropertyCheck::unsupported("the results of an empty batch have no shape the reference can infer")};
    TensorList like;
    for (const auto& [name, data] : on_meta.outputs) {
      names.push_back(name);
      like.push_back(Tensor::empty(data.shape, data.dtype, Device::Meta));
    }
    return like;
  };
  oracles::LoopAndStack loop;
  try {
    loop = oracles::loop_and_stack({{batch, vmap.out_dims.all.value_or(0)}}, example_results, example_shapes);
  } catch (const LoopGaveUp& gave_up) {
    return gave_up.verdict;
  }
  if (loop.error) return judge_law(context, expecting_error(c, loop.error->kind()), "the loop raised but vmap did not");
  return judge_law(context, expecting_loop_results(c, names, loop.results),
                   "vmap differs from the loop of its examples");
}

}  // namespace

PropertyCheck check_vmap_equals_loop(const PropertyContext& context, const Case& c) {
  const PropertyCheck law =
      judge_vmap_against_loop(context, c, [&](const Case& example) { return ask(context, example); });
  if (law.outcome != PropertyCheck::Outcome::Violated || context.backend_is_reference) return law;
  // The law compares the backend with itself, but its counterexample must state the truth (NOTE:
  // [property tests]): where the backend's examples are wrong as well (a transform inside them that
  // runs the broken rule too, as jacfwd runs vmap), the case expects the reference's loop instead,
  // so that it replays wrong on the backend and right on the reference.
  const PropertyCheck against_reference = judge_vmap_against_loop(
      context, c, [](const Case& example) { return answer_of(conformance::run_on_reference(example)); });
  return against_reference.outcome == PropertyCheck::Outcome::Violated ? against_reference : law;
}

void add_vmap_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kEqualsLoop),
                 "vmap of a program under any transform stack equals the loop over its examples, stacked at out_dims",
                 {"VMAP-1.1", "VMAP-1.2", "VMAP-1.3", "VMAP-1.4", "VMAP-1.5", "VMAP-1.6", "AD-4.1"},
                 400,
                 "",
                 [programs](PropertyContext& context) {
                   ProgramOptions options = programs;
                   options.max_steps = 3;
                   const std::optional<Case> c = draw_vmapped_case(
                       options, {std::begin(kAllStackTransforms), std::end(kAllStackTransforms)}, 2, {});
                   return check_vmap_equals_loop(context, *c);
                 }});
  out.push_back(
      {"PROP-VMAP/native-batching-rules",
       "the reference batches every generated program with native batching rules, never the for-loop fallback",
       {"VMAP-1.1"},
       60,
       "it reads the reference's count of for-loop fallbacks",
       [programs](PropertyContext&) {
         ProgramOptions options = programs;
         options.max_steps = 3;
         const std::optional<Case> c = draw_vmapped_case(options, {StackTransform::Vmap}, 1, {});
         transforms::VmapFallbackLog log;
         conformance::run_on_reference(*c);  // only the fallback log matters
         if (log.counts().empty()) return PropertyCheck::holds();
         std::vector<std::string> ops;
         for (const auto& [op, count] : log.counts()) ops.push_back(fmt::format("{} ({} calls)", op, count));
         return PropertyCheck::violated(fmt::format("no native batching rule for {}", fmt::join(ops, ", ")),
                                        std::nullopt);
       }});
}

}  // namespace funcspec::properties
