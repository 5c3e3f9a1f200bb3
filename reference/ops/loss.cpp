// The losses of torch.nn.functional beyond nll_loss, cross_entropy and mse_loss (composite.cpp),
// as composites of the elementwise ops and reductions (docs/ops/loss.md). Each follows PyTorch's
// formula, piece for piece, and at a kink, a margin or a threshold takes the piece PyTorch 2's
// backward takes, at every order (SPEC OPS-14.1): the hinges max(0, z) have slope 0 at z = 0.
// Where a piece is unused at a point and its derivative would be infinite there (log at 0), it
// reads a safe input through a second `where`, so a zero cotangent stays zero.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/loss_reduction.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Tensor apply(std::string_view op, const Tensor& a, const Tensor& b) { return call_one(op, {a, b}); }
Tensor apply(std::string_view op, const Tensor& a) { return call_one(op, {a}); }
Tensor pick(const Tensor& condition, const Tensor& a, const Tensor& b) { return call_one("where", {condition, a, b}); }
Tensor times(const Tensor& x, double factor) { return apply("mul", x, ops::lit(factor)); }
Tensor plus(const Tensor& x, double value) { return apply("add", x, ops::lit(value)); }
Tensor one_minus(const Tensor& x) { return apply("sub", ops::lit(1.0), x); }
Tensor clamp_min(const Tensor& x, double low) { return call_one("clamp", {x, ops::lit(low), Tensor()}); }
Tensor detached(const Tensor& x) { return apply("detach", x); }
// max(0, z) with slope 0 at z = 0, as PyTorch 2's clamp_min(z, 0) in the margin losses and its
// `z > 0` in multi_margin_loss; the zero piece is clamp's value (0, and NaN for NaN) without a
// derivative.
Tensor hinge(const Tensor& z) { return pick(apply("gt", z, ops::lit(0.0)), z, detached(clamp_min(z, 0.0))); }
Tensor sum_over(const Tensor& x, std::int64_t dim, bool keepdim) {
  return call_one("sum", {x}, {{"dim", std::vector<std::int64_t>{dim}}, {"keepdim", keepdim}});
}

void check_floating_inputs(std::string_view op,
                           std::initializer_list<std::pair<std::string_view, const Tensor*>> args) {
  for (const auto& [name, t] : args) {
    if (t->defined()) check_dtype(op, name, t->dtype(), DTypeSet::Floating);
  }
}

// `t` broadcast to `shape` or a shape_mismatch naming the op and argument (PyTorch's losses take
// weights that broadcast to the input, never the other way round).
Tensor broadcast_to_input(std::string_view op, std::string_view arg, const Tensor& t, const Shape& shape) {
  const Shape shapes[] = {t.shape(), shape};
  const Shape joint = broadcast_shapes(shapes, op);
  FUNCSPEC_CHECK(joint == shape, ErrorKind::ShapeMismatch, "[{}] {} of shape {} does not broadcast to the input's {}",
                 op, arg, shape_to_string(t.shape()), shape_to_string(shape));
  return expand_to(t, shape);
}

void check_same_shape(std::string_view op, std::string_view arg, const Tensor& t, const Tensor& input) {
  FUNCSPEC_CHECK(t.shape() == input.shape(), ErrorKind::ShapeMismatch,
                 "[{}] {} must have the input's shape {} but has shape {}", op, arg, shape_to_string(input.shape()),
                 shape_to_string(t.shape()));
}

// max(log(x), -100) or, for `one_minus`, max(log1p(-x), -100): PyTorch's binary_cross_entropy
// kernel. Where the log is -inf (x == 0, or x == 1 for log1p(-x)) the -100 piece is taken and the
// log reads a safe input, so no infinite derivative meets the zero that selects against it.
Tensor clamped_log(const Tensor& x, bool one_minus) {
  const Tensor pole = apply("eq", x, ops::lit(one_minus ? 1.0 : 0.0));
  const Tensor safe = pick(pole, ops::lit(one_minus ? 0.0 : 1.0), x);
  const Tensor log = one_minus ? apply("log1p", apply("neg", safe)) : apply("log", safe);
  return pick(pole, ops::lit(-100.0), clamp_min(log, -100.0));
}

