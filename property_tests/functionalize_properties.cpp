// The functionalize properties (docs/SPEC.md, FUNC). Generated programs contain no in-place op
// (ProgramOptions excludes them), so each program is first rewritten to mutate, step by step as a
// shrinkable plan says: after a step, write into its result or into an argument of the program,
// directly or through a view of a view (select, slice, transpose, diagonal, unsqueeze, reshape), with
// fill_, zero_, mul_, add_ or neg_; or compute the step itself in place on a clone of its first
// argument (y = op(x, ...) becomes c = clone(x); y = op_(c, ...)). Later steps read what was written,
// and every argument written becomes an output too. A write the reference refuses without
// functionalize is left out; so are writes functionalize must refuse although the program alone
// would not (a target sharing memory with another tensor: an expanded argument, a view).
//   - PROP-FUNC/preserves-outputs-and-mutations: functionalize(f), under an optional vmap, gives the
//     outputs f gives, the arguments' final values included (or raises what f raises). The truth
//     is the backend's own answer for the case without functionalize.
//   - PROP-FUNC/executes-no-mutation (engine only): the functionalized program executes no in-place
//     op but one copy_ per argument written, all at the end, and under 'mutations_and_views' no view
//     op; and the caller's arguments end as f leaves them (which a case cannot observe).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck.h>

#include <set>

#include "conformance/case/evaluate.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/transforms/functionalize.h"
#include "reference/transforms/op_recorder.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::OpCall;

namespace {

constexpr std::string_view kPreserves = "PROP-FUNC/preserves-outputs-and-mutations";
constexpr std::string_view kNoMutation = "PROP-FUNC/executes-no-mutation";

// What to do after one step of the generated program; all zeros: nothing.
struct StepWrite {
  unsigned target = 0;      // 0: none; 1: the step's result; 2: an argument; 3: the step in place on a clone
  unsigned argument = 0;    // which argument (target 2)
  unsigned outer_view = 0;  // the view taken of the target (0: none)
  unsigned inner_view = 0;  // a view of that view (0: none)
  unsigned picks = 0;       // the views' dims and indices
  unsigned write = 0;       // the in-place op
};

// Drawn at full size whatever RapidCheck's current size: its ranges scale with size, and small
// sizes would otherwise give nearly every short program no write at all, each draw then discarded
// (at the smoke tier, where sizes are small for most of a run, the generators gave up). Shrinking
// still goes to zeros.
rc::Gen<StepWrite> gen_step_write() {
  return rc::gen::resize(100, rc::gen::construct<StepWrite>(rc::gen::inRange(0u, 4u), rc::gen::inRange(0u, 8u),
                                                            rc::gen::inRange(0u, 7u), rc::gen::inRange(0u, 7u),
                                                            rc::gen::inRange(0u, 64u), rc::gen::inRange(0u, 5u)));
}

// A mutating program: the rewritten case, and the arguments it writes into.
struct MutatingProgram {
  GeneratedProgram program;
  std::set<std::string> written_arguments;
  std::size_t writes = 0;  // in-place steps added
};

using Env = std::map<std::string, Tensor, std::less<>>;

TensorList run_steps(const std::vector<OpCall>& steps, Env& env) {
  TensorList last;
  for (const OpCall& step : steps) {
    TensorList inputs;
    for (const auto& arg : step.args) inputs.push_back(arg ? env.at(*arg) : Tensor());
    last = call(step.op, inputs, step.attrs);
    if (last.size() != step.outs.size()) throw Error(ErrorKind::Internal, "a step returned another count of results");
    for (std::size_t k = 0; k < last.size(); ++k) env[step.outs[k]] = last[k];
  }
  return last;
}

// The view `choice` of a tensor of shape `shape` (0 or an inapplicable choice: none).
std::optional<OpCall> view_step(unsigned choice, const Tensor& of, unsigned picks, std::string in, std::string out) {
  const std::int64_t rank = of.dim();
  const auto pick_dim = [&](unsigned salt) { return rank == 0 ? 0 : static_cast<std::int64_t>((picks + salt) % rank); };
  OpCall step{{std::move(out)}, "", {std::move(in)}, {}, false};
  switch (choice) {
    case 1: {
      if (rank == 0) return std::nullopt;
      const std::int64_t d = pick_dim(0);
      const std::int64_t size = of.shape()[as_index(d)];
      if (size == 0) return std::nullopt;
      step.op = "select";
      step.attrs = {{"dim", d}, {"index", static_cast<std::int64_t>(picks / 4) % size}};
      return step;
    }
    case 2: {
      if (rank == 0) return std::nullopt;
      step.op = "slice";
      step.attrs = {{"dim", pick_dim(1)}, {"start", static_cast<std::int64_t>(picks % 2)}, {"step", std::int64_t{2}}};
      return step;
    }
    case 3:
      if (rank < 2) return std::nullopt;
      step.op = "transpose";
      step.attrs = {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{-1}}};
      return step;
    case 4:
      if (rank < 2) return std::nullopt;
      step.op = "diagonal";
      step.attrs = {{"offset", static_cast<std::int64_t>(picks % 3) - 1}};
      return step;
    case 5:
      step.op = "unsqueeze";
      step.attrs = {{"dim", static_cast<std::int64_t>(picks % 2) * -1}};
      return step;
    case 6:
      step.op = "reshape";  // a view where the strides allow, else a copy (whose write reaches nothing)
      step.attrs = {{"shape", std::vector<std::int64_t>{-1}}};
      return step;
    default: return std::nullopt;
  }
}

