// A transformed program raises an error kind exactly when the reference raises one (ERR-1.2): a
// generated program under a generated transform stack, with one misuse of the transforms' arguments
// or none, judged against what the reference does with the very same case. The truth is the
// reference's answer: its error kind, which the backend must raise exactly, or no error, in which
// case the backend must not raise (its values are other properties' business; a counterexample
// then expects the reference's values, so that replaying it fails on the raise).
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/case_inputs.h"
#include "property_tests/law_checks.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"
#include "reference/api/ops.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::CaseInput;

namespace {

constexpr std::string_view kErrorsMatchReference = "PROP-ERR/errors-match-reference";

// What a caller can get wrong about a transform, each the misuse of an error kind of the VMAP and AD
// areas. argnums out of range or repeated cannot be among them: the case reader refuses such a case
// before any backend sees it (AD-1.2), so the argnums misuse a case can carry is a derivative with
// respect to an integer input.
enum class Misuse {
  None,
  VmapInDimAtAnEnd,              // just past an end of the range: vmap_invalid_dims (VMAP-1.2); at an end: none
  VmapOutDimAtAnEnd,             // just past an end of the range: vmap_invalid_dims (VMAP-1.3); at an end: none
  VmapBatchSizeMismatch,         // vmap_batch_size_mismatch (VMAP-1.2)
  GradOfNonScalar,               // ad_non_scalar_output (AD-7.1)
  DerivativeOfIntegerInput,      // ad_non_differentiable_input (AD-7.2)
  TangentWrongShape,             // ad_tangent_mismatch (AD-7.3)
  TangentWrongDtype,             // ad_tangent_mismatch
  CotangentWrongShape,           // ad_tangent_mismatch
  CotangentWrongDtype,           // ad_tangent_mismatch
  RandomOpUnderRandomnessError,  // vmap_randomness (VMAP-2.1)
};

std::vector<std::size_t> levels_holding(const Case& c, auto&& predicate) {
  std::vector<std::size_t> out;
  for (std::size_t level = 0; level < c.transforms.size(); ++level) {
    if (predicate(c.transforms[level])) out.push_back(level);
  }
  return out;
}

template <typename T>
bool is(const conformance::Transform& t) {
  return std::holds_alternative<T>(t);
}

std::vector<std::size_t> floating_positions(const Case& c) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    if (is_tensor_input(c.inputs[i]) && is_floating(spec_of(c.inputs[i]).data.dtype)) out.push_back(i);
  }
  return out;
}

// The levels whose results' names nothing above them keys on (a vjp keys its cotangents by the
// names of the results it wraps): where a misuse may change what a level returns.
bool no_vjp_above(const Case& c, std::size_t level) {
  for (std::size_t above = 0; above < level; ++above) {
    if (is<conformance::VjpTransform>(c.transforms[above])) return false;
  }
  return true;
}

// The rank input `i` has at `level`: its case rank less the batch dims the vmaps above it map away.
std::int64_t rank_at(const Case& c, std::size_t i, std::size_t level) {
  auto rank = static_cast<std::int64_t>(spec_of(c.inputs[i]).data.shape.size());
  for (std::size_t above = 0; above < level; ++above) {
    const auto* vmap = std::get_if<conformance::VmapTransform>(&c.transforms[above]);
    if (vmap != nullptr && i < vmap->in_dims.by_position.size() && vmap->in_dims.by_position[i]) --rank;
  }
  return rank;
}

// The outermost vmap's mapped tensor inputs and the batch size, when it is the outermost transform.
struct OuterBatch {
  std::vector<std::size_t> mapped;
  std::int64_t size = 0;
};
std::optional<OuterBatch> outer_batch(const Case& c) {
  if (c.transforms.empty() || !is<conformance::VmapTransform>(c.transforms.front())) return std::nullopt;
  const auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
  OuterBatch out;
  for (std::size_t i = 0; i < c.inputs.size() && i < vmap.in_dims.by_position.size(); ++i) {
    if (!is_tensor_input(c.inputs[i]) || !vmap.in_dims.by_position[i]) continue;
    const Shape& shape = spec_of(c.inputs[i]).data.shape;
    const std::int64_t dim = *vmap.in_dims.by_position[i];
    out.size = shape[static_cast<std::size_t>(dim < 0 ? dim + static_cast<std::int64_t>(shape.size()) : dim)];
    out.mapped.push_back(i);
  }
  return out;
}

