#include "conformance/case/case.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace funcspec::conformance {
namespace {

std::string describe(const std::string& file, const std::string& json_path, const std::string& problem) {
  std::string where = file.empty() ? std::string("case") : file;
  if (!json_path.empty()) where += fmt::format(" at {}", json_path);
  return fmt::format("{}: {}", where, problem);
}

template <typename T>
T load_element(const std::vector<std::uint8_t>& bytes, std::int64_t i) {
  T value;
  std::memcpy(&value, bytes.data() + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
  return value;
}

}  // namespace

CaseError::CaseError(std::string file, std::string json_path, std::string problem)
    : std::runtime_error(describe(file, json_path, problem)),
      file_(std::move(file)),
      json_path_(std::move(json_path)),
      problem_(std::move(problem)) {}

std::optional<std::int64_t> bounded_numel(std::span<const std::int64_t> shape) {
  std::int64_t count = 1;
  for (std::int64_t size : shape) {
    if (size == 0) return 0;
  }
  for (std::int64_t size : shape) {
    if (size < 0 || __builtin_mul_overflow(count, size, &count) || count > kMaxCaseElements) return std::nullopt;
  }
  return count;
}

std::optional<std::int64_t> strided_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                           std::int64_t offset) {
  if (offset < 0 || offset >= kMaxCaseElements || shape.size() != strides.size()) return std::nullopt;
  std::int64_t reach = offset;
  const bool empty = std::any_of(shape.begin(), shape.end(), [](std::int64_t size) { return size == 0; });
  if (!empty) {
    for (std::size_t d = 0; d < shape.size(); ++d) {
      std::int64_t span = 0;
      if (shape[d] < 0 || strides[d] < 0 || __builtin_mul_overflow(shape[d] - 1, strides[d], &span) ||
          __builtin_add_overflow(reach, span, &reach) || reach >= kMaxCaseElements)
        return std::nullopt;
    }
  }
  return reach + 1;
}

bool is_case_dtype(DType dtype) { return dtype != DType::Oracle; }

double TensorData::element_as_double(std::int64_t i) const {
  switch (dtype) {
    case DType::Bool: return bytes[static_cast<std::size_t>(i)] != 0 ? 1.0 : 0.0;
    case DType::Int64: return static_cast<double>(load_element<std::int64_t>(bytes, i));
    case DType::Float32: return load_element<float>(bytes, i);
    case DType::Float64: return load_element<double>(bytes, i);
    case DType::Oracle: break;
  }
  throw CaseError("", "", "oracle values have no byte layout in a case");
}

std::int64_t TensorData::element_as_int(std::int64_t i) const {
  if (dtype == DType::Int64) return load_element<std::int64_t>(bytes, i);
  if (dtype == DType::Bool) return bytes[static_cast<std::size_t>(i)] != 0 ? 1 : 0;
  return cast_scalar<std::int64_t>(element_as_double(i));
}

std::string_view transform_name(const Transform& transform) {
  struct Namer {
    std::string_view operator()(const VmapTransform&) const { return "vmap"; }
    std::string_view operator()(const GradTransform& t) const { return t.and_value ? "grad_and_value" : "grad"; }
    std::string_view operator()(const VjpTransform&) const { return "vjp"; }
    std::string_view operator()(const JvpTransform& t) const { return t.linearize ? "linearize" : "jvp"; }
    std::string_view operator()(const JacobianTransform& t) const { return t.forward ? "jacfwd" : "jacrev"; }
    std::string_view operator()(const HessianTransform&) const { return "hessian"; }
    std::string_view operator()(const FunctionalizeTransform&) const { return "functionalize"; }
    std::string_view operator()(const FunctionalCallTransform&) const { return "functional_call"; }
  };
  return std::visit(Namer{}, transform);
}

std::string_view tier_name(Tier tier) {
  switch (tier) {
    case Tier::Smoke: return "smoke";
    case Tier::Pr: return "pr";
    case Tier::Nightly: return "nightly";
    case Tier::Exhaustive: return "exhaustive";
  }
  return "pr";
}

std::optional<Tier> parse_tier(std::string_view name) {
  for (Tier t : {Tier::Smoke, Tier::Pr, Tier::Nightly, Tier::Exhaustive}) {
    if (tier_name(t) == name) return t;
  }
  return std::nullopt;
}

