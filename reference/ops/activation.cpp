// The activation functions of torch.nn.functional, as composites of the elementwise ops
// (docs/ops/activation.md). Each piecewise one is a `where` over its pieces, with the comparison
// PyTorch's backward uses, so the derivative at a kink or threshold is the piece PyTorch's backward
// picks (SPEC AD-8.12); a piece that could overflow off its side (elu's expm1) reads its input
// through a second `where`, so its unused derivative is finite and a zero cotangent stays zero.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Tensor pointwise(std::string_view op, const Tensor& a, const Tensor& b) { return call_one(op, {a, b}); }
Tensor choose(const Tensor& condition, const Tensor& a, const Tensor& b) {
  return call_one("where", {condition, a, b});
}
Tensor scaled(const Tensor& x, double factor) { return pointwise("mul", x, ops::lit(factor)); }

// A Scalar attribute as a literal of x's dtype category, as PyTorch converts it to the tensor's
// dtype: for an int64 input a floating bound truncates toward zero (hardtanh(x, 0.5, 1.5) clamps
// an int64 x to [0, 1]).
Tensor literal_for(const Tensor& x, const Scalar& value) {
  if (!is_floating(x.dtype())) {
    const double v = std::trunc(value.to<double>());
    constexpr double kLimit = 9.2e18;  // inside int64's range, so the conversion is defined
    return ops::lit(static_cast<std::int64_t>(std::clamp(v, -kLimit, kLimit)));
  }
  return ops::lit(value.to<double>());
}

void check_floating(std::string_view op, const Tensor& x) { check_dtype(op, "self", x.dtype(), DTypeSet::Floating); }

// scale * (x > 0 ? x : alpha * expm1(input_scale * x)), PyTorch's elu kernel; the negative piece
// reads where(x > 0, 0, x) so that expm1 never sees a large positive x.
Tensor elu_formula(const Tensor& x, double alpha, double scale, double input_scale) {
  const Tensor positive = pointwise("gt", x, ops::lit(0.0));
  const Tensor negative_input = choose(positive, ops::lit(0.0), x);
  Tensor negative = call_one("expm1", {input_scale == 1.0 ? negative_input : scaled(negative_input, input_scale)});
  negative = scaled(negative, alpha * scale);
  return choose(positive, scale == 1.0 ? x : scaled(x, scale), negative);
}

// SELU's constants (Klambauer et al. 2017), as PyTorch spells them.
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

// clamp(x, lo, hi) with hardtanh's derivative: 0 at both bounds (PyTorch's hardtanh_backward masks
// x <= lo and x >= hi), 1 strictly between; NaN passes through.
Tensor hardtanh_formula(const Tensor& x, const Scalar& lo, const Scalar& hi) {
  const Tensor low = literal_for(x, lo), high = literal_for(x, hi);
  return choose(pointwise("le", x, low), low, choose(pointwise("ge", x, high), high, x));
}

