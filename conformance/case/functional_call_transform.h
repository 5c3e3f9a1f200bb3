#pragma once
// The case format's `functional_call` transform on the reference (docs/case-format.md): "the
// program is the module; the listed inputs are its state; argument 0 becomes the whole state".
// NOTE: [case functional_call] in functional_call_transform.cpp says how it runs.
//
// After a functional_call the function no longer takes the case's inputs one per argument, so
// every transform wrapped around it needs the function's signature at its depth: CaseSignature.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/case/case.h"
#include "reference/transforms/pytree.h"
#include "reference/transforms/vmap.h"

namespace funcspec::conformance {

// One positional argument of a function in a case's transform stack: a case input, or the module
// state of a functional_call, a dict of several inputs (the members) named "state" as in
// result_names.
struct CaseArgument {
  std::string name;
  std::vector<std::string> members;  // the inputs it holds, in order; {name} for a plain input
  bool state = false;
};

class CaseSignature {
 public:
  // The arguments of the function that c.transforms[first_transform..] make of the program (the
  // program's own, the case inputs in order, when first_transform is past the last transform).
  CaseSignature(const Case& c, std::size_t first_transform);

  const std::vector<CaseArgument>& arguments() const { return arguments_; }
  // The argument values given a value for each case input: a state is the dict of its members.
  std::vector<transforms::PyTree> arguments_from(
      const std::function<transforms::PyTree(const std::string& input)>& value_of) const;
  // vmap's in_dims over these arguments. By name, a dim may be given to a whole state ("state")
  // or to its members one by one.
  transforms::PyTree in_dims(const DimSpec& spec) const;
  // The position of the argument named `name`. A member of a state is not an argument of its own
  // (CaseError: select the state instead).
  std::int64_t position(const std::string& name) const;
  // The case input each leaf of the arguments stands for, in leaf order (a state's members in turn).
  std::vector<std::string> leaf_inputs() const;

 private:
  std::vector<CaseArgument> arguments_;
};

// functional_call over `f`, whose arguments are `inner`: the result takes the state dict first and
// then the rest of `inner`'s arguments in order.
transforms::PyFunction functional_call_transform(transforms::PyFunction f, const FunctionalCallTransform& transform,
                                                 const CaseSignature& inner);

}  // namespace funcspec::conformance