const CaseInput* Case::find_input(std::string_view name) const {
  for (const CaseInput& in : inputs) {
    if (in.name == name) return &in;
  }
  return nullptr;
}

namespace {

// One positional argument of the function a transform wraps: a case input, or (after
// functional_call) the module state grouping several inputs.
struct FunctionArg {
  std::string name;
  std::vector<std::string> members;
  bool literal = false;
};

struct FunctionSignature {
  std::vector<FunctionArg> args;
  std::vector<std::string> results;
};

class SignatureWalker {
 public:
  SignatureWalker(const Case& c) : case_(c) {
    for (const CaseInput& in : c.inputs) signature_.args.push_back({in.name, {in.name}, in.is_literal()});
    signature_.results = c.outputs;
  }

  std::vector<std::string> run() {
    for (std::size_t i = case_.transforms.size(); i-- > 0;) {
      path_ = fmt::format("transforms[{}]", i);
      std::visit([&](const auto& t) { apply(t); }, case_.transforms[i]);
    }
    return signature_.results;
  }

 private:
  [[noreturn]] void bad(const std::string& field, const std::string& problem) const {
    throw CaseError("", field.empty() ? path_ : path_ + "." + field, problem);
  }

  bool is_tensor_input(const std::string& name) const {
    const CaseInput* in = case_.find_input(name);
    return in != nullptr && !in->is_literal();
  }

  std::vector<std::string> tensor_inputs() const {
    std::vector<std::string> names;
    for (const CaseInput& in : case_.inputs) {
      if (!in.is_literal()) names.push_back(in.name);
    }
    return names;
  }

  // The inputs a derivative is taken with respect to, in the order the selectors give them.
  std::vector<std::string> resolve(const ArgNums& argnums) const {
    std::vector<std::string> names;
    const auto n = static_cast<std::int64_t>(signature_.args.size());
    for (const auto& selector : argnums.selectors) {
      std::vector<std::string> picked;
      if (const auto* position = std::get_if<std::int64_t>(&selector)) {
        if (*position < -n || *position >= n)
          bad("argnums", fmt::format("argnum {} is out of range for a function of {} arguments", *position, n));
        const FunctionArg& arg = signature_.args[static_cast<std::size_t>(*position < 0 ? *position + n : *position)];
        if (arg.literal) bad("argnums", fmt::format("cannot differentiate with respect to the literal '{}'", arg.name));
        picked = arg.members;
      } else {
        const std::string& name = std::get<std::string>(selector);
        if (!case_.find_input(name)) bad("argnums", fmt::format("'{}' is not an input of the case", name));
        if (!is_tensor_input(name))
          bad("argnums", fmt::format("cannot differentiate with respect to the literal '{}'", name));
        picked = {name};
      }
      for (std::string& p : picked) {
        if (std::find(names.begin(), names.end(), p) != names.end())
          bad("argnums", fmt::format("'{}' is selected twice", p));
        names.push_back(std::move(p));
      }
    }
    if (names.empty()) bad("argnums", "selects no argument");
    return names;
  }

  // Splits the wrapped function's results into the differentiated outputs and the aux results.
  std::pair<std::vector<std::string>, std::vector<std::string>> split_aux(bool has_aux, bool single) const {
    const std::vector<std::string>& results = signature_.results;
    if (has_aux) {
      if (results.size() < 2)
        bad("has_aux", fmt::format("has_aux needs the function to return an output and aux results, but it "
                                   "returns {} result(s)",
                                   results.size()));
      return {{results[0]}, {results.begin() + 1, results.end()}};
    }
    if (single && results.size() != 1)
      bad("", fmt::format("needs a function with one result, but it returns {} ({}); set has_aux to return more",
                          results.size(), fmt::join(results, ", ")));
    return {results, {}};
  }

  void check_dims(const DimSpec& dims, const std::string& field, const std::vector<std::string>& names,
                  const char* what) const {
    if (dims.form == DimSpec::Form::ByPosition && dims.by_position.size() != names.size())
      bad(field, fmt::format("gives {} dims for {} {}", dims.by_position.size(), names.size(), what));
    if (dims.form == DimSpec::Form::ByName) {
      for (const auto& [name, dim] : dims.by_name) {
        if (std::find(names.begin(), names.end(), name) == names.end())
          bad(field + "." + name, fmt::format("'{}' is not one of the {} ({})", name, what, fmt::join(names, ", ")));
      }
    }
  }