void check_hardtanh(std::string_view op, const Tensor& x, const Scalar& lo, const Scalar& hi) {
  check_dtype(op, "self", x.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(lo.to<double>() <= hi.to<double>(), ErrorKind::InvalidArgument,
                 "[{}] min_val ({}) cannot be greater than max_val ({})", op, lo.to<double>(), hi.to<double>());
}

// +0 where x is finite, NaN where x is NaN: the zero piece of the shrink functions.
Tensor zero_keeping_nan(const Tensor& x) { return pointwise("add", scaled(x, 0.0), ops::lit(0.0)); }

// The channel dim of prelu's input is 1, or none below rank 2 (PyTorch: "channel size = 1").
Tensor prelu_weight_view(const Tensor& x, const Tensor& weight) {
  FUNCSPEC_CHECK(weight.dim() <= 1, ErrorKind::ShapeMismatch,
                 "[prelu] weight must be a scalar or 1-D tensor but has shape {}", shape_to_string(weight.shape()));
  FUNCSPEC_CHECK(weight.dtype() == x.dtype(), ErrorKind::DtypeNotSupported,
                 "[prelu] weight's dtype {} differs from self's {} (prelu does not promote)",
                 dtype_name(weight.dtype()), dtype_name(x.dtype()));
  const std::int64_t channels = x.dim() >= 2 ? x.shape()[1] : 1;
  if (weight.numel() == 1) return call_one("reshape", {weight}, {{"shape", std::vector<std::int64_t>{}}});
  FUNCSPEC_CHECK(weight.numel() == channels, ErrorKind::ShapeMismatch,
                 "[prelu] weight has {} parameters but self has {} channels (dim 1 of shape {})", weight.numel(),
                 channels, shape_to_string(x.shape()));
  std::vector<std::int64_t> view(static_cast<std::size_t>(x.dim() - 1), 1);
  view[0] = channels;
  return call_one("reshape", {weight}, {{"shape", view}});
}

struct Activation {
  const char* schema;
  const char* summary;
  bool inplace;  // PyTorch has the in-place variant (elu_, F.hardtanh(inplace=True), ...)
  bool out;      // PyTorch has the out= variant
  DecomposeFn decompose;
};

}  // namespace

