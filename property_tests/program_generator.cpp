#include "property_tests/program_generator.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "conformance/case/evaluate.h"
#include "conformance/samples/op_samples.h"
#include "conformance/suite/op_sample_cases.h"
#include "conformance/suite/tensor_to_case.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::CaseInput;
using conformance::OpCall;

namespace {

constexpr unsigned kLayoutCount = 4;

// The ops no generated program calls, each for a semantic reason, never for its size or family
// (property_tests/admitted_ops_test.cpp holds every other op with samples to being drawn, under the
// vmap laws' and the gradient laws' options both): a random op's examples cannot be compared with
// a loop of independent draws (the PROP-RANDOM laws own them); an in-place variant raises or writes
// through its target depending on which argument is batched, what the PROP-INPLACE and PROP-FUNC
// laws state; vmap refuses an out= variant, an op of value-dependent shape and a scalar extraction
// outright (VMAP-3.2 to 3.4), and a custom function has no samples of its own.
bool always_excluded(const OpDef& op) {
  switch (op.kind) {
    case OpKind::Primitive:
    case OpKind::Composite:
    case OpKind::View: return op.random;
    default: return true;
  }
}

std::vector<samples::OpSample> samples_of(const std::string& op, DType floating, std::uint64_t seed, int draw) {
  const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op);
  if (spec == nullptr) return {};
  conformance::SampleDraw drawn = conformance::draw_samples(*spec, floating, seed, draw);
  std::vector<samples::OpSample> out;
  for (conformance::SampleCall& call : drawn.calls) out.push_back(std::move(call.sample));
  return out;
}

bool is_fresh_tensor(const Tensor& t) { return t.defined() && !t.is_wrapped_number(); }

// The slots of every sample of every admitted op, by shape and dtype, so that a step can find an op
// that takes an earlier result. Shapes do not depend on the sample seed, so one index serves all.
struct SlotRef {
  std::size_t op = 0;
  std::size_t sample = 0;
  std::size_t slot = 0;
};
using ShapeIndex = std::map<std::pair<Shape, DType>, std::vector<SlotRef>>;

const ShapeIndex& shape_index(const std::vector<const OpDef*>& ops, DType floating) {
  static std::mutex mutex;
  static std::map<std::pair<std::vector<std::string>, DType>, ShapeIndex> cache;
  std::vector<std::string> names;
  for (const OpDef* op : ops) names.push_back(op->name());
  const std::lock_guard lock(mutex);
  auto key = std::make_pair(names, floating);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  ShapeIndex index;
  for (std::size_t o = 0; o < ops.size(); ++o) {
    const std::vector<samples::OpSample> samples = samples_of(ops[o]->name(), floating, 1, 0);
    for (std::size_t s = 0; s < samples.size(); ++s) {
      for (std::size_t k = 0; k < samples[s].inputs.size(); ++k) {
        const Tensor& t = samples[s].inputs[k];
        if (is_fresh_tensor(t) && is_floating(t.dtype())) index[{t.shape(), t.dtype()}].push_back({o, s, k});
      }
    }
  }
  return cache.emplace(std::move(key), std::move(index)).first->second;
}

// `values` laid out as `layout` says (values stay those of `values`, except Expanded's).
Tensor laid_out(const Tensor& values, InputLayout layout) {
  const Tensor plain = ops::contiguous(values);
  switch (layout) {
    case InputLayout::AsSampled: return values;
    case InputLayout::Transposed:
      if (plain.dim() < 2) return values;
      return ops::transpose(ops::contiguous(ops::transpose(plain, -1, -2)), -1, -2);
    case InputLayout::SlicedWithStep: {
      if (plain.dim() < 1) return values;
      Shape wide = plain.shape();
      wide[0] = wide[0] * 2 + 1;
      const Tensor buffer = ops::zeros(std::vector<std::int64_t>(wide.begin(), wide.end()), plain.dtype());
      Tensor view = ops::slice(buffer, 0, 1, std::nullopt, 2);
      call("copy_", {view, plain});
      return view;
    }
    case InputLayout::Expanded: {
      for (std::int64_t d = 0; d < plain.dim(); ++d) {
        if (plain.shape()[static_cast<std::size_t>(d)] > 1) {
          const Tensor one = ops::slice(plain, d, 0, 1);
          return ops::expand(one, std::vector<std::int64_t>(plain.shape().begin(), plain.shape().end()));
        }
      }
      return values;
    }
  }
  return values;
}

}  // namespace

