#pragma once
// The unary elementwise functions as functors, and the one dispatch from a UnaryFn to its functor
// and domain. Both backends run their kernels through visit_unary_fn: the cpu maps the functor over
// tensors (cpu/unary.cpp), the GPU over device views (cuda/unary.cu), so a function is written
// once, here, and both sides call the very same scalar math (unary_math.h) in the same way.
// Host+device and templated on the element type: the cpu instantiates them for bool, int64, float,
// double and the oracle dtype, nvcc for the first four.
#include "reference/backends/common/elementwise_domain.h"
#include "reference/backends/common/unary_fn.h"
#include "reference/backends/common/unary_math.h"
#include "reference/core/cast_scalar.h"

namespace funcspec::common {
namespace unary {

// --- keep the input's dtype

struct Neg {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::neg(x);
  }
};

struct Abs {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::abs(x);
  }
};

struct Sign {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::sign(x);
  }
};

struct Square {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::square(x);
  }
};

struct Relu {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::relu(x);
  }
};

struct Floor {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::floor(x);
  }
};

struct Ceil {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::ceil(x);
  }
};

struct Round {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::round(x);
  }
};

// --- floating only

struct Exp {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::exp(x);
  }
};

struct Expm1 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::expm1(x);
  }
};

struct Log {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::log(x);
  }
};

struct Log1p {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::log1p(x);
  }
};

struct Sqrt {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::sqrt(x);
  }
};

struct Rsqrt {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::rsqrt(x);
  }
};

struct Reciprocal {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::reciprocal(x);
  }
};

struct Sin {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::sin(x);
  }
};

struct Cos {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::cos(x);
  }
};

struct Tan {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::tan(x);
  }
};

struct Tanh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return math::tanh(x);
  }
};

struct Sigmoid {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::sigmoid(x);
  }
};

struct LogSigmoid {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::log_sigmoid(x);
  }
};

struct Erf {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::erf(x);
  }
};

struct Gelu {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::gelu(x);
  }
};

struct GeluTanh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::gelu_tanh(x);
  }
};

struct SpecialEntr {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::special_entr(x);
  }
};

struct Asin {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::asin(x);
  }
};

struct Acos {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::acos(x);
  }
};

struct Atan {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::atan(x);
  }
};

struct Sinh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::sinh(x);
  }
};

struct Cosh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::cosh(x);
  }
};

struct Asinh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::asinh(x);
  }
};

struct Acosh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::acosh(x);
  }
};

struct Atanh {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::atanh(x);
  }
};

struct Exp2 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::exp2(x);
  }
};

struct Log2 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::log2(x);
  }
};

struct Log10 {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::log10(x);
  }
};

struct Erfc {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::erfc_value(x);
  }
};

struct Frac {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::frac(x);
  }
};

struct Trunc {
  template <typename T>
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const {
    return elementwise_math::trunc_value(x);
  }
};

struct Isnan {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x) const {
    return math::isnan(x);
  }
};

struct Isinf {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x) const {
    return math::isinf(x);
  }
};

struct Isfinite {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x) const {
    return !math::isnan(x) && !math::isinf(x);
  }
};

// The parameters already converted to T, once per kernel rather than once per element.
template <typename T>
struct Softplus {
  T beta;
  T threshold;
  FUNCSPEC_HOST_DEVICE T operator()(const T& x) const { return elementwise_math::softplus(x, beta, threshold); }
};

// --- bool result

struct LogicalNot {
  template <typename T>
  FUNCSPEC_HOST_DEVICE bool operator()(const T& x) const {
    return x == T(0);
  }
};

}  // namespace unary