void register_activation_ops(OpRegistry& registry) {
  const Activation activations[] = {
      {"elu(Tensor self, float alpha=1.0) -> Tensor", "x > 0 ? x : alpha * expm1(x); at 0 the negative piece's slope",
       true, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         check_floating("elu", in[0]);
         return {elu_formula(in[0], attrs.get_float("alpha"), 1.0, 1.0)};
       }},
      {"selu(Tensor self) -> Tensor", "scale * elu(x, alpha) with SELU's constants", true, false,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_floating("selu", in[0]);
         return {elu_formula(in[0], kSeluAlpha, kSeluScale, 1.0)};
       }},
      {"celu(Tensor self, float alpha=1.0) -> Tensor", "x > 0 ? x : alpha * expm1(x / alpha); alpha != 0", true, false,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         check_floating("celu", in[0]);
         const double alpha = attrs.get_float("alpha");
         FUNCSPEC_CHECK(alpha != 0.0, ErrorKind::InvalidArgument, "[celu] alpha cannot be 0 (it divides the input)");
         return {elu_formula(in[0], alpha, 1.0, 1.0 / alpha)};
       }},
      {"leaky_relu(Tensor self, float negative_slope=0.01) -> Tensor",
       "x > 0 ? x : negative_slope * x; at 0 the slope negative_slope", true, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         check_floating("leaky_relu", in[0]);
         const Tensor& x = in[0];
         return {choose(pointwise("gt", x, ops::lit(0.0)), x, scaled(x, attrs.get_float("negative_slope")))};
       }},
      {"hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
       "clamp(x, min_val, max_val) with derivative 0 at both bounds; int64 kept", true, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         const Scalar lo = attrs.get_scalar("min_val"), hi = attrs.get_scalar("max_val");
         check_hardtanh("hardtanh", in[0], lo, hi);
         return {hardtanh_formula(in[0], lo, hi)};
       }},
      {"relu6(Tensor self) -> Tensor", "hardtanh(x, 0, 6)", true, false,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_dtype("relu6", "self", in[0].dtype(), DTypeSet::NoBool);
         return {hardtanh_formula(in[0], Scalar(std::int64_t{0}), Scalar(std::int64_t{6}))};
       }},
      {"hardsigmoid(Tensor self) -> Tensor", "min(max(x + 3, 0), 6) / 6; derivative 0 at -3 and 3", true, true,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_floating("hardsigmoid", in[0]);
         const Tensor& x = in[0];
         const Tensor middle = pointwise("div", pointwise("add", x, ops::lit(3.0)), ops::lit(6.0));
         return {choose(pointwise("le", x, ops::lit(-3.0)), ops::lit(0.0),
                        choose(pointwise("ge", x, ops::lit(3.0)), ops::lit(1.0), middle))};
       }},
      {"hardswish(Tensor self) -> Tensor", "x * min(max(x + 3, 0), 6) / 6; derivative 0 at -3 and 1 at 3 (PyTorch 2)",
       true, true,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_floating("hardswish", in[0]);
         const Tensor& x = in[0];
         // x * 0 below -3 (as PyTorch: -0 for finite x, NaN at -inf), x * (x + 3) / 6 in between.
         const Tensor middle = pointwise("div", pointwise("mul", x, pointwise("add", x, ops::lit(3.0))), ops::lit(6.0));
         return {choose(pointwise("le", x, ops::lit(-3.0)), scaled(x, 0.0),
                        choose(pointwise("lt", x, ops::lit(3.0)), middle, x))};
       }},
      {"silu(Tensor self) -> Tensor", "x * sigmoid(x)", true, true,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_floating("silu", in[0]);
         return {pointwise("mul", in[0], call_one("sigmoid", {in[0]}))};
       }},
      {"mish(Tensor self) -> Tensor", "x * tanh(softplus(x))", true, true,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_floating("mish", in[0]);
         return {pointwise("mul", in[0],
                           call_one("tanh", {call_one("softplus", {in[0]}, {{"beta", 1.0}, {"threshold", 20.0}})}))};
       }},
      {"glu(Tensor self, int dim=-1) -> Tensor", "a * sigmoid(b), a and b the halves of self along dim", false, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         const Tensor& x = in[0];
         check_floating("glu", x);
         FUNCSPEC_CHECK(x.dim() >= 1, ErrorKind::ShapeMismatch, "[glu] self must have a dim to halve but is rank 0");
         const std::int64_t dim = wrap_dim(attrs.get_int("dim"), x.dim(), "glu");
         const std::int64_t size = x.shape()[static_cast<std::size_t>(dim)];
         FUNCSPEC_CHECK(size % 2 == 0, ErrorKind::ShapeMismatch,
                        "[glu] the halved dim {} must have an even size but has size {}", dim, size);
         // split of a dim of size 0 gives one empty piece, not two (PyTorch's split too): both halves
         // are then x itself, the right empty shape.
         if (size == 0) return {pointwise("mul", x, call_one("sigmoid", {x}))};
         const TensorList halves = call("split", {x}, {{"split_size", size / 2}, {"dim", dim}});
         return {pointwise("mul", halves[0], call_one("sigmoid", {halves[1]}))};
       }},
      {"softsign(Tensor self) -> Tensor", "x / (1 + |x|); int64 computes in float32", false, false,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_dtype("softsign", "self", in[0].dtype(), DTypeSet::NoBool);
         const Tensor x = cast_to(in[0], to_floating(in[0].dtype()));
         return {pointwise("div", x, pointwise("add", call_one("abs", {x}), ops::lit(1.0)))};
       }},
      {"softmin(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
       "softmax(-x, dim, dtype): negated, then converted to dtype", false, false,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         const std::optional<DType> dtype = attrs.get_optional_dtype("dtype");
         if (!dtype) check_floating("softmin", in[0]);
         Attrs softmax_attrs{{"dim", attrs.get_int("dim")}};
         if (dtype) softmax_attrs.set("dtype", *dtype);
         return {call_one("softmax", {call_one("neg", {in[0]})}, softmax_attrs)};
       }},
      {"tanhshrink(Tensor self) -> Tensor", "x - tanh(x); int64 computes in float32", false, false,
       [](const TensorList& in, const Attrs&) -> TensorList {
         check_dtype("tanhshrink", "self", in[0].dtype(), DTypeSet::NoBool);
         const Tensor x = cast_to(in[0], to_floating(in[0].dtype()));
         return {pointwise("sub", x, call_one("tanh", {x}))};
       }},
      {"softshrink(Tensor self, float lambd=0.5) -> Tensor",
       "x - lambd above lambd, x + lambd below -lambd, +0 between (derivative 0 at +-lambd)", false, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         check_floating("softshrink", in[0]);
         const double lambd = attrs.get_float("lambd");
         FUNCSPEC_CHECK(lambd >= 0, ErrorKind::InvalidArgument, "[softshrink] lambd must be >= 0 but is {}", lambd);
         const Tensor& x = in[0];
         // lambd = 0 is the identity, differentiable at 0 too (PyTorch's backward gives 0 there).
         if (lambd == 0.0) return {pointwise("add", x, ops::lit(0.0))};
         return {choose(
             pointwise("gt", x, ops::lit(lambd)), pointwise("sub", x, ops::lit(lambd)),
             choose(pointwise("lt", x, ops::lit(-lambd)), pointwise("add", x, ops::lit(lambd)), zero_keeping_nan(x)))};
       }},
      {"hardshrink(Tensor self, float lambd=0.5) -> Tensor", "0 where -lambd <= x <= lambd, else x", false, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         check_floating("hardshrink", in[0]);
         const Tensor& x = in[0];
         const double lambd = attrs.get_float("lambd");
         // lambd = 0 is the identity (but for the sign of a zero), differentiable at 0 too.
         if (lambd == 0.0) return {pointwise("add", x, ops::lit(0.0))};
         return {choose(pointwise("le", call_one("abs", {x}), ops::lit(lambd)), ops::lit(0.0), x)};
       }},
      {"threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor",
       "x <= threshold ? value : x (derivative 0 at the threshold); int64 kept", true, true,
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         const Tensor& x = in[0];
         check_dtype("threshold", "self", x.dtype(), DTypeSet::NoBool);
         return {choose(pointwise("le", x, literal_for(x, attrs.get_scalar("threshold"))),
                        literal_for(x, attrs.get_scalar("value")), x)};
       }},
      {"prelu(Tensor self, Tensor weight) -> Tensor",
       "x > 0 ? x : weight * x, weight one value or one per channel (dim 1)", false, false,
       [](const TensorList& in, const Attrs&) -> TensorList {
         const Tensor &x = in[0], &weight = in[1];
         check_floating("prelu", x);
         const Tensor w = prelu_weight_view(x, weight);
         return {choose(pointwise("gt", x, ops::lit(0.0)), x, pointwise("mul", w, x))};
       }},
  };
  for (const Activation& a : activations) {
    OpDef& op = registry.add(a.schema, OpKind::Composite, "activation", a.summary);
    op.decompose = a.decompose;
    op.derive_inplace = a.inplace;
    op.derive_out = a.out;
  }
  {
    // Training draws each slope from U(lower, upper) (`uniform` over the input's shape, so every
    // element draws, whatever its sign); eval is leaky_relu with the mean slope. At 0 both take the
    // negative piece, as PyTorch's rrelu_with_noise (input <= 0) and leaky_relu do.
    OpDef& op = registry.add(
        "rrelu(Tensor self, float lower=0.125, float upper=0.3333333333333333, bool training=False) -> Tensor",
        OpKind::Composite, "activation",
        "x > 0 ? x : slope * x, slope ~ U(lower, upper) per element when training, (lower + upper) / 2 in eval");
    op.random = true;
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& x = in[0];
      check_floating("rrelu", x);
      const double lower = attrs.get_float("lower"), upper = attrs.get_float("upper");
      FUNCSPEC_CHECK(lower <= upper, ErrorKind::InvalidArgument,
                     "[rrelu] lower ({}) must be less than or equal to upper ({})", lower, upper);
      const Tensor slope = attrs.get_bool("training") ? call_one("uniform", {x}, {{"from", lower}, {"to", upper}})
                                                      : ops::lit((lower + upper) / 2);
      return {choose(pointwise("gt", x, ops::lit(0.0)), x, pointwise("mul", x, slope))};
    };
  }
}

}  // namespace funcspec
