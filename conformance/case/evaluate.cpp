#include "conformance/case/evaluate.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "conformance/case/functional_call_transform.h"
#include "conformance/case/functionalize_transform.h"
#include "reference/backends/cpu/strided_loop.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/random/generator.h"
#include "reference/transforms/autodiff.h"
#include "reference/transforms/grad_mode.h"
#include "reference/transforms/vmap.h"

namespace funcspec::conformance {
namespace {

// What fills the gaps of a strided input's buffer: values no correct kernel ever reads, chosen to
// be loud when a backend ignores strides (NaN poisons arithmetic, INT64_MIN is rarely plausible).
template <typename T>
T gap_value() {
  if constexpr (std::is_same_v<T, bool>)
    return true;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return std::numeric_limits<std::int64_t>::min();
  else
    return T(std::numeric_limits<double>::quiet_NaN());
}

// Orders the bit patterns of a float so that adjacent floats differ by one (both zeros map to 0).
template <typename Int>
std::int64_t ordered_bits(Int bits) {
  const auto wide = static_cast<std::int64_t>(bits);
  if (bits >= 0) return wide;
  return static_cast<std::int64_t>(std::numeric_limits<Int>::min()) - wide;
}

double ulp_distance(double actual, double expected, DType dtype) {
  std::int64_t a = 0;
  std::int64_t e = 0;
  if (dtype == DType::Float32) {
    a = ordered_bits(std::bit_cast<std::int32_t>(static_cast<float>(actual)));
    e = ordered_bits(std::bit_cast<std::int32_t>(static_cast<float>(expected)));
  } else {
    a = ordered_bits(std::bit_cast<std::int64_t>(actual));
    e = ordered_bits(std::bit_cast<std::int64_t>(expected));
  }
  // The true distance is below 2^64, so unsigned wrap-around gives it exactly.
  const std::uint64_t distance = a >= e ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(e)
                                        : static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(a);
  return static_cast<double>(distance);
}

std::string index_of(std::int64_t flat, const Shape& shape) {
  Shape index(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return shape_to_string(index);
}

struct ElementError {
  double abs = 0;
  double ulps = 0;
};

ElementError element_error(const TensorData& actual, const TensorData& expected, std::int64_t i) {
  if (!is_floating(expected.dtype)) {
    const std::int64_t a = actual.element_as_int(i);
    const std::int64_t e = expected.element_as_int(i);
    // Exact in unsigned arithmetic (the distance is below 2^64); through double, 2^53 + 1 would
    // equal 2^53.
    const std::uint64_t distance = a >= e ? static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(e)
                                          : static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(a);
    const double difference = static_cast<double>(distance);
    return {difference, difference};  // an integer's unit in the last place is 1
  }
  const double a = actual.element_as_double(i);
  const double e = expected.element_as_double(i);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e) ? ElementError{} : ElementError{kInf, kInf};
  if (a == e) return {};
  if (std::isinf(a) || std::isinf(e)) return {kInf, kInf};
  return {std::abs(a - e), ulp_distance(a, e, expected.dtype)};
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Unsupported: return "unsupported";
    case Verdict::Error: return "error";
  }
  return "fail";
}

std::string_view fault_name(Fault fault) {
  switch (fault) {
    case Fault::None: return "none";
    case Fault::Crash: return "crash";
    case Fault::Timeout: return "timeout";
    case Fault::Protocol: return "protocol error";
  }
  return "none";
}

namespace {

// Places `values` into a buffer at the view `geometry` describes; the rest of the buffer holds gap values.
Tensor lay_out(const Tensor& values, Tensor buffer, const Strides& view_strides, std::int64_t offset) {
  Tensor view = Tensor::view_of(buffer, values.shape(), view_strides, offset);
  visit_dtype(values.dtype(), [&]<typename T>() {
    if constexpr (!is_oracle_v<T>) {
      T* all = buffer.data<T>();
      for (std::int64_t i = 0; i < buffer.numel(); ++i) all[i] = gap_value<T>();
      T* target = view.data<T>();
      const T* source = values.data<T>();
      cpu::for_each_offset<2>(values.shape(), {view.strides(), values.strides()},
                              [&](const std::array<std::int64_t, 2>& at) { target[at[0]] = source[at[1]]; });
    }
  });
  return view;
}

}  // namespace

Tensor materialize_tensor(const TensorSpec& spec) {
  const TensorData& data = spec.data;
  if (spec.values_omitted) throw CaseError("", "", "a tensor given by dtype and shape alone exists only on meta");
  Tensor values = Tensor::empty(data.shape, data.dtype);
  if (!data.bytes.empty()) {
    visit_dtype(data.dtype, [&]<typename T>() {
      if constexpr (is_oracle_v<T>) {
        throw CaseError("", "", "the oracle dtype cannot appear in a case");
      } else {
        std::memcpy(values.data<T>(), data.bytes.data(), data.bytes.size());
      }
    });
  }
  if (spec.layout.is_contiguous()) return values;

  const std::size_t rank = data.shape.size();
  const TensorLayout& layout = spec.layout;
  if (layout.strides) {
    const std::optional<std::int64_t> extent = strided_extent(data.shape, *layout.strides, layout.offset);
    if (!extent) throw CaseError("", "", "the layout's buffer exceeds what a case may hold");
    return lay_out(values, Tensor::empty({*extent}, data.dtype),
                   Strides(layout.strides->begin(), layout.strides->end()), layout.offset);
  }
  std::vector<std::int64_t> start(rank, 0);
  std::vector<std::int64_t> step(rank, 1);
  std::vector<std::int64_t> permutation(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (!layout.slice_start.empty()) {
      start[d] = layout.slice_start[d];
      step[d] = layout.slice_step[d];
    }
    permutation[d] = layout.permute.empty() ? static_cast<std::int64_t>(d) : layout.permute[d];
  }
  // The buffer is big enough for every dim's last element (and one element for an empty dim, so
  // that the view's offset stays inside it).
  Shape buffer_shape(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t extent = data.shape[d] == 0 ? start[d] + 1 : start[d] + (data.shape[d] - 1) * step[d] + 1;
    buffer_shape[static_cast<std::size_t>(permutation[d])] = extent;
  }
  Tensor buffer = Tensor::empty(buffer_shape, data.dtype);
  const Strides buffer_strides = contiguous_strides(buffer_shape);
  Strides view_strides(rank);
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t stride = buffer_strides[static_cast<std::size_t>(permutation[d])];
    view_strides[d] = stride * step[d];
    offset += start[d] * stride;
  }
  return lay_out(values, buffer, view_strides, offset);
}

