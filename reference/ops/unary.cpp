// Unary elementwise ops. Each is a primitive whose op layer settles the dtype (PyTorch's rules, see
// DtypeRule) so that the kernel computes in the result's dtype; every op derives `name_` and
// `name.out` (NOTE: [derived variants]).
#include <fmt/format.h>

#include "reference/backends/common/unary_fn.h"
#include "reference/backends/cpu/unary.h"
#include "reference/backends/cuda/unary.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

enum class DtypeRule {
  IntToFloat,    // int64 and bool inputs compute in float32 (PyTorch's "int to float" ops)
  NoBool,        // int64 and floating dtypes are kept; bool is rejected
  Any,           // every dtype is kept (the sign of a bool is itself)
  BoolToInt64,   // bool computes in int64, others are kept (square is pow(self, 2) in PyTorch)
  FloatingOnly,  // integer and bool inputs are rejected
  BoolResult,    // any input dtype, bool result
};

struct UnaryOpSpec {
  const char* schema;
  common::UnaryFn fn;
  DtypeRule rule;
  const char* summary;
  bool inplace = true;  // PyTorch has `name_` (log_sigmoid has only the out= variant)
  bool out = true;      // PyTorch has `name.out` (isnan, isinf, isfinite have neither variant)
};

// The dtype the kernel computes in, given the input's.
DType compute_dtype(DtypeRule rule, DType input) {
  switch (rule) {
    case DtypeRule::IntToFloat: return to_floating(input);
    case DtypeRule::BoolToInt64: return input == DType::Bool ? DType::Int64 : input;
    default: return input;
  }
}

common::UnaryFn gelu_fn(const Attrs& attrs) {
  return attrs.get_string("approximate") == "tanh" ? common::UnaryFn::GeluTanh : common::UnaryFn::Gelu;
}

void check_attributes(const std::string& op, const Attrs& attrs) {
  if (op == "gelu") {
    const std::string& approximate = attrs.get_string("approximate");
    FUNCSPEC_CHECK(approximate == "none" || approximate == "tanh", ErrorKind::InvalidArgument,
                   "[gelu] approximate must be 'none' or 'tanh' but got '{}'", approximate);
  }
}

// The kernel of `fn` on one backend (cpu::unary_kernel or cuda::unary_kernel), with gelu's and
// softplus's attributes read alike for both.
template <auto kernel>
KernelFn unary_kernel_fn(common::UnaryFn fn) {
  return [fn](const KernelArgs& a) {
    common::UnaryParams params;
    common::UnaryFn chosen = fn;
    if (fn == common::UnaryFn::Gelu) chosen = gelu_fn(a.attrs);
    if (fn == common::UnaryFn::Softplus) {
      params.beta = a.attrs.get_float("beta");
      params.threshold = a.attrs.get_float("threshold");
    }
    kernel(chosen, a.inputs[0], a.outputs[0], params);
  };
}

void register_unary(OpRegistry& registry, const UnaryOpSpec& spec) {
  OpDef& op = registry.add(spec.schema, OpKind::Primitive, "unary", spec.summary);
  const DtypeRule rule = spec.rule;
  const common::UnaryFn fn = spec.fn;
  op.canonicalize = [rule](const TensorList& in, const Attrs&) -> TensorList {
    return {cast_to(in[0], compute_dtype(rule, in[0].dtype()))};
  };
  op.infer = [rule, name = op.name()](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    if (rule == DtypeRule::NoBool) check_dtype(name, "self", in[0].dtype(), DTypeSet::NoBool);
    if (rule == DtypeRule::FloatingOnly) check_dtype(name, "self", in[0].dtype(), DTypeSet::Floating);
    check_attributes(name, attrs);
    return {{in[0].shape(), rule == DtypeRule::BoolResult ? DType::Bool : in[0].dtype()}};
  };
  op.cpu_kernel = unary_kernel_fn<&cpu::unary_kernel>(fn);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(unary_kernel_fn<&cuda::unary_kernel>(fn));
  op.derive_inplace = spec.inplace;
  op.derive_out = spec.out;
}

}  // namespace

