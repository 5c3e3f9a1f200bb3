#include "reference/backends/cpu/unary.h"

#include "reference/backends/common/unary_math.h"
#include "reference/backends/cpu/elementwise.h"

namespace funcspec::cpu {

using common::UnaryFn;
using common::UnaryParams;

namespace {

namespace math = common::math;
namespace m = common::elementwise_math;

template <typename T>
void dtype_keeping_kernel(UnaryFn fn, const Tensor& in, const Tensor& out) {
  auto run = [&](auto scalar_fn) { map1<T, T>(in, out, scalar_fn); };
  switch (fn) {
    case UnaryFn::Neg: return run([](const T& x) { return m::neg(x); });
    case UnaryFn::Abs: return run([](const T& x) { return m::abs(x); });
    case UnaryFn::Sign: return run([](const T& x) { return m::sign(x); });
    case UnaryFn::Square: return run([](const T& x) { return m::square(x); });
    case UnaryFn::Relu: return run([](const T& x) { return m::relu(x); });
    case UnaryFn::Floor: return run([](const T& x) { return m::floor(x); });
    case UnaryFn::Ceil: return run([](const T& x) { return m::ceil(x); });
    case UnaryFn::Round: return run([](const T& x) { return m::round(x); });
    default: FUNCSPEC_UNREACHABLE("not a dtype-keeping unary function");
  }
}

template <typename T>
void floating_kernel(UnaryFn fn, const Tensor& in, const Tensor& out, const UnaryParams& params) {
  auto run = [&](auto scalar_fn) { map1<T, T>(in, out, scalar_fn); };
  switch (fn) {
    case UnaryFn::Exp: return run([](const T& x) { return math::exp(x); });
    case UnaryFn::Expm1: return run([](const T& x) { return m::expm1(x); });
    case UnaryFn::Log: return run([](const T& x) { return math::log(x); });
    case UnaryFn::Log1p: return run([](const T& x) { return m::log1p(x); });
    case UnaryFn::Sqrt: return run([](const T& x) { return math::sqrt(x); });
    case UnaryFn::Rsqrt: return run([](const T& x) { return m::rsqrt(x); });
    case UnaryFn::Reciprocal: return run([](const T& x) { return m::reciprocal(x); });
    case UnaryFn::Sin: return run([](const T& x) { return math::sin(x); });
    case UnaryFn::Cos: return run([](const T& x) { return math::cos(x); });
    case UnaryFn::Tan: return run([](const T& x) { return math::tan(x); });
    case UnaryFn::Tanh: return run([](const T& x) { return math::tanh(x); });
    case UnaryFn::Sigmoid: return run([](const T& x) { return m::sigmoid(x); });
    case UnaryFn::Erf: return run([](const T& x) { return m::erf(x); });
    case UnaryFn::Gelu: return run([](const T& x) { return m::gelu(x); });
    case UnaryFn::GeluTanh: return run([](const T& x) { return m::gelu_tanh(x); });
    case UnaryFn::Softplus: {
      const T beta = cast_scalar<T>(params.beta);
      const T threshold = cast_scalar<T>(params.threshold);
      return run([&](const T& x) { return m::softplus(x, beta, threshold); });
    }
    default: FUNCSPEC_UNREACHABLE("not a floating unary function");
  }
}

}  // namespace

void unary_kernel(UnaryFn fn, const Tensor& in, const Tensor& out, const UnaryParams& params) {
  if (fn == UnaryFn::LogicalNot) {
    visit_dtype(in.dtype(), [&]<typename T>() { map1<bool, T>(in, out, [](const T& x) { return x == T(0); }); });
    return;
  }
  FUNCSPEC_INTERNAL_ASSERT(in.dtype() == out.dtype(), "unary kernel with different input and output dtypes");
  if (keeps_dtype(fn)) {
    visit_dtype(in.dtype(), [&]<typename T>() { dtype_keeping_kernel<T>(fn, in, out); });
  } else {
    visit_floating_dtype(in.dtype(), [&]<typename T>() { floating_kernel<T>(fn, in, out, params); });
  }
}

}  // namespace funcspec::cpu
