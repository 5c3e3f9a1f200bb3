// The dropout family of torch.nn.functional (docs/ops/dropout.md): composites over `bernoulli.p`,
// random in every mode. Feature dropout draws one keep decision per (sample, channel) and
// broadcasts it over the remaining dims; alpha dropout replaces a dropped element by SELU's
// saturation value and rescales so that a standard normal input keeps its mean and variance.
// gumbel_softmax joins them: a composite over `exponential`, random in every mode.
#include <fmt/format.h>

#include <cmath>

#include "reference/api/conversion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

// -SELU's scale * alpha: the value SELU saturates to, which alpha dropout gives a dropped element
// before the affine correction.
constexpr double kAlphaDropoutSaturation = 1.7580993408473766;

enum class Noise { Elementwise, PerFeature };

struct DropoutCall {
  double p;
  bool train;
};

DropoutCall checked_call(std::string_view op, const Tensor& input, const Attrs& attrs) {
  const double p = attrs.get_float("p");
  FUNCSPEC_CHECK(p >= 0 && p <= 1, ErrorKind::InvalidArgument, "[{}] p must lie in [0, 1] but is {}", op, p);
  check_dtype(op, "input", input.dtype(), DTypeSet::Floating);
  return {p, attrs.get_bool("train")};
}

// keep ~ Bernoulli(1 - p), drawn by bernoulli.p over the input itself (its values are unused) or,
// for feature dropout, over zeros of the noise shape made from the input by ops, so that under vmap
// each example draws its own.
Tensor keep_mask(const Tensor& input, Noise noise, std::int64_t batch_dims, double p) {
  if (noise == Noise::Elementwise) return call_one("bernoulli.p", {input}, {{"p", 1 - p}});
  std::vector<std::int64_t> shared;
  for (std::int64_t d = batch_dims; d < input.dim(); ++d) shared.push_back(d);
  Tensor donor = call_one("zeros_like", {input});
  if (!shared.empty()) donor = call_one("sum", {donor}, {{"dim", shared}, {"keepdim", true}});
  return call_one("bernoulli.p", {donor}, {{"p", 1 - p}});
}

Tensor scaled(const Tensor& x, double factor) { return call_one("mul", {x, ops::lit(factor)}); }

// PyTorch's _dropout_impl: the input itself when not training or p = 0, input * 0 when p = 1,
// else input * keep / (1 - p), or for alpha dropout input * keep * a + b with
// a = ((1 - p)(1 + p s^2))^(-1/2), b = (keep - 1) s a + s a p, s = kAlphaDropoutSaturation.
Tensor dropout_impl(const Tensor& input, const DropoutCall& call, Noise noise, std::int64_t batch_dims, bool alpha) {
  if (!call.train || call.p == 0) return input;
  if (call.p == 1) return scaled(input, 0.0);
  // For feature dropout the mask has the input's first `batch_dims` dims (sample and channel, or
  // channel alone for an unbatched input) and 1s after them, broadcast over the rest.
  const Tensor keep = keep_mask(input, noise, batch_dims, call.p);
  if (!alpha) return call_one("mul", {input, call_one("div", {keep, ops::lit(1 - call.p)})});
  const double s = kAlphaDropoutSaturation;
  const double a = 1 / std::sqrt((s * s * call.p + 1) * (1 - call.p));
  const Tensor b = call_one("add", {scaled(call_one("sub", {keep, ops::lit(1.0)}), s * a), ops::lit(s * a * call.p)});
  return call_one("add", {call_one("mul", {input, scaled(keep, a)}), b});
}

// How many leading dims of `input` get their own keep decisions in dropoutNd (the rest share them),
// as F.dropout1d/2d/3d: dropout1d takes (C, L) or (N, C, L); dropout2d is feature dropout over dims
// 0 and 1 at any rank >= 2 (PyTorch reads a 3-D input as (N, C, L), pytorch#77081); dropout3d reads
// a 5-D input as (N, C, D, H, W) and any other as unbatched, channel first.
std::int64_t feature_batch_dims(std::string_view op, const Tensor& input, std::int64_t spatial_dims) {
  const std::int64_t rank = input.dim();
  if (spatial_dims == 1) {
    FUNCSPEC_CHECK(rank == 2 || rank == 3, ErrorKind::ShapeMismatch,
                   "[{}] expects a 2-D (C, L) or 3-D (N, C, L) input but got shape {}", op,
                   shape_to_string(input.shape()));
    return rank - 1;
  }
  if (spatial_dims == 2) {
    FUNCSPEC_CHECK(rank >= 2, ErrorKind::ShapeMismatch, "[{}] needs a batch and a channel dim but got shape {}", op,
                   shape_to_string(input.shape()));
    return 2;
  }
  FUNCSPEC_CHECK(rank >= 1, ErrorKind::ShapeMismatch, "[{}] needs a channel dim but got a rank-0 input", op);
  return rank == 5 ? 2 : 1;
}

