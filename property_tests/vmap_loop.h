#pragma once
// The loop side of every "vmap equals the loop" law, shared by the vmap and gradient properties.
#include <optional>
#include <vector>

#include "conformance/case/case.h"
#include "property_tests/program_generator.h"
#include "property_tests/property.h"
#include "property_tests/transform_stack.h"

namespace funcspec::properties {

// Inside a property: a generated program under vmap ∘ forced_inner ∘ (0..inner_max_depth levels of
// inner_allowed), with RC_PRE discarding stacks that do not apply.
std::optional<conformance::Case> draw_vmapped_case(const ProgramOptions& options,
                                                   std::vector<StackTransform> inner_allowed, int inner_max_depth,
                                                   std::vector<StackLevelPlan> forced_inner);

// The dim of each case input that in_dims maps (nullopt: not mapped), for a vmap whose in_dims are
// all one dim, by position over the case inputs, or by input name (as over a functional_call, whose
// state members are named one by one).
std::vector<std::optional<std::int64_t>> in_dims_per_input(const conformance::Case& c,
                                                           const conformance::DimSpec& in_dims);

// `c` (outermost transform a vmap with in_dims_per_input and one out_dim for all) against the loop
// (NOTE: [loop-and-stack oracle]): the rest of the stack run by the backend on each example, the
// results stacked at out_dims. An example that raises makes the truth that error. Values are held
// to the vmap tolerance policy's bound for a program (NOTE: [vmap oracle tolerance], item 4).
PropertyCheck check_vmap_equals_loop(const PropertyContext& context, const conformance::Case& c);

}  // namespace funcspec::properties