Tensor materialize_meta_tensor(const TensorSpec& spec) {
  Strides strides = contiguous_strides(spec.data.shape);
  std::int64_t offset = 0;
  if (!spec.layout.is_contiguous()) {
    // The geometry the cpu input would have, so meta sees the same strides.
    TensorSpec probe = spec;
    probe.values_omitted = false;
    probe.data.bytes.assign(static_cast<std::size_t>(spec.data.numel()) * itemsize(spec.data.dtype), 0);
    const Tensor laid_out = materialize_tensor(probe);
    strides = laid_out.strides();
    offset = laid_out.storage_offset();
  }
  return Tensor(std::make_shared<TensorImpl>(nullptr, spec.data.shape, strides, offset, spec.data.dtype, Device::Meta));
}

TensorData tensor_metadata_of(const Tensor& tensor) {
  TensorData data;
  data.dtype = tensor.dtype();
  data.shape = tensor.shape();
  return data;
}

TensorData tensor_data_of(const Tensor& tensor) {
  if (tensor.device() != Device::Cpu)
    throw CaseError("", "", fmt::format("a {} tensor has no values to compare", device_name(tensor.device())));
  TensorData data;
  data.dtype = tensor.dtype();
  data.shape = tensor.shape();
  visit_dtype(tensor.dtype(), [&]<typename T>() {
    if constexpr (is_oracle_v<T>) {
      throw CaseError("", "", "an oracle-dtype result cannot be compared with a case's values");
    } else {
      const T* base = tensor.data<T>();
      data.bytes.reserve(static_cast<std::size_t>(tensor.numel()) * sizeof(T));
      cpu::for_each_offset<1>(tensor.shape(), {tensor.strides()}, [&](const std::array<std::int64_t, 1>& at) {
        const T value = base[at[0]];
        const auto* raw = reinterpret_cast<const std::uint8_t*>(&value);
        data.bytes.insert(data.bytes.end(), raw, raw + sizeof(T));
      });
    }
  });
  return data;
}