// -w (t log x + (1 - t) log(1 - x)), each log clamped at -100 (PyTorch's binary_cross_entropy).
// Its derivative is that of this function: at x == 0 or 1 the clamped log is constant (SPEC
// OPS-14.1; PyTorch's backward divides by max(x (1 - x), 1e-12) instead).
TensorList binary_cross_entropy(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &t = in[1], &weight = in[2];
  const Reduction reduction = parse_reduction("binary_cross_entropy", attrs);
  check_floating_inputs("binary_cross_entropy", {{"self", &x}, {"target", &t}, {"weight", &weight}});
  check_same_shape("binary_cross_entropy", "target", t, x);
  const Tensor log_x = clamped_log(x, false), log_1mx = clamped_log(x, true);
  Tensor loss = apply("neg", apply("add", apply("mul", t, log_x), apply("mul", one_minus(t), log_1mx)));
  if (weight.defined())
    loss = apply("mul", loss, broadcast_to_input("binary_cross_entropy", "weight", weight, x.shape()));
  return {reduce_loss(reduction, loss)};
}

// (1 - t) x - (1 + (pos_weight - 1) t) logsigmoid(x), times weight: PyTorch 2's formula, exact
// for large |x| (logsigmoid is a primitive that never overflows).
TensorList binary_cross_entropy_with_logits(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &t = in[1], &weight = in[2], &pos_weight = in[3];
  constexpr std::string_view op = "binary_cross_entropy_with_logits";
  const Reduction reduction = parse_reduction(op, attrs);
  check_floating_inputs(op, {{"self", &x}, {"target", &t}, {"weight", &weight}, {"pos_weight", &pos_weight}});
  check_same_shape(op, "target", t, x);
  Tensor log_sigmoid = apply("logsigmoid", x);
  if (pos_weight.defined()) {
    const Tensor pw = broadcast_to_input(op, "pos_weight", pos_weight, x.shape());
    log_sigmoid = apply("mul", log_sigmoid, plus(apply("mul", plus(pw, -1.0), t), 1.0));
  }
  Tensor loss = apply("sub", apply("mul", one_minus(t), x), log_sigmoid);
  if (weight.defined()) loss = apply("mul", loss, broadcast_to_input(op, "weight", weight, x.shape()));
  return {reduce_loss(reduction, loss)};
}

// t (log t - x) with 0 log 0 = 0, or exp(t) (t - x) for log-space targets. At t == 0 the piece is
// t (detach(x) - x): its value is PyTorch's 0 * x (NaN for an infinite x), its derivative in t is 0
// (SPEC OPS-14.1: the one-sided slope is -inf and PyTorch's xlogy gives NaN), and its derivative in
// x is PyTorch's -t, whose derivative in t, -1, is the mixed second derivative in either order.
TensorList kl_div(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &t = in[1];
  const bool batchmean = attrs.get_string("reduction") == "batchmean";
  const Reduction reduction = batchmean ? Reduction::Sum : parse_reduction("kl_div", attrs);
  check_floating_inputs("kl_div", {{"self", &x}, {"target", &t}});
  Tensor loss;
  if (attrs.get_bool("log_target")) {
    loss = apply("mul", apply("exp", t), apply("sub", t, x));
  } else {
    const Tensor zero = apply("eq", t, ops::lit(0.0));
    const Tensor safe = pick(zero, ops::lit(1.0), t);
    const Tensor positive_piece = apply("mul", t, apply("sub", apply("log", safe), x));
    loss = pick(zero, apply("mul", t, apply("sub", detached(x), x)), positive_piece);
  }
  Tensor reduced = reduce_loss(reduction, loss);
  // 'batchmean' divides the sum by the batch size, dim 0 (F.kl_div; a rank-0 input is its own batch).
  if (batchmean && loss.dim() > 0) reduced = apply("div", reduced, ops::lit(static_cast<double>(loss.shape()[0])));
  return {reduced};
}

