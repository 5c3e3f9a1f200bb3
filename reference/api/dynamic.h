#pragma once
#include "reference/ops/dispatch.h"

namespace funcspec::ops {

// Value-dependent ops. item and is_nonzero return their value as a 0-dim wrapped number.
inline Tensor item(const Tensor& self) { return call_one("item", {self}); }
inline Tensor is_nonzero(const Tensor& self) { return call_one("is_nonzero", {self}); }
inline Tensor nonzero(const Tensor& self) { return call_one("nonzero", {self}); }
inline Tensor masked_select(const Tensor& self, const Tensor& mask) { return call_one("masked_select", {self, mask}); }

}  // namespace funcspec::ops
