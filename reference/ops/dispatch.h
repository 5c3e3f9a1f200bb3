#pragma once
#include <string_view>

#include "reference/ops/attrs.h"
#include "reference/ops/op_def.h"

namespace funcspec {

// NOTE: [dispatch]
// Every op call, from user code, a composite or the op layer itself, goes through `call`. It binds
// the attributes, checks the inputs against the schema, then by kind: decomposes (composite and
// derived variants), computes a view's geometry, or runs a primitive: canonicalize (promotion and
// broadcasting as further op calls), infer the outputs' metadata, allocate them on the inputs'
// device and run that device's kernel. On meta nothing past infer runs. This single entry point is
// where the interpreter stack of transforms intercepts op calls.
TensorList call(const OpDef& op, const TensorList& inputs, const Attrs& attrs = {});
TensorList call(std::string_view op, const TensorList& inputs, const Attrs& attrs = {});
// For ops with exactly one output.
Tensor call_one(std::string_view op, const TensorList& inputs, const Attrs& attrs = {});

}  // namespace funcspec