// |d| < delta ? d^2 / 2 : delta (|d| - delta / 2), d = self - target, times `scale`. Its first
// derivative is continuous at |d| == delta; its second there is the inner piece's for huber_loss
// and the outer piece's (0) for smooth_l1_loss, as PyTorch 2's double backwards mask |d| <= delta
// and |d| < beta.
Tensor huber_formula(const Tensor& d, double delta, double scale, bool inner_at_threshold) {
  const Tensor z = apply("abs", d);
  const Tensor inner = times(apply("mul", d, d), 0.5 * scale);
  const Tensor outer = times(plus(z, -0.5 * delta), delta * scale);
  return pick(apply(inner_at_threshold ? "le" : "lt", z, ops::lit(delta)), inner, outer);
}

TensorList huber_loss(const TensorList& in, const Attrs& attrs) {
  const Reduction reduction = parse_reduction("huber_loss", attrs);
  check_floating_inputs("huber_loss", {{"self", &in[0]}, {"target", &in[1]}});
  const double delta = attrs.get_float("delta");
  FUNCSPEC_CHECK(delta > 0, ErrorKind::InvalidArgument, "[huber_loss] delta must be positive but is {}", delta);
  return {reduce_loss(reduction, huber_formula(apply("sub", in[0], in[1]), delta, 1.0, true))};
}

// huber_loss(d, beta) / beta; beta == 0 is l1_loss (PyTorch's special case), beta < 0 an error.
TensorList smooth_l1_loss(const TensorList& in, const Attrs& attrs) {
  const Reduction reduction = parse_reduction("smooth_l1_loss", attrs);
  check_floating_inputs("smooth_l1_loss", {{"self", &in[0]}, {"target", &in[1]}});
  const double beta = attrs.get_float("beta");
  FUNCSPEC_CHECK(beta >= 0, ErrorKind::InvalidArgument, "[smooth_l1_loss] beta must not be negative but is {}", beta);
  const Tensor d = apply("sub", in[0], in[1]);
  if (beta == 0) return {reduce_loss(reduction, apply("abs", d))};
  return {reduce_loss(reduction, huber_formula(d, beta, 1.0 / beta, false))};
}

// Shapes as F.gaussian_nll_loss: var has the input's shape, or the input's with the last dim 1, or
// the input's without its last dim (then unsqueezed).
Tensor gaussian_variance(const Tensor& input, const Tensor& var) {
  if (var.shape() == input.shape()) return var;
  const Shape& in = input.shape();
  const Shape leading = in.empty() ? Shape{} : Shape(in.begin(), in.end() - 1);
  if (!in.empty() && var.shape() == leading) return call_one("unsqueeze", {var}, {{"dim", std::int64_t{-1}}});
  const Shape& v = var.shape();
  FUNCSPEC_CHECK(!in.empty() && !v.empty() && v.back() == 1 && Shape(v.begin(), v.end() - 1) == leading,
                 ErrorKind::ShapeMismatch,
                 "[gaussian_nll_loss] var of shape {} fits neither the input's shape {}, nor it with the last dim 1 "
                 "or dropped",
                 shape_to_string(v), shape_to_string(in));
  return var;
}

// (log(max(var, eps)) + (input - target)^2 / max(var, eps)) / 2 (+ log(2 pi) / 2 when full). The
// clamp is PyTorch's, done under no_grad: its value is max(var, eps) but var's derivative passes
// through it as if it were var. A negative var is outside the domain: NaN (PyTorch raises).
TensorList gaussian_nll_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &input = in[0], &target = in[1];
  const Reduction reduction = parse_reduction("gaussian_nll_loss", attrs);
  check_floating_inputs("gaussian_nll_loss", {{"input", &input}, {"target", &target}, {"var", &in[2]}});
  const Tensor var = gaussian_variance(input, in[2]);
  const double eps = attrs.get_float("eps");
  const Tensor clamp_offset = detached(apply("sub", clamp_min(var, eps), var));
  Tensor clamped = apply("add", var, clamp_offset);
  clamped = pick(apply("lt", var, ops::lit(0.0)), ops::lit(NAN), clamped);
  const Tensor d = apply("sub", input, target);
  Tensor loss = times(apply("add", apply("log", clamped), apply("div", apply("mul", d, d), clamped)), 0.5);
  if (attrs.get_bool("full")) loss = plus(loss, 0.5 * std::log(2 * std::numbers::pi));
  return {reduce_loss(reduction, loss)};
}