// Calls visitor(functor) with the functor of `fn` for the element type T and returns true, or
// returns false, calling nothing, where fn is not defined on T. The functor returns T, except
// logical_not's, isnan's, isinf's and isfinite's, which return bool. softplus's parameters are
// converted to T by cast_scalar, the conversion of every element. No `default:`: a UnaryFn without
// its case here does not compile (-Wswitch).
template <typename T, typename Visitor>
bool visit_unary_fn(UnaryFn fn, const UnaryParams& params, Visitor&& visitor) {
  switch (fn) {
    case UnaryFn::Neg: return visit_on<Domain::EveryDtype, T>(visitor, unary::Neg{});
    case UnaryFn::Abs: return visit_on<Domain::EveryDtype, T>(visitor, unary::Abs{});
    case UnaryFn::Sign: return visit_on<Domain::EveryDtype, T>(visitor, unary::Sign{});
    case UnaryFn::Square: return visit_on<Domain::EveryDtype, T>(visitor, unary::Square{});
    case UnaryFn::Relu: return visit_on<Domain::EveryDtype, T>(visitor, unary::Relu{});
    case UnaryFn::Floor: return visit_on<Domain::EveryDtype, T>(visitor, unary::Floor{});
    case UnaryFn::Ceil: return visit_on<Domain::EveryDtype, T>(visitor, unary::Ceil{});
    case UnaryFn::Round: return visit_on<Domain::EveryDtype, T>(visitor, unary::Round{});
    case UnaryFn::Exp: return visit_on<Domain::Floating, T>(visitor, unary::Exp{});
    case UnaryFn::Expm1: return visit_on<Domain::Floating, T>(visitor, unary::Expm1{});
    case UnaryFn::Log: return visit_on<Domain::Floating, T>(visitor, unary::Log{});
    case UnaryFn::Log1p: return visit_on<Domain::Floating, T>(visitor, unary::Log1p{});
    case UnaryFn::Sqrt: return visit_on<Domain::Floating, T>(visitor, unary::Sqrt{});
    case UnaryFn::Rsqrt: return visit_on<Domain::Floating, T>(visitor, unary::Rsqrt{});
    case UnaryFn::Reciprocal: return visit_on<Domain::Floating, T>(visitor, unary::Reciprocal{});
    case UnaryFn::Sin: return visit_on<Domain::Floating, T>(visitor, unary::Sin{});
    case UnaryFn::Cos: return visit_on<Domain::Floating, T>(visitor, unary::Cos{});
    case UnaryFn::Tan: return visit_on<Domain::Floating, T>(visitor, unary::Tan{});
    case UnaryFn::Tanh: return visit_on<Domain::Floating, T>(visitor, unary::Tanh{});
    case UnaryFn::Sigmoid: return visit_on<Domain::Floating, T>(visitor, unary::Sigmoid{});
    case UnaryFn::LogSigmoid: return visit_on<Domain::Floating, T>(visitor, unary::LogSigmoid{});
    case UnaryFn::Erf: return visit_on<Domain::Floating, T>(visitor, unary::Erf{});
    case UnaryFn::Gelu: return visit_on<Domain::Floating, T>(visitor, unary::Gelu{});
    case UnaryFn::GeluTanh: return visit_on<Domain::Floating, T>(visitor, unary::GeluTanh{});
    case UnaryFn::Softplus:
      return visit_on<Domain::Floating, T>(
          visitor, unary::Softplus<T>{cast_scalar<T>(params.beta), cast_scalar<T>(params.threshold)});
    case UnaryFn::SpecialEntr: return visit_on<Domain::Floating, T>(visitor, unary::SpecialEntr{});
    case UnaryFn::Asin: return visit_on<Domain::Floating, T>(visitor, unary::Asin{});
    case UnaryFn::Acos: return visit_on<Domain::Floating, T>(visitor, unary::Acos{});
    case UnaryFn::Atan: return visit_on<Domain::Floating, T>(visitor, unary::Atan{});
    case UnaryFn::Sinh: return visit_on<Domain::Floating, T>(visitor, unary::Sinh{});
    case UnaryFn::Cosh: return visit_on<Domain::Floating, T>(visitor, unary::Cosh{});
    case UnaryFn::Asinh: return visit_on<Domain::Floating, T>(visitor, unary::Asinh{});
    case UnaryFn::Acosh: return visit_on<Domain::Floating, T>(visitor, unary::Acosh{});
    case UnaryFn::Atanh: return visit_on<Domain::Floating, T>(visitor, unary::Atanh{});
    case UnaryFn::Exp2: return visit_on<Domain::Floating, T>(visitor, unary::Exp2{});
    case UnaryFn::Log2: return visit_on<Domain::Floating, T>(visitor, unary::Log2{});
    case UnaryFn::Log10: return visit_on<Domain::Floating, T>(visitor, unary::Log10{});
    case UnaryFn::Erfc: return visit_on<Domain::Floating, T>(visitor, unary::Erfc{});
    case UnaryFn::Frac: return visit_on<Domain::Floating, T>(visitor, unary::Frac{});
    case UnaryFn::Trunc: return visit_on<Domain::EveryDtype, T>(visitor, unary::Trunc{});
    case UnaryFn::Isnan: return visit_on<Domain::EveryDtype, T>(visitor, unary::Isnan{});
    case UnaryFn::Isinf: return visit_on<Domain::EveryDtype, T>(visitor, unary::Isinf{});
    case UnaryFn::Isfinite: return visit_on<Domain::EveryDtype, T>(visitor, unary::Isfinite{});
    case UnaryFn::LogicalNot: return visit_on<Domain::EveryDtype, T>(visitor, unary::LogicalNot{});
  }
  return false;  // not a UnaryFn
}

}  // namespace funcspec::common
