// Transform rules of the binary family (elementwise ops of several tensors: add, where, clamp, ...).
// Batching: the op layer has already promoted and broadcast the examples (NOTE: [interpreter
// stack] in dispatch), so the inputs' examples share one shape; with every batch dim moved to the
// front (unbatched inputs expanded, without copying), the op applies element by element.
#include <limits>
#include <numbers>
#include <string>

#include "reference/api/ops.h"
#include "reference/core/error.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {

namespace {

// tangent * factor(), the factor computed only for a tangent that is not zero.
template <typename Factor>
Tensor scaled(const Tensor& tangent, const Factor& factor) {
  return tangent.defined() ? ops::mul(tangent, factor()) : Tensor();
}

// The tangent where `keep` holds, zero elsewhere. A select rather than a product with a 0/1 mask,
// which would turn an infinite tangent outside `keep` into NaN.
Tensor selected(const Tensor& keep, const Tensor& tangent) {
  return tangent.defined() ? ops::where(keep, tangent, ops::lit(0)) : Tensor();
}

Scalar negated(const Scalar& value) {
  return value.is_floating() ? Scalar(-value.to<double>()) : Scalar(-value.to<std::int64_t>());
}

// The share of maximum's (beats = lt) or minimum's (beats = gt) gradient that goes to `self`, as
// PyTorch: all of it unless `other` beats it, half at a tie (so ties split evenly), and all of it
// to both operands where a NaN makes every comparison false.
Tensor extremum_share(const Tensor& self, const Tensor& other, Tensor (*beats)(const Tensor&, const Tensor&)) {
  const DType dtype = self.dtype();
  const Tensor kept = ops::to_dtype(ops::logical_not(beats(self, other)), dtype);
  return ops::sub(kept, ops::mul(ops::to_dtype(ops::eq(self, other), dtype), ops::lit(0.5)));
}

void add_extremum_rule(RuleAttacher& attach, const std::string& op, Tensor (*beats)(const Tensor&, const Tensor&)) {
  attach.jvp(op, [beats](const JvpCall& c) -> TensorList {
    const Tensor& a = c.primals[0];
    const Tensor& b = c.primals[1];
    return {add_tangents(scaled(c.tangents[0], [&] { return extremum_share(a, b, beats); }),
                         scaled(c.tangents[1], [&] { return extremum_share(b, a, beats); }))};
  });
}

}  // namespace