// exp(x) - t x (log_input) or x - t log(x + eps); full adds Stirling's t log t - t + log(2 pi t) / 2
// where t > 1 (0 elsewhere, PyTorch's masked_fill(target <= 1, 0)).
TensorList poisson_nll_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &t = in[1];
  const Reduction reduction = parse_reduction("poisson_nll_loss", attrs);
  check_floating_inputs("poisson_nll_loss", {{"input", &x}, {"target", &t}});
  Tensor loss = attrs.get_bool("log_input")
                    ? apply("sub", apply("exp", x), apply("mul", t, x))
                    : apply("sub", x, apply("mul", t, apply("log", plus(x, attrs.get_float("eps")))));
  if (attrs.get_bool("full")) {
    const Tensor counted = apply("gt", t, ops::lit(1.0));
    const Tensor safe = pick(counted, t, ops::lit(2.0));
    const Tensor stirling = apply("add", apply("sub", apply("mul", safe, apply("log", safe)), safe),
                                  times(apply("log", times(safe, 2 * std::numbers::pi)), 0.5));
    loss = apply("add", loss, pick(counted, stirling, ops::lit(0.0)));
  }
  return {reduce_loss(reduction, loss)};
}

// max(0, -y (x1 - x2) + margin), slope 0 at the margin.
TensorList margin_ranking_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x1 = in[0], &x2 = in[1], &y = in[2];
  const Reduction reduction = parse_reduction("margin_ranking_loss", attrs);
  check_floating_inputs("margin_ranking_loss", {{"input1", &x1}, {"input2", &x2}, {"target", &y}});
  FUNCSPEC_CHECK(x1.dim() == x2.dim() && x2.dim() == y.dim(), ErrorKind::ShapeMismatch,
                 "[margin_ranking_loss] input1, input2 and target must have one rank but have shapes {}, {} and {}",
                 shape_to_string(x1.shape()), shape_to_string(x2.shape()), shape_to_string(y.shape()));
  const Tensor z = plus(apply("neg", apply("mul", y, apply("sub", x1, x2))), attrs.get_float("margin"));
  return {reduce_loss(reduction, hinge(z))};
}

// where(y != 1, max(0, margin - x), 0) + where(y != -1, x, 0): a target other than +-1 gets both.
TensorList hinge_embedding_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &y = in[1];
  const Reduction reduction = parse_reduction("hinge_embedding_loss", attrs);
  check_floating_inputs("hinge_embedding_loss", {{"self", &x}});
  check_dtype("hinge_embedding_loss", "target", y.dtype(), DTypeSet::NoBool);
  const Tensor margin_piece = hinge(apply("sub", ops::lit(attrs.get_float("margin")), x));
  const Tensor zero = ops::lit(0.0);
  const Tensor loss = apply("add", pick(apply("ne", y, ops::lit(1.0)), margin_piece, zero),
                            pick(apply("ne", y, ops::lit(-1.0)), x, zero));
  return {reduce_loss(reduction, loss)};
}

// log(1 + exp(-y x)) as -logsigmoid(y x): the same function, finite where exp overflows.
TensorList soft_margin_loss(const TensorList& in, const Attrs& attrs) {
  const Reduction reduction = parse_reduction("soft_margin_loss", attrs);
  check_floating_inputs("soft_margin_loss", {{"self", &in[0]}, {"target", &in[1]}});
  return {reduce_loss(reduction, apply("neg", apply("logsigmoid", apply("mul", in[1], in[0]))))};
}