OpCall write_step(unsigned choice, const std::string& target, std::string out) {
  switch (choice % 5) {
    case 0: return {{std::move(out)}, "fill_", {target}, {{"value", Scalar(0.5)}}, false};
    case 1: return {{std::move(out)}, "zero_", {target}, {}, false};
    case 2: return {{std::move(out)}, "mul_", {target, target}, {}, false};
    case 3: return {{std::move(out)}, "add_", {target, target}, {}, false};
    default: return {{std::move(out)}, "neg_", {target}, {}, false};
  }
}

// Whether functionalize writes into `t` as f does: a floating tensor none of whose elements share
// memory, and, unless it is an argument (the base of its own memory), a result no other value of the
// program shares memory with (a view might be one of an expanded tensor, through which
// functionalize refuses to write, FUNC-1.5).
bool writes_as_f(const std::string& name, const Tensor& t, const Env& env, bool argument) {
  if (!t.defined() || !is_floating(t.dtype()) || t.device() != Device::Cpu) return false;
  for (std::size_t d = 0; d < t.shape().size(); ++d) {
    if (t.strides()[d] == 0 && t.shape()[d] > 1) return false;
  }
  if (argument) return true;
  for (const auto& [other, value] : env) {
    if (other != name && value.defined() && value.shares_storage_with(t)) return false;
  }
  return true;
}

