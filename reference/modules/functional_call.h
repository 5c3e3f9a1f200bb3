#pragma once
// functional_call(module, parameters_and_buffers, args, kwargs): the module's forward run with the
// given tensors in place of its own parameters and buffers, as torch.func.functional_call.
// NOTE: [functional_call] in functional_call.cpp states the rules.
#include "reference/modules/module.h"

namespace funcspec::modules {

struct FunctionalCallOptions {
  // Every parameter and buffer of the module must be given (module_state_mismatch otherwise);
  // without it, a name not given keeps the module's own tensor for the call.
  bool strict = false;
  // A tensor given for one name of tied slots is used for all of them (module_state_conflict when
  // they are given different tensors); without it, each name is its own slot.
  bool tie_weights = true;
};

// `parameters_and_buffers`: a dict from dotted state names to tensors, or a tuple (or list) of such
// dicts, e.g. (params, buffers) from stack_module_state. `args`: a tuple is the positional
// arguments; anything else is the one positional argument. `kwargs`: a dict, or None.
PyTree functional_call(Module& module, const PyTree& parameters_and_buffers, const PyTree& args,
                       const PyTree& kwargs = PyTree::dict({}), FunctionalCallOptions options = {});

// The module's named_parameters() or named_buffers() as the dict functional_call takes (PyTorch's
// `dict(model.named_parameters())`).
PyTree state_dict_of(const NamedTensors& named);

}  // namespace funcspec::modules