  void apply(const VmapTransform& t) {
    std::vector<std::string> arg_names;
    for (const FunctionArg& a : signature_.args) arg_names.push_back(a.name);
    // By name, a dim may also be given to a single member of the module state.
    for (const FunctionArg& a : signature_.args) {
      if (a.members.size() != 1 || a.members[0] != a.name)
        arg_names.insert(arg_names.end(), a.members.begin(), a.members.end());
    }
    if (t.in_dims.form == DimSpec::Form::ByPosition) {
      check_dims(t.in_dims, "in_dims",
                 {arg_names.begin(), arg_names.begin() + static_cast<std::ptrdiff_t>(signature_.args.size())},
                 "arguments");
    } else {
      check_dims(t.in_dims, "in_dims", arg_names, "arguments");
    }
    check_dims(t.out_dims, "out_dims", signature_.results, "results");
    if (t.chunk_size && *t.chunk_size < 1)
      bad("chunk_size", fmt::format("chunk_size must be positive or null, got {}", *t.chunk_size));
  }

  // Nested forward (or reverse) levels would name two results alike (jvp of jvp: the outer level's
  // tangent of y and the inner level's are both jvp(y)); the later one gets the first free suffix
  // #2, #3, ... so every result keeps a name of its own (docs/case-format.md).
  static void push_unique(std::vector<std::string>& results, const std::string& name) {
    std::string unique = name;
    for (int k = 2; std::find(results.begin(), results.end(), unique) != results.end(); ++k)
      unique = fmt::format("{}#{}", name, k);
    results.push_back(std::move(unique));
  }

  void apply(const GradTransform& t) {
    const std::vector<std::string> wrt = resolve(t.argnums);
    auto [outputs, aux] = split_aux(t.has_aux, true);
    std::vector<std::string> results;
    for (const std::string& x : wrt) results.push_back(fmt::format("grad({}, {})", outputs[0], x));
    if (t.and_value) results.push_back(outputs[0]);
    results.insert(results.end(), aux.begin(), aux.end());
    signature_.results = std::move(results);
  }

  void apply(const VjpTransform& t) {
    auto [outputs, aux] = split_aux(t.has_aux, false);
    std::set<std::string> given;
    for (const NamedTensor& ct : t.cotangents) given.insert(ct.name);
    const std::set<std::string> wanted(outputs.begin(), outputs.end());
    if (given != wanted)
      bad("cotangents", fmt::format("needs one cotangent for each of the results {} but got {}",
                                    fmt::join(wanted, ", "), fmt::join(given, ", ")));
    std::vector<std::string> results = signature_.results;
    // Integer and bool inputs carry no derivative: vjp differentiates the floating ones.
    for (const std::string& x : tensor_inputs()) {
      const auto& spec = std::get<TensorSpec>(case_.find_input(x)->value);
      if (is_floating(spec.data.dtype)) push_unique(results, fmt::format("vjp({})", x));
    }
    signature_.results = std::move(results);
  }

  void apply(const JvpTransform& t) {
    if (t.tangents.empty()) bad("tangents", "needs a tangent for at least one tensor input");
    for (const NamedTensor& tangent : t.tangents) {
      if (!is_tensor_input(tangent.name))
        bad("tangents." + tangent.name, fmt::format("'{}' is not a tensor input of the case", tangent.name));
    }
    auto [outputs, aux] = split_aux(t.has_aux, false);
    std::vector<std::string> results = signature_.results;
    for (const std::string& y : outputs) push_unique(results, fmt::format("jvp({})", y));
    signature_.results = std::move(results);
  }

  void apply(const JacobianTransform& t) {
    const std::vector<std::string> wrt = resolve(t.argnums);
    auto [outputs, aux] = split_aux(t.has_aux, false);
    if (t.chunk_size && *t.chunk_size < 1)
      bad("chunk_size", fmt::format("chunk_size must be positive or null, got {}", *t.chunk_size));
    std::vector<std::string> results;
    for (const std::string& y : outputs) {
      for (const std::string& x : wrt) results.push_back(fmt::format("jac({}, {})", y, x));
    }
    results.insert(results.end(), aux.begin(), aux.end());
    signature_.results = std::move(results);
  }

  void apply(const HessianTransform& t) {
    const std::vector<std::string> wrt = resolve(t.argnums);
    std::vector<std::string> results;
    for (const std::string& y : signature_.results) {
      for (const std::string& a : wrt) {
        for (const std::string& b : wrt) results.push_back(fmt::format("hess({}, {}, {})", y, a, b));
      }
    }
    signature_.results = std::move(results);
  }