const std::vector<Misuse> kMisuses{Misuse::None,
                                   Misuse::VmapInDimAtAnEnd,
                                   Misuse::VmapOutDimAtAnEnd,
                                   Misuse::VmapBatchSizeMismatch,
                                   Misuse::GradOfNonScalar,
                                   Misuse::DerivativeOfIntegerInput,
                                   Misuse::TangentWrongShape,
                                   Misuse::TangentWrongDtype,
                                   Misuse::CotangentWrongShape,
                                   Misuse::CotangentWrongDtype,
                                   Misuse::RandomOpUnderRandomnessError};

bool is_vmap_misuse(Misuse misuse) {
  return misuse == Misuse::VmapInDimAtAnEnd || misuse == Misuse::VmapOutDimAtAnEnd ||
         misuse == Misuse::VmapBatchSizeMismatch;
}
bool is_tangent_misuse(Misuse misuse) {
  return misuse == Misuse::TangentWrongShape || misuse == Misuse::TangentWrongDtype;
}
bool is_cotangent_misuse(Misuse misuse) {
  return misuse == Misuse::CotangentWrongShape || misuse == Misuse::CotangentWrongDtype;
}

// One to three levels with what `misuse` works on: a vmap outermost (mapping every input, for a
// batch size to disagree), a vmap or jacfwd for a random op, a jvp or linearize level for a
// tangent, a vjp level for a cotangent. So every misuse gets its share of programs, rather than
// the share of stacks that happen to fit it.
std::vector<StackLevelPlan> draw_stack_for(Misuse misuse) {
  auto level = [](StackTransform transform) { return (*gen_stack_plan(1, 1, {transform})).front(); };
  std::vector<StackLevelPlan> stack = *gen_stack_plan(0, 1);
  if (is_vmap_misuse(misuse)) {
    StackLevelPlan vmap = level(StackTransform::Vmap);
    if (misuse == Misuse::VmapBatchSizeMismatch) vmap.in_dims &= 0x55555555u;  // each input at dim 0 or -1
    stack.insert(stack.begin(), vmap);
  } else if (misuse == Misuse::RandomOpUnderRandomnessError) {
    // Somewhere under a vmap or a jacfwd, whose randomness flag is 'error'.
    const auto at = *rc::gen::inRange<std::size_t>(0, stack.size() + 1);
    stack.insert(stack.begin() + static_cast<std::ptrdiff_t>(at),
                 level(*rc::gen::element(StackTransform::Vmap, StackTransform::Jacfwd)));
  } else if (is_tangent_misuse(misuse) || is_cotangent_misuse(misuse)) {
    const StackTransform forced = is_tangent_misuse(misuse)
                                      ? *rc::gen::element(StackTransform::Jvp, StackTransform::Linearize)
                                      : StackTransform::Vjp;
    const auto at = *rc::gen::inRange<std::size_t>(0, stack.size() + 1);
    stack.insert(stack.begin() + static_cast<std::ptrdiff_t>(at), level(forced));
  } else if (stack.empty()) {
    stack.push_back((*gen_stack_plan(1, 1)).front());
  }
  return stack;
}

// Whether `c` has what `misuse` works on.
bool applies(Misuse misuse, const Case& c) {
  const bool has_floating = !floating_positions(c).empty();
  switch (misuse) {
    case Misuse::None:
    case Misuse::DerivativeOfIntegerInput: return true;
    case Misuse::VmapInDimAtAnEnd:
    case Misuse::VmapOutDimAtAnEnd: return !levels_holding(c, is<conformance::VmapTransform>).empty();
    case Misuse::VmapBatchSizeMismatch: {
      const std::optional<OuterBatch> batch = outer_batch(c);
      return batch && batch->mapped.size() >= 2 && batch->size > 0;
    }
    case Misuse::GradOfNonScalar:
    case Misuse::RandomOpUnderRandomnessError: return has_floating;
    case Misuse::TangentWrongShape:
    case Misuse::TangentWrongDtype: return !levels_holding(c, is<conformance::JvpTransform>).empty();
    case Misuse::CotangentWrongShape:
    case Misuse::CotangentWrongDtype: return !levels_holding(c, is<conformance::VjpTransform>).empty();
  }
  return false;
}

