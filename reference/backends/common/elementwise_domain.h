#pragma once
// The element types an elementwise function is defined on. Each function's dispatch
// (unary_functors.h, binary_functors.h) states its domain next to its functor, and both backends
// honour it through visit_on: a kernel is instantiated only for the element types of its
// function's domain, so neither backend compiles (or can call) a floating function on int64.
// Plain C++17: the CUDA kernels (nvcc) dispatch through it too.
#include <cstdint>
#include <type_traits>

#include "reference/core/dtype.h"

namespace funcspec::common {

enum class Domain {
  EveryDtype,  // bool, int64 and the floating types (the op layer rejects bool where the op does)
  NonBool,     // int64 and the floating types
  Floating,    // the floating types: the op layer has converted integer inputs or rejected them
};

template <Domain kDomain, typename T>
inline constexpr bool in_domain_v = kDomain == Domain::EveryDtype ? true
                                    : kDomain == Domain::NonBool  ? !std::is_same_v<T, bool>
                                                                  : is_floating_v<T>;

// Calls visitor(functor) and returns true where T is in kDomain; returns false otherwise, without
// instantiating the visitor for the functor (so no kernel of a function outside its domain exists).
template <Domain kDomain, typename T, typename Visitor, typename Functor>
bool visit_on(Visitor& visitor, const Functor& functor) {
  if constexpr (in_domain_v<kDomain, T>) {
    visitor(functor);
    return true;
  } else {
    return false;
  }
}

}  // namespace funcspec::common
