#include "reference/modules/module.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "reference/api/ops.h"

namespace funcspec::modules {
namespace {

// "layers.1.bias" -> ("layers.1", "bias"); a name without dots has an empty path.
std::pair<std::string_view, std::string_view> split_last(std::string_view dotted_name) {
  const std::size_t dot = dotted_name.rfind('.');
  if (dot == std::string_view::npos) return {{}, dotted_name};
  return {dotted_name.substr(0, dot), dotted_name.substr(dot + 1)};
}

std::string joined(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

}  // namespace

bool no_keyword_arguments(const PyTree& kwargs) {
  return kwargs.is_none() || (kwargs.kind() == PyTree::Kind::Dict && kwargs.children().empty());
}

std::string describe_call(const std::vector<PyTree>& args, const PyTree& kwargs) {
  std::vector<std::string> parts;
  for (const PyTree& a : args) parts.push_back(a.describe());
  if (!no_keyword_arguments(kwargs)) parts.push_back("**" + kwargs.describe());
  return fmt::format("({})", fmt::join(parts, ", "));
}

Tensor Module::operator()(const Tensor& input) {
  const PyTree result = forward({PyTree(input)}, PyTree::dict({}));
  FUNCSPEC_CHECK(result.is_tensor(), ErrorKind::InvalidArgument,
                 "[{}] forward returned {}, not one tensor; call it with argument lists to get a pytree", type_name(),
                 result.describe());
  return result.tensor();
}

void Module::check_new_name(const std::string& name) const {
  FUNCSPEC_CHECK(!name.empty() && name.find('.') == std::string::npos, ErrorKind::InvalidArgument,
                 "[{}] state and submodule names must be non-empty and hold no '.', got '{}'", type_name(), name);
  const auto taken = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& entry) {
      if constexpr (requires { entry.name; })
        return entry.name == name;
      else
        return entry.first == name;
    });
  };
  FUNCSPEC_CHECK(!taken(parameters_) && !taken(buffers_) && !taken(children_), ErrorKind::InvalidArgument,
                 "[{}] '{}' is already a parameter, buffer or submodule of this module", type_name(), name);
}

void Module::register_parameter(std::string name, Tensor value) {
  check_new_name(name);
  parameters_.push_back({std::move(name), std::move(value)});
}

void Module::register_buffer(std::string name, Tensor value) {
  check_new_name(name);
  buffers_.push_back({std::move(name), std::move(value)});
}

void Module::register_module(std::string name, std::shared_ptr<Module> module) {
  check_new_name(name);
  FUNCSPEC_CHECK(module != nullptr, ErrorKind::InvalidArgument, "[{}] submodule '{}' is null", type_name(), name);
  children_.emplace_back(std::move(name), std::move(module));
}

const Tensor& Module::parameter(std::string_view name) const {
  for (const Slot& s : parameters_) {
    if (s.name == name) return s.value;
  }
  fail(ErrorKind::InvalidArgument, "[{}] has no parameter '{}'", type_name(), name);
}

const Tensor& Module::buffer(std::string_view name) const {
  for (const Slot& s : buffers_) {
    if (s.name == name) return s.value;
  }
  fail(ErrorKind::InvalidArgument, "[{}] has no buffer '{}'", type_name(), name);
}

Module& Module::submodule(std::string_view name) const {
  for (const auto& [child_name, child] : children_) {
    if (child_name == name) return *child;
  }
  fail(ErrorKind::InvalidArgument, "[{}] has no submodule '{}'", type_name(), name);
}