// A tensor unlike `spec` in shape (one more element along its last dim, or rank 1 for rank 0) or
// in dtype (the other floating dtype), with fresh values.
conformance::TensorSpec unlike(const conformance::TensorSpec& spec, bool in_shape, std::uint32_t seed) {
  samples::SampleRng rng(seed);
  Shape shape = spec.data.shape;
  DType dtype = spec.data.dtype;
  if (in_shape) {
    if (shape.empty()) {
      shape = {1};
    } else {
      shape.back() += 1;
    }
  } else {
    dtype = dtype == DType::Float64 ? DType::Float32 : DType::Float64;
  }
  return conformance::tensor_spec_of(rng.tensor(shape, dtype, -1.0, 1.0));
}

// The results the case's transformed function returns, counted (0 when the case does not fit).
std::size_t result_count(const Case& c) {
  try {
    return conformance::result_names(c).size();
  } catch (const conformance::CaseError&) {
    return 0;
  }
}

// `c` under one more, outermost, grad with respect to `argnums`.
void wrap_in_grad(Case& c, std::vector<std::size_t> argnums) {
  conformance::GradTransform grad;
  grad.argnums.selectors.clear();
  for (std::size_t p : argnums) grad.argnums.selectors.emplace_back(static_cast<std::int64_t>(p));
  grad.argnums.written_as_list = true;
  grad.has_aux = result_count(c) > 1;
  c.transforms.insert(c.transforms.begin(), grad);
}

