// The special-function family's composites (docs/ops/special.md): ops whose PyTorch decomposition
// is exact (clamp_min, clamp_max, lerp, addcmul, addcdiv) or whose derivative at every order comes
// out right only from a decomposition (sinc at 0, logit's clamp), and deg2rad, a product. Their elementwise primitives
// (xlogy, special_xlog1py, hypot, copysign, special_entr) are rows of the unary and binary
// families' tables. Decompositions read shapes, dtypes and attributes, never data.
#include <fmt/format.h>

#include <numbers>

#include "reference/api/conversion.h"
#include "reference/api/creation.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Tensor special_call(std::string_view op, const Tensor& a, const Tensor& b) { return call_one(op, {a, b}); }
Tensor special_call(std::string_view op, const Tensor& a) { return call_one(op, {a}); }
Tensor special_where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  return call_one("where", {condition, a, b});
}

// The input of an "int to float" op: integer and bool inputs convert to float32, as PyTorch's.
Tensor floating_input(const Tensor& x) { return cast_to(x, to_floating(x.dtype())); }

void derive_both(OpDef& op) {
  op.derive_inplace = true;
  op.derive_out = true;
}

// sin(pi x) / (pi x), 1 at 0. Near 0 the Taylor series in t = (pi x)^2 to t^4: it is
// differentiable at 0 to every order (sinc'(0) = 0 as PyTorch, sinc''(0) = -pi^2/3 where PyTorch's
// masked backward gives 0; SPEC OPS-21.2). The series is taken for |x| < 0.03 (its next term below
// 2e-18 relative) and in float32 for |x| < 0.2 (below 3e-10), where the quotient's higher
// derivatives would cancel (the third loses 1% at x = 0.03 in float32). The quotient branch reads
// x = 1 where the series is taken, so that neither mode meets 0/0.
Tensor sinc_of(const Tensor& x) {
  const double threshold = x.dtype() == DType::Float32 ? 0.2 : 0.03;
  const Tensor small = special_call("lt", special_call("abs", x), ops::lit(threshold));
  const Tensor pi_x = special_call("mul", x, ops::lit(std::numbers::pi));
  const Tensor t = special_call("mul", pi_x, pi_x);
  // 1 - t/6 + t^2/120 - t^3/5040 + t^4/362880, by Horner.
  Tensor series = ops::lit(1.0 / 362880.0);
  for (const double c : {-1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0, 1.0}) {
    series = special_call("add", special_call("mul", series, t), ops::lit(c));
  }
  const Tensor safe_pi_x = special_call("mul", special_where(small, ops::lit(1.0), x), ops::lit(std::numbers::pi));
  const Tensor quotient = special_call("div", special_call("sin", safe_pi_x), safe_pi_x);
  return special_where(small, series, quotient);
}

// log(z) - log1p(-z) with z = clamp(x, eps, 1 - eps) when eps is given: PyTorch's log(z / (1 - z))
// within roundings, whose derivative 1/z + 1/(1 - z) stays +inf at z = 1 (the quotient form's is
// inf / inf there). The clamp passes self's derivative at its bounds and 0 outside, as PyTorch's
// logit_backward (SPEC OPS-21.3).
Tensor logit_of(const Tensor& x, std::optional<double> eps) {
  Tensor z = x;
  if (eps && *eps >= 0) z = call_one("clamp", {x, ops::lit(*eps), ops::lit(1.0 - *eps)});
  return special_call("sub", special_call("log", z), special_call("log1p", special_call("neg", z)));
}

// addcmul's and addcdiv's `value` in the result's dtype, as PyTorch converts it: a floating value
// on integer tensors is truncated toward zero (addcmul(1, 2, 3, value=2.5) is 1 + 2 * 2 * 3 = 13).
Scalar value_in(DType result, const Scalar& value) {
  if (is_floating(result) || !value.is_floating()) return value;
  return Scalar(static_cast<std::int64_t>(value.to<double>()));
}

void register_clamp_bound(OpRegistry& registry, const char* schema, bool is_min, const char* summary) {
  OpDef& op = registry.add(schema, OpKind::Composite, "special", summary);
  op.decompose = [is_min](const TensorList& in, const Attrs&) -> TensorList {
    return {call_one("clamp", {in[0], is_min ? in[1] : Tensor(), is_min ? Tensor() : in[1]})};
  };
  derive_both(op);
}

}  // namespace

