#include "property_tests/transform_stack.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "conformance/case/evaluate.h"
#include "conformance/oracles/loop_and_stack.h"
#include "conformance/samples/op_samples.h"
#include "conformance/suite/tensor_to_case.h"
#include "property_tests/case_inputs.h"
#include "property_tests/generators.h"
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"

namespace funcspec::properties {

using conformance::Case;
using conformance::CaseInput;

namespace {

// The in_dim of tensor input `i` (of unbatched rank `rank`) under a vmap level (nullopt: not mapped).
std::optional<std::int64_t> in_dim_choice(const StackLevelPlan& level, std::size_t i, std::int64_t rank) {
  switch ((level.in_dims >> (2 * (i % 16))) & 3u) {
    case 0: return 0;
    case 1: return batch_dim_choice((level.dim_picks >> (4 * (i % 8))) & 15u, rank);
    default: return std::nullopt;
  }
}

constexpr std::int64_t kMaxResultElements = 4096;

class StackBuilder {
 public:
  StackBuilder(const GeneratedProgram& program, const std::vector<StackLevelPlan>& stack)
      : program_(program), stack_(stack) {}

  // The inputs of the function at level `level` (0: the whole stack; stack.size(): the program) for
  // example `example`.
  const std::vector<CaseInput>& inputs_at(std::size_t level, int example) {
    const auto key = std::make_pair(level, example);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::vector<CaseInput> out;
    if (level == stack_.size()) {
      out = draw_inputs(program_, example);
    } else if (stack_[level].transform != StackTransform::Vmap) {
      out = inputs_at(level + 1, example);
    } else {
      const StackLevelPlan& plan = stack_[level];
      const int batch = static_cast<int>(plan.batch_size % 4);
      out = inputs_at(level + 1, example * 4 + 1);
      const std::vector<std::optional<std::int64_t>> dims = vmap_in_dims(level);
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (!dims[i]) continue;
        TensorList examples;
        for (int b = 0; b < batch; ++b)
          examples.push_back(conformance::materialize_tensor(spec_of(inputs_at(level + 1, example * 4 + 1 + b)[i])));
        const Tensor like = conformance::materialize_tensor(spec_of(out[i]));
        out[i] = conformance::case_input_of(out[i].name,
                                            ops::contiguous(oracles::batch_of(examples, like, {{batch, *dims[i]}})));
      }
    }
    return memo_.emplace(key, std::move(out)).first->second;
  }