// Applies `misuse` to `c` (drawing the level, input and values it needs) and says what it did.
std::string apply_misuse(Case& c, Misuse misuse) {
  switch (misuse) {
    case Misuse::None: return "no misuse";
    case Misuse::VmapInDimAtAnEnd: {
      const std::size_t level = *rc::gen::elementOf(levels_holding(c, is<conformance::VmapTransform>));
      auto& vmap = std::get<conformance::VmapTransform>(c.transforms[level]);
      std::vector<std::size_t> tensors;
      for (std::size_t i = 0; i < c.inputs.size() && i < vmap.in_dims.by_position.size(); ++i) {
        if (is_tensor_input(c.inputs[i])) tensors.push_back(i);
      }
      const std::size_t i = *rc::gen::elementOf(tensors);
      const std::int64_t rank = rank_at(c, i, level);
      // Just past either end of [-rank, rank), or at either end (valid: a backend off by one
      // raises there where the reference does not).
      const std::int64_t dim = *rc::gen::element(rank, -rank - 1, rank - 1, -rank);
      vmap.in_dims.by_position[i] = dim;
      return fmt::format("the vmap at level {} maps {} (rank {} there) at dim {}", level, c.inputs[i].name, rank, dim);
    }
    case Misuse::VmapOutDimAtAnEnd: {
      const std::size_t level = *rc::gen::elementOf(levels_holding(c, is<conformance::VmapTransform>));
      // The outermost vmap's results are the case's: the smallest of their ranks R bounds the
      // out_dims valid for all of them, [-R, R); one past either end, or either end. Inner levels'
      // results are not at hand; 64 is past any rank.
      std::int64_t dim = *rc::gen::element(64, -65);
      if (level == 0) {
        std::int64_t rank = 64;
        const conformance::ProgramResult valid = conformance::run_on_reference(c);
        for (const auto& [name, data] : valid.outputs)
          rank = std::min(rank, static_cast<std::int64_t>(data.shape.size()));
        dim = *rc::gen::element(rank, -rank - 1, rank - 1, -rank);
      }
      std::get<conformance::VmapTransform>(c.transforms[level]).out_dims.all = dim;
      return fmt::format("the vmap at level {} puts its batch dim at out_dims={}", level, dim);
    }
    case Misuse::VmapBatchSizeMismatch: {
      const OuterBatch batch = *outer_batch(c);
      const std::size_t i = *rc::gen::elementOf(batch.mapped);
      const auto& vmap = std::get<conformance::VmapTransform>(c.transforms.front());
      const Tensor whole = conformance::materialize_tensor(spec_of(c.inputs[i]));
      const Tensor fewer = ops::contiguous(ops::narrow(whole, *vmap.in_dims.by_position[i], 0, batch.size - 1));
      c.inputs[i] = conformance::case_input_of(c.inputs[i].name, fewer);
      return fmt::format("{} has {} examples where the other mapped inputs have {}", c.inputs[i].name, batch.size - 1,
                         batch.size);
    }
    case Misuse::GradOfNonScalar:
      wrap_in_grad(c, floating_positions(c));
      return "grad of the whole stack, whose first result is not known to be rank 0";
    case Misuse::DerivativeOfIntegerInput: {
      const std::size_t position = c.inputs.size();
      const std::string name = "n_int";
      samples::SampleRng rng(*rc::gen::arbitrary<std::uint32_t>());
      c.inputs.push_back(conformance::case_input_of(name, rng.tensor({2}, DType::Int64, -3, 4)));
      for (conformance::Transform& t : c.transforms) {
        if (auto* vmap = std::get_if<conformance::VmapTransform>(&t);
            vmap != nullptr && vmap->in_dims.form == conformance::DimSpec::Form::ByPosition)
          vmap->in_dims.by_position.push_back(std::nullopt);
      }
      std::vector<std::size_t> levels = levels_holding(c, [](const conformance::Transform& t) {
        return is<conformance::GradTransform>(t) || is<conformance::JacobianTransform>(t);
      });
      std::erase_if(levels, [&](std::size_t level) { return !no_vjp_above(c, level); });
      if (levels.empty()) {
        wrap_in_grad(c, {position});
        return fmt::format("grad of the whole stack with respect to the int64 input {}", name);
      }
      const std::size_t level = *rc::gen::elementOf(levels);
      std::visit(
          [&](auto& t) {
            if constexpr (requires { t.argnums; })
              t.argnums.selectors.emplace_back(static_cast<std::int64_t>(position));
          },
          c.transforms[level]);
      return fmt::format("the derivative at level {} is also taken with respect to the int64 input {}", level, name);
    }
    case Misuse::TangentWrongShape:
    case Misuse::TangentWrongDtype: {
      const std::size_t level = *rc::gen::elementOf(levels_holding(c, is<conformance::JvpTransform>));
      auto& tangents = std::get<conformance::JvpTransform>(c.transforms[level]).tangents;
      auto& tangent = tangents[*rc::gen::inRange<std::size_t>(0, tangents.size())];
      const bool in_shape = misuse == Misuse::TangentWrongShape;
      tangent.tensor = unlike(tangent.tensor, in_shape, *rc::gen::arbitrary<std::uint32_t>());
      return fmt::format("the tangent of {} at level {} is {}{}", tangent.name, level,
                         dtype_name(tangent.tensor.data.dtype), shape_to_string(tangent.tensor.data.shape));
    }
    case Misuse::CotangentWrongShape:
    case Misuse::CotangentWrongDtype: {
      const std::size_t level = *rc::gen::elementOf(levels_holding(c, is<conformance::VjpTransform>));
      auto& cotangents = std::get<conformance::VjpTransform>(c.transforms[level]).cotangents;
      auto& cotangent = cotangents[*rc::gen::inRange<std::size_t>(0, cotangents.size())];
      const bool in_shape = misuse == Misuse::CotangentWrongShape;
      cotangent.tensor = unlike(cotangent.tensor, in_shape, *rc::gen::arbitrary<std::uint32_t>());
      return fmt::format("the cotangent of {} at level {} is {}{}", cotangent.name, level,
                         dtype_name(cotangent.tensor.data.dtype), shape_to_string(cotangent.tensor.data.shape));
    }
    case Misuse::RandomOpUnderRandomnessError: {
      // An unused draw: the results stay those of the program, so no backend needs the
      // reference's random stream to agree, only its randomness flag.
      const std::string& input = c.inputs[*rc::gen::elementOf(floating_positions(c))].name;
      c.program.push_back(conformance::OpCall{{"drawn"}, "uniform", {input}, {}});
      return fmt::format("the program also draws uniform({}), under randomness='error'", input);
    }
  }
  return "?";
}

