#pragma once
// What every property does with a backend's answers: ask, build the case that states the truth the
// law demands (so a violation is a replayable case, NOTE: [property tests]), judge, and slice the
// examples and take their answers the way the loop side of a law needs.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/case/case.h"
#include "conformance/case/evaluate.h"
#include "property_tests/property.h"
#include "reference/core/tensor.h"
#include "reference/transforms/pytree.h"

namespace funcspec::properties {

using NamedResults = std::vector<std::pair<std::string, conformance::TensorData>>;

// The tolerance of the tolerance table (conformance/tolerances/properties.json) for `property` and
// the truth's dtype, with atol scaled by the truth's magnitude. Exact (zero) for non-floating values.
conformance::Tolerance property_tolerance(std::string_view property, const conformance::TensorData& truth);

// `c` with the expectation that its results equal `truth` within the property's tolerance.
conformance::Case expecting_values(conformance::Case c, std::string_view property, const NamedResults& truth);
// `c` with the expectation that it raises `kind`.
conformance::Case expecting_error(conformance::Case c, ErrorKind kind);
// `c` expecting what the reference answers (its values within the property's tolerance, or its
// error): the replayable case of a backend that gave no answer to `c` (crashed, hung, broke the
// protocol). Nothing when the reference cannot answer it either.
std::optional<conformance::Case> expecting_reference_answer(const conformance::Case& c, std::string_view property);

// Runs `expectation` (a case with the law's truth as its expectation) on the backend and judges:
// holds, violated (the case is the counterexample), or unsupported when the backend cannot run it.
// A backend that crashes, hangs or breaks the protocol violates the law too.
PropertyCheck judge_law(const PropertyContext& context, conformance::Case expectation, const std::string& what);

// A case's answer that the law compares against (the loop's side): the outputs, or nothing with
// `why` set when the backend raised, could not run it, or failed to answer.
struct Answer {
  std::optional<NamedResults> outputs;
  std::optional<ErrorKind> error;
  std::optional<std::string> unsupported;
  std::string fault;  // a crash, timeout or protocol break
};
Answer ask(const PropertyContext& context, const conformance::Case& c);
// A result as an Answer (what `ask` makes of the backend's).
Answer answer_of(conformance::ProgramResult result);

// Tensor <-> TensorData through the reference (cpu).
Tensor tensor_of(const conformance::TensorData& data);
conformance::TensorData data_of(const Tensor& tensor);

// Thrown out of a loop's example (NOTE: [loop-and-stack oracle]) that got no answer to compare
// vmap's with: the backend cannot run it, or crashed, hung or broke the protocol. The law's verdict.
struct LoopGaveUp {
  PropertyCheck verdict;
};

// Example `b`'s answer as the loop-and-stack oracle takes it: its outputs (their names into
// `names`), its error thrown as the example's, or LoopGaveUp.
TensorList example_outputs(const Answer& answer, std::int64_t b, std::vector<std::string>& names);

// `c` with the expectation that its results equal the loop's, `stacked` (named `names`), within
// the bound of the vmap tolerance policy for a program (NOTE: [vmap oracle tolerance], item 4).
conformance::Case expecting_loop_results(conformance::Case c, const std::vector<std::string>& names,
                                         const TensorList& stacked);

// For the engine-only laws that compare pytrees of tensors: where `vmapped` (the transform's answer)
// and `looped` (the loop's) differ in structure, shape, dtype or beyond the vmap tolerance policy's
// bound for a program, in words; empty when they agree.
std::string pytree_difference(const transforms::PyTree& vmapped, const transforms::PyTree& looped);

// Every tensor input of `c` at `in_dims[i]` (nullopt: left whole) replaced by its slice `index`.
std::vector<conformance::CaseInput> slice_inputs(const std::vector<conformance::CaseInput>& inputs,
                                                 const std::vector<std::optional<std::int64_t>>& in_dims,
                                                 std::int64_t index);

}  // namespace funcspec::properties