void register_binary_rules(RuleAttacher& attach) {
  // Batching.
  for (const OpDef* op : attach.catalogue().all()) {
    if (op->family != "binary" || op->kind != OpKind::Primitive) continue;
    const std::string name = op->name();
    attach.batch(
        name, [name](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
          TensorList values;
          for (const BatchedValue& input : in)
            values.push_back(input.value.defined() ? rules::materialize_batch(input, context.batch_size) : input.value);
          return rules::batched_at_front(call(name, values, attrs));
        });
  }

  // Derivatives.
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or"}) {
    attach.non_differentiable(op);
  }

  attach.jvp("add", [](const JvpCall& c) -> TensorList {
    const Scalar alpha = c.attrs.get_scalar("alpha");
    const Tensor other = c.tangents[1].defined() ? ops::mul(c.tangents[1], ops::lit(alpha)) : Tensor();
    return {add_tangents(c.tangents[0], other)};
  });
  attach.transpose("add", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {ct, c.linear[1] ? ops::mul(ct, ops::lit(c.attrs.get_scalar("alpha"))) : Tensor()};
  });

  attach.jvp("sub", [](const JvpCall& c) -> TensorList {
    const Scalar alpha = c.attrs.get_scalar("alpha");
    if (!c.tangents[1].defined()) return {c.tangents[0]};
    if (!c.tangents[0].defined()) return {ops::mul(c.tangents[1], ops::lit(negated(alpha)))};
    return {ops::sub(c.tangents[0], c.tangents[1], alpha)};
  });
  attach.transpose("sub", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {ct, c.linear[1] ? ops::mul(ct, ops::lit(negated(c.attrs.get_scalar("alpha")))) : Tensor()};
  });

  attach.jvp("mul", [](const JvpCall& c) -> TensorList {
    const Tensor a = c.tangents[0].defined() ? ops::mul(c.tangents[0], c.primals[1]) : Tensor();
    const Tensor b = c.tangents[1].defined() ? ops::mul(c.primals[0], c.tangents[1]) : Tensor();
    return {add_tangents(a, b)};
  });
  attach.transpose("mul", [](const TransposeCall& c) -> TensorList {
    const Tensor& ct = c.cotangents[0];
    return {c.linear[0] ? ops::mul(ct, c.inputs[1]) : Tensor(), c.linear[1] ? ops::mul(c.inputs[0], ct) : Tensor()};
  });

  // Rounded division is piecewise constant: zero derivative, as PyTorch.
  attach.jvp("div", [](const JvpCall& c) -> TensorList {
    if (!c.attrs.is_none("rounding_mode")) return {Tensor()};
    const Tensor& denominator = c.primals[1];
    const Tensor by_numerator = c.tangents[0].defined() ? ops::div(c.tangents[0], denominator) : Tensor();
    // d/dy (x / y) = -(x / y) / y.
    const Tensor by_denominator = scaled(c.tangents[1], [&] { return ops::neg(ops::div(c.outputs[0], denominator)); });
    return {add_tangents(by_numerator, by_denominator)};
  });
  // Only true division by a constant is ever applied to a tangent.
  attach.transpose("div", [](const TransposeCall& c) -> TensorList {
    FUNCSPEC_INTERNAL_ASSERT(!c.linear[1] && c.attrs.is_none("rounding_mode"),
                             "div is transposed in its numerator only, and only as true division");
    return {ops::div(c.cotangents[0], c.inputs[1]), Tensor()};
  });

  // PyTorch's choices at the edges: d/dbase is 0 where the exponent is 0 (even at base 0, where
  // 0 * base^-1 would be NaN), and d/dexponent is 0 where base == 0 and exponent >= 0 (where
  // result * log(base) would be 0 * -inf).
  attach.jvp("pow", [](const JvpCall& c) -> TensorList {
    const Tensor& base = c.primals[0];
    const Tensor& exponent = c.primals[1];
    // Each masked-out branch reads a harmless stand-in (exponent 1, base 1) instead of the value
    // that makes it infinite (base^-1, log 0 at a zero base). The select gives the branch it drops
    // a zero cotangent, and 0 * inf there would make reverse-over-reverse NaN where
    // forward-over-reverse is finite: the modes' second derivatives would disagree.
    // At b = 0 only a base whose reciprocal overflows (0, a subnormal, NaN) is masked, like 0^0: for
    // any other base b·a^(b-1) is 0 there, and its derivative in the exponent, 1/a, is the true mixed
    // second derivative of a^b (PyTorch masks every b = 0 and loses it: forward over forward gives
    // half the cross term). The reciprocal only feeds a comparison, which passes no derivative.
    const Tensor by_base = scaled(c.tangents[0], [&] {
      const Tensor overflowing_reciprocal =
          ops::logical_not(ops::lt(ops::abs(ops::reciprocal(base)), ops::lit(std::numeric_limits<double>::infinity())));
      const Tensor masked = ops::logical_and(ops::eq(exponent, ops::lit(0)), overflowing_reciprocal);
      const Tensor safe_base = ops::where(masked, ops::lit(1), base);
      const Tensor safe_exponent = ops::where(masked, ops::lit(1), exponent);
      const Tensor power_rule = ops::mul(exponent, ops::pow(safe_base, ops::sub(safe_exponent, ops::lit(1))));
      return ops::where(masked, ops::lit(0), power_rule);
    });
    const Tensor by_exponent = scaled(c.tangents[1], [&] {
      const Tensor zero_base = ops::logical_and(ops::eq(base, ops::lit(0)), ops::ge(exponent, ops::lit(0)));
      const Tensor safe_base = ops::where(zero_base, ops::lit(1), base);
      return ops::where(zero_base, ops::lit(0), ops::mul(c.outputs[0], ops::log(safe_base)));
    });
    return {add_tangents(by_base, by_exponent)};
  });

  // atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
  attach.jvp("atan2", [](const JvpCall& c) -> TensorList {
    const Tensor& y = c.primals[0];
    const Tensor& x = c.primals[1];
    const Tensor inverse_norm = ops::reciprocal(ops::add(ops::square(y), ops::square(x)));
    return {add_tangents(scaled(c.tangents[0], [&] { return ops::mul(x, inverse_norm); }),
                         scaled(c.tangents[1], [&] { return ops::mul(ops::neg(y), inverse_norm); }))};
  });

  add_extremum_rule(attach, "maximum", ops::lt);
  add_extremum_rule(attach, "minimum", ops::gt);

  // remainder(x, y) = x - floor(x / y) * y, with floor(x / y) piecewise constant.
  attach.jvp("remainder", [](const JvpCall& c) -> TensorList {
    return {add_tangents(c.tangents[0], scaled(c.tangents[1], [&] {
                           return ops::neg(ops::div(c.primals[0], c.primals[1], std::string("floor")));
                         }))};
  });

  // As PyTorch: self's gradient inside [min, max] (bounds included), min's where it binds, max's
  // where it binds or where max < min (the result is max there).
  attach.jvp("clamp", [](const JvpCall& c) -> TensorList {
    const Tensor& self = c.primals[0];
    const Tensor& min = c.primals[1];
    const Tensor& max = c.primals[2];
    Tensor self_kept;
    Tensor min_binds;
    Tensor max_binds;
    if (min.defined() && max.defined()) {
      self_kept = ops::logical_and(ops::ge(self, min), ops::le(self, max));
      min_binds = ops::logical_and(ops::lt(self, min), ops::lt(min, max));
      max_binds = ops::logical_or(ops::gt(self, max), ops::lt(max, min));
    } else if (min.defined()) {
      self_kept = ops::ge(self, min);
      min_binds = ops::lt(self, min);
    } else {
      self_kept = ops::le(self, max);
      max_binds = ops::gt(self, max);
    }
    return {add_tangents(add_tangents(selected(self_kept, c.tangents[0]), selected(min_binds, c.tangents[1])),
                         selected(max_binds, c.tangents[2]))};
  });

  // The special-function family's binary ops (docs/ops/special.md), PyTorch's derivatives.yaml.
  // xlogy: d/dself = log(other), 0 where self == 0 and other <= 0 (log there is -inf or NaN), as
  // PyTorch's xlogy(grad, other) masked there; d/dother = t * self / other. The tangent is scaled
  // by the masked factor (jvp rules apply linear ops to tangents), so where other is 0 and self is
  // not, a zero tangent meets the infinite factor as 0 * inf = NaN, where PyTorch's xlogy(0, 0)
  // gives 0 (the value is infinite there). special_xlog1py the same with log1p and other <= -1.
  const auto add_xlogy_rule = [&attach](const char* op, Tensor (*log_fn)(const Tensor&), double pole) {
    attach.jvp(op, [log_fn, pole](const JvpCall& c) -> TensorList {
      const Tensor& x = c.primals[0];
      const Tensor& y = c.primals[1];
      const Tensor by_self = scaled(c.tangents[0], [&] {
        const Tensor masked = ops::logical_and(ops::eq(x, ops::lit(0)), ops::le(y, ops::lit(pole)));
        return ops::where(masked, ops::lit(0), log_fn(ops::where(masked, ops::lit(1), y)));
      });
      const Tensor by_other = scaled(c.tangents[1], [&] { return ops::div(x, ops::sub(y, ops::lit(pole))); });
      return {add_tangents(by_self, by_other)};
    });
  };
  add_xlogy_rule("xlogy", ops::log, 0.0);
  add_xlogy_rule("special_xlog1py", ops::log1p, -1.0);
  // hypot: d/dself = self / result, d/dother = other / result; at the origin 0 to every order, the
  // derivative norm has at the zero vector (PyTorch's formula gives 0/0 = NaN there).
  attach.jvp("hypot", [](const JvpCall& c) -> TensorList {
    const Tensor& r = c.outputs[0];
    const Tensor origin = ops::eq(r, ops::lit(0));
    const Tensor safe_r = ops::where(origin, ops::lit(1), r);
    const auto share = [&](const Tensor& tangent, const Tensor& operand) -> Tensor {
      if (!tangent.defined()) return Tensor();
      return ops::where(origin, ops::lit(0), ops::mul(tangent, ops::div(operand, safe_r)));
    };
    return {add_tangents(share(c.tangents[0], c.primals[0]), share(c.tangents[1], c.primals[1]))};
  });
  // copysign: d/dself = result / self, 0 where self == 0 (PyTorch's copysign_tensor_self_backward);
  // the sign operand carries no derivative.
  attach.jvp("copysign", [](const JvpCall& c) -> TensorList {
    const Tensor& x = c.primals[0];
    return {scaled(c.tangents[0], [&] {
      const Tensor zero = ops::eq(x, ops::lit(0));
      return ops::where(zero, ops::lit(0), ops::div(c.outputs[0], ops::where(zero, ops::lit(1), x)));
    })};
  });

  // logaddexp: d/dself = 1 / (1 + exp(other - self)), d/dother = 1 / (1 + exp(self - other)), as
  // PyTorch's derivatives.yaml: exactly 1/2 each at a tie, 1 and 0 with one operand +inf (or -inf
  // against a finite one), and NaN for both at equal infinities, where the difference is NaN (SPEC
  // OPS-23.9). logaddexp2 the same with 2^(other - self), computed as exp((other - self) log 2).
  const auto add_logaddexp_rule = [&attach](const char* op, double log_base) {
    attach.jvp(op, [log_base](const JvpCall& c) -> TensorList {
      const Tensor& a = c.primals[0];
      const Tensor& b = c.primals[1];
      const auto share = [log_base](const Tensor& self, const Tensor& other) {
        Tensor exponent = ops::sub(other, self);
        if (log_base != 1.0) exponent = ops::mul(exponent, ops::lit(log_base));
        return ops::reciprocal(ops::add(ops::exp(exponent), ops::lit(1.0)));
      };
      return {add_tangents(scaled(c.tangents[0], [&] { return share(a, b); }),
                           scaled(c.tangents[1], [&] { return share(b, a); }))};
    });
  };
  add_logaddexp_rule("logaddexp", 1.0);
  add_logaddexp_rule("logaddexp2", std::numbers::ln2);

  // Linear in both branches; the condition carries no derivative.
  attach.jvp("where", [](const JvpCall& c) -> TensorList {
    const Tensor& self = c.tangents[1];
    const Tensor& other = c.tangents[2];
    if (!self.defined() && !other.defined()) return {Tensor()};
    return {ops::where(c.primals[0], self.defined() ? self : ops::lit(0), other.defined() ? other : ops::lit(0))};
  });
  attach.transpose("where", [](const TransposeCall& c) -> TensorList {
    const Tensor& condition = c.inputs[0];
    const Tensor& ct = c.cotangents[0];
    return {Tensor(), c.linear[1] ? ops::where(condition, ct, ops::lit(0)) : Tensor(),
            c.linear[2] ? ops::where(condition, ops::lit(0), ct) : Tensor()};
  });
}

}  // namespace funcspec::transforms
