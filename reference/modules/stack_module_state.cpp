#include "reference/modules/stack_module_state.h"

#include "reference/api/ops.h"
#include "reference/modules/functional_call.h"

namespace funcspec::modules {
namespace {

// One dict of stacked tensors from each model's named tensors (`what` is "parameter" or "buffer").
PyTree stacked(const std::vector<NamedTensors>& per_model, const char* what) {
  const NamedTensors& first = per_model[0];
  for (std::size_t m = 1; m < per_model.size(); ++m) {
    const NamedTensors& other = per_model[m];
    for (std::size_t i = 0; i < std::max(first.size(), other.size()); ++i) {
      const std::string expected = i < first.size() ? first[i].first : std::string("(none)");
      const std::string got = i < other.size() ? other[i].first : std::string("(none)");
      FUNCSPEC_CHECK(expected == got, ErrorKind::ModuleStructureMismatch,
                     "[stack_module_state] {} {} of model {} is '{}' but of model 0 '{}'", what, i, m, got, expected);
      const Tensor& a = first[i].second;
      const Tensor& b = other[i].second;
      FUNCSPEC_CHECK(a.shape() == b.shape() && a.dtype() == b.dtype(), ErrorKind::ModuleStructureMismatch,
                     "[stack_module_state] {} '{}' is {} {} in model {} but {} {} in model 0", what, got,
                     dtype_name(b.dtype()), shape_to_string(b.shape()), m, dtype_name(a.dtype()),
                     shape_to_string(a.shape()));
    }
  }
  NamedTensors result;
  for (std::size_t i = 0; i < first.size(); ++i) {
    TensorList slices;
    for (const NamedTensors& named : per_model) slices.push_back(named[i].second);
    result.emplace_back(first[i].first, ops::stack(slices, 0));
  }
  return state_dict_of(result);
}

}  // namespace

StackedState stack_module_state(const std::vector<const Module*>& models) {
  FUNCSPEC_CHECK(!models.empty(), ErrorKind::InvalidArgument, "[stack_module_state] needs at least one model, got 0");
  for (std::size_t m = 0; m < models.size(); ++m) {
    FUNCSPEC_CHECK(models[m] != nullptr, ErrorKind::InvalidArgument, "[stack_module_state] model {} is null", m);
    FUNCSPEC_CHECK(models[m]->type_name() == models[0]->type_name(), ErrorKind::ModuleStructureMismatch,
                   "[stack_module_state] model {} is a {} but model 0 a {}", m, models[m]->type_name(),
                   models[0]->type_name());
    FUNCSPEC_CHECK(models[m]->training() == models[0]->training(), ErrorKind::ModuleStructureMismatch,
                   "[stack_module_state] model {} is in {} mode but model 0 in {} mode", m,
                   models[m]->training() ? "training" : "evaluation",
                   models[0]->training() ? "training" : "evaluation");
  }
  std::vector<NamedTensors> parameters;
  std::vector<NamedTensors> buffers;
  for (const Module* m : models) {
    parameters.push_back(m->named_parameters());
    buffers.push_back(m->named_buffers());
  }
  return {stacked(parameters, "parameter"), stacked(buffers, "buffer")};
}

}  // namespace funcspec::modules
