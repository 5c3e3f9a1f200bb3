#pragma once
// The binary elementwise and comparison functions as functors, and the one dispatch from a
// BinaryFn or CompareFn to its functor and domain. Both backends run their kernels through
// visit_binary_fn and visit_compare_fn (cpu/binary.cpp, cuda/binary.cu), so a function is written
// once, here, and both sides call the very same scalar math (binary_math.h) in the same way.
// Host+device and templated on the element type: the cpu instantiates them for bool, int64, float,
// double and the oracle dtype, nvcc for the first four.
#include "reference/backends/common/binary_fn.h"
#include "reference/backends/common/binary_math.h"
#include "reference/backends/common/elementwise_domain.h"

namespace funcspec::common {
namespace binary {

// alpha, already converted to T, scales y.
template <typename T>
struct Add {
  T alpha;
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const { return elementwise_math::add(x, y, alpha); }
};

template <typename T>
struct Sub {
  T alpha;
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const { return elementwise_math::sub(x, y, alpha); }
};

struct Mul {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::mul(x, y);
  }
};

// True division, correctly rounded.
struct Div {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return x / y;
  }
};

struct DivTrunc {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::div_trunc(x, y);
  }
};

struct DivFloor {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::div_floor(x, y);
  }
};

struct Pow {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::pow(x, y);
  }
};

struct Maximum {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::maximum(x, y);
  }
};

struct Minimum {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::minimum(x, y);
  }
};

struct Atan2 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::atan2(x, y);
  }
};

struct Remainder {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::remainder(x, y);
  }
};

struct Xlogy {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::xlogy(x, y);
  }
};

struct Xlog1py {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::xlog1py(x, y);
  }
};

struct Hypot {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::hypot(x, y);
  }
};

struct Copysign {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::copysign(x, y);
  }
};

struct Logaddexp {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::logaddexp(x, y);
  }
};

struct Logaddexp2 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x, const T& y) const {
    return elementwise_math::logaddexp2(x, y);
  }
};

}  // namespace binary

namespace compare {

struct Eq {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x == y;
  }
};

struct Ne {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x != y;
  }
};

struct Lt {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x < y;
  }
};

struct Le {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x <= y;
  }
};

struct Gt {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x > y;
  }
};

struct Ge {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x >= y;
  }
};

struct LogicalAnd {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x != T(0) && y != T(0);
  }
};

struct LogicalOr {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x, const T& y) const {
    return x != T(0) || y != T(0);
  }
};

}  // namespace compare

// Calls visitor(functor) with the functor of `fn` for the element type T and returns true, or
// returns false, calling nothing, where fn is not defined on T. The functor returns T; `alpha`
// (add's and sub's) is already converted to T. No `default:`: a BinaryFn without its case here
// does not compile (-Wswitch).
template <typename T, typename Visitor>
bool visit_binary_fn(BinaryFn fn, const T& alpha, Visitor&& visitor) {
  switch (fn) {
    case BinaryFn::Add: return visit_on<Domain::EveryDtype, T>(visitor, binary::Add<T>{alpha});
    case BinaryFn::Sub: return visit_on<Domain::NonBool, T>(visitor, binary::Sub<T>{alpha});
    case BinaryFn::Mul: return visit_on<Domain::EveryDtype, T>(visitor, binary::Mul{});
    case BinaryFn::Div: return visit_on<Domain::Floating, T>(visitor, binary::Div{});
    case BinaryFn::DivTrunc: return visit_on<Domain::NonBool, T>(visitor, binary::DivTrunc{});
    case BinaryFn::DivFloor: return visit_on<Domain::NonBool, T>(visitor, binary::DivFloor{});
    case BinaryFn::Pow: return visit_on<Domain::NonBool, T>(visitor, binary::Pow{});
    case BinaryFn::Maximum: return visit_on<Domain::EveryDtype, T>(visitor, binary::Maximum{});
    case BinaryFn::Minimum: return visit_on<Domain::EveryDtype, T>(visitor, binary::Minimum{});
    case BinaryFn::Atan2: return visit_on<Domain::Floating, T>(visitor, binary::Atan2{});
    case BinaryFn::Remainder: return visit_on<Domain::NonBool, T>(visitor, binary::Remainder{});
    case BinaryFn::Xlogy: return visit_on<Domain::Floating, T>(visitor, binary::Xlogy{});
    case BinaryFn::Xlog1py: return visit_on<Domain::Floating, T>(visitor, binary::Xlog1py{});
    case BinaryFn::Hypot: return visit_on<Domain::Floating, T>(visitor, binary::Hypot{});
    case BinaryFn::Copysign: return visit_on<Domain::Floating, T>(visitor, binary::Copysign{});
    case BinaryFn::Logaddexp: return visit_on<Domain::Floating, T>(visitor, binary::Logaddexp{});
    case BinaryFn::Logaddexp2: return visit_on<Domain::Floating, T>(visitor, binary::Logaddexp2{});
  }
  return false;  // not a BinaryFn
}

// The same for the comparisons, whose functors return bool.
template <typename T, typename Visitor>
bool visit_compare_fn(CompareFn fn, Visitor&& visitor) {
  switch (fn) {
    case CompareFn::Eq: return visit_on<Domain::EveryDtype, T>(visitor, compare::Eq{});
    case CompareFn::Ne: return visit_on<Domain::EveryDtype, T>(visitor, compare::Ne{});
    case CompareFn::Lt: return visit_on<Domain::EveryDtype, T>(visitor, compare::Lt{});
    case CompareFn::Le: return visit_on<Domain::EveryDtype, T>(visitor, compare::Le{});
    case CompareFn::Gt: return visit_on<Domain::EveryDtype, T>(visitor, compare::Gt{});
    case CompareFn::Ge: return visit_on<Domain::EveryDtype, T>(visitor, compare::Ge{});
    case CompareFn::LogicalAnd: return visit_on<Domain::EveryDtype, T>(visitor, compare::LogicalAnd{});
    case CompareFn::LogicalOr: return visit_on<Domain::EveryDtype, T>(visitor, compare::LogicalOr{});
  }
  return false;  // not a CompareFn
}

}  // namespace funcspec::common