void register_special_ops(OpRegistry& registry) {
  register_clamp_bound(registry, "clamp_min(Tensor self, Tensor min) -> Tensor", true,
                       "max(self, min), NaN propagating: clamp with min alone");
  register_clamp_bound(registry, "clamp_max(Tensor self, Tensor max) -> Tensor", false,
                       "min(self, max), NaN propagating: clamp with max alone");
  {
    OpDef& op = registry.add("sinc(Tensor self) -> Tensor", OpKind::Composite, "special",
                             "sin(pi self) / (pi self), 1 at 0; integers compute in float32");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList { return {sinc_of(floating_input(in[0]))}; };
    derive_both(op);
  }
  {
    // PyTorch's deg2rad: self * fl(pi/180), the double constant rounded once, so the op is linear
    // and its derivative is that constant.
    OpDef& op = registry.add("deg2rad(Tensor self) -> Tensor", OpKind::Composite, "special",
                             "self * pi/180; integers compute in float32");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      return {special_call("mul", floating_input(in[0]), ops::lit(std::numbers::pi / 180.0))};
    };
    derive_both(op);
  }
  {
    OpDef& op = registry.add("logit(Tensor self, float? eps=None) -> Tensor", OpKind::Composite, "special",
                             "log(z / (1 - z)), z = self clamped to [eps, 1 - eps] when eps is given");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {logit_of(floating_input(in[0]), attrs.get_optional_float("eps"))};
    };
    derive_both(op);
  }
  {
    OpDef& op = registry.add("lerp(Tensor self, Tensor end, Tensor weight) -> Tensor", OpKind::Composite, "special",
                             "self + weight (end - self) for |weight| < 0.5, else end - (end - self)(1 - weight)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor &self = in[0], &end = in[1], &weight = in[2];
      check_dtype("lerp", "self", self.dtype(), DTypeSet::Floating);
      FUNCSPEC_CHECK(end.dtype() == self.dtype(), ErrorKind::DtypeNotSupported,
                     "[lerp] expected dtype {} for `end` but got dtype {}", dtype_name(self.dtype()),
                     dtype_name(end.dtype()));
      // A number weight (lerp.Scalar) takes self's dtype; a tensor weight must have it.
      FUNCSPEC_CHECK(weight.is_wrapped_number() || weight.dtype() == self.dtype(), ErrorKind::DtypeNotSupported,
                     "[lerp] expected dtype {} for `weight` but got dtype {}", dtype_name(self.dtype()),
                     dtype_name(weight.dtype()));
      // A number weight becomes a 0-dim tensor of self's dtype on self's device, so that 1 - w is
      // computed there (on meta too).
      const Tensor w =
          weight.is_wrapped_number()
              ? special_call("add", ops::full({}, Scalar(0.0), self.dtype(), std::string(device_name(self.device()))),
                             weight)
              : cast_to(weight, self.dtype());
      const Tensor difference = special_call("sub", end, self);
      const Tensor small = special_call("lt", special_call("abs", w), ops::lit(0.5));
      const Tensor from_self = special_call("add", self, special_call("mul", w, difference));
      const Tensor from_end =
          special_call("sub", end, special_call("mul", difference, special_call("sub", ops::lit(1.0), w)));
      return {special_where(small, from_self, from_end)};
    };
    derive_both(op);
  }
  for (const bool is_division : {false, true}) {
    const char* name = is_division ? "addcdiv" : "addcmul";
    OpDef& op =
        registry.add(fmt::format("{}(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", name),
                     OpKind::Composite, "special",
                     is_division ? "self + value * tensor1 / tensor2" : "self + value * tensor1 * tensor2");
    op.decompose = [is_division, name](const TensorList& in, const Attrs& attrs) -> TensorList {
      const DType result = result_type(in);
      if (is_division) {
        FUNCSPEC_CHECK(is_floating(result_type(TensorList{in[1], in[2]})), ErrorKind::DtypeNotSupported,
                       "[addcdiv] Integer division with addcdiv is no longer supported (tensor1 {} and tensor2 {})",
                       dtype_name(in[1].dtype()), dtype_name(in[2].dtype()));
      }
      check_dtype(name, "self", result, DTypeSet::NoBool);
      const Scalar value = value_in(result, attrs.get_scalar("value"));
      const TensorList operands = cast_and_broadcast(in, result, name);
      const Tensor scaled = special_call("mul", ops::lit(value), operands[1]);
      return {special_call("add", operands[0], special_call(is_division ? "div" : "mul", scaled, operands[2]))};
    };
    derive_both(op);
  }
}

}  // namespace funcspec
