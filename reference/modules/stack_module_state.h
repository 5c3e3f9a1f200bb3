#pragma once
// stack_module_state(models) -> (parameters, buffers), as torch.func.stack_module_state: for each
// state name of the models, the models' tensors stacked along a new dim 0, in two dicts. With a
// copy of one model on meta as the base (it holds no storage), vmap over functional_call on the
// base with in_dims (0, 0, ...) runs every model at once (torch.func's ensembling example).
#include <concepts>
#include <memory>
#include <vector>

#include "reference/modules/module.h"

namespace funcspec::modules {

struct StackedState {
  PyTree parameters;  // dict: name -> [len(models), ...the model's shape]
  PyTree buffers;
};

// The models must have the same class, the same mode (training or evaluation) and the same state:
// the same names in the same order, and for each name the same shape and dtype. Otherwise
// module_structure_mismatch, naming the first model and name that differ; no models at all is
// invalid_argument. Tied tensors appear once, under their first name, as named_parameters gives
// them (functional_call's tie_weights gives the value to every name again).
StackedState stack_module_state(const std::vector<const Module*>& models);

template <typename M>
requires std::derived_from<M, Module> StackedState stack_module_state(const std::vector<std::shared_ptr<M>>& models) {
  std::vector<const Module*> raw;
  raw.reserve(models.size());
  for (const auto& m : models) raw.push_back(m.get());
  return stack_module_state(raw);
}

}  // namespace funcspec::modules