  void apply(const FunctionalizeTransform&) {}

  void apply(const FunctionalCallTransform& t) {
    std::vector<std::string> state = t.parameters;
    state.insert(state.end(), t.buffers.begin(), t.buffers.end());
    if (state.empty()) bad("", "names no parameters or buffers");
    std::vector<FunctionArg> rest;
    std::set<std::string> seen;
    for (const std::string& name : state) {
      if (!seen.insert(name).second) bad("", fmt::format("'{}' is named twice in the module state", name));
    }
    for (const FunctionArg& a : signature_.args) {
      const bool is_member = a.members.size() == 1 && a.members[0] == a.name && seen.count(a.name) > 0;
      if (!is_member) rest.push_back(a);
    }
    for (const std::string& name : state) {
      const bool top_level = std::any_of(signature_.args.begin(), signature_.args.end(), [&](const FunctionArg& a) {
        return a.name == name && a.members.size() == 1 && a.members[0] == name;
      });
      if (!top_level || !is_tensor_input(name))
        bad("", fmt::format("'{}' is not a tensor argument of the function (already in a module state?)", name));
    }
    signature_.args.clear();
    signature_.args.push_back({"state", state, false});
    signature_.args.insert(signature_.args.end(), rest.begin(), rest.end());
  }

  const Case& case_;
  FunctionSignature signature_;
  std::string path_;
};

}  // namespace

std::vector<std::string> result_names(const Case& c) {
  std::vector<std::string> names = SignatureWalker(c).run();
  names.insert(names.end(), c.after_outputs.begin(), c.after_outputs.end());
  return names;
}

bool OpCall::is_autograd_call() const { return op == kAutogradGrad || op == kAutogradBackward; }

bool operator==(const OpCall& a, const OpCall& b) {
  return a.outs == b.outs && a.op == b.op && a.args == b.args && a.attrs.values() == b.attrs.values() &&
         a.no_grad == b.no_grad && a.grad_modes == b.grad_modes && a.stored_as == b.stored_as;
}

std::string_view call_mode_name(CallMode mode) {
  switch (mode) {
    case CallMode::Plain: return "plain";
    case CallMode::NoGrad: return "no_grad";
    case CallMode::EnableGrad: return "enable_grad";
    case CallMode::InferenceMode: return "inference_mode";
  }
  return "plain";
}

std::optional<CallMode> parse_call_mode(std::string_view name) {
  for (CallMode mode : {CallMode::Plain, CallMode::NoGrad, CallMode::EnableGrad, CallMode::InferenceMode}) {
    if (call_mode_name(mode) == name) return mode;
  }
  return std::nullopt;
}

std::vector<std::string_view> case_features(const Case& c) {
  std::vector<std::string_view> features;
  const bool aliased =
      std::any_of(c.inputs.begin(), c.inputs.end(), [](const CaseInput& in) { return !in.alias_of.empty(); });
  if (aliased) features.emplace_back("aliased_inputs");
  const bool stored = !c.after.empty() || std::any_of(c.program.begin(), c.program.end(),
                                                      [](const OpCall& step) { return !step.stored_as.empty(); });
  if (stored) features.emplace_back("stored_values");
  const bool modes =
      std::any_of(c.call_modes.begin(), c.call_modes.end(), [](CallMode m) { return m != CallMode::Plain; });
  if (modes) features.emplace_back("call_modes");
  const bool before_call = std::any_of(c.transforms.begin(), c.transforms.end(), [](const Transform& t) {
    if (const auto* vjp = std::get_if<VjpTransform>(&t)) return !vjp->before_call.empty();
    if (const auto* jvp = std::get_if<JvpTransform>(&t)) return !jvp->before_call.empty();
    return false;
  });
  if (before_call) features.emplace_back("before_call");
  const bool regions =
      std::any_of(c.program.begin(), c.program.end(), [](const OpCall& step) { return !step.grad_modes.empty(); });
  if (regions) features.emplace_back("grad_mode_regions");
  const bool autograd =
      std::any_of(c.program.begin(), c.program.end(), [](const OpCall& step) { return step.is_autograd_call(); });
  if (autograd) features.emplace_back("autograd_api");
  return features;
}

}  // namespace funcspec::conformance
