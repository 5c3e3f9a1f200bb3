#pragma once
// A case's tensors as engine tensors, and engine results back as a case's values: the inputs a
// backend runs a case on and the results it judges.
#include "conformance/case/case.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// The tensor an input spec describes, laid out as its layout says (on cpu).
Tensor materialize_tensor(const TensorSpec& spec);
// The same geometry on meta (no storage): the input of a meta case.
Tensor materialize_meta_tensor(const TensorSpec& spec);
// A contiguous copy of a cpu tensor's values; an oracle-dtype tensor is refused (CaseError).
TensorData tensor_data_of(const Tensor& tensor);
// Dtype and shape alone, no bytes: a result of a meta case.
TensorData tensor_metadata_of(const Tensor& tensor);

}  // namespace funcspec::conformance
