#include "conformance/suite/tensor_to_case.h"

#include <algorithm>

#include "conformance/case/case_tensors.h"

namespace funcspec::conformance {

bool is_strided(const Tensor& tensor) {
  if (tensor.storage_offset() != 0) return true;
  const Strides contiguous = contiguous_strides(tensor.shape());
  for (std::size_t d = 0; d < tensor.shape().size(); ++d) {
    // A size-1 dim is never stepped over, so its stride says nothing about the layout.
    if (tensor.shape()[d] != 1 && tensor.strides()[d] != contiguous[d]) return true;
  }
  return false;
}

TensorSpec tensor_spec_of(const Tensor& tensor) {
  TensorSpec spec;
  spec.data = tensor_data_of(tensor);
  spec.base64 = false;
  const Strides& strides = tensor.strides();
  const bool representable = std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s >= 0; });
  if (is_strided(tensor) && representable) {
    spec.layout.strides = std::vector<std::int64_t>(strides.begin(), strides.end());
    spec.layout.offset = tensor.storage_offset();
  }
  return spec;
}

CaseInput case_input_of(const std::string& name, const Tensor& tensor) {
  if (!tensor.is_wrapped_number()) return {name, tensor_spec_of(tensor)};
  switch (tensor.dtype()) {
    case DType::Bool: return {name, LiteralSpec{Scalar(tensor.data<bool>()[0])}};
    case DType::Int64: return {name, LiteralSpec{Scalar(tensor.data<std::int64_t>()[0])}};
    default: return {name, LiteralSpec{Scalar(tensor.to_vector<double>().at(0))}};
  }
}

}  // namespace funcspec::conformance