// -(t logsigmoid(x) + (1 - t) logsigmoid(-x)) w, summed over the last (class) dim and divided by C.
TensorList multilabel_soft_margin_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &weight = in[2];
  constexpr std::string_view op = "multilabel_soft_margin_loss";
  const Reduction reduction = parse_reduction(op, attrs);
  check_floating_inputs(op, {{"self", &x}, {"target", &in[1]}, {"weight", &weight}});
  // The class dim is the last (dim -1), which a rank-0 input does not have.
  FUNCSPEC_CHECK(x.dim() >= 1, ErrorKind::DimOutOfRange, "[{}] the class dim -1 is out of range for a rank-0 self", op);
  const Tensor t = broadcast_to_input(op, "target", in[1], x.shape());
  Tensor loss = apply("neg", apply("add", apply("mul", t, apply("logsigmoid", x)),
                                   apply("mul", one_minus(t), apply("logsigmoid", apply("neg", x)))));
  if (weight.defined()) loss = apply("mul", loss, broadcast_to_input(op, "weight", weight, x.shape()));
  const double classes = static_cast<double>(x.shape().back());
  return {reduce_loss(reduction, times(sum_over(loss, -1, false), 1.0 / classes))};
}

// sum over i != y of w[y] max(0, margin - x[y] + x[i])^p / C, p 1 or 2; the hinge has slope 0 at
// its kink (PyTorch's kernel adds only z > 0).
TensorList multi_margin_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x = in[0], &y = in[1], &weight = in[2];
  constexpr std::string_view op = "multi_margin_loss";
  const Reduction reduction = parse_reduction(op, attrs);
  check_floating_inputs(op, {{"self", &x}, {"weight", &weight}});
  check_dtype(op, "target", y.dtype(), DTypeSet::Integral);
  const double p = attrs.get_scalar("p").to<double>();
  FUNCSPEC_CHECK(p == 1 || p == 2, ErrorKind::InvalidArgument, "[{}] p must be 1 or 2 but is {}", op, p);
  FUNCSPEC_CHECK((x.dim() == 1 || x.dim() == 2) && x.shape().back() > 0, ErrorKind::ShapeMismatch,
                 "[{}] self must be a non-empty vector or a matrix with non-empty rows but has shape {}", op,
                 shape_to_string(x.shape()));
  const Shape target_shape = x.dim() == 2 ? Shape{x.shape()[0]} : Shape{};
  FUNCSPEC_CHECK(y.shape() == target_shape, ErrorKind::ShapeMismatch,
                 "[{}] self of shape {} needs a target of shape {} but it has shape {}", op, shape_to_string(x.shape()),
                 shape_to_string(target_shape), shape_to_string(y.shape()));
  const std::int64_t classes = x.shape().back();
  if (weight.defined()) {
    FUNCSPEC_CHECK(weight.shape() == Shape{classes}, ErrorKind::ShapeMismatch,
                   "[{}] weight must have shape [{}] (one per class) but has shape {}", op, classes,
                   shape_to_string(weight.shape()));
  }
  const Tensor index = call_one("unsqueeze", {y}, {{"dim", std::int64_t{-1}}});
  const Tensor x_target = call_one("gather", {x, index}, {{"dim", std::int64_t{-1}}});
  const Tensor z = plus(apply("add", apply("neg", x_target), x), attrs.get_scalar("margin").to<double>());
  Tensor hinges = hinge(z);
  if (p == 2) hinges = apply("mul", hinges, hinges);
  // The target's own class is left out: a mask with 1 at it, scattered from constants.
  const Tensor at_target = call_one("scatter_add", {apply("zeros_like", x), index, apply("ones_like", x_target)},
                                    {{"dim", std::int64_t{-1}}});
  hinges = pick(apply("gt", at_target, ops::lit(0.0)), ops::lit(0.0), hinges);
  if (weight.defined()) {
    hinges =
        apply("mul", hinges, call_one("gather", {expand_to(weight, x.shape()), index}, {{"dim", std::int64_t{-1}}}));
  }
  return {reduce_loss(reduction, times(sum_over(hinges, -1, false), 1.0 / static_cast<double>(classes)))};
}