namespace {

// A program whose results do not fit what the case says of them: no value can judge it.
class BrokenProgram : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the program on `values` (the inputs by name) and returns the case's outputs, in order.
TensorList run_program(const Case& c, std::map<std::string, Tensor, std::less<>> values) {
  for (std::size_t i = 0; i < c.program.size(); ++i) {
    const OpCall& step = c.program[i];
    TensorList inputs;
    for (const auto& arg : step.args) inputs.push_back(arg ? values.at(*arg) : Tensor());
    std::optional<transforms::NoGradGuard> no_grad;
    if (step.no_grad) no_grad.emplace();
    const TensorList outputs = call(step.op, inputs, step.attrs);
    no_grad.reset();
    if (outputs.size() != step.outs.size())
      throw BrokenProgram(fmt::format("program[{}]: {} returned {} tensors but 'out' names {}", i, step.op,
                                      outputs.size(), step.outs.size()));
    for (std::size_t k = 0; k < outputs.size(); ++k) values[step.outs[k]] = outputs[k];
  }
  TensorList results;
  for (const std::string& name : c.outputs) results.push_back(values.at(name));
  return results;
}

// A transform option over named arguments or results as the engine's prefix tree.
transforms::PyTree dims_tree(const DimSpec& spec, const std::vector<std::string>& names) {
  auto leaf = [](const std::optional<std::int64_t>& dim) {
    return dim ? transforms::PyTree(*dim) : transforms::PyTree::none();
  };
  switch (spec.form) {
    case DimSpec::Form::All: return leaf(spec.all);
    case DimSpec::Form::ByPosition: {
      std::vector<transforms::PyTree> items;
      for (const auto& dim : spec.by_position) items.push_back(leaf(dim));
      return transforms::PyTree::tuple(std::move(items));
    }
    case DimSpec::Form::ByName: {
      std::vector<transforms::PyTree> items;
      for (const std::string& name : names) {
        std::optional<std::int64_t> dim;
        for (const auto& [named, d] : spec.by_name) {
          if (named == name) dim = d;
        }
        items.push_back(leaf(dim));
      }
      return transforms::PyTree::tuple(std::move(items));
    }
  }
  return leaf(std::nullopt);
}

using transforms::PyFunction;
using transforms::PyTree;

// NOTE: [case transforms on the engine]
// A case's function takes the inputs as positional arguments and returns a flat tuple of named
// results (docs/case-format.md). Each transform below adapts the engine's torch.func-shaped API
// (output trees, (output, aux) pairs) to that flat form, in the order the naming rules give.

std::vector<PyTree> flat(const PyTree& tree) { return tree.leaves(); }

// f's flat results as (output, aux): the first result and a tuple of the rest with has_aux.
PyFunction with_aux_pair(PyFunction f, bool has_aux, bool single_output) {
  return [f = std::move(f), has_aux, single_output](const std::vector<PyTree>& args) {
    const std::vector<PyTree> results = f(args).children();
    if (!has_aux) return single_output ? results.at(0) : PyTree::tuple(results);
    const PyTree output = single_output ? results.at(0) : PyTree::tuple({results.at(0)});
    return PyTree::tuple({output, PyTree::tuple({results.begin() + 1, results.end()})});
  };
}

// The argument positions argnums selects (names resolve to argument positions).
transforms::Argnums engine_argnums(const ArgNums& argnums, const CaseSignature& signature) {
  transforms::Argnums out;
  out.positions.clear();
  out.tuple = true;
  for (const auto& selector : argnums.selectors) {
    if (const auto* position = std::get_if<std::int64_t>(&selector)) {
      out.positions.push_back(*position);
      continue;
    }
    out.positions.push_back(signature.position(std::get<std::string>(selector)));
  }
  return out;
}

const TensorSpec* named_tensor(const std::vector<NamedTensor>& tensors, const std::string& name) {
  for (const NamedTensor& t : tensors) {
    if (t.name == name) return &t.tensor;
  }
  return nullptr;
}

bool is_floating_input(const CaseInput& in) {
  const auto* spec = std::get_if<TensorSpec>(&in.value);
  return spec != nullptr && is_floating(spec->data.dtype);
}

// The leaves of the arguments that stand for floating tensor inputs (what vjp and linearize
// differentiate), as leaf positions; a module state's members are leaves of one argument.
std::vector<std::size_t> floating_leaves(const Case& c, const CaseSignature& signature) {
  std::vector<std::size_t> positions;
  const std::vector<std::string> inputs = signature.leaf_inputs();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const CaseInput* in = c.find_input(inputs[k]);
    if (in != nullptr && is_floating_input(*in)) positions.push_back(k);
  }
  return positions;
}