// `program` rewritten to mutate as `plan` says (see the top of the file), or nothing when an
// original step raises once earlier writes changed its inputs.
std::optional<MutatingProgram> with_writes(const GeneratedProgram& program, const std::vector<StepWrite>& plan) {
  MutatingProgram out;
  out.program = program;
  Case& c = out.program.program;
  c.program.clear();
  Env env = input_tensors(program.program);
  for (const conformance::CaseInput& in : c.inputs) {
    if (const auto* literal = std::get_if<conformance::LiteralSpec>(&in.value))
      env[in.name] = Tensor::wrapped_scalar(literal->value);
  }
  std::vector<std::string> extra_outputs;
  int fresh = 0;
  const auto fresh_name = [&](const char* prefix) { return fmt::format("{}{}", prefix, fresh++); };
  // Runs `steps` on the reference; keeps them when they run.
  const auto try_steps = [&](const std::vector<OpCall>& steps) {
    Env trial = env;
    try {
      run_steps(steps, trial);
    } catch (const Error&) {
      return false;
    }
    env = std::move(trial);
    c.program.insert(c.program.end(), steps.begin(), steps.end());
    return true;
  };

  for (std::size_t i = 0; i < program.program.program.size(); ++i) {
    const OpCall& step = program.program.program[i];
    const StepWrite write = i < plan.size() ? plan[i] : StepWrite{};
    bool done = false;
    if (write.target == 3 && !step.args.empty() && step.args[0]) {
      const OpDef* in_place = OpRegistry::instance().find(step.op + "_");
      if (in_place != nullptr && in_place->kind == OpKind::InPlace && in_place->functional == step.op &&
          is_floating(env.at(*step.args[0]).dtype())) {
        const std::string clone = fresh_name("c");
        OpCall rewritten = step;
        rewritten.op = step.op + "_";
        rewritten.args[0] = clone;
        done = try_steps({OpCall{{clone}, "clone", {step.args[0]}, {}, false}, rewritten});
        if (done) ++out.writes;
      }
    }
    if (!done && !try_steps({step})) return std::nullopt;

    std::string target;
    if (write.target == 1 && step.outs.size() == 1) target = step.outs[0];
    if (write.target == 2) {
      std::vector<std::string> arguments;
      for (std::size_t k = 0; k < c.inputs.size(); ++k) {
        if (!c.inputs[k].is_literal() && program.origins[k].layout != InputLayout::Expanded)
          arguments.push_back(c.inputs[k].name);
      }
      if (!arguments.empty()) target = arguments[write.argument % arguments.size()];
    }
    if (target.empty() || !writes_as_f(target, env.at(target), env, write.target == 2)) continue;
    std::vector<OpCall> steps;
    std::string through = target;
    for (unsigned choice : {write.outer_view, write.inner_view}) {
      Env peek = env;
      if (!steps.empty()) run_steps(steps, peek);
      const std::string name = fresh_name("w");
      if (std::optional<OpCall> view = view_step(choice, peek.at(through), write.picks, through, name)) {
        steps.push_back(*view);
        through = name;
      }
    }
    const std::string written = fresh_name("m");
    steps.push_back(write_step(write.write, through, written));
    if (!try_steps(steps)) continue;
    ++out.writes;
    extra_outputs.push_back(written);
    // A reshape that had to copy leaves the argument unwritten.
    if (write.target == 2 && env.at(written).shares_storage_with(env.at(target))) out.written_arguments.insert(target);
  }
  for (const std::string& name : out.written_arguments) extra_outputs.push_back(name);
  for (const std::string& name : extra_outputs) {
    if (std::find(c.outputs.begin(), c.outputs.end(), name) == c.outputs.end()) c.outputs.push_back(name);
  }
  return out;
}

MutatingProgram draw_mutating_program(const ProgramOptions& programs) {
  ProgramOptions options = programs;
  options.max_steps = 3;
  const GeneratedProgram program = draw_program(options);
  const std::vector<StepWrite> plan =
      *rc::gen::container<std::vector<StepWrite>>(program.program.program.size(), gen_step_write());
  std::optional<MutatingProgram> mutating = with_writes(program, plan);
  RC_PRE(mutating.has_value());
  RC_PRE(mutating->writes > 0);
  RC_LOG() << "mutating " << mutating->program.describe() << "\n";
  return std::move(*mutating);
}

conformance::FunctionalizeTransform draw_functionalize() {
  conformance::FunctionalizeTransform t;
  t.remove = std::string(transforms::functionalize_remove_name(*rc::gen::element(
      transforms::FunctionalizeRemove::Mutations, transforms::FunctionalizeRemove::MutationsAndViews)));
  RC_LOG() << "functionalize(remove='" << t.remove << "')\n";
  return t;
}

PropertyCheck check_preserves(const PropertyContext& context, const ProgramOptions& programs) {
  const MutatingProgram mutating = draw_mutating_program(programs);
  std::vector<StackLevelPlan> stack = *gen_stack_plan(0, 1, {StackTransform::Vmap});
  // Without chunks: a later chunk's write into an unbatched argument would change what f returned
  // for an earlier chunk when that result is the argument itself, which functionalize(f) returns
  // as a fresh tensor (FUNC-1.3).
  for (StackLevelPlan& level : stack) level.chunk = 0;
  const std::optional<Case> stacked = apply_stack(mutating.program, stack);
  RC_PRE(stacked.has_value());
  Case functionalized = *stacked;
  functionalized.transforms.push_back(draw_functionalize());
  RC_LOG() << "transforms: " << describe_transforms(functionalized) << "\n";

  const Answer truth = ask(context, *stacked);
  if (truth.unsupported) return PropertyCheck::unsupported(*truth.unsupported);
  if (!truth.fault.empty())
    return PropertyCheck::violated(fmt::format("the program without functionalize got no answer: {}", truth.fault),
                                   std::nullopt);
  if (truth.error)
    return judge_law(context, expecting_error(functionalized, *truth.error),
                     "functionalize(f) must raise what f raises");
  return judge_law(context, expecting_values(functionalized, kPreserves, *truth.outputs),
                   "functionalize(f) differs from f in its outputs or in its arguments' final values");
}

