#pragma once
// NOTE: [generated transform stacks]
// A generated program runs under a random stack of transforms, outermost first, up to depth 3:
// vmap, grad, vjp, jvp, jacrev, jacfwd, linearize and hessian in any order. What a transform needs from the
// function it wraps (a tangent per floating input, a cotangent per result, a rank-0 result for
// grad) depends on the transforms inside it, so the stack is completed from the inside out, asking
// the reference for the shapes each inner function produces. A grad over a function whose first
// result is not rank 0 becomes a vjp (the same law, one level more general), and a hessian over a
// function that does not return one rank-0 result a jacfwd, so few plans are wasted.
//
// Inputs are those of the outermost function: each vmap in the stack adds a batch dim to the inputs
// it maps, whose examples are further draws of the program (NOTE: [generated programs]).
#include <rapidcheck.h>

#include <optional>
#include <string>
#include <vector>

#include "conformance/case/case.h"
#include "property_tests/program_generator.h"
#include "reference/core/tensor.h"

namespace funcspec::properties {

enum class StackTransform { Vmap, Grad, Vjp, Jvp, Jacrev, Jacfwd, Linearize, Hessian };
std::string_view stack_transform_name(StackTransform transform);
inline constexpr StackTransform kAllStackTransforms[] = {
    StackTransform::Vmap,   StackTransform::Grad,   StackTransform::Vjp,       StackTransform::Jvp,
    StackTransform::Jacrev, StackTransform::Jacfwd, StackTransform::Linearize, StackTransform::Hessian};

// One level of a stack: which transform and the small integers its options are drawn from.
struct StackLevelPlan {
  StackTransform transform = StackTransform::Vmap;
  unsigned batch_size = 2;      // vmap: 0..3
  unsigned in_dims = 0;         // vmap: per-input choice bits (0: dim 0, 1: the dim dim_picks gives, 2: not mapped)
  unsigned out_dims = 0;        // vmap: which dim in range for every result (0: dim 0; negative dims included)
  unsigned chunk = 0;           // vmap and jacrev: 0: none, else chunk_size
  std::uint32_t seed = 0;       // tangent and cotangent values
  std::uint32_t dim_picks = 0;  // vmap: 4 bits per input, which dim of its range (negative dims included)
};

// `depth` levels (a range) of transforms drawn from `allowed`.
rc::Gen<std::vector<StackLevelPlan>> gen_stack_plan(int min_depth, int max_depth,
                                                    std::vector<StackTransform> allowed = {
                                                        std::begin(kAllStackTransforms),
                                                        std::end(kAllStackTransforms)});

// The program under the stack, as a case whose inputs are those of the outermost function, or
// nothing when the stack does not apply (the program raises at some level, a vmap finds nothing to
// map). Level 0 is outermost.
std::optional<conformance::Case> apply_stack(const GeneratedProgram& program, const std::vector<StackLevelPlan>& stack);

// The engine tensors of a case's tensor inputs, by name.
std::map<std::string, Tensor, std::less<>> input_tensors(const conformance::Case& c);

// "vmap(in_dims=(0, None), out_dims=0, chunk_size=2) ∘ grad(argnums=(0,))": the stack of a case.
std::string describe_transforms(const conformance::Case& c);

}  // namespace funcspec::properties