// `f` as a function of the argument leaves at `positions` alone, the others fixed at `args`.
PyFunction closed_over(const PyFunction& f, const std::vector<PyTree>& args,
                       const std::vector<std::size_t>& positions) {
  return [f, all = PyTree::tuple(args), positions](const std::vector<PyTree>& chosen) {
    std::vector<PyTree> leaves = all.leaves();
    for (std::size_t k = 0; k < positions.size(); ++k) leaves[positions[k]] = chosen[k];
    return f(all.with_leaves(leaves).children());
  };
}

// Values for the leaves at `positions`, reordered from leaf order to the order of the case's inputs
// (the order result_names gives per-input results in).
std::vector<PyTree> in_input_order(const Case& c, const CaseSignature& signature,
                                   const std::vector<std::size_t>& positions, const std::vector<PyTree>& values) {
  const std::vector<std::string> inputs = signature.leaf_inputs();
  std::vector<PyTree> ordered;
  for (const CaseInput& in : c.inputs) {
    for (std::size_t k = 0; k < positions.size(); ++k) {
      if (inputs[positions[k]] == in.name) ordered.push_back(values.at(k));
    }
  }
  return ordered;
}

// The input on cuda with its layout kept: the whole buffer moves, and the same view is taken of
// it, so strided kernels see transposed, sliced and expanded inputs as the cpu kernels do.
Tensor same_view_on_cuda(const Tensor& t) {
  const Tensor buffer = Tensor::view_of(t, {t.storage()->numel()}, {1}, 0);
  return Tensor::view_of(to_device(buffer, Device::Cuda), t.shape(), t.strides(), t.storage_offset());
}