// PyTorch's cosine_embedding_loss: cos = sum(x1 x2) / sqrt((sum(x1^2) + eps)(sum(x2^2) + eps)), eps ~ 1e-12,
// along the last dim; 1 - cos where y == 1, max(0, cos - margin) where y == -1, 0 elsewhere.
TensorList cosine_embedding_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &x1 = in[0], &x2 = in[1], &y = in[2];
  constexpr std::string_view op = "cosine_embedding_loss";
  const Reduction reduction = parse_reduction(op, attrs);
  check_floating_inputs(op, {{"input1", &x1}, {"input2", &x2}});
  // The target is a label compared with 1 and -1, of any numeric dtype (as PyTorch's `target == 1`).
  check_dtype(op, "target", y.dtype(), DTypeSet::NoBool);
  FUNCSPEC_CHECK(x1.dim() == x2.dim() && (x1.dim() == 1 || x1.dim() == 2) && y.dim() == x1.dim() - 1,
                 ErrorKind::ShapeMismatch,
                 "[{}] input1 and input2 must both be vectors (target rank 0) or matrices (target rank 1) but have "
                 "shapes {} and {} and target {}",
                 op, shape_to_string(x1.shape()), shape_to_string(x2.shape()), shape_to_string(y.shape()));
  // PyTorch's EPSILON is a float constant: 1e-12 rounded to float32, 9.999999960041972e-13.
  constexpr double kEpsilon = static_cast<double>(1e-12F);
  const std::int64_t dim = x1.dim() - 1;
  const Tensor dot = sum_over(apply("mul", x1, x2), dim, false);
  const Tensor square1 = plus(sum_over(apply("mul", x1, x1), dim, false), kEpsilon);
  const Tensor square2 = plus(sum_over(apply("mul", x2, x2), dim, false), kEpsilon);
  const Tensor cos = apply("div", dot, apply("sqrt", apply("mul", square1, square2)));
  const Tensor zero = ops::lit(0.0);
  const Tensor positive = pick(apply("eq", y, ops::lit(1.0)), one_minus(cos), zero);
  const Tensor negative = pick(apply("eq", y, ops::lit(-1.0)), hinge(plus(cos, -attrs.get_float("margin"))), zero);
  return {reduce_loss(reduction, apply("add", positive, negative))};
}

// max(0, margin + d(a, p) - d(a, n)) with pairwise_distance; swap takes min(d(a, n), d(p, n)).
TensorList triplet_margin_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &anchor = in[0], &positive = in[1], &negative = in[2];
  constexpr std::string_view op = "triplet_margin_loss";
  const Reduction reduction = parse_reduction(op, attrs);
  check_floating_inputs(op, {{"anchor", &anchor}, {"positive", &positive}, {"negative", &negative}});
  FUNCSPEC_CHECK(anchor.dim() == positive.dim() && positive.dim() == negative.dim(), ErrorKind::ShapeMismatch,
                 "[{}] anchor, positive and negative must have one rank but have shapes {}, {} and {}", op,
                 shape_to_string(anchor.shape()), shape_to_string(positive.shape()), shape_to_string(negative.shape()));
  const Attrs distance{{"p", attrs.get_float("p")}, {"eps", attrs.get_float("eps")}, {"keepdim", false}};
  const Tensor to_positive = call_one("pairwise_distance", {anchor, positive}, distance);
  Tensor to_negative = call_one("pairwise_distance", {anchor, negative}, distance);
  if (attrs.get_bool("swap")) {
    to_negative = apply("minimum", to_negative, call_one("pairwise_distance", {positive, negative}, distance));
  }
  const Tensor z = plus(apply("sub", to_positive, to_negative), attrs.get_float("margin"));
  return {reduce_loss(reduction, hinge(z))};
}

struct Loss {
  const char* schema;
  const char* summary;
  DecomposeFn decompose;
};

}  // namespace

