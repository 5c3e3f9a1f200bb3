#include "reference/modules/functional_call.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace funcspec::modules {

// NOTE: [functional_call]
// functional_call(module, state, args, kwargs) is module.forward(args, kwargs) with the state's
// tensors in the module's slots (NOTE: [module state]) for that one call:
// 1. The state is a dict, or a tuple of dicts merged into one; a name in two of the dicts is
//    module_state_conflict (which value would win is ambiguous), a value that is not a tensor
//    module_state_mismatch.
// 2. tie_weights: slots holding one tensor under several names are one state entry. A tensor given
//    for any of those names is used for all of them; tensors given for two of them must be the
//    same handle, or it is module_state_conflict (torch.func raises likewise).
// 3. Every given name must name a parameter or buffer of the module, else module_state_mismatch
//    (torch.func's non-strict call would set an attribute the module never reads; a misspelt
//    name silently ignored is the worse failure). With strict, every parameter and buffer must be
//    given (after step 2), else module_state_mismatch; without it a name not given keeps the
//    module's own tensor. Both lists of offending names are in the message.
// 4. Each given tensor must have the shape of the module's own tensor for that name, else
//    module_state_mismatch. The shape is the *logical* one: under vmap the example's shape, so
//    stacked state vmapped along its dim 0 fits a module of one model's shapes. Dtype and device
//    are not checked: a meta module (no storage) runs on cpu state, and a float32 module on
//    float64 or oracle state, which is how finite differences in the oracle dtype run a model.
//    torch.func checks no shapes; this is the spec's addition, for an error at the call rather
//    than a shape error deep inside forward.
// 5. The slots get the given handles (no tensor is written), forward runs, and the module's own
//    handles go back into the slots when forward returns or throws. Writes forward makes into its
//    state (BatchNorm's running statistics) therefore land in the caller's tensors, as in torch.func.
// All checks happen before any slot changes. Transforms see through the call because forward is
// written with ops: the state may hold vmap's batched tensors or AD's duals.

namespace {

using StateEntries = std::vector<std::pair<std::string, Tensor>>;

const Tensor* find_entry(const StateEntries& entries, std::string_view name) {
  for (const auto& [key, value] : entries) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  for (const std::string& n : names) quoted.push_back("'" + n + "'");
  return fmt::format("{}", fmt::join(quoted, ", "));
}

// Step 1: the dict, or the tuple's dicts merged.
StateEntries merged_state(const Module& module, const PyTree& given) {
  std::vector<const PyTree*> dicts;
  if (given.kind() == PyTree::Kind::Dict) {
    dicts.push_back(&given);
  } else if (given.kind() == PyTree::Kind::Tuple || given.kind() == PyTree::Kind::List) {
    for (const PyTree& d : given.children()) {
      FUNCSPEC_CHECK(d.kind() == PyTree::Kind::Dict, ErrorKind::InvalidArgument,
                     "[functional_call] of {}: the state must be a dict or a tuple of dicts, got {}",
                     module.type_name(), given.describe());
      dicts.push_back(&d);
    }
  } else {
    fail(ErrorKind::InvalidArgument, "[functional_call] of {}: the state must be a dict or a tuple of dicts, got {}",
         module.type_name(), given.describe());
  }
  StateEntries entries;
  std::vector<std::size_t> source;  // which dict each entry came from
  for (std::size_t d = 0; d < dicts.size(); ++d) {
    const PyTree& dict = *dicts[d];
    for (std::size_t k = 0; k < dict.keys().size(); ++k) {
      const std::string& name = dict.keys()[k];
      for (std::size_t e = 0; e < entries.size(); ++e) {
        FUNCSPEC_CHECK(entries[e].first != name, ErrorKind::ModuleStateConflict,
                       "[functional_call] of {}: '{}' appears in dicts {} and {} of the state; which value to use is "
                       "ambiguous",
                       module.type_name(), name, source[e], d);
      }
      const PyTree& value = dict.children()[k];
      FUNCSPEC_CHECK(value.is_tensor(), ErrorKind::ModuleStateMismatch,
                     "[functional_call] of {}: state '{}' is {}, not a tensor", module.type_name(), name,
                     value.describe());
      entries.emplace_back(name, value.tensor());
      source.push_back(d);
    }
  }
  return entries;
}

// Step 2: every name of a tied tensor gets the value given for any of them.
StateEntries with_tied_names(const Module& module, StateEntries entries) {
  NamedTensors all = module.named_parameters(false);
  const NamedTensors buffers = module.named_buffers(false);
  all.insert(all.end(), buffers.begin(), buffers.end());
  std::vector<bool> grouped(all.size(), false);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (grouped[i]) continue;
    std::vector<std::string> tied;
    for (std::size_t j = i; j < all.size(); ++j) {
      if (all[j].second.is_same(all[i].second)) {
        tied.push_back(all[j].first);
        grouped[j] = true;
      }
    }
    if (tied.size() < 2) continue;
    const Tensor* chosen = nullptr;
    std::string chosen_name;
    for (const std::string& name : tied) {
      const Tensor* value = find_entry(entries, name);
      if (value == nullptr) continue;
      FUNCSPEC_CHECK(chosen == nullptr || chosen->is_same(*value), ErrorKind::ModuleStateConflict,
                     "[functional_call] of {}: '{}' and '{}' are tied (one tensor of the module) but are given "
                     "different tensors; give one of them, or call with tie_weights=false",
                     module.type_name(), chosen_name, name);
      if (chosen == nullptr) {
        chosen = value;
        chosen_name = name;
      }
    }
    if (chosen == nullptr) continue;
    const Tensor value = *chosen;
    for (const std::string& name : tied) {
      if (find_entry(entries, name) == nullptr) entries.emplace_back(name, value);
    }
  }
  return entries;
}