// `signature`: the arguments of `f` (NOTE: [case functional_call]).
PyFunction apply_transform(PyFunction f, const Transform& transform, const Case& c,
                           const std::vector<std::string>& inner_results, const CaseSignature& signature, bool on_meta,
                           std::optional<DType> floating_as) {
  // A transform's own tensors (tangents, cotangents) live where the case's inputs do: on the GPU
  // for a case placed there (placed_on_cuda).
  const auto tensor_of = [on_meta, floating_as, on_gpu = c.device == Device::Cuda](const TensorSpec& spec) {
    if (on_meta) return materialize_meta_tensor(spec);
    const Tensor on_host = materialize_tensor(spec);
    const Tensor t = on_gpu ? same_view_on_cuda(on_host) : on_host;
    return floating_as && is_floating(t.dtype()) ? call_one("to_dtype", {t}, {{"dtype", *floating_as}}) : t;
  };
  return std::visit(
      [&](const auto& t) -> PyFunction {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, VmapTransform>) {
          transforms::VmapOptions options;
          options.in_dims = signature.in_dims(t.in_dims);
          options.out_dims = dims_tree(t.out_dims, inner_results);
          options.randomness = t.randomness;
          options.chunk_size = t.chunk_size;
          return transforms::vmap(std::move(f), std::move(options));
        } else if constexpr (std::is_same_v<T, GradTransform>) {
          transforms::GradOptions options{engine_argnums(t.argnums, signature), t.has_aux};
          PyFunction both = transforms::grad_and_value(with_aux_pair(std::move(f), t.has_aux, true), options);
          return [both, t](const std::vector<PyTree>& args) {
            const PyTree r = both(args);  // (grads, value) or (grads, (value, aux))
            std::vector<PyTree> out = flat(r.children()[0]);
            const PyTree& value_part = r.children()[1];
            if (t.and_value) out.push_back(t.has_aux ? value_part.children()[0] : value_part);
            if (t.has_aux) {
              for (const PyTree& a : flat(value_part.children()[1])) out.push_back(a);
            }
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, VjpTransform>) {
          std::vector<std::string> outputs = inner_results;
          if (t.has_aux) outputs.resize(1);
          TensorList cotangents;
          for (const std::string& y : outputs) cotangents.push_back(tensor_of(*named_tensor(t.cotangents, y)));
          return [f = std::move(f), t, cotangents, signature, &c](const std::vector<PyTree>& args) {
            const std::vector<std::size_t> positions = floating_leaves(c, signature);
            const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
            std::vector<PyTree> chosen;
            for (std::size_t k : positions) chosen.push_back(leaves[k]);
            const transforms::VjpResult r =
                transforms::vjp(with_aux_pair(closed_over(f, args, positions), t.has_aux, false), chosen, t.has_aux);
            std::vector<PyTree> cts;
            for (const Tensor& ct : cotangents) cts.emplace_back(ct);
            std::vector<PyTree> out = flat(r.output);
            for (const PyTree& a : flat(r.aux)) {
              if (!a.is_none()) out.push_back(a);
            }
            for (const PyTree& g : in_input_order(c, signature, positions, flat(r.vjp_fn(PyTree::tuple(cts)))))
              out.push_back(g);
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, JvpTransform>) {
          const std::vector<PyTree> tangents = signature.arguments_from([&](const std::string& input) {
            const TensorSpec* spec = named_tensor(t.tangents, input);
            return spec != nullptr ? PyTree(tensor_of(*spec)) : PyTree::none();
          });
          if (t.linearize) {
            return [f = std::move(f), tangents, signature, &c](const std::vector<PyTree>& args) {
              const std::vector<std::size_t> positions = floating_leaves(c, signature);
              const std::vector<PyTree> leaves = PyTree::tuple(args).leaves();
              const std::vector<PyTree> tangent_leaves = PyTree::tuple(tangents).leaves();
              std::vector<PyTree> chosen;
              std::vector<PyTree> chosen_tangents;
              for (std::size_t k : positions) {
                chosen.push_back(leaves[k]);
                chosen_tangents.push_back(tangent_leaves[k]);
              }
              const transforms::LinearizeResult r = transforms::linearize(closed_over(f, args, positions), chosen);
              std::vector<PyTree> out = flat(r.output);
              for (const PyTree& j : flat(r.jvp_fn(chosen_tangents))) out.push_back(j);
              return PyTree::tuple(out);
            };
          }
          return [f = std::move(f), tangents, t](const std::vector<PyTree>& args) {
            const transforms::JvpResult r =
                transforms::jvp(with_aux_pair(f, t.has_aux, false), args, tangents, t.has_aux);
            std::vector<PyTree> out = flat(r.output);
            for (const PyTree& a : flat(r.aux)) {
              if (!a.is_none()) out.push_back(a);
            }
            for (const PyTree& j : flat(r.tangent)) out.push_back(j);
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, JacobianTransform>) {
          PyFunction inner = with_aux_pair(std::move(f), t.has_aux, false);
          PyFunction jac;
          if (t.forward) {
            jac = transforms::jacfwd(std::move(inner), {engine_argnums(t.argnums, signature), t.has_aux, t.randomness});
          } else {
            jac = transforms::jacrev(std::move(inner), {engine_argnums(t.argnums, signature), t.has_aux, t.chunk_size});
          }
          return [jac, t](const std::vector<PyTree>& args) {
            const PyTree r = jac(args);
            std::vector<PyTree> out = flat(t.has_aux ? r.children()[0] : r);
            if (t.has_aux) {
              for (const PyTree& a : flat(r.children()[1])) out.push_back(a);
            }
            return PyTree::tuple(out);
          };
        } else if constexpr (std::is_same_v<T, HessianTransform>) {
          PyFunction h =
              transforms::hessian(with_aux_pair(std::move(f), false, false), engine_argnums(t.argnums, signature));
          return [h](const std::vector<PyTree>& args) { return PyTree::tuple(flat(h(args))); };
        } else if constexpr (std::is_same_v<T, FunctionalizeTransform>) {
          return apply_functionalize(std::move(f), t);
        } else if constexpr (std::is_same_v<T, FunctionalCallTransform>) {
          return functional_call_transform(std::move(f), t, signature);
        } else {
          FUNCSPEC_UNREACHABLE("a transform the reference does not have reached the evaluator");
        }
      },
      transform);
}

// The program, as a function of the case's inputs in order, under the case's transforms (the
// outermost applied last).
PyFunction transformed_program(const Case& c, bool on_meta, std::optional<DType> floating_as = std::nullopt) {
  PyFunction f = [&c](const std::vector<PyTree>& args) {
    std::map<std::string, Tensor, std::less<>> values;
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
      const PyTree& arg = args.at(i);
      values[c.inputs[i].name] = arg.is_tensor() ? arg.tensor() : Tensor::wrapped_scalar(arg.scalar());
    }
    std::vector<PyTree> results;
    for (Tensor& t : run_program(c, std::move(values))) results.emplace_back(std::move(t));
    return PyTree::tuple(std::move(results));
  };
  for (std::size_t i = c.transforms.size(); i-- > 0;) {
    // The names of what the function wrapped by transform i returns.
    Case inner = c;
    inner.transforms.assign(c.transforms.begin() + static_cast<std::ptrdiff_t>(i) + 1, c.transforms.end());
    f = apply_transform(std::move(f), c.transforms[i], c, result_names(inner), CaseSignature(c, i + 1), on_meta,
                        floating_as);
  }
  return f;
}

}  // namespace

