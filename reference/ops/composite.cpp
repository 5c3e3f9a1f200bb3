// Composite ops written only in terms of other ops (NOTE: [op kinds]): softmax and friends, the
// common losses, linear, layer_norm, and the fill in-place ops. Decompositions read
// shapes and dtypes for their checks and never data.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/loss_reduction.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

using Dims = std::vector<std::int64_t>;

Tensor reduce_keepdim(std::string_view op, const Tensor& t, const Dims& dims) {
  return call_one(op, {t}, {{"dim", dims}, {"keepdim", true}});
}
Tensor reduce_dims(std::string_view op, const Tensor& t, const Dims& dims) {
  return call_one(op, {t}, {{"dim", dims}, {"keepdim", false}});
}
Tensor sum_all(const Tensor& t) { return call_one("sum", {t}); }
Tensor binary(std::string_view op, const Tensor& a, const Tensor& b) { return call_one(op, {a, b}); }
Tensor unsqueeze(const Tensor& t, std::int64_t dim) { return call_one("unsqueeze", {t}, {{"dim", dim}}); }
Tensor squeeze_dim(const Tensor& t, std::int64_t dim) { return call_one("squeeze", {t}, {{"dim", Dims{dim}}}); }

// x - amax(x) along dim, the max detached: the shift changes nothing mathematically, so it must
// not contribute a gradient of its own (and it keeps exp from overflowing).
Tensor shifted_by_max(const Tensor& x, std::int64_t dim) {
  const Tensor max = call_one("detach", {reduce_keepdim("amax", x, {dim})});
  return binary("sub", x, max);
}

// self converted to the `dtype` attribute first when one is given (PyTorch's dtype= casts the input
// before the op, so an int64 input with a floating dtype is computed in it), then checked floating.
Tensor softmax_input(std::string_view op, const Tensor& self, const Attrs& attrs) {
  const std::optional<DType> dtype = attrs.get_optional_dtype("dtype");
  const Tensor x = dtype ? cast_to(self, *dtype) : self;
  check_dtype(op, dtype ? "dtype" : "self", x.dtype(), DTypeSet::Floating);
  return x;
}

// The class dim of a loss input: 0 for [C], 1 for [N, C, d...].
std::int64_t class_dim(const Tensor& self) { return self.dim() == 1 ? 0 : 1; }

// weight [C] viewed so it broadcasts along the class dim of `self`: [C, 1, ..., 1].
Tensor weight_along_class_dim(const Tensor& weight, const Tensor& self) {
  Tensor w = cast_to(weight, self.dtype());
  for (std::int64_t d = 2; d < self.dim(); ++d) w = unsqueeze(w, -1);
  return w;
}

