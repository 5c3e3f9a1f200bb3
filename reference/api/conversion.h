#pragma once
#include "reference/ops/dispatch.h"

namespace funcspec::ops {

inline Tensor to_dtype(const Tensor& self, DType dtype) { return call_one("to_dtype", {self}, {{"dtype", dtype}}); }
inline Tensor clone(const Tensor& self) { return call_one("clone", {self}); }
inline Tensor contiguous(const Tensor& self) { return call_one("contiguous", {self}); }
inline Tensor detach(const Tensor& self) { return call_one("detach", {self}); }
inline Tensor copy_(const Tensor& self, const Tensor& src) { return call_one("copy_", {self, src}); }
// A literal operand, as a wrapped number (NOTE: [type promotion]).
inline Tensor lit(const Scalar& value) { return Tensor::wrapped_scalar(value); }

}  // namespace funcspec::ops