const Module::Slot* Module::find_slot(std::string_view dotted_name) const {
  const auto [path, leaf] = split_last(dotted_name);
  const Module* owner = this;
  std::string_view rest = path;
  while (!rest.empty()) {
    const std::size_t dot = rest.find('.');
    const std::string_view head = rest.substr(0, dot);
    const auto it = std::find_if(owner->children_.begin(), owner->children_.end(),
                                 [&](const auto& child) { return child.first == head; });
    if (it == owner->children_.end()) return nullptr;
    owner = it->second.get();
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  for (const std::vector<Slot>* slots : {&owner->parameters_, &owner->buffers_}) {
    for (const Slot& s : *slots) {
      if (s.name == leaf) return &s;
    }
  }
  return nullptr;
}

Module::Slot* Module::find_slot(std::string_view dotted_name) {
  return const_cast<Slot*>(std::as_const(*this).find_slot(dotted_name));
}

bool Module::has_state(std::string_view dotted_name) const {
  const Slot* slot = find_slot(dotted_name);
  return slot != nullptr && slot->value.defined();
}

const Tensor& Module::state(std::string_view dotted_name) const {
  const Slot* slot = find_slot(dotted_name);
  FUNCSPEC_CHECK(slot != nullptr, ErrorKind::InvalidArgument, "[{}] has no parameter or buffer '{}'", type_name(),
                 dotted_name);
  return slot->value;
}

Tensor Module::swap_state(std::string_view dotted_name, Tensor value) {
  Slot* slot = find_slot(dotted_name);
  FUNCSPEC_CHECK(slot != nullptr, ErrorKind::InvalidArgument, "[{}] has no parameter or buffer '{}'", type_name(),
                 dotted_name);
  std::swap(slot->value, value);
  return value;
}

void Module::collect(SlotKind kind, const std::string& prefix, NamedTensors& out) const {
  for (const Slot& s : kind == SlotKind::Parameter ? parameters_ : buffers_) {
    if (s.value.defined()) out.emplace_back(joined(prefix, s.name), s.value);
  }
  for (const auto& [name, child] : children_) child->collect(kind, joined(prefix, name), out);
}

namespace {

// `all` with each tensor kept under its first name only.
NamedTensors first_names_only(NamedTensors all) {
  NamedTensors unique;
  for (auto& entry : all) {
    const bool seen =
        std::any_of(unique.begin(), unique.end(), [&](const auto& kept) { return kept.second.is_same(entry.second); });
    if (!seen) unique.push_back(std::move(entry));
  }
  return unique;
}

}  // namespace

NamedTensors Module::named_parameters(bool remove_duplicate) const {
  NamedTensors all;
  collect(SlotKind::Parameter, "", all);
  return remove_duplicate ? first_names_only(std::move(all)) : all;
}

NamedTensors Module::named_buffers(bool remove_duplicate) const {
  NamedTensors all;
  collect(SlotKind::Buffer, "", all);
  return remove_duplicate ? first_names_only(std::move(all)) : all;
}

void Module::collect_modules(const std::string& prefix, std::vector<std::pair<std::string, Module*>>& out) {
  out.emplace_back(prefix, this);
  for (const auto& [name, child] : children_) child->collect_modules(joined(prefix, name), out);
}

std::vector<std::pair<std::string, Module*>> Module::named_modules() {
  std::vector<std::pair<std::string, Module*>> out;
  collect_modules("", out);
  return out;
}

Module& Module::train(bool mode) {
  training_ = mode;
  for (const auto& child : children_) child.second->train(mode);
  return *this;
}

namespace {

// The tensor `original` maps to, computing it with `make` the first time.
template <typename Make>
Tensor memoized(std::vector<std::pair<const TensorImpl*, Tensor>>& memo, const Tensor& original, Make&& make) {
  if (!original.defined()) return original;
  for (const auto& [impl, mapped] : memo) {
    if (impl == original.impl_ptr().get()) return mapped;
  }
  Tensor mapped = make(original);
  memo.emplace_back(original.impl_ptr().get(), mapped);
  return mapped;
}

}  // namespace

void Module::move_into(Device device, TensorMemo& memo) {
  const auto move = [&](const Tensor& t) -> Tensor {
    if (t.device() == device) return t;
    if (device == Device::Meta) return Tensor::empty(t.shape(), t.dtype(), Device::Meta);
    FUNCSPEC_CHECK(t.device() != Device::Meta, ErrorKind::DataDependentOnMeta,
                   "[{}.to] a meta tensor of shape {} has no values to move to {}", type_name(),
                   shape_to_string(t.shape()), device_name(device));
    fail(ErrorKind::InvalidArgument, "[{}.to] the reference moves modules between cpu and meta only, not to {}",
         type_name(), device_name(device));
  };
  for (std::vector<Slot>* slots : {&parameters_, &buffers_}) {
    for (Slot& s : *slots) s.value = memoized(memo, s.value, move);
  }
  for (const auto& child : children_) child.second->move_into(device, memo);
}

Module& Module::to(Device device) {
  TensorMemo memo;
  move_into(device, memo);
  return *this;
}

std::shared_ptr<Module> Module::deepcopy_into(TensorMemo& memo) const {
  std::shared_ptr<Module> copy = shallow_copy();
  FUNCSPEC_INTERNAL_ASSERT(copy != nullptr && copy.get() != this, "shallow_copy must return a new module");
  const auto clone = [](const Tensor& t) { return ops::clone(t); };
  for (std::vector<Slot>* slots : {&copy->parameters_, &copy->buffers_}) {
    for (Slot& s : *slots) s.value = memoized(memo, s.value, clone);
  }
  for (auto& child : copy->children_) child.second = child.second->deepcopy_into(memo);
  return copy;
}

std::shared_ptr<Module> Module::deepcopy() const {
  TensorMemo memo;
  return deepcopy_into(memo);
}

PyTree TensorModule::forward(const std::vector<PyTree>& args, const PyTree& kwargs) {
  FUNCSPEC_CHECK(args.size() == 1 && args[0].is_tensor() && no_keyword_arguments(kwargs), ErrorKind::InvalidArgument,
                 "[{}] forward takes one tensor and no keyword arguments, but was called with {}", type_name(),
                 describe_call(args, kwargs));
  return PyTree(forward_tensor(args[0].tensor()));
}

}  // namespace funcspec::modules
