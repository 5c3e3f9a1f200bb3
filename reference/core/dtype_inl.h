#pragma once
#include "reference/core/error.h"

namespace funcspec {

template <typename Fn>
decltype(auto) visit_floating_dtype(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Float32: return fn.template operator()<float>();
    case DType::Float64: return fn.template operator()<double>();
    case DType::Oracle: return fn.template operator()<oracle_t>();
    default: FUNCSPEC_UNREACHABLE("floating kernel called on a non-floating dtype");
  }
  __builtin_unreachable();
}

}  // namespace funcspec