TensorList run_case_program(const Case& c, const std::map<std::string, Tensor, std::less<>>& tensor_inputs,
                            std::optional<DType> transform_tensors_as) {
  const std::vector<transforms::PyTree> args = CaseSignature(c, 0).arguments_from([&](const std::string& name) {
    const CaseInput& in = *c.find_input(name);
    if (const auto* literal = std::get_if<LiteralSpec>(&in.value)) return transforms::PyTree(literal->value);
    return transforms::PyTree(tensor_inputs.at(in.name));
  });
  TensorList results;
  for (const transforms::PyTree& leaf : transformed_program(c, false, transform_tensors_as)(args).leaves()) {
    if (!leaf.is_tensor()) throw BrokenProgram(fmt::format("a result is {}, not a tensor", leaf.describe()));
    results.push_back(leaf.tensor());
  }
  return results;
}

namespace {

// The case as it runs on the GPU: every op with a `device` argument creates its tensors on cuda
// unless the case asks for meta, as cpu programs create theirs on cpu by default.
Case placed_on_cuda(const Case& c) {
  Case placed = c;
  placed.device = Device::Cuda;
  for (OpCall& call : placed.program) {
    const OpDef* op = OpRegistry::instance().find(call.op);
    if (op == nullptr || op->schema.find_arg("device") == nullptr) continue;
    if (call.attrs.has("device") && call.attrs.get_string("device") == device_name(Device::Meta)) continue;
    call.attrs.set("device", std::string(device_name(Device::Cuda)));
  }
  return placed;
}

}  // namespace

