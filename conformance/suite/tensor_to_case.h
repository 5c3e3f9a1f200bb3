#pragma once
// Turning live reference tensors into case data: a generated test builds its inputs and its
// expectation from tensors, then judges every backend by the same portable case.
#include <string>

#include "conformance/case/case.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// The values of a cpu tensor with its geometry: a non-contiguous tensor keeps its strides and
// storage offset as an explicit-strides layout, so a backend receives the same memory layout.
TensorSpec tensor_spec_of(const Tensor& tensor);

// A named case input: a wrapped number becomes a literal, anything else a tensor.
CaseInput case_input_of(const std::string& name, const Tensor& tensor);

// Whether the tensor's elements are not simply laid out in C order from offset 0.
bool is_strided(const Tensor& tensor);

}  // namespace funcspec::conformance