std::string_view misuse_name(Misuse misuse) {
  switch (misuse) {
    case Misuse::None: return "none";
    case Misuse::VmapInDimAtAnEnd: return "a vmap in_dim at or past an end of its range";
    case Misuse::VmapOutDimAtAnEnd: return "a vmap out_dim at or past an end of its range";
    case Misuse::VmapBatchSizeMismatch: return "mapped inputs of different batch sizes";
    case Misuse::GradOfNonScalar: return "grad of a non-scalar result";
    case Misuse::DerivativeOfIntegerInput: return "a derivative with respect to an integer input";
    case Misuse::TangentWrongShape: return "a tangent of the wrong shape";
    case Misuse::TangentWrongDtype: return "a tangent of the wrong dtype";
    case Misuse::CotangentWrongShape: return "a cotangent of the wrong shape";
    case Misuse::CotangentWrongDtype: return "a cotangent of the wrong dtype";
    case Misuse::RandomOpUnderRandomnessError: return "a random op under randomness='error'";
  }
  return "?";
}

PropertyCheck check_errors_match_reference(const PropertyContext& context, const ProgramOptions& programs) {
  Misuse misuse = *rc::gen::elementOf(kMisuses);
  ProgramOptions options = programs;
  options.max_steps = 3;
  // An error law needs no large values, and nested Jacobians of large inputs are slow to build.
  options.max_input_elements = 32;
  options.floating_outputs_only = is_cotangent_misuse(misuse);  // what a vjp level needs
  const GeneratedProgram program = draw_program(options);
  std::optional<Case> valid = apply_stack(program, draw_stack_for(misuse));
  RC_PRE(valid.has_value());
  Case c = std::move(*valid);
  if (!applies(misuse, c)) misuse = Misuse::None;
  const std::string what = apply_misuse(c, misuse);
  RC_LOG() << "transforms: " << describe_transforms(c) << "\nmisuse: " << misuse_name(misuse) << ": " << what << "\n";

  const conformance::ProgramResult truth = conformance::run_on_reference(c);
  // A misuse the case format itself refuses reaches no backend; nothing to compare.
  RC_PRE(truth.broken.empty() && !truth.unsupported);
  if (truth.error) {
    RC_LOG() << "the reference raises " << error_kind_name(*truth.error) << ": " << truth.error_message << "\n";
    return judge_law(context, expecting_error(c, *truth.error),
                     fmt::format("the reference raises {} ({})", error_kind_name(*truth.error), misuse_name(misuse)));
  }
  const Answer answer = ask(context, c);
  if (answer.unsupported) return PropertyCheck::unsupported(*answer.unsupported);
  if (!answer.error && answer.fault.empty()) return PropertyCheck::holds();
  const std::string raised =
      answer.error ? fmt::format("raises {}", error_kind_name(*answer.error)) : fmt::format("fails: {}", answer.fault);
  return PropertyCheck::violated(
      fmt::format("the reference raises nothing ({}) but the backend {}", misuse_name(misuse), raised),
      expecting_values(c, kErrorsMatchReference, truth.outputs));
}

}  // namespace

void add_error_consistency_properties(std::vector<PropertyDef>& out, const ProgramOptions& programs) {
  out.push_back({std::string(kErrorsMatchReference),
                 "a transformed program, with one misuse of a transform's arguments or none, raises an error kind "
                 "exactly when the reference raises it",
                 {"ERR-1.1", "ERR-1.2", "VMAP-1.2", "VMAP-1.3", "VMAP-2.1", "AD-7.1", "AD-7.2", "AD-7.3"},
                 500,
                 "",
                 [programs](PropertyContext& context) { return check_errors_match_reference(context, programs); }});
}

}  // namespace funcspec::properties
