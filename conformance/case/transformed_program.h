#pragma once
// A case's program under its transforms, as a function on the engine (NOTE: [case transforms on
// the engine] in transformed_program.cpp): what every way of running a case on the reference calls.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/case/case.h"
#include "reference/core/tensor.h"
#include "reference/transforms/vmap.h"

namespace funcspec::conformance {

// A program whose results do not fit what the case says of them: no value can judge it.
class BrokenProgram : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The program, as a function of the case's inputs in order, under the case's transforms (the
// outermost applied last). The transforms' own tensors (tangents, cotangents) are made on
// `tensors_on`, where the case's inputs are (placed_tensor), and floating ones are converted to
// `floating_as` when it is given. The function refers to `c`, which must outlive it.
// The values the program stores outside the function (OpCall::stored_as) go into `stored` when it
// is given, as each run of the program stores them (the last run's remain).
using StoredValues = std::map<std::string, Tensor, std::less<>>;
transforms::PyFunction transformed_program(const Case& c, Device tensors_on,
                                           std::optional<DType> floating_as = std::nullopt,
                                           std::shared_ptr<StoredValues> stored = nullptr);

// Runs `steps` on `values` (tensors by name), adding what they define; `where` names the list in
// messages ("program", "after.program").
void run_steps(const std::vector<OpCall>& steps, std::map<std::string, Tensor, std::less<>>& values,
               std::string_view where, StoredValues* stored = nullptr);

// The arguments of that function: the case's inputs in order (a functional_call's state as one
// dict, CaseSignature), literal inputs as the case gives them and tensor inputs from `tensor_of`.
std::vector<transforms::PyTree> program_arguments(const Case& c,
                                                  const std::function<Tensor(const CaseInput&)>& tensor_of);

}  // namespace funcspec::conformance