std::string_view input_layout_name(InputLayout layout) {
  switch (layout) {
    case InputLayout::AsSampled: return "as sampled";
    case InputLayout::Transposed: return "transposed";
    case InputLayout::SlicedWithStep: return "sliced with step 2";
    case InputLayout::Expanded: return "expanded";
  }
  return "?";
}

std::vector<const OpDef*> admitted_ops(const ProgramOptions& options) {
  std::vector<const OpDef*> out;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (always_excluded(*op) || samples::OpSampleRegistry::instance().find(op->name()) == nullptr) continue;
    if (options.admits && !options.admits(*op)) continue;
    out.push_back(op);
  }
  return out;
}

rc::Gen<ProgramPlan> gen_program_plan(const ProgramOptions& options) {
  const int max_steps = std::max(1, options.max_steps);
  const auto dtypes = static_cast<unsigned>(std::max<std::size_t>(1, options.floating_dtypes.size()));
  auto step =
      rc::gen::construct<PlanStep>(rc::gen::inRange(0u, 1u << 16), rc::gen::inRange(0u, 64u), rc::gen::inRange(0u, 8u),
                                   rc::gen::container<std::vector<unsigned>>(4, rc::gen::inRange(0u, kLayoutCount)));
  return rc::gen::construct<ProgramPlan>(rc::gen::inRange(0u, dtypes), rc::gen::arbitrary<std::uint32_t>(),
                                         rc::gen::mapcat(rc::gen::inRange(1, max_steps + 1), [step](int n) {
                                           return rc::gen::container<std::vector<PlanStep>>(static_cast<std::size_t>(n),
                                                                                            step);
                                         }));
}