void register_unary_ops(OpRegistry& registry) {
  using common::UnaryFn;
  const UnaryOpSpec specs[] = {
      {"neg(Tensor self) -> Tensor", UnaryFn::Neg, DtypeRule::NoBool, "-self"},
      {"abs(Tensor self) -> Tensor", UnaryFn::Abs, DtypeRule::NoBool, "|self|"},
      {"sign(Tensor self) -> Tensor", UnaryFn::Sign, DtypeRule::Any, "-1, 0 or 1 by the sign of self; sign(NaN) = 0"},
      {"square(Tensor self) -> Tensor", UnaryFn::Square, DtypeRule::BoolToInt64, "self * self"},
      {"relu(Tensor self) -> Tensor", UnaryFn::Relu, DtypeRule::NoBool, "max(self, 0), NaN propagating"},
      {"floor(Tensor self) -> Tensor", UnaryFn::Floor, DtypeRule::NoBool, "the largest integer <= self"},
      {"ceil(Tensor self) -> Tensor", UnaryFn::Ceil, DtypeRule::NoBool, "the smallest integer >= self"},
      {"round(Tensor self) -> Tensor", UnaryFn::Round, DtypeRule::NoBool, "the nearest integer, ties to even"},
      {"exp(Tensor self) -> Tensor", UnaryFn::Exp, DtypeRule::IntToFloat, "e^self"},
      {"expm1(Tensor self) -> Tensor", UnaryFn::Expm1, DtypeRule::IntToFloat, "e^self - 1, accurate near 0"},
      {"log(Tensor self) -> Tensor", UnaryFn::Log, DtypeRule::IntToFloat, "natural logarithm"},
      {"log1p(Tensor self) -> Tensor", UnaryFn::Log1p, DtypeRule::IntToFloat, "log(1 + self), accurate near 0"},
      {"sqrt(Tensor self) -> Tensor", UnaryFn::Sqrt, DtypeRule::IntToFloat, "square root"},
      {"rsqrt(Tensor self) -> Tensor", UnaryFn::Rsqrt, DtypeRule::IntToFloat, "1 / sqrt(self)"},
      {"reciprocal(Tensor self) -> Tensor", UnaryFn::Reciprocal, DtypeRule::IntToFloat, "1 / self"},
      {"sin(Tensor self) -> Tensor", UnaryFn::Sin, DtypeRule::IntToFloat, "sine (radians)"},
      {"cos(Tensor self) -> Tensor", UnaryFn::Cos, DtypeRule::IntToFloat, "cosine (radians)"},
      {"tan(Tensor self) -> Tensor", UnaryFn::Tan, DtypeRule::IntToFloat, "tangent (radians)"},
      {"tanh(Tensor self) -> Tensor", UnaryFn::Tanh, DtypeRule::IntToFloat, "hyperbolic tangent"},
      {"sigmoid(Tensor self) -> Tensor", UnaryFn::Sigmoid, DtypeRule::IntToFloat, "1 / (1 + e^-self)"},
      {"erf(Tensor self) -> Tensor", UnaryFn::Erf, DtypeRule::IntToFloat, "the error function"},
      {"logsigmoid(Tensor self) -> Tensor", UnaryFn::LogSigmoid, DtypeRule::FloatingOnly,
       "log(sigmoid(self)) = min(self, 0) - log1p(e^-|self|)", false},
      {"gelu(Tensor self, *, str approximate='none') -> Tensor", UnaryFn::Gelu, DtypeRule::FloatingOnly,
       "self * Phi(self) (Phi the standard normal cdf), or its tanh approximation"},
      {"softplus(Tensor self, float beta=1, float threshold=20) -> Tensor", UnaryFn::Softplus, DtypeRule::FloatingOnly,
       "log(1 + e^(beta self)) / beta, or self where beta * self > threshold"},
      {"special_entr(Tensor self) -> Tensor", UnaryFn::SpecialEntr, DtypeRule::IntToFloat,
       "-self * log(self); 0 at 0, -inf below (docs/ops/special.md)", false},
      {"asin(Tensor self) -> Tensor", UnaryFn::Asin, DtypeRule::IntToFloat,
       "arcsine, in [-pi/2, pi/2]; NaN off [-1, 1]"},
      {"acos(Tensor self) -> Tensor", UnaryFn::Acos, DtypeRule::IntToFloat, "arccosine, in [0, pi]; NaN off [-1, 1]"},
      {"atan(Tensor self) -> Tensor", UnaryFn::Atan, DtypeRule::IntToFloat, "arctangent, in [-pi/2, pi/2]"},
      {"sinh(Tensor self) -> Tensor", UnaryFn::Sinh, DtypeRule::IntToFloat, "hyperbolic sine"},
      {"cosh(Tensor self) -> Tensor", UnaryFn::Cosh, DtypeRule::IntToFloat, "hyperbolic cosine"},
      {"asinh(Tensor self) -> Tensor", UnaryFn::Asinh, DtypeRule::IntToFloat, "inverse hyperbolic sine"},
      {"acosh(Tensor self) -> Tensor", UnaryFn::Acosh, DtypeRule::IntToFloat, "inverse hyperbolic cosine; NaN below 1"},
      {"atanh(Tensor self) -> Tensor", UnaryFn::Atanh, DtypeRule::IntToFloat,
       "inverse hyperbolic tangent; +-inf at +-1, NaN off [-1, 1]"},
      {"exp2(Tensor self) -> Tensor", UnaryFn::Exp2, DtypeRule::IntToFloat, "2^self"},
      {"log2(Tensor self) -> Tensor", UnaryFn::Log2, DtypeRule::IntToFloat, "base-2 logarithm"},
      {"log10(Tensor self) -> Tensor", UnaryFn::Log10, DtypeRule::IntToFloat, "base-10 logarithm"},
      {"erfc(Tensor self) -> Tensor", UnaryFn::Erfc, DtypeRule::IntToFloat, "1 - erf(self), accurate in the tail"},
      {"frac(Tensor self) -> Tensor", UnaryFn::Frac, DtypeRule::FloatingOnly, "self - trunc(self), the sign of self"},
      {"trunc(Tensor self) -> Tensor", UnaryFn::Trunc, DtypeRule::NoBool, "self rounded toward zero"},
      {"isnan(Tensor self) -> Tensor", UnaryFn::Isnan, DtypeRule::BoolResult, "self != self", false, false},
      {"isinf(Tensor self) -> Tensor", UnaryFn::Isinf, DtypeRule::BoolResult, "|self| == inf", false, false},
      {"isfinite(Tensor self) -> Tensor", UnaryFn::Isfinite, DtypeRule::BoolResult, "neither NaN nor infinite", false,
       false},
      {"logical_not(Tensor self) -> Tensor", UnaryFn::LogicalNot, DtypeRule::BoolResult, "self == 0, as bool"},
  };
  for (const UnaryOpSpec& spec : specs) register_unary(registry, spec);
}

}  // namespace funcspec
