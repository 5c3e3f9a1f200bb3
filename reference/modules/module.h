#pragma once
// NOTE: [module state]
// A Module is a forward function with named state, as torch.nn.Module: parameters (what training
// changes), buffers (state the forward itself may update, such as BatchNorm's running statistics)
// and submodules, each in registration order. A submodule's state is named by its dotted path
// (`0.weight`, `layers.1.bias`), so a whole tree of modules is one flat, ordered dict of tensors:
// what named_parameters and named_buffers return, what functional_call takes and what
// stack_module_state stacks.
//
// The state lives in *slots*: a slot holds a Tensor handle, and forward reads the handle that is
// there when it runs. functional_call puts the caller's tensors into the slots for one call and
// puts the module's own handles back afterwards, so the module's tensors are never written by it
// (NOTE: [functional_call]). An in-place update inside forward (BatchNorm's running statistics)
// writes into whatever tensor the slot holds: the module's own outside functional_call, the
// caller's inside it, as PyTorch does.
//
// Two slots holding the very same handle are *tied* (a decoder reusing an encoder's weight): they
// are one tensor under two names. named_parameters and named_buffers list a tied tensor once,
// under the first name, unless asked for every name.
//
// A slot may be empty (an undefined Tensor): a Linear without bias, a BatchNorm whose running
// statistics were removed. Empty slots have no name in the state, as PyTorch's None parameters.
//
// Forward is written with ops only (call, call_one, ops::), so every transform sees through it.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/device.h"
#include "reference/core/dtype.h"
#include "reference/core/tensor.h"
#include "reference/transforms/pytree.h"

namespace funcspec::modules {

using transforms::PyTree;

// Where a module's state is created, and in what dtype (PyTorch's `device=` and `dtype=` factory
// arguments). On meta the state has shapes and dtypes but no storage and no values.
struct ModuleOptions {
  DType dtype = DType::Float32;
  Device device = Device::Cpu;
};

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// A layer's per-spatial-dim option over two dims (Conv2d's and MaxPool2d's kernel, stride, ...).
using Pair = std::array<std::int64_t, 2>;

class Module {
 public:
  virtual ~Module() = default;
  Module& operator=(const Module&) = delete;

  // The class's name, for messages and for stack_module_state's check that models match ("Linear").
  virtual std::string_view type_name() const = 0;
  // The computation, on positional arguments and keyword arguments (a dict PyTree).
  virtual PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) = 0;
  PyTree operator()(const std::vector<PyTree>& args, const PyTree& kwargs = PyTree::dict({})) {
    return forward(args, kwargs);
  }
  // For a module taking one tensor and returning one: forward({input}) as a tensor.
  Tensor operator()(const Tensor& input);

  // This module's own slot `name` (no dots); an undefined Tensor when the slot is empty.
  const Tensor& parameter(std::string_view name) const;
  const Tensor& buffer(std::string_view name) const;
  // The direct submodule `name`.
  Module& submodule(std::string_view name) const;

  // The state of the whole tree, dotted names in registration order (this module's parameters,
  // then each submodule's, depth first). With `remove_duplicate`, a tied tensor appears once,
  // under its first name, as PyTorch's default; empty slots never appear.
  NamedTensors named_parameters(bool remove_duplicate = true) const;
  NamedTensors named_buffers(bool remove_duplicate = true) const;
  // Every module of the tree with its dotted path, this one first (as ""), depth first.
  std::vector<std::pair<std::string, Module*>> named_modules();
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const { return children_; }

  // Whether a dotted name names a parameter or buffer of the tree that holds a tensor.
  bool has_state(std::string_view dotted_name) const;
  // The tensor in the slot a dotted name refers to, and replacing it (returns the previous handle).
  // This is how functional_call and replace_all_batch_norm_modules change state without writing
  // into any tensor; `value` may be undefined to empty the slot.
  const Tensor& state(std::string_view dotted_name) const;
  Tensor swap_state(std::string_view dotted_name, Tensor value);

  // Training mode (the default) or evaluation mode, for this module and every submodule: Dropout
  // drops and BatchNorm uses and updates batch statistics only in training mode.
  bool training() const { return training_; }
  Module& train(bool mode = true);
  Module& eval() { return train(false); }

  // Moves every tensor of the tree to `device`. To meta, the storage is released and shapes and
  // dtypes remain (the memory-light base model of torch.func's ensembling example); tied slots
  // stay tied. A meta tensor has no values to move back (data_dependent_on_meta); cuda is not a
  // target of this reference (invalid_argument).
  Module& to(Device device);

  // A copy of the whole tree with its own tensors (cloned, ties kept), as Python's copy.deepcopy.
  std::shared_ptr<Module> deepcopy() const;

 protected:
  Module() = default;
  Module(const Module&) = default;  // what shallow_copy uses: the copy shares tensors and children

  // Names are non-empty, hold no dot, and are unique among a module's parameters, buffers and
  // submodules (invalid_argument otherwise).
  void register_parameter(std::string name, Tensor value);
  void register_buffer(std::string name, Tensor value);
  void register_module(std::string name, std::shared_ptr<Module> module);
  // A copy of this object that shares its tensors and submodules; deepcopy then replaces them.
  virtual std::shared_ptr<Module> shallow_copy() const = 0;

 private:
  struct Slot {
    std::string name;
    Tensor value;
  };
  enum class SlotKind { Parameter, Buffer };

  void check_new_name(const std::string& name) const;
  Slot* find_slot(std::string_view dotted_name);
  const Slot* find_slot(std::string_view dotted_name) const;
  void collect(SlotKind kind, const std::string& prefix, NamedTensors& out) const;
  void collect_modules(const std::string& prefix, std::vector<std::pair<std::string, Module*>>& out);
  // deepcopy and to() map each distinct tensor once, so tied slots stay tied.
  using TensorMemo = std::vector<std::pair<const TensorImpl*, Tensor>>;
  std::shared_ptr<Module> deepcopy_into(TensorMemo& memo) const;
  void move_into(Device device, TensorMemo& memo);

  std::vector<Slot> parameters_;
  std::vector<Slot> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

// A module whose forward takes one tensor and returns one, with no keyword arguments: every layer
// here but Sequential's container logic. Subclasses implement forward_tensor.
class TensorModule : public Module {
 public:
  using Module::operator();
  PyTree forward(const std::vector<PyTree>& args, const PyTree& kwargs) final;
  virtual Tensor forward_tensor(const Tensor& input) = 0;

 protected:
  TensorModule() = default;
  TensorModule(const TensorModule&) = default;
};

// True for kwargs that hold nothing: None or an empty dict.
bool no_keyword_arguments(const PyTree& kwargs);

// The arguments a forward got, for messages: "(tensor[2, 3], {'scale': ...})".
std::string describe_call(const std::vector<PyTree>& args, const PyTree& kwargs);

}  // namespace funcspec::modules