  // The in_dims of the vmap at `level`, by input position: literals are never mapped, and at least
  // one tensor input is.
  std::vector<std::optional<std::int64_t>> vmap_in_dims(std::size_t level) {
    const std::vector<CaseInput>& inputs = inputs_at(level + 1, 0);
    std::vector<std::optional<std::int64_t>> dims(inputs.size());
    bool any = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (!is_tensor_input(inputs[i])) continue;
      dims[i] = in_dim_choice(stack_[level], i, static_cast<std::int64_t>(spec_of(inputs[i]).data.shape.size()));
      any = any || dims[i].has_value();
    }
    if (!any) {
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (is_tensor_input(inputs[i])) {
          dims[i] = 0;
          break;
        }
      }
    }
    return dims;
  }

  std::optional<Case> build() {
    Case c = program_.program;
    c.id = "generated";
    // Complete the levels from the inside out: level L needs what the function inside it returns.
    std::vector<conformance::Transform> transforms;  // innermost first while building
    for (std::size_t level = stack_.size(); level-- > 0;) {
      Case inner = c;
      inner.inputs = inputs_at(level + 1, 0);
      inner.transforms.assign(transforms.rbegin(), transforms.rend());
      std::optional<conformance::Transform> t = complete(level, inner);
      if (!t) return std::nullopt;
      transforms.push_back(std::move(*t));
    }
    c.transforms.assign(transforms.rbegin(), transforms.rend());
    c.inputs = inputs_at(0, 0);
    const conformance::ProgramResult result = conformance::run_on_reference(c);
    if (result.error || !result.broken.empty() || result.unsupported) return std::nullopt;
    // Nested Jacobians multiply sizes: keep every generated case small enough to check quickly.
    std::int64_t elements = 0;
    for (const auto& [name, data] : result.outputs) elements += data.numel();
    if (elements > kMaxResultElements) return std::nullopt;
    return c;
  }

 private:
  std::optional<conformance::Transform> complete(std::size_t level, const Case& inner) {
    const StackLevelPlan& plan = stack_[level];
    samples::SampleRng rng(plan.seed);
    std::vector<std::int64_t> floating_positions;
    for (std::size_t i = 0; i < inner.inputs.size(); ++i) {
      if (is_floating_input(inner.inputs[i])) floating_positions.push_back(static_cast<std::int64_t>(i));
    }
    conformance::ArgNums argnums;
    argnums.selectors.clear();
    for (std::int64_t p : floating_positions) argnums.selectors.emplace_back(p);
    argnums.written_as_list = true;

    const conformance::ProgramResult values = conformance::run_on_reference(inner);
    if (values.error || !values.broken.empty() || values.unsupported || values.outputs.empty()) return std::nullopt;
    if (plan.transform == StackTransform::Vmap) {
      conformance::VmapTransform vmap;
      vmap.in_dims.form = conformance::DimSpec::Form::ByPosition;
      vmap.in_dims.by_position = vmap_in_dims(level);
      // One out_dim for every result: a dim in range for the result of least rank.
      std::size_t min_rank = values.outputs.front().second.shape.size();
      for (const auto& [name, data] : values.outputs) min_rank = std::min(min_rank, data.shape.size());
      vmap.out_dims.form = conformance::DimSpec::Form::All;
      vmap.out_dims.all = batch_dim_choice(plan.out_dims, static_cast<std::int64_t>(min_rank));
      if (plan.chunk % 3 != 0) vmap.chunk_size = plan.chunk % 3;
      return vmap;
    }
    if (floating_positions.empty()) return std::nullopt;
    const bool all_floating = std::all_of(values.outputs.begin(), values.outputs.end(),
                                          [](const auto& named) { return is_floating(named.second.dtype); });
    auto random_like = [&](DType dtype, const Shape& shape) {
      return conformance::tensor_spec_of(rng.tensor(shape, dtype, -1.0, 1.0));
    };
    auto tangents = [&] {
      std::vector<conformance::NamedTensor> out;
      for (std::int64_t p : floating_positions) {
        const auto& spec = spec_of(inner.inputs[static_cast<std::size_t>(p)]);
        out.push_back({inner.inputs[static_cast<std::size_t>(p)].name, random_like(spec.data.dtype, spec.data.shape)});
      }
      return out;
    };
    StackTransform kind = plan.transform;
    if (kind == StackTransform::Grad) {
      const conformance::TensorData& first = values.outputs.front().second;
      if (first.shape.empty() && is_floating(first.dtype)) {
        conformance::GradTransform grad;
        grad.argnums = argnums;
        grad.has_aux = values.outputs.size() > 1;
        return grad;
      }
      kind = StackTransform::Vjp;  // NOTE: [generated transform stacks]
    }
    if (kind == StackTransform::Hessian) {
      const conformance::TensorData& first = values.outputs.front().second;
      std::int64_t in_elements = 0;
      for (std::int64_t p : floating_positions)
        in_elements += spec_of(inner.inputs[static_cast<std::size_t>(p)]).data.numel();
      if (values.outputs.size() == 1 && first.shape.empty() && is_floating(first.dtype)) {
        if (in_elements * in_elements > kMaxResultElements) return std::nullopt;
        conformance::HessianTransform hessian;
        hessian.argnums = argnums;
        return hessian;
      }
      kind = StackTransform::Jacfwd;  // NOTE: [generated transform stacks]
    }
    switch (kind) {
      case StackTransform::Vjp: {
        if (!all_floating) return std::nullopt;
        conformance::VjpTransform vjp;
        for (const auto& [name, data] : values.outputs)
          vjp.cotangents.push_back({name, random_like(data.dtype, data.shape)});
        return vjp;
      }
      case StackTransform::Jvp:
      case StackTransform::Linearize: {
        conformance::JvpTransform jvp;
        jvp.linearize = kind == StackTransform::Linearize;
        jvp.tangents = tangents();
        return jvp;
      }
      case StackTransform::Jacrev:
      case StackTransform::Jacfwd: {
        if (!all_floating) return std::nullopt;
        // A Jacobian has (result elements) x (input elements) entries: refuse an oversized one before
        // any level above evaluates it (one nested Jacobian of a 4096-element result took a gigabyte).
        std::int64_t out_elements = 0;
        std::int64_t in_elements = 0;
        for (const auto& [name, data] : values.outputs) out_elements += data.numel();
        for (std::int64_t p : floating_positions)
          in_elements += spec_of(inner.inputs[static_cast<std::size_t>(p)]).data.numel();
        if (out_elements * in_elements > kMaxResultElements) return std::nullopt;
        conformance::JacobianTransform jac;
        jac.forward = kind == StackTransform::Jacfwd;
        jac.argnums = argnums;
        if (!jac.forward && plan.chunk % 3 != 0) jac.chunk_size = plan.chunk % 3;
        return jac;
      }
      default: return std::nullopt;
    }
  }

  const GeneratedProgram& program_;
  const std::vector<StackLevelPlan>& stack_;
  std::map<std::pair<std::size_t, int>, std::vector<CaseInput>> memo_;
};