void check_loss_input(std::string_view op, const Tensor& self, const Tensor& weight) {
  check_dtype(op, "self", self.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(self.dim() >= 1, ErrorKind::ShapeMismatch, "[{}] self must have a class dim but has shape {}", op,
                 shape_to_string(self.shape()));
  if (weight.defined()) {
    const std::int64_t classes = self.shape()[static_cast<std::size_t>(class_dim(self))];
    FUNCSPEC_CHECK(weight.shape() == Shape{classes}, ErrorKind::ShapeMismatch,
                   "[{}] weight must have shape [{}] (one per class) but has shape {}", op, classes,
                   shape_to_string(weight.shape()));
  }
}

// Class-index targets: int64 of self's shape without the class dim.
void check_index_target(std::string_view op, const Tensor& self, const Tensor& target) {
  check_dtype(op, "target", target.dtype(), DTypeSet::Integral);
  Shape expected = self.shape();
  expected.erase(expected.begin() + class_dim(self));
  FUNCSPEC_CHECK(target.shape() == expected, ErrorKind::ShapeMismatch,
                 "[{}] self of shape {} needs class-index targets of shape {} but target has shape {}", op,
                 shape_to_string(self.shape()), shape_to_string(expected), shape_to_string(target.shape()));
}

struct PickedLosses {
  Tensor losses;        // -w[t] * self[t] per target, 0 where ignored; target's shape
  Tensor weight_taken;  // w[t], 0 where ignored: the denominator of reduction='mean'
  Tensor valid;         // target != ignore_index
};

PickedLosses pick_by_target(const Tensor& self, const Tensor& target, const Tensor& weight, std::int64_t ignore_index) {
  const std::int64_t cdim = class_dim(self);
  const Tensor valid = binary("ne", target, ops::lit(ignore_index));
  // Ignored targets may hold any value (-100 by default): gather at class 0 instead, then mask.
  const Tensor safe_target = call_one("where", {valid, target, ops::lit(std::int64_t{0})});
  const Tensor index = unsqueeze(safe_target, cdim);
  const Tensor picked = squeeze_dim(call_one("gather", {self, index}, {{"dim", cdim}}), cdim);
  Tensor weight_taken = call_one("to_dtype", {valid}, {{"dtype", self.dtype()}});
  Tensor weighted = picked;
  if (weight.defined()) {
    const Tensor full = expand_to(weight_along_class_dim(weight, self), self.shape());
    const Tensor taken = squeeze_dim(call_one("gather", {full, index}, {{"dim", cdim}}), cdim);
    weight_taken = call_one("where", {valid, taken, ops::lit(0.0)});
    weighted = binary("mul", picked, taken);
  }
  const Tensor losses = call_one("where", {valid, call_one("neg", {weighted}), ops::lit(0.0)});
  return {losses, weight_taken, valid};
}

TensorList nll_loss(const TensorList& in, const Attrs& attrs) {
  const Tensor &self = in[0], &target = in[1], &weight = in[2];
  const Reduction reduction = parse_reduction("nll_loss", attrs);
  check_loss_input("nll_loss", self, weight);
  check_index_target("nll_loss", self, target);
  const PickedLosses picked = pick_by_target(self, target, weight, attrs.get_int("ignore_index"));
  return {reduce_loss(reduction, picked.losses, sum_all(picked.weight_taken))};
}

// PyTorch's label smoothing for class-index targets:
//   (1 - eps) * nll + (eps / C) * smooth, smooth_i = -sum_c w_c logp_ic (0 where ignored),
// reduced with 'mean' like the nll term, over the kept targets: sum(smooth) / sum(w[t_i] over kept
// i) when weighted, sum(smooth) / (number kept) when not (SPEC OPS-12.1; before pytorch#73205 was
// fixed PyTorch divided the unweighted term by all targets, ignored ones included).
Tensor cross_entropy_indices(const Tensor& log_probs, const Tensor& target, const Tensor& weight, Reduction reduction,
                             std::int64_t ignore_index, double smoothing) {
  const std::int64_t cdim = class_dim(log_probs);
  const PickedLosses picked = pick_by_target(log_probs, target, weight, ignore_index);
  const Tensor nll = reduce_loss(reduction, picked.losses, sum_all(picked.weight_taken));
  if (smoothing == 0) return nll;
  const Tensor weighted =
      weight.defined() ? binary("mul", log_probs, weight_along_class_dim(weight, log_probs)) : log_probs;
  Tensor smooth = call_one("neg", {reduce_dims("sum", weighted, {cdim})});
  smooth = call_one("where", {picked.valid, smooth, ops::lit(0.0)});
  const Tensor smooth_reduced = reduce_loss(reduction, smooth, sum_all(picked.weight_taken));
  const double classes = static_cast<double>(log_probs.shape()[static_cast<std::size_t>(cdim)]);
  return binary("add", binary("mul", nll, ops::lit(1.0 - smoothing)),
                binary("mul", smooth_reduced, ops::lit(smoothing / classes)));
}

// Class-probability targets (same shape as self): loss_i = -sum_c w_c * target_ic * logp_ic, with
// target smoothed to (1 - eps) * target + eps / C; 'mean' divides by the number of rows
// (numel / C), as PyTorch does.
Tensor cross_entropy_probabilities(const Tensor& log_probs, const Tensor& target, const Tensor& weight,
                                   Reduction reduction, double smoothing) {
  const std::int64_t cdim = class_dim(log_probs);
  const std::int64_t classes = log_probs.shape()[static_cast<std::size_t>(cdim)];
  Tensor probabilities = cast_to(target, log_probs.dtype());
  if (smoothing > 0) {
    probabilities = binary("add", binary("mul", probabilities, ops::lit(1.0 - smoothing)),
                           ops::lit(smoothing / static_cast<double>(classes)));
  }
  Tensor terms = binary("mul", log_probs, probabilities);
  if (weight.defined()) terms = binary("mul", terms, weight_along_class_dim(weight, log_probs));
  const Tensor per_row = call_one("neg", {reduce_dims("sum", terms, {cdim})});
  return reduce_loss(reduction, per_row,
                     ops::lit(static_cast<double>(log_probs.numel() / std::max<std::int64_t>(classes, 1))));
}

TensorList cross_entropy(const TensorList& in, const Attrs& attrs) {
  const Tensor &self = in[0], &target = in[1], &weight = in[2];
  const Reduction reduction = parse_reduction("cross_entropy", attrs);
  const double smoothing = attrs.get_float("label_smoothing");
  FUNCSPEC_CHECK(smoothing >= 0 && smoothing <= 1, ErrorKind::InvalidArgument,
                 "[cross_entropy] label_smoothing must lie in [0, 1] but is {}", smoothing);
  check_loss_input("cross_entropy", self, weight);
  const bool probabilities = is_floating(target.dtype());
  if (probabilities) {
    FUNCSPEC_CHECK(target.shape() == self.shape(), ErrorKind::ShapeMismatch,
                   "[cross_entropy] class-probability targets must have self's shape {} but have shape {}",
                   shape_to_string(self.shape()), shape_to_string(target.shape()));
  } else {
    check_index_target("cross_entropy", self, target);
  }
  const Tensor log_probs = call_one("log_softmax", {self}, {{"dim", class_dim(self)}});
  if (probabilities) return {cross_entropy_probabilities(log_probs, target, weight, reduction, smoothing)};
  return {cross_entropy_indices(log_probs, target, weight, reduction, attrs.get_int("ignore_index"), smoothing)};
}

TensorList layer_norm(const TensorList& in, const Attrs& attrs) {
  const Tensor &input = in[0], &weight = in[1], &bias = in[2];
  const std::vector<std::int64_t>& normalized = attrs.get_int_list("normalized_shape");
  check_dtype("layer_norm", "input", input.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(!normalized.empty(), ErrorKind::InvalidArgument, "[layer_norm] normalized_shape must not be empty");
  const std::size_t k = normalized.size(), rank = input.shape().size();
  FUNCSPEC_CHECK(k <= rank && std::equal(normalized.begin(), normalized.end(),
                                         input.shape().end() - static_cast<std::ptrdiff_t>(k)),
                 ErrorKind::ShapeMismatch, "[layer_norm] normalized_shape {} is not a trailing part of input shape {}",
                 shape_to_string(normalized), shape_to_string(input.shape()));
  for (const auto& [name, t] : {std::pair<std::string_view, const Tensor&>{"weight", weight}, {"bias", bias}}) {
    FUNCSPEC_CHECK(!t.defined() || t.shape() == normalized, ErrorKind::ShapeMismatch,
                   "[layer_norm] {} must have shape {} but has shape {}", name, shape_to_string(normalized),
                   shape_to_string(t.shape()));
    // PyTorch: "expected scalar type Float but found Double" (no mixed dtypes on cpu).
    FUNCSPEC_CHECK(!t.defined() || t.dtype() == input.dtype(), ErrorKind::DtypeNotSupported,
                   "[layer_norm] {} has dtype {} but input has dtype {}", name, dtype_name(t.dtype()),
                   dtype_name(input.dtype()));
  }
  Dims dims(k);
  std::iota(dims.begin(), dims.end(), static_cast<std::int64_t>(rank - k));
  // Biased variance of the normalized dims, as PyTorch: mean((x - mean)^2).
  const Tensor centered = binary("sub", input, reduce_keepdim("mean", input, dims));
  const Tensor variance = reduce_keepdim("mean", binary("mul", centered, centered), dims);
  const Tensor inverse_std = call_one("rsqrt", {binary("add", variance, ops::lit(attrs.get_float("eps")))});
  Tensor out = binary("mul", centered, inverse_std);
  if (weight.defined()) out = binary("mul", out, weight);
  if (bias.defined()) out = binary("add", out, bias);
  return {out};
}

}  // namespace

void register_composite_ops(OpRegistry& registry) {
  {
    OpDef& op =
        registry.add("softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", OpKind::Composite, "composite",
                     "exp(x - max) / sum(exp(x - max)) along dim (max detached), x converted to dtype first");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor x = softmax_input("softmax", in[0], attrs);
      const std::int64_t dim = wrap_dim(attrs.get_int("dim"), x.dim(), "softmax");
      if (x.numel() == 0) return call("clone", {x});
      const Tensor e = call_one("exp", {shifted_by_max(x, dim)});
      return {binary("div", e, reduce_keepdim("sum", e, {dim}))};
    };
  }
  {
    OpDef& op = registry.add("log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", OpKind::Composite,
                             "composite",
                             "(x - max) - log(sum(exp(x - max))) along dim (max detached), x converted to dtype first");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor x = softmax_input("log_softmax", in[0], attrs);
      const std::int64_t dim = wrap_dim(attrs.get_int("dim"), x.dim(), "log_softmax");
      if (x.numel() == 0) return call("clone", {x});
      const Tensor shifted = shifted_by_max(x, dim);
      const Tensor log_sum = call_one("log", {reduce_keepdim("sum", call_one("exp", {shifted}), {dim})});
      return {binary("sub", shifted, log_sum)};
    };
  }
  {
    OpDef& op = registry.add(
        "nll_loss(Tensor self, Tensor target, Tensor? weight=None, *, str reduction='mean', int ignore_index=-100) -> "
        "Tensor",
        OpKind::Composite, "composite",
        "-w[t] * self[t] per target (0 where ignored); 'mean' divides by the summed weights of kept targets");
    op.decompose = nll_loss;
  }
  {
    OpDef& op = registry.add(
        "cross_entropy(Tensor self, Tensor target, Tensor? weight=None, *, str reduction='mean', int "
        "ignore_index=-100, float label_smoothing=0.0) -> Tensor",
        OpKind::Composite, "composite",
        "nll_loss of log_softmax over the class dim, or -sum(p * logp) for class-probability targets; label smoothing");
    op.decompose = cross_entropy;
  }
  {
    OpDef& op = registry.add("mse_loss(Tensor self, Tensor target, *, str reduction='mean') -> Tensor",
                             OpKind::Composite, "composite", "(self - target)^2, broadcast, then reduced");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Reduction reduction = parse_reduction("mse_loss", attrs);
      check_dtype("mse_loss", "self", result_type(in), DTypeSet::Floating);
      const Tensor difference = binary("sub", in[0], in[1]);
      const Tensor squared = binary("mul", difference, difference);
      return {reduce_loss(reduction, squared)};
    };
  }
  {
    OpDef& op = registry.add("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", OpKind::Composite,
                             "composite", "input @ weight^T + bias");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor &input = in[0], &weight = in[1], &bias = in[2];
      check_rank("linear", "weight", weight, {1, 2});
      FUNCSPEC_CHECK(input.dim() >= 1 && input.shape().back() == weight.shape().back(), ErrorKind::ShapeMismatch,
                     "[linear] input of shape {} does not match weight of shape {} (last dims must agree)",
                     shape_to_string(input.shape()), shape_to_string(weight.shape()));
      const Tensor transposed =
          weight.dim() == 2 ? call_one("transpose", {weight}, {{"dim0", std::int64_t{0}}, {"dim1", std::int64_t{1}}})
                            : weight;
      Tensor out = binary("matmul", input, transposed);
      if (bias.defined()) out = binary("add", out, bias);
      return {out};
    };
  }
  {
    OpDef& op = registry.add(
        "layer_norm(Tensor input, Tensor? weight=None, Tensor? bias=None, *, int[] normalized_shape, float "
        "eps=1e-05) -> Tensor",
        OpKind::Composite, "composite",
        "(x - mean) / sqrt(var + eps) * weight + bias over the trailing normalized_shape dims (biased var)");
    op.decompose = layer_norm;
  }
  {
    OpDef& op = registry.add("fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)", OpKind::InPlace, "composite",
                             "writes value, converted to self's dtype, into every element of self");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      call("copy_", {in[0], ops::lit(attrs.get_scalar("value"))});
      return {in[0]};
    };
  }
  {
    OpDef& op = registry.add("zero_(Tensor(a!) self) -> Tensor(a!)", OpKind::InPlace, "composite",
                             "writes 0 into every element of self");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      call("copy_", {in[0], ops::lit(std::int64_t{0})});
      return {in[0]};
    };
  }
}

}  // namespace funcspec