ProgramResult run_on_reference(const Case& c, Device compute_device) {
  ProgramResult result;
  if (c.device == Device::Cuda && compute_device != Device::Cuda) {
    result.unsupported = "the in-process reference runs on cpu and meta; cuda cases need the reference-cuda backend";
    return result;
  }
  const bool on_meta = c.device == Device::Meta;
  const bool on_gpu = !on_meta && compute_device == Device::Cuda;
  random::GeneratorScope generator(c.seed);
  try {
    const Case placed = on_gpu ? placed_on_cuda(c) : c;
    const std::vector<transforms::PyTree> args = CaseSignature(placed, 0).arguments_from([&](const std::string& name) {
      const CaseInput& in = *placed.find_input(name);
      if (const auto* literal = std::get_if<LiteralSpec>(&in.value)) return transforms::PyTree(literal->value);
      const TensorSpec& spec = std::get<TensorSpec>(in.value);
      if (on_meta) return transforms::PyTree(materialize_meta_tensor(spec));
      const Tensor on_host = materialize_tensor(spec);
      return transforms::PyTree(on_gpu ? same_view_on_cuda(on_host) : on_host);
    });
    const std::vector<transforms::PyTree> outputs = transformed_program(placed, on_meta)(args).children();
    // The transforms rename the results (docs/case-format.md, Transforms).
    const std::vector<std::string> names = result_names(c);
    if (outputs.size() != names.size())
      throw BrokenProgram(fmt::format("the transformed function returned {} results but the case names {} ({})",
                                      outputs.size(), names.size(), fmt::join(names, ", ")));
    for (std::size_t k = 0; k < names.size(); ++k) {
      const std::string& name = names[k];
      try {
        if (!outputs.at(k).is_tensor()) {
          result.broken = fmt::format("result '{}' is {}, not a tensor", name, outputs.at(k).describe());
          return result;
        }
        const Tensor& output = outputs.at(k).tensor();
        const Device expected_device = on_meta ? Device::Meta : (on_gpu ? Device::Cuda : Device::Cpu);
        // (A cpu run's stray meta result is refused by tensor_data_of, naming what it lacks.) A
        // wrapped number is a host value wherever its input was: what item and is_nonzero return.
        const bool host_number = on_gpu && output.is_wrapped_number();
        if ((on_meta || on_gpu) && output.device() != expected_device && !host_number) {
          result.broken = fmt::format("result '{}' of a case run on {} is on {}", name, device_name(expected_device),
                                      device_name(output.device()));
          return result;
        }
        result.outputs.emplace_back(name, on_meta ? tensor_metadata_of(output)
                                                  : tensor_data_of(on_gpu ? to_device(output, Device::Cpu) : output));
      } catch (const CaseError& e) {
        result.broken = fmt::format("result '{}': {}", name, e.problem());
        return result;
      }
    }
  } catch (const BrokenProgram& e) {
    result.outputs.clear();
    result.broken = e.what();
  } catch (const Error& e) {
    result.outputs.clear();
    result.error = e.kind();
    result.error_message = e.what();
  } catch (const std::exception& e) {
    // Not a funcspec error: a case built in code with an undefined name, or a bug; fail the case
    // rather than the whole run.
    result.outputs.clear();
    result.broken = fmt::format("evaluation stopped by an unexpected exception: {}", e.what());
  }
  return result;
}

namespace {

struct Comparison {
  bool passed = true;
  std::string reason;
  double max_abs = 0;
  double max_ulps = 0;
};

Comparison compare_metadata(const std::string& name, const TensorData& actual, const TensorData& expected) {
  Comparison out;
  if (actual.dtype != expected.dtype || actual.shape != expected.shape) {
    out.passed = false;
    out.reason =
        fmt::format("result '{}' is {} {} but the case expects {} {}", name, dtype_name(actual.dtype),
                    shape_to_string(actual.shape), dtype_name(expected.dtype), shape_to_string(expected.shape));
  }
  return out;
}

Comparison compare(const std::string& name, const TensorData& actual, const TensorData& expected,
                   const Tolerance& tolerance) {
  Comparison out;
  if (actual.dtype != expected.dtype) {
    out.passed = false;
    out.reason = fmt::format("result '{}' has dtype {} but the case expects {}", name, dtype_name(actual.dtype),
                             dtype_name(expected.dtype));
    return out;
  }
  if (actual.shape != expected.shape) {
    out.passed = false;
    out.reason = fmt::format("result '{}' has shape {} but the case expects {}", name, shape_to_string(actual.shape),
                             shape_to_string(expected.shape));
    return out;
  }
  std::int64_t failures = 0;
  std::int64_t first_failure = -1;
  ElementError first_error;
  for (std::int64_t i = 0; i < expected.numel(); ++i) {
    const ElementError error = element_error(actual, expected, i);
    out.max_abs = std::max(out.max_abs, error.abs);
    out.max_ulps = std::max(out.max_ulps, error.ulps);
    const double bound = tolerance.atol + tolerance.rtol * std::abs(expected.element_as_double(i));
    const bool ok = error.abs <= bound || error.ulps <= static_cast<double>(tolerance.ulps);
    if (!ok && failures++ == 0) {
      first_failure = i;
      first_error = error;
    }
  }
  if (failures > 0) {
    out.passed = false;
    const bool integral = !is_floating(expected.dtype);
    auto shown = [&](const TensorData& t) {
      return integral ? fmt::format("{}", t.element_as_int(first_failure))
                      : fmt::format("{}", t.element_as_double(first_failure));
    };
    out.reason = fmt::format(
        "result '{}': {} of {} elements differ; first at {}: expected {}, got {} (abs error {} > atol {} + rtol {} * "
        "|expected|, and {} ulps > {}); max abs error {}, max ulps {}",
        name, failures, expected.numel(), index_of(first_failure, expected.shape), shown(expected), shown(actual),
        first_error.abs, tolerance.atol, tolerance.rtol, first_error.ulps, tolerance.ulps, out.max_abs, out.max_ulps);
  }
  return out;
}

}  // namespace