std::string dims_text(const conformance::DimSpec& spec) {
  auto one = [](const std::optional<std::int64_t>& d) { return d ? fmt::format("{}", *d) : std::string("None"); };
  switch (spec.form) {
    case conformance::DimSpec::Form::All: return one(spec.all);
    case conformance::DimSpec::Form::ByPosition: {
      std::vector<std::string> parts;
      for (const auto& d : spec.by_position) parts.push_back(one(d));
      return fmt::format("({})", fmt::join(parts, ", "));
    }
    case conformance::DimSpec::Form::ByName: {
      std::vector<std::string> parts;
      for (const auto& [name, d] : spec.by_name) parts.push_back(name + ": " + one(d));
      return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }
  }
  return "?";
}

}  // namespace

std::string_view stack_transform_name(StackTransform transform) {
  switch (transform) {
    case StackTransform::Vmap: return "vmap";
    case StackTransform::Grad: return "grad";
    case StackTransform::Vjp: return "vjp";
    case StackTransform::Jvp: return "jvp";
    case StackTransform::Jacrev: return "jacrev";
    case StackTransform::Jacfwd: return "jacfwd";
    case StackTransform::Linearize: return "linearize";
    case StackTransform::Hessian: return "hessian";
  }
  return "?";
}

rc::Gen<std::vector<StackLevelPlan>> gen_stack_plan(int min_depth, int max_depth, std::vector<StackTransform> allowed) {
  auto level = rc::gen::construct<StackLevelPlan>(
      rc::gen::elementOf(allowed), rc::gen::inRange(1u, 4u), rc::gen::arbitrary<unsigned>(), rc::gen::inRange(0u, 16u),
      rc::gen::inRange(0u, 3u), rc::gen::arbitrary<std::uint32_t>(), rc::gen::arbitrary<std::uint32_t>());
  return rc::gen::mapcat(rc::gen::inRange(min_depth, max_depth + 1), [level](int n) {
    return rc::gen::container<std::vector<StackLevelPlan>>(static_cast<std::size_t>(n), level);
  });
}

std::optional<Case> apply_stack(const GeneratedProgram& program, const std::vector<StackLevelPlan>& stack) {
  try {
    return StackBuilder(program, stack).build();
  } catch (const Error&) {
    return std::nullopt;  // a draw the program cannot take (a later draw's value leaves a domain)
  }
}

std::map<std::string, Tensor, std::less<>> input_tensors(const Case& c) {
  std::map<std::string, Tensor, std::less<>> out;
  for (const CaseInput& in : c.inputs) {
    if (is_tensor_input(in)) out[in.name] = conformance::materialize_tensor(spec_of(in));
  }
  return out;
}

std::string describe_transforms(const Case& c) {
  std::vector<std::string> parts;
  for (const conformance::Transform& t : c.transforms) {
    parts.push_back(std::visit(
        [](const auto& x) -> std::string {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, conformance::VmapTransform>) {
            return fmt::format("vmap(in_dims={}, out_dims={}{})", dims_text(x.in_dims), dims_text(x.out_dims),
                               x.chunk_size ? fmt::format(", chunk_size={}", *x.chunk_size) : std::string());
          } else if constexpr (std::is_same_v<T, conformance::GradTransform>) {
            return fmt::format("grad(argnums={} inputs{})", x.argnums.selectors.size(), x.has_aux ? ", has_aux" : "");
          } else if constexpr (std::is_same_v<T, conformance::VjpTransform>) {
            return fmt::format("vjp({} cotangents)", x.cotangents.size());
          } else if constexpr (std::is_same_v<T, conformance::JvpTransform>) {
            return fmt::format("{}({} tangents)", x.linearize ? "linearize" : "jvp", x.tangents.size());
          } else if constexpr (std::is_same_v<T, conformance::JacobianTransform>) {
            return fmt::format("{}({} inputs{})", x.forward ? "jacfwd" : "jacrev", x.argnums.selectors.size(),
                               x.chunk_size ? fmt::format(", chunk_size={}", *x.chunk_size) : std::string());
          } else if constexpr (std::is_same_v<T, conformance::HessianTransform>) {
            return fmt::format("hessian({} inputs)", x.argnums.selectors.size());
          } else if constexpr (std::is_same_v<T, conformance::FunctionalCallTransform>) {
            return fmt::format("functional_call(parameters=[{}], buffers=[{}]{})", fmt::join(x.parameters, ", "),
                               fmt::join(x.buffers, ", "), x.strict ? ", strict" : "");
          } else {
            return std::string(conformance::transform_name(conformance::Transform(x)));
          }
        },
        t));
  }
  return parts.empty() ? std::string("(no transform)") : fmt::format("{}", fmt::join(parts, " ∘ "));
}

}  // namespace funcspec::properties