void register_loss_ops(OpRegistry& registry) {
  const Loss losses[] = {
      {"binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, *, str reduction='mean') -> Tensor",
       "-w (t log x + (1 - t) log(1 - x)), each log clamped at -100", binary_cross_entropy},
      {"binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, *, "
       "str reduction='mean') -> Tensor",
       "w ((1 - t) x - (1 + (pos_weight - 1) t) logsigmoid(x))", binary_cross_entropy_with_logits},
      {"kl_div(Tensor self, Tensor target, *, str reduction='mean', bool log_target=False) -> Tensor",
       "t (log t - x) (0 where t == 0), or exp(t) (t - x); reduction also 'batchmean'", kl_div},
      {"huber_loss(Tensor self, Tensor target, *, str reduction='mean', float delta=1.0) -> Tensor",
       "|d| < delta ? d^2 / 2 : delta (|d| - delta / 2), d = self - target", huber_loss},
      {"smooth_l1_loss(Tensor self, Tensor target, *, str reduction='mean', float beta=1.0) -> Tensor",
       "|d| < beta ? d^2 / (2 beta) : |d| - beta / 2; beta 0 is l1_loss", smooth_l1_loss},
      {"l1_loss(Tensor self, Tensor target, *, str reduction='mean') -> Tensor", "|self - target|",
       [](const TensorList& in, const Attrs& attrs) -> TensorList {
         const Reduction reduction = parse_reduction("l1_loss", attrs);
         check_floating_inputs("l1_loss", {{"self", &in[0]}, {"target", &in[1]}});
         return {reduce_loss(reduction, apply("abs", apply("sub", in[0], in[1])))};
       }},
      {"gaussian_nll_loss(Tensor input, Tensor target, Tensor var, *, bool full=False, float eps=1e-06, str "
       "reduction='mean') -> Tensor",
       "(log v + (input - target)^2 / v) / 2, v = max(var, eps) with var's derivative passed through",
       gaussian_nll_loss},
      {"poisson_nll_loss(Tensor input, Tensor target, *, bool log_input=True, bool full=False, float eps=1e-08, str "
       "reduction='mean') -> Tensor",
       "exp(x) - t x, or x - t log(x + eps); full adds Stirling's term where t > 1", poisson_nll_loss},
      {"margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, *, float margin=0.0, str reduction='mean') "
       "-> Tensor",
       "max(0, -y (x1 - x2) + margin)", margin_ranking_loss},
      {"hinge_embedding_loss(Tensor self, Tensor target, *, float margin=1.0, str reduction='mean') -> Tensor",
       "y != 1: max(0, margin - x); y != -1: x; both added", hinge_embedding_loss},
      {"soft_margin_loss(Tensor self, Tensor target, *, str reduction='mean') -> Tensor", "log(1 + exp(-y x))",
       soft_margin_loss},
      {"multilabel_soft_margin_loss(Tensor self, Tensor target, Tensor? weight=None, *, str reduction='mean') -> "
       "Tensor",
       "mean over the last dim of -w (t logsigmoid(x) + (1 - t) logsigmoid(-x))", multilabel_soft_margin_loss},
      {"multi_margin_loss(Tensor self, Tensor target, Tensor? weight=None, *, Scalar p=1, Scalar margin=1, str "
       "reduction='mean') -> Tensor",
       "sum over i != y of w[y] max(0, margin - x[y] + x[i])^p / C", multi_margin_loss},
      {"cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, *, float margin=0.0, str "
       "reduction='mean') -> Tensor",
       "y == 1: 1 - cos(x1, x2); y == -1: max(0, cos - margin); cos with 1e-12 added to the squared norms",
       cosine_embedding_loss},
      {"triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, *, float margin=1.0, float p=2., float "
       "eps=1e-06, bool swap=False, str reduction='mean') -> Tensor",
       "max(0, margin + d(a, p) - d(a, n)), d pairwise_distance; swap: d(a, n) = min(d(a, n), d(p, n))",
       triplet_margin_loss},
  };
  for (const Loss& loss : losses) {
    OpDef& op = registry.add(loss.schema, OpKind::Composite, "loss", loss.summary);
    op.decompose = loss.decompose;
  }
}

}  // namespace funcspec
