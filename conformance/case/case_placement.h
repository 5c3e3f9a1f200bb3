#pragma once
// Where the reference runs a case, and how its tensors get there and back. A meta case runs on
// meta (geometry, no values) and a cpu case on cpu; the reference-cuda backend re-executes a cpu
// case on the GPU (docs/cuda.md): the program's tensor-creating ops create on cuda, the inputs and
// the transforms' own tensors (tangents, cotangents) move there with their layouts, and the results
// come back to the host to be judged.
#include <string>

#include "conformance/case/case.h"
#include "reference/core/tensor.h"

namespace funcspec::conformance {

// The case as it runs on the GPU: every op with a `device` argument creates its tensors on cuda
// unless the case asks for meta, as cpu programs create theirs on cpu by default.
Case placed_on_cuda(const Case& c);

// The tensor `spec` describes, made on `device`: on meta, its geometry alone; on cuda, with its
// layout kept (the whole buffer moves and the same view is taken of it, so strided kernels see
// transposed, sliced and expanded inputs as the cpu kernels do).
Tensor placed_tensor(const TensorSpec& spec, Device device);

// Whether a result of a case run on `device` is where the run computed. A cpu run accepts any
// result here: tensor_data_of refuses a stray meta one, naming what it lacks. A wrapped number is
// a host value wherever its input was: what item and is_nonzero return.
bool is_on_run_device(const Tensor& result, Device device);

// What is judged of a result of a case run on `device`: its values, brought back to the host, or
// for a meta run its dtype and shape alone.
TensorData host_values_of(const Tensor& result, Device device);

}  // namespace funcspec::conformance
