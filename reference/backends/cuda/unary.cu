// CUDA kernels of the unary elementwise ops: each function is the scalar function the cpu backend
// calls (backends/common/unary_math.h, host+device), mapped over the operands by the elementwise
// drivers.
#include <cstdint>
#include <type_traits>

#include "reference/backends/common/unary_math.h"
#include "reference/backends/cuda/elementwise.cuh"
#include "reference/backends/cuda/unary_launch.h"

namespace funcspec::cuda {
namespace {

namespace m = common::elementwise_math;
namespace math = common::math;
using common::UnaryFn;

// One functor per function, calling exactly what cpu/unary.cpp calls.
#define FUNCSPEC_UNARY_FUNCTOR(Name, expression) \
  struct Name {                                  \
    template <typename T>                        \
    __device__ T operator()(const T& x) const {  \
      return expression;                         \
    }                                            \
  };
FUNCSPEC_UNARY_FUNCTOR(Neg, m::neg(x))
FUNCSPEC_UNARY_FUNCTOR(Abs, m::abs(x))
FUNCSPEC_UNARY_FUNCTOR(Sign, m::sign(x))
FUNCSPEC_UNARY_FUNCTOR(Square, m::square(x))
FUNCSPEC_UNARY_FUNCTOR(Relu, m::relu(x))
FUNCSPEC_UNARY_FUNCTOR(Floor, m::floor(x))
FUNCSPEC_UNARY_FUNCTOR(Ceil, m::ceil(x))
FUNCSPEC_UNARY_FUNCTOR(Round, m::round(x))
FUNCSPEC_UNARY_FUNCTOR(Exp, math::exp(x))
FUNCSPEC_UNARY_FUNCTOR(Expm1, m::expm1(x))
FUNCSPEC_UNARY_FUNCTOR(Log, math::log(x))
FUNCSPEC_UNARY_FUNCTOR(Log1p, m::log1p(x))
FUNCSPEC_UNARY_FUNCTOR(Sqrt, math::sqrt(x))
FUNCSPEC_UNARY_FUNCTOR(Rsqrt, m::rsqrt(x))
FUNCSPEC_UNARY_FUNCTOR(Reciprocal, m::reciprocal(x))
FUNCSPEC_UNARY_FUNCTOR(Sin, math::sin(x))
FUNCSPEC_UNARY_FUNCTOR(Cos, math::cos(x))
FUNCSPEC_UNARY_FUNCTOR(Tan, math::tan(x))
FUNCSPEC_UNARY_FUNCTOR(Tanh, math::tanh(x))
FUNCSPEC_UNARY_FUNCTOR(Sigmoid, m::sigmoid(x))
FUNCSPEC_UNARY_FUNCTOR(Erf, m::erf(x))
FUNCSPEC_UNARY_FUNCTOR(Gelu, m::gelu(x))
FUNCSPEC_UNARY_FUNCTOR(GeluTanh, m::gelu_tanh(x))
#undef FUNCSPEC_UNARY_FUNCTOR

template <typename T>
struct Softplus {
  T beta;
  T threshold;
  __device__ T operator()(const T& x) const { return m::softplus(x, beta, threshold); }
};

template <typename T>
struct LogicalNot {
  __device__ bool operator()(const T& x) const { return x == T(0); }
};

}  // namespace

template <typename T>
bool launch_unary(UnaryFn fn, const Geometry& geometry, const StridedView<T>& out, const StridedView<T>& in, T beta,
                  T threshold) {
  auto run = [&](auto functor) {
    elementwise::map1("unary kernel", geometry, out, in, functor);
    return true;
  };
  switch (fn) {
    case UnaryFn::Neg: return run(Neg{});
    case UnaryFn::Abs: return run(Abs{});
    case UnaryFn::Sign: return run(Sign{});
    case UnaryFn::Square: return run(Square{});
    case UnaryFn::Relu: return run(Relu{});
    case UnaryFn::Floor: return run(Floor{});
    case UnaryFn::Ceil: return run(Ceil{});
    case UnaryFn::Round: return run(Round{});
    default: break;
  }
  if constexpr (std::is_floating_point_v<T>) {
    switch (fn) {
      case UnaryFn::Exp: return run(Exp{});
      case UnaryFn::Expm1: return run(Expm1{});
      case UnaryFn::Log: return run(Log{});
      case UnaryFn::Log1p: return run(Log1p{});
      case UnaryFn::Sqrt: return run(Sqrt{});
      case UnaryFn::Rsqrt: return run(Rsqrt{});
      case UnaryFn::Reciprocal: return run(Reciprocal{});
      case UnaryFn::Sin: return run(Sin{});
      case UnaryFn::Cos: return run(Cos{});
      case UnaryFn::Tan: return run(Tan{});
      case UnaryFn::Tanh: return run(Tanh{});
      case UnaryFn::Sigmoid: return run(Sigmoid{});
      case UnaryFn::Erf: return run(Erf{});
      case UnaryFn::Gelu: return run(Gelu{});
      case UnaryFn::GeluTanh: return run(GeluTanh{});
      case UnaryFn::Softplus: return run(Softplus<T>{beta, threshold});
      default: break;
    }
  }
  return false;
}

template <typename T>
void launch_logical_not(const Geometry& geometry, const StridedView<bool>& out, const StridedView<T>& in) {
  elementwise::map1("logical_not kernel", geometry, out, in, LogicalNot<T>{});
}

#define FUNCSPEC_INSTANTIATE(T)                                                                                \
  template bool launch_unary<T>(UnaryFn, const Geometry&, const StridedView<T>&, const StridedView<T>&, T, T); \
  template void launch_logical_not<T>(const Geometry&, const StridedView<bool>&, const StridedView<T>&);
FUNCSPEC_INSTANTIATE(bool)
FUNCSPEC_INSTANTIATE(std::int64_t)
FUNCSPEC_INSTANTIATE(float)
FUNCSPEC_INSTANTIATE(double)
#undef FUNCSPEC_INSTANTIATE

}  // namespace funcspec::cuda