std::optional<GeneratedProgram> build_program(const ProgramPlan& plan, const ProgramOptions& options) {
  const std::vector<const OpDef*> ops = admitted_ops(options);
  if (ops.empty() || plan.steps.empty()) return std::nullopt;
  GeneratedProgram out;
  out.floating = options.floating_dtypes.empty() ? DType::Float64
                                                 : options.floating_dtypes[plan.dtype % options.floating_dtypes.size()];
  out.sample_seed = plan.sample_seed;
  Case& c = out.program;
  c.id = "generated";

  std::optional<std::size_t> required;
  if (!options.required_op.empty()) {
    for (std::size_t o = 0; o < ops.size(); ++o) {
      if (ops[o]->name() == options.required_op) required = o;
    }
    if (!required) return std::nullopt;
  }

  struct Value {
    std::string name;
    Tensor tensor;
    bool consumed = false;
  };
  std::vector<Value> values;
  std::map<std::string, Tensor, std::less<>> env;
  std::map<std::string, std::vector<samples::OpSample>> sample_cache;
  auto samples_for = [&](const std::string& op) -> const std::vector<samples::OpSample>& {
    auto it = sample_cache.find(op);
    if (it == sample_cache.end()) it = sample_cache.emplace(op, samples_of(op, out.floating, out.sample_seed, 0)).first;
    return it->second;
  };
  const ShapeIndex& index = shape_index(ops, out.floating);
  bool used_required = false;

  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& choice = plan.steps[i];
    const bool last = i + 1 == plan.steps.size();
    std::size_t op_index = choice.op % ops.size();
    if (required && last && !used_required) op_index = *required;
    // The sample's slot an earlier result feeds, and that result (kNone: fresh inputs only). Plain
    // sizes rather than optionals: GCC 12 sees the optionals as maybe-uninitialized.
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t bound_slot = kNone;
    std::size_t sample_index = 0;
    std::size_t fed = kNone;
    if (choice.chain > 0 && !values.empty()) {
      const std::size_t v = values.size() - 1 - (choice.chain - 1) % values.size();
      auto it = index.find({values[v].tensor.shape(), values[v].tensor.dtype()});
      if (it != index.end()) {
        std::vector<SlotRef> fits;
        for (const SlotRef& ref : it->second) {
          if (!(required && last && !used_required) || ref.op == op_index) fits.push_back(ref);
        }
        if (!fits.empty()) {
          const SlotRef& ref = fits[(choice.op + choice.sample) % fits.size()];
          op_index = ref.op;
          sample_index = ref.sample;
          bound_slot = ref.slot;
          fed = v;
        }
      }
    }
    const OpDef& op = *ops[op_index];
    const std::vector<samples::OpSample>& samples = samples_for(op.name());
    if (samples.empty()) return std::nullopt;
    if (bound_slot == kNone) sample_index = choice.sample % samples.size();
    if (sample_index >= samples.size()) return std::nullopt;
    const samples::OpSample& sample = samples[sample_index];
    if (bound_slot != kNone) {
      const Tensor& slot = sample.inputs[bound_slot];
      if (!is_fresh_tensor(slot) || slot.shape() != values[fed].tensor.shape() ||
          slot.dtype() != values[fed].tensor.dtype())
        bound_slot = kNone;  // this seed's sample differs from the index's: feed nothing
    }

    OpCall step;
    step.op = op.name();
    step.attrs = sample.attrs;
    TensorList args;
    std::size_t fresh = 0;
    for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
      const Tensor& t = sample.inputs[k];
      if (!t.defined()) {
        step.args.push_back(std::nullopt);
        args.emplace_back();
        continue;
      }
      if (k == bound_slot) {
        step.args.push_back(values[fed].name);
        values[fed].consumed = true;
        args.push_back(values[fed].tensor);
        continue;
      }
      const std::string name = fmt::format("x{}", c.inputs.size());
      InputLayout layout = InputLayout::AsSampled;
      if (options.strided_inputs && is_fresh_tensor(t) && !choice.layouts.empty())
        layout = static_cast<InputLayout>(choice.layouts[fresh++ % choice.layouts.size()] % kLayoutCount);
      const Tensor value = is_fresh_tensor(t) ? laid_out(t, layout) : t;
      c.inputs.push_back(conformance::case_input_of(name, value));
      out.origins.push_back({op.name(), sample_index, k, layout});
      step.args.push_back(name);
      args.push_back(value);
    }
    TensorList results;
    try {
      results = call(op, args, step.attrs);
    } catch (const Error&) {
      return std::nullopt;  // this sample raises once fed (a domain the fed value leaves)
    }
    // NOTE: [derivative conventions in generated programs]
    // A few ops have a derivative that PyTorch defines by convention where the function's own is
    // something else (the spec follows PyTorch: SPEC OPS-8.2, OPS-9.3, ERR-2.8). Their samples
    // check that convention through case files and readouts; a law that compares a derivative
    // with finite differences, or a Hessian with its transpose, would report it as a bug. The op
    // says for which calls (inputs fed by earlier steps included), and those calls are not drawn.
    if (options.derivatives_compared) {
      const samples::OpSampleSpec* spec = samples::OpSampleRegistry::instance().find(op.name());
      if (spec != nullptr && spec->derivative_convention &&
          !spec->derivative_convention(args, step.attrs, results).empty())
        return std::nullopt;
    }
    for (std::size_t k = 0; k < results.size(); ++k) {
      const std::string name = fmt::format("v{}", values.size());
      step.outs.push_back(name);
      values.push_back({name, results[k]});
    }
    used_required = used_required || (required && op_index == *required);
    c.program.push_back(std::move(step));
  }
  if (required && !used_required) return std::nullopt;
  std::int64_t input_elements = 0;
  for (const CaseInput& in : c.inputs) {
    if (!in.is_literal()) input_elements += std::get<conformance::TensorSpec>(in.value).data.numel();
  }
  if (input_elements > options.max_input_elements) return std::nullopt;

  // Outputs: the results nothing consumed, last first, at most max_outputs.
  std::vector<std::size_t> outputs;
  for (std::size_t v = values.size(); v-- > 0 && outputs.size() < static_cast<std::size_t>(options.max_outputs);) {
    if (values[v].consumed) continue;
    if (options.floating_outputs_only && !is_floating(values[v].tensor.dtype())) continue;
    outputs.push_back(v);
  }
  if (options.scalar_first_output) {
    auto floating_at = std::find_if(outputs.begin(), outputs.end(),
                                    [&](std::size_t v) { return is_floating(values[v].tensor.dtype()); });
    if (floating_at == outputs.end()) return std::nullopt;
    std::rotate(outputs.begin(), floating_at, floating_at + 1);
    Value& first = values[outputs.front()];
    if (first.tensor.dim() != 0) {
      const std::string name = fmt::format("v{}", values.size());
      c.program.push_back(OpCall{{name}, "sum", {first.name}, {}});
      values.push_back({name, ops::sum(first.tensor)});
      outputs.front() = values.size() - 1;
    }
  }
  if (outputs.empty()) return std::nullopt;
  for (std::size_t v : outputs) c.outputs.push_back(values[v].name);
  return out;
}