std::string recorded_names(const transforms::OpRecorder& recorder) {
  return fmt::format("{}", fmt::join(recorder.names(), ", "));
}

PropertyCheck check_no_mutation(const ProgramOptions& programs) {
  const MutatingProgram mutating = draw_mutating_program(programs);
  const Case& plain = mutating.program.program;
  Case functionalized = plain;
  const conformance::FunctionalizeTransform transform = draw_functionalize();
  functionalized.transforms.push_back(transform);
  const std::string what = fmt::format("functionalize(remove='{}')", transform.remove);

  const Env plain_arguments = input_tensors(plain);
  const Env functionalized_arguments = input_tensors(plain);
  TensorList expected;
  try {
    expected = conformance::run_case_program(plain, plain_arguments);
  } catch (const Error&) {
    RC_DISCARD("the program raises (PROP-FUNC/preserves-outputs-and-mutations checks errors)");
  }
  TensorList got;
  transforms::OpRecorder recorder;
  try {
    got = conformance::run_case_program(functionalized, functionalized_arguments);
  } catch (const Error& e) {
    return PropertyCheck::violated(
        fmt::format("{} raised {} where f returns: {}", what, error_kind_name(e.kind()), e.what()), std::nullopt);
  }
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (data_of(got.at(k)) != data_of(expected[k]))
      return PropertyCheck::violated(fmt::format("{}: output '{}' is {} but f gives {}", what, plain.outputs[k],
                                                 got[k].to_string(), expected[k].to_string()),
                                     std::nullopt);
  }
  for (const auto& [name, argument] : plain_arguments) {
    if (data_of(functionalized_arguments.at(name)) != data_of(argument))
      return PropertyCheck::violated(fmt::format("{}: argument '{}' ends as {} but f leaves it as {}", what, name,
                                                 functionalized_arguments.at(name).to_string(), argument.to_string()),
                                     std::nullopt);
  }
  // In-place ops: a suffix of copy_, one per argument written.
  const std::vector<transforms::RecordedOp>& ops = recorder.ops();
  std::size_t suffix = 0;
  while (suffix < ops.size() && ops[ops.size() - 1 - suffix].name == "copy_") ++suffix;
  const std::size_t in_place = recorder.count(OpKind::InPlace);
  if (in_place != suffix || suffix != mutating.written_arguments.size())
    return PropertyCheck::violated(
        fmt::format("{} executed {} in-place ops where only a final copy_ into each of the {} arguments written ({}) "
                    "may run: {}",
                    what, in_place, mutating.written_arguments.size(), fmt::join(mutating.written_arguments, ", "),
                    recorded_names(recorder)),
        std::nullopt);
  if (transform.remove == "mutations_and_views" && recorder.count(OpKind::View) > 0)
    return PropertyCheck::violated(
        fmt::format("{} executed {} view ops: {}", what, recorder.count(OpKind::View), recorded_names(recorder)),
        std::nullopt);
  return PropertyCheck::holds();
}

}  // namespace

void add_functionalize_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kPreserves),
                 "functionalize of a program that writes into its results and arguments, directly and through views, "
                 "under an optional vmap, gives the outputs and the arguments' final values the program gives, or "
                 "raises what it raises",
                 {"FUNC-1.1", "FUNC-1.2", "FUNC-1.6"},
                 150,
                 "",
                 [programs](PropertyContext& context) { return check_preserves(context, programs); }});
  out.push_back({std::string(kNoMutation),
                 "the functionalized program executes no in-place op but one final copy_ per argument written (no view "
                 "op under 'mutations_and_views'), and leaves the caller's arguments as the program does",
                 {"FUNC-1.2", "FUNC-1.4"},
                 100,
                 "it records the ops the reference executes and reads the caller's tensors after the call, which a "
                 "case cannot observe",
                 [programs](PropertyContext&) { return check_no_mutation(programs); }});
}

}  // namespace funcspec::properties
