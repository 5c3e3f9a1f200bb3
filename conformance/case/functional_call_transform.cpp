#include "conformance/case/functional_call_transform.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "reference/modules/functional_call.h"

namespace funcspec::conformance {

// NOTE: [case functional_call]
// A case's functional_call turns the function f it wraps (the program, or the program under the
// transforms listed after it) into a module and calls it through modules::functional_call, so the
// reference's case results come from the same code as its engine API:
// - The module's state is the listed parameters, then buffers, under their input names; a dotted
//   name ("fc.weight") is a slot of a submodule ("fc"), as torch names state. Its forward takes
//   f's other arguments in order, reads the state members from its slots, and calls f.
// - The module is built at each call, on meta, with the shapes and dtypes of the state the call
//   gets: a case has no module apart from its inputs, so the state it is given is its declaration
//   (under vmap, the example's shapes). A case therefore cannot give a state that does not fit;
//   functional_call's checks of names and shapes are engine-tested (docs/SPEC.md, MOD).
// - strict and tie_weights go to functional_call unchanged; a case's state holds no tied tensors,
//   so tie_weights changes nothing here.
namespace {

using transforms::PyFunction;
using transforms::PyTree;

bool names_include(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The module a case's functional_call calls: a node holding state slots and, at the root, the
// function to run.
class CaseProgramModule : public modules::Module {
 public:
  CaseProgramModule(PyFunction program, std::vector<CaseArgument> arguments, std::vector<std::string> members)
      : program_(std::move(program)), arguments_(std::move(arguments)), members_(std::move(members)) {}
  CaseProgramModule() = default;  // a submodule: state only

  std::string_view type_name() const override { return program_ ? "CaseProgram" : "CaseProgramState"; }

  // Declares `dotted_name` with the metadata of `like`, on meta.
  void declare(std::string_view dotted_name, const Tensor& like, bool parameter) {
    const std::size_t dot = dotted_name.find('.');
    if (dot == std::string_view::npos) {
      Tensor slot = Tensor::empty(like.shape(), like.dtype(), Device::Meta);
      if (parameter) {
        register_parameter(std::string(dotted_name), std::move(slot));
      } else {
        register_buffer(std::string(dotted_name), std::move(slot));
      }
      return;
    }
    const std::string head(dotted_name.substr(0, dot));
    std::shared_ptr<CaseProgramModule> child;
    for (const auto& [name, module] : named_children()) {
      if (name == head) child = std::dynamic_pointer_cast<CaseProgramModule>(module);
    }
    if (child == nullptr) {
      child = std::make_shared<CaseProgramModule>();
      register_module(head, child);
    }
    child->declare(dotted_name.substr(dot + 1), like, parameter);
  }

  PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) override {
    FUNCSPEC_CHECK(program_ != nullptr, ErrorKind::InvalidArgument, "[CaseProgram] a state submodule has no forward");
    FUNCSPEC_CHECK(modules::no_keyword_arguments(kwargs), ErrorKind::InvalidArgument,
                   "[CaseProgram] takes no keyword arguments, got {}", kwargs.describe());
    std::vector<PyTree> inner;
    std::size_t next = 0;
    for (const CaseArgument& a : arguments_) {
      if (!a.state && names_include(members_, a.name)) {
        inner.emplace_back(state(a.name));
        continue;
      }
      FUNCSPEC_CHECK(next < args.size(), ErrorKind::InvalidArgument,
                     "[CaseProgram] called with {} arguments besides its state, but needs more", args.size());
      inner.push_back(args[next++]);
    }
    FUNCSPEC_CHECK(next == args.size(), ErrorKind::InvalidArgument,
                   "[CaseProgram] called with {} arguments besides its state, but takes {}", args.size(), next);
    return program_(inner);
  }

 protected:
  CaseProgramModule(const CaseProgramModule&) = default;
  std::shared_ptr<Module> shallow_copy() const override {
    return std::shared_ptr<Module>(new CaseProgramModule(*this));
  }

 private:
  PyFunction program_;
  std::vector<CaseArgument> arguments_;
  std::vector<std::string> members_;
};

// A dim given by name: nothing when the name is not listed.
std::optional<std::optional<std::int64_t>> named_dim(const DimSpec& spec, const std::string& name) {
  for (const auto& [named, dim] : spec.by_name) {
    if (named == name) return dim;
  }
  return std::nullopt;
}

PyTree dim_leaf(const std::optional<std::int64_t>& dim) { return dim ? PyTree(*dim) : PyTree::none(); }

}  // namespace

CaseSignature::CaseSignature(const Case& c, std::size_t first_transform) {
  for (const CaseInput& in : c.inputs) arguments_.push_back({in.name, {in.name}, false});
  for (std::size_t i = c.transforms.size(); i-- > first_transform;) {
    const auto* call = std::get_if<FunctionalCallTransform>(&c.transforms[i]);
    if (call == nullptr) continue;
    std::vector<std::string> members = call->parameters;
    members.insert(members.end(), call->buffers.begin(), call->buffers.end());
    std::vector<CaseArgument> regrouped{{"state", members, true}};
    for (CaseArgument& a : arguments_) {
      if (a.state || !names_include(members, a.name)) regrouped.push_back(std::move(a));
    }
    arguments_ = std::move(regrouped);
  }
}

std::vector<PyTree> CaseSignature::arguments_from(
    const std::function<PyTree(const std::string& input)>& value_of) const {
  std::vector<PyTree> values;
  for (const CaseArgument& a : arguments_) {
    if (!a.state) {
      values.push_back(value_of(a.name));
      continue;
    }
    std::vector<std::pair<std::string, PyTree>> items;
    for (const std::string& m : a.members) items.emplace_back(m, value_of(m));
    values.push_back(PyTree::dict(std::move(items)));
  }
  return values;
}

PyTree CaseSignature::in_dims(const DimSpec& spec) const {
  switch (spec.form) {
    case DimSpec::Form::All: return dim_leaf(spec.all);
    case DimSpec::Form::ByPosition: {
      std::vector<PyTree> items;
      for (const auto& dim : spec.by_position) items.push_back(dim_leaf(dim));
      return PyTree::tuple(std::move(items));
    }
    case DimSpec::Form::ByName: {
      std::vector<PyTree> items;
      for (const CaseArgument& a : arguments_) {
        const auto whole = named_dim(spec, a.name);
        if (!a.state || whole) {
          items.push_back(dim_leaf(whole.value_or(std::nullopt)));
          continue;
        }
        std::vector<std::pair<std::string, PyTree>> members;
        for (const std::string& m : a.members)
          members.emplace_back(m, dim_leaf(named_dim(spec, m).value_or(std::nullopt)));
        items.push_back(PyTree::dict(std::move(members)));
      }
      return PyTree::tuple(std::move(items));
    }
  }
  return PyTree::none();
}

std::int64_t CaseSignature::position(const std::string& name) const {
  for (std::size_t k = 0; k < arguments_.size(); ++k) {
    const CaseArgument& a = arguments_[k];
    if (!a.state && a.name == name) return static_cast<std::int64_t>(k);
    if (a.state && names_include(a.members, name))
      throw CaseError("", "argnums",
                      fmt::format("'{}' is a member of the module state (argument {}), not an argument of its own; "
                                  "select the state by its position",
                                  name, k));
  }
  throw CaseError("", "argnums", fmt::format("'{}' is not an argument of the transformed function", name));
}

std::vector<std::string> CaseSignature::leaf_inputs() const {
  std::vector<std::string> names;
  for (const CaseArgument& a : arguments_) names.insert(names.end(), a.members.begin(), a.members.end());
  return names;
}

PyFunction functional_call_transform(PyFunction f, const FunctionalCallTransform& transform,
                                     const CaseSignature& inner) {
  return [f = std::move(f), transform, arguments = inner.arguments()](const std::vector<PyTree>& args) {
    FUNCSPEC_CHECK(!args.empty(), ErrorKind::InvalidArgument, "[functional_call] called without a state");
    const PyTree& state = args[0];
    std::vector<std::string> members = transform.parameters;
    members.insert(members.end(), transform.buffers.begin(), transform.buffers.end());
    const auto module = std::make_shared<CaseProgramModule>(f, arguments, members);
    if (state.kind() == PyTree::Kind::Dict) {
      for (std::size_t k = 0; k < state.keys().size(); ++k) {
        const std::string& name = state.keys()[k];
        const PyTree& value = state.children()[k];
        // Anything else is left undeclared, for functional_call to refuse with its own error.
        if (value.is_tensor() && names_include(members, name))
          module->declare(name, value.tensor(), names_include(transform.parameters, name));
      }
    }
    const modules::FunctionalCallOptions options{transform.strict, transform.tie_weights};
    return modules::functional_call(*module, state, PyTree::tuple({args.begin() + 1, args.end()}), PyTree::dict({}),
                                    options);
  };
}

}  // namespace funcspec::conformance