namespace {

std::vector<std::string>& ops_drawn_on_this_thread() {
  thread_local std::vector<std::string> ops;
  return ops;
}

}  // namespace

void clear_drawn_ops() { ops_drawn_on_this_thread().clear(); }

const std::vector<std::string>& drawn_ops() { return ops_drawn_on_this_thread(); }

GeneratedProgram draw_program(const ProgramOptions& options) {
  const ProgramPlan plan = *gen_program_plan(options);
  std::optional<GeneratedProgram> program = build_program(plan, options);
  RC_PRE(program.has_value());
  RC_LOG() << program->describe() << "\n";
  std::vector<std::string>& ops = ops_drawn_on_this_thread();
  for (const OpCall& step : program->program.program) ops.push_back(step.op);
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  return std::move(*program);
}

std::vector<CaseInput> draw_inputs(const GeneratedProgram& program, int draw) {
  if (draw == 0) return program.program.inputs;
  std::map<std::string, std::vector<samples::OpSample>> cache;
  std::vector<CaseInput> out = program.program.inputs;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].is_literal()) continue;
    const InputOrigin& origin = program.origins[i];
    auto it = cache.find(origin.op);
    if (it == cache.end())
      it = cache.emplace(origin.op, samples_of(origin.op, program.floating, program.sample_seed, draw)).first;
    if (origin.sample >= it->second.size()) continue;
    const Tensor& t = it->second[origin.sample].inputs[origin.slot];
    const auto& spec = std::get<conformance::TensorSpec>(out[i].value);
    if (!is_fresh_tensor(t) || t.shape() != spec.data.shape || t.dtype() != spec.data.dtype) continue;
    out[i] = conformance::case_input_of(out[i].name, laid_out(t, origin.layout));
  }
  return out;
}

std::string GeneratedProgram::describe() const {
  std::string text = fmt::format("program ({}, sample seed {}):\n", dtype_name(floating), sample_seed);
  for (std::size_t i = 0; i < program.inputs.size(); ++i) {
    const CaseInput& in = program.inputs[i];
    if (const auto* literal = std::get_if<conformance::LiteralSpec>(&in.value)) {
      text += fmt::format("  {} = literal {}\n", in.name, literal->value.to_string());
      continue;
    }
    const auto& spec = std::get<conformance::TensorSpec>(in.value);
    text += fmt::format("  {}: {}{} {}\n", in.name, dtype_name(spec.data.dtype), shape_to_string(spec.data.shape),
                        input_layout_name(origins[i].layout));
  }
  for (const OpCall& step : program.program) {
    std::vector<std::string> args;
    for (const auto& a : step.args) args.push_back(a ? *a : "None");
    text += fmt::format("  {} = {}({}){}\n", fmt::join(step.outs, ", "), step.op, fmt::join(args, ", "),
                        step.attrs.values().empty() ? "" : " " + step.attrs.to_string());
  }
  text += fmt::format("  outputs: {}\n", fmt::join(program.outputs, ", "));
  return text;
}

}  // namespace funcspec::properties
