#pragma once
// Reading a generated case's inputs: which are tensors (the rest are literals), their specs, which
// are floating. Shared by the generators and the laws that rewrite or slice inputs.
#include <variant>

#include "conformance/case/case.h"

namespace funcspec::properties {

inline bool is_tensor_input(const conformance::CaseInput& in) { return !in.is_literal(); }
// The spec of a tensor input (not a literal).
inline const conformance::TensorSpec& spec_of(const conformance::CaseInput& in) {
  return std::get<conformance::TensorSpec>(in.value);
}
inline bool is_floating_input(const conformance::CaseInput& in) {
  return is_tensor_input(in) && is_floating(spec_of(in).data.dtype);
}

}  // namespace funcspec::properties