Evaluation judge(const Case& c, ProgramResult result) {
  Evaluation ev;
  ev.tolerance = c.expect.tolerance;
  ev.result = std::move(result);
  const ProgramResult& r = ev.result;
  auto fail = [&](std::string reason) {
    ev.verdict = Verdict::Fail;
    ev.reason = std::move(reason);
    return ev;
  };
  if (r.unsupported) {
    ev.verdict = Verdict::Unsupported;
    ev.reason = *r.unsupported;
    return ev;
  }
  if (r.fault != Fault::None) {
    ev.verdict = Verdict::Error;
    ev.reason = fmt::format("{}: {}", fault_name(r.fault), r.broken);
    return ev;
  }
  if (!r.broken.empty()) return fail(r.broken);
  if (c.expect.error) {
    const std::string_view expected = error_kind_name(*c.expect.error);
    if (!r.error) return fail(fmt::format("expected the error {} but the program returned its results", expected));
    if (*r.error != *c.expect.error)
      return fail(
          fmt::format("expected the error {} but got {}: {}", expected, error_kind_name(*r.error), r.error_message));
    ev.verdict = Verdict::Pass;
    return ev;
  }
  if (r.error)
    return fail(fmt::format("the program raised {} where values were expected: {}", error_kind_name(*r.error),
                            r.error_message));

  std::string first_reason;
  std::optional<Tolerance> failing_tolerance;
  for (const ExpectedValue& expected : c.expect.values) {
    const Tolerance tolerance = expected.tolerance.value_or(c.expect.tolerance);
    const TensorData* actual = nullptr;
    for (const auto& [name, data] : r.outputs) {
      if (name == expected.name) actual = &data;
    }
    if (actual == nullptr) {
      if (first_reason.empty()) first_reason = fmt::format("result '{}' is missing", expected.name);
      continue;
    }
    const Comparison comparison = expected.tensor.values_omitted
                                      ? compare_metadata(expected.name, *actual, expected.tensor.data)
                                      : compare(expected.name, *actual, expected.tensor.data, tolerance);
    // On a pass, the reported tolerance is the one the largest error was held to.
    if (comparison.max_abs > ev.max_abs_error || (ev.max_abs_error == 0 && expected.tolerance))
      ev.tolerance = tolerance;
    ev.max_abs_error = std::max(ev.max_abs_error, comparison.max_abs);
    ev.max_ulp_error = std::max(ev.max_ulp_error, comparison.max_ulps);
    if (!comparison.passed && first_reason.empty()) {
      first_reason = comparison.reason;
      failing_tolerance = tolerance;
    }
  }
  if (failing_tolerance) ev.tolerance = *failing_tolerance;
  if (!first_reason.empty()) return fail(first_reason);
  ev.verdict = Verdict::Pass;
  return ev;
}

}  // namespace funcspec::conformance