// F.gumbel_softmax: softmax((logits + g) / tau) with g = -log(e), e standard exponential (Gumbel
// noise as PyTorch draws it); with hard, the one-hot of its argmax (the first of ties) plus y - y
// with the first y detached, so the value is the one-hot (up to that rounding) and the derivative
// is the soft sample's (the straight-through estimator).
Tensor gumbel_softmax(const Tensor& logits, const Attrs& attrs) {
  // The draw comes first, as in PyTorch (its noise is drawn before softmax reads dim): under vmap's
  // randomness='error' the refusal is the error of every call, and exponential's own dtype check
  // refuses integer logits; then dim and hard's class are checked.
  const Tensor gumbels = call_one("neg", {call_one("log", {call_one("exponential", {logits})})});
  const std::int64_t dim = attrs.get_int("dim");
  const std::int64_t wrapped = wrap_dim(dim, logits.dim(), "gumbel_softmax");
  FUNCSPEC_CHECK(!attrs.get_bool("hard") || logits.dim() == 0 || logits.size(wrapped) > 0, ErrorKind::InvalidArgument,
                 "[gumbel_softmax] hard needs a class to pick but dim {} of shape {} is empty", dim,
                 shape_to_string(logits.shape()));
  const Tensor noisy = call_one("div", {call_one("add", {logits, gumbels}), ops::lit(attrs.get_float("tau"))});
  const Tensor soft = call_one("softmax", {noisy}, {{"dim", dim}});
  if (!attrs.get_bool("hard")) return soft;
  const Tensor index = call_one("argmax", {soft}, {{"dim", dim}, {"keepdim", true}});
  const Tensor ones = call_one("ones_like", {index}, {{"dtype", soft.dtype()}});
  const Tensor one_hot = call_one("scatter_add", {call_one("zeros_like", {soft}), index, ones}, {{"dim", dim}});
  return call_one("add", {call_one("sub", {one_hot, call_one("detach", {soft})}), soft});
}

}  // namespace

void register_dropout_ops(OpRegistry& registry) {
  {
    OpDef& op = registry.add("dropout(Tensor input, *, float p=0.5, bool train=True) -> Tensor", OpKind::Composite,
                             "dropout", "input * bernoulli(1 - p) / (1 - p) when training, else input itself");
    op.random = true;
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {dropout_impl(in[0], checked_call("dropout", in[0], attrs), Noise::Elementwise, 0, false)};
    };
  }
  {
    OpDef& op =
        registry.add("alpha_dropout(Tensor input, *, float p=0.5, bool train=True) -> Tensor", OpKind::Composite,
                     "dropout", "input * keep * a + b, a dropped element set to SELU's saturation and rescaled");
    op.random = true;
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {dropout_impl(in[0], checked_call("alpha_dropout", in[0], attrs), Noise::Elementwise, 0, true)};
    };
  }
  {
    OpDef& op = registry.add("feature_alpha_dropout(Tensor input, *, float p=0.5, bool train=True) -> Tensor",
                             OpKind::Composite, "dropout",
                             "alpha_dropout with one keep decision per (sample, channel), dims 0 and 1");
    op.random = true;
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const DropoutCall call = checked_call("feature_alpha_dropout", in[0], attrs);
      FUNCSPEC_CHECK(in[0].dim() >= 2, ErrorKind::ShapeMismatch,
                     "[feature_alpha_dropout] needs a batch and a channel dim but got shape {}",
                     shape_to_string(in[0].shape()));
      return {dropout_impl(in[0], call, Noise::PerFeature, 2, true)};
    };
  }
  {
    OpDef& op = registry.add(
        "gumbel_softmax(Tensor logits, *, float tau=1, bool hard=False, int dim=-1) -> Tensor", OpKind::Composite,
        "dropout",
        "softmax((logits + g) / tau) over dim, g Gumbel noise -log(exponential); hard: its one-hot argmax with the "
        "soft sample's derivative");
    op.random = true;
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {gumbel_softmax(in[0], attrs)};
    };
  }
  for (const std::int64_t spatial : {1, 2, 3}) {
    const std::string name = fmt::format("dropout{}d", spatial);
    OpDef& op = registry.add(fmt::format("{}(Tensor input, *, float p=0.5, bool train=True) -> Tensor", name),
                             OpKind::Composite, "dropout",
                             fmt::format("dropout of whole channels of an (N, C, {0}) or (C, {0}) input, each channel "
                                         "kept with probability 1 - p and scaled by 1 / (1 - p)",
                                         spatial == 1   ? "L"
                                         : spatial == 2 ? "H, W"
                                                        : "D, H, W"));
    op.random = true;
    op.decompose = [name, spatial](const TensorList& in, const Attrs& attrs) -> TensorList {
      const DropoutCall call = checked_call(name, in[0], attrs);
      return {dropout_impl(in[0], call, Noise::PerFeature, feature_batch_dims(name, in[0], spatial), false)};
    };
  }
}

}  // namespace funcspec