// Steps 3 and 4.
void check_fits(const Module& module, const StateEntries& entries, bool strict) {
  std::vector<std::string> unexpected;
  for (const auto& [name, value] : entries) {
    if (!module.has_state(name)) unexpected.push_back(name);
  }
  std::vector<std::string> missing;
  if (strict) {
    for (const NamedTensors& named : {module.named_parameters(false), module.named_buffers(false)}) {
      for (const auto& entry : named) {
        if (find_entry(entries, entry.first) == nullptr) missing.push_back(entry.first);
      }
    }
  }
  if (!unexpected.empty() || !missing.empty()) {
    std::vector<std::string> problems;
    if (!unexpected.empty()) problems.push_back("unexpected name(s) " + quoted_list(unexpected));
    if (!missing.empty()) problems.push_back("missing name(s) " + quoted_list(missing) + " (strict)");
    std::vector<std::string> known;
    for (const NamedTensors& named : {module.named_parameters(false), module.named_buffers(false)}) {
      for (const auto& entry : named) known.push_back(entry.first);
    }
    fail(ErrorKind::ModuleStateMismatch, "[functional_call] of {}: {}; the module's state is {}", module.type_name(),
         fmt::join(problems, "; "), known.empty() ? std::string("empty") : quoted_list(known));
  }
  for (const auto& [name, value] : entries) {
    const Tensor& own = module.state(name);
    FUNCSPEC_CHECK(value.shape() == own.shape(), ErrorKind::ModuleStateMismatch,
                   "[functional_call] of {}: state '{}' has shape {} but the module's has shape {}", module.type_name(),
                   name, shape_to_string(value.shape()), shape_to_string(own.shape()));
  }
}

// Step 5: the given handles in the slots for the guard's lifetime.
class SwappedState {
 public:
  SwappedState(Module& module, const StateEntries& entries) : module_(module) {
    for (const auto& [name, value] : entries) originals_.emplace_back(name, module_.swap_state(name, value));
  }
  ~SwappedState() {
    for (auto it = originals_.rbegin(); it != originals_.rend(); ++it) module_.swap_state(it->first, it->second);
  }
  SwappedState(const SwappedState&) = delete;
  SwappedState& operator=(const SwappedState&) = delete;

 private:
  Module& module_;
  StateEntries originals_;
};

}  // namespace

PyTree functional_call(Module& module, const PyTree& parameters_and_buffers, const PyTree& args, const PyTree& kwargs,
                       FunctionalCallOptions options) {
  FUNCSPEC_CHECK(kwargs.is_none() || kwargs.kind() == PyTree::Kind::Dict, ErrorKind::InvalidArgument,
                 "[functional_call] of {}: kwargs must be a dict or None, got {}", module.type_name(),
                 kwargs.describe());
  StateEntries entries = merged_state(module, parameters_and_buffers);
  if (options.tie_weights) entries = with_tied_names(module, std::move(entries));
  check_fits(module, entries, options.strict);
  const std::vector<PyTree> positional =
      args.kind() == PyTree::Kind::Tuple ? args.children() : std::vector<PyTree>{args};
  SwappedState swapped(module, entries);
  return module.forward(positional, kwargs.is_none() ? PyTree::dict({}) : kwargs);
}

PyTree state_dict_of(const NamedTensors& named) {
  std::vector<std::pair<std::string, PyTree>> items;
  for (const auto& [name, tensor] : named) items.emplace_back(name, PyTree(tensor));
  return PyTree::dict(std::move(items));
}

}  // namespace funcspec::modules
