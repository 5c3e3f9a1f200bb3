// scaled_dot_product_attention (docs/ops/attention.md), as the composite PyTorch documents for it:
// softmax(q kᵀ · scale + bias) v, with the causal mask, a boolean or additive attn_mask and grouped
// key/value heads. A row whose every key is masked gives 0, as PyTorch 2's kernels (its math
// path's _safe_softmax) do, rather than the NaN of softmax over -inf (SPEC OPS-20.1). Dropout is not
// an attribute: the deterministic op is what the transforms' laws can check, and a dropout
// composes with it. multi_head_attention_forward is F.multi_head_attention_forward's path with
// need_weights=True written with catalogue ops: packed input projections, heads, the weights' softmax
// (NaN for a row whose every key is masked, as PyTorch's softmax there; SPEC OPS-20.3), the output
// projection and the weights averaged over heads or not.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

constexpr std::string_view kOp = "scaled_dot_product_attention";

void check_arguments(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, bool is_causal,
                     bool enable_gqa) {
  FUNCSPEC_CHECK(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] query, key and value must have at least 2 dims (..., sequence, features) but have shapes {}, {} "
                 "and {}",
                 kOp, shape_to_string(q.shape()), shape_to_string(k.shape()), shape_to_string(v.shape()));
  check_dtype(kOp, "query", q.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(k.dtype() == q.dtype() && v.dtype() == q.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] query, key and value must have one dtype but have {}, {} and {}", kOp, dtype_name(q.dtype()),
                 dtype_name(k.dtype()), dtype_name(v.dtype()));
  FUNCSPEC_CHECK(k.size(-1) == q.size(-1), ErrorKind::ShapeMismatch,
                 "[{}] key's features (last dim) {} must equal query's {}", kOp, k.size(-1), q.size(-1));
  FUNCSPEC_CHECK(v.size(-2) == k.size(-2), ErrorKind::ShapeMismatch,
                 "[{}] value's sequence (dim -2) {} must equal key's {}", kOp, v.size(-2), k.size(-2));
  if (mask.defined()) {
    FUNCSPEC_CHECK(!is_causal, ErrorKind::InvalidArgument, "[{}] an attn_mask cannot be given with is_causal=True",
                   kOp);
    FUNCSPEC_CHECK(mask.dtype() == DType::Bool || mask.dtype() == q.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] attn_mask must be bool or of query's dtype {} but is {}", kOp, dtype_name(q.dtype()),
                   dtype_name(mask.dtype()));
  }
  if (enable_gqa) {
    FUNCSPEC_CHECK(q.dim() >= 3 && k.dim() >= 3 && v.dim() >= 3, ErrorKind::ShapeMismatch,
                   "[{}] enable_gqa needs a heads dim (-3) in query, key and value", kOp);
    FUNCSPEC_CHECK(k.size(-3) == v.size(-3) && k.size(-3) > 0 && q.size(-3) % k.size(-3) == 0, ErrorKind::ShapeMismatch,
                   "[{}] with enable_gqa, key and value must have one number of heads (dim -3) dividing query's {}, "
                   "but have {} and {}",
                   kOp, q.size(-3), k.size(-3), v.size(-3));
  }
}

// Each of `t`'s heads (dim -3) repeated `times` times in place: [.., h, s, e] -> [.., h * times, s, e],
// as PyTorch's repeat_interleave of grouped key/value heads.
Tensor repeat_heads(const Tensor& t, std::int64_t times) {
  if (times == 1) return t;
  Shape expanded = t.shape();
  expanded.insert(expanded.end() - 2, times);
  Shape merged = t.shape();
  merged[merged.size() - 3] *= times;
  return ops::reshape(ops::expand(ops::unsqueeze(t, -3), expanded), merged);
}

TensorList attention(const TensorList& in, const Attrs& attrs) {
  const Tensor &q = in[0], &mask = in[3];
  Tensor k = in[1], v = in[2];
  const bool is_causal = attrs.get_bool("is_causal");
  const bool enable_gqa = attrs.get_bool("enable_gqa");
  check_arguments(q, k, v, mask, is_causal, enable_gqa);
  if (enable_gqa) {
    k = repeat_heads(k, q.size(-3) / k.size(-3));
    v = repeat_heads(v, q.size(-3) / v.size(-3));
  }
  const std::optional<double> given_scale = attrs.get_optional_float("scale");
  const double scale = given_scale ? *given_scale : 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  Tensor scores = ops::mul(ops::matmul(q, ops::transpose(k, -2, -1)), ops::lit(scale));
  const std::string where(device_name(q.device()));
  const Tensor minus_inf = ops::lit(-std::numeric_limits<double>::infinity());
  if (is_causal) {
    // Query i sees keys 0..i (the top-left aligned lower triangle, as PyTorch's tril(ones(L, S))).
    const Tensor seen = ops::tril(ops::ones({q.size(-2), k.size(-2)}, DType::Bool, where));
    scores = ops::where(seen, scores, minus_inf);
  } else if (mask.defined()) {
    scores = mask.dtype() == DType::Bool ? ops::where(mask, scores, minus_inf) : ops::add(scores, mask);
  }
  // No keys: every output is an empty sum, 0 (PyTorch's too); amax below needs a key.
  if (k.size(-2) == 0) return {ops::matmul(scores, v)};
  // A row of -inf only: softmax reads zeros there instead (no NaN, no derivative through it) and the
  // row's weights are 0.
  const Tensor masked_row = ops::eq(ops::amax(scores, std::vector<std::int64_t>{-1}, true), minus_inf);
  const Tensor weights =
      ops::where(masked_row, ops::lit(0.0), ops::softmax(ops::where(masked_row, ops::lit(0.0), scores), -1));
  return {ops::matmul(weights, v)};
}

constexpr std::string_view kMha = "multi_head_attention_forward";

struct MhaShapes {
  std::int64_t L, N, S, E, H;
};

// PyTorch's checks (its asserts and _mha_shape_check), each raised as an error kind before anything
// is computed.
MhaShapes check_mha(const TensorList& in, std::int64_t num_heads) {
  const Tensor &q = in[0], &k = in[1], &v = in[2], &in_w = in[3], &in_b = in[4], &out_w = in[5], &out_b = in[6],
               &padding = in[7], &mask = in[8];
  FUNCSPEC_CHECK(q.dim() == 2 || q.dim() == 3, ErrorKind::ShapeMismatch,
                 "[{}] query must be an unbatched (L, E) or batched (L, N, E) tensor but has shape {}", kMha,
                 shape_to_string(q.shape()));
  FUNCSPEC_CHECK(k.dim() == q.dim() && v.dim() == q.dim(), ErrorKind::ShapeMismatch,
                 "[{}] key and value must have query's rank {} but have shapes {} and {}", kMha, q.dim(),
                 shape_to_string(k.shape()), shape_to_string(v.shape()));
  check_dtype(kMha, "query", q.dtype(), DTypeSet::Floating);
  for (const Tensor* t : {&k, &v, &in_w, &in_b, &out_w, &out_b}) {
    FUNCSPEC_CHECK(!t->defined() || t->dtype() == q.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] key, value, the projections and biases must have query's dtype {} but one is {}", kMha,
                   dtype_name(q.dtype()), dtype_name(t->dtype()));
  }
  const bool batched = q.dim() == 3;
  const std::int64_t E = q.size(-1);
  const MhaShapes s{q.size(0), batched ? q.size(1) : 1, k.size(0), E, num_heads};
  FUNCSPEC_CHECK(num_heads > 0 && E % num_heads == 0, ErrorKind::InvalidArgument,
                 "[{}] embed_dim {} is not divisible by num_heads {}", kMha, E, num_heads);
  FUNCSPEC_CHECK(k.shape() == v.shape(), ErrorKind::ShapeMismatch, "[{}] key shape {} does not match value shape {}",
                 kMha, shape_to_string(k.shape()), shape_to_string(v.shape()));
  FUNCSPEC_CHECK(k.size(-1) == E && (!batched || k.size(1) == s.N), ErrorKind::ShapeMismatch,
                 "[{}] key of shape {} must have query's embed_dim {}{}", kMha, shape_to_string(k.shape()), E,
                 batched ? fmt::format(" and batch {}", s.N) : "");
  FUNCSPEC_CHECK(in_w.shape() == Shape({3 * E, E}), ErrorKind::ShapeMismatch,
                 "[{}] in_proj_weight must have shape [{}, {}] but has {}", kMha, 3 * E, E,
                 shape_to_string(in_w.shape()));
  FUNCSPEC_CHECK(!in_b.defined() || in_b.shape() == Shape({3 * E}), ErrorKind::ShapeMismatch,
                 "[{}] in_proj_bias must have shape [{}] but has {}", kMha, 3 * E, shape_to_string(in_b.shape()));
  FUNCSPEC_CHECK(out_w.shape() == Shape({E, E}), ErrorKind::ShapeMismatch,
                 "[{}] out_proj_weight must have shape [{}, {}] but has {}", kMha, E, E,
                 shape_to_string(out_w.shape()));
  FUNCSPEC_CHECK(!out_b.defined() || out_b.shape() == Shape({E}), ErrorKind::ShapeMismatch,
                 "[{}] out_proj_bias must have shape [{}] but has {}", kMha, E, shape_to_string(out_b.shape()));
  for (const Tensor* m : {&padding, &mask}) {
    FUNCSPEC_CHECK(!m->defined() || m->dtype() == DType::Bool || m->dtype() == q.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] key_padding_mask and attn_mask must be bool or of query's dtype {} but one is {}", kMha,
                   dtype_name(q.dtype()), dtype_name(m->dtype()));
  }
  if (padding.defined()) {
    const Shape want = batched ? Shape{s.N, s.S} : Shape{s.S};
    FUNCSPEC_CHECK(padding.shape() == want, ErrorKind::ShapeMismatch,
                   "[{}] key_padding_mask must have shape {} but has {}", kMha, shape_to_string(want),
                   shape_to_string(padding.shape()));
  }
  if (mask.defined()) {
    const bool two_d = mask.dim() == 2 && mask.shape() == Shape({s.L, s.S});
    const bool three_d = mask.dim() == 3 && mask.shape() == Shape({s.N * num_heads, s.L, s.S});
    FUNCSPEC_CHECK(two_d || three_d, ErrorKind::ShapeMismatch,
                   "[{}] attn_mask must have shape [{}, {}] or [{}, {}, {}] but has {}", kMha, s.L, s.S,
                   s.N * num_heads, s.L, s.S, shape_to_string(mask.shape()));
  }
  return s;
}

// A mask as an additive bias in `dtype`: a bool mask's true elements (not allowed) are -inf.
Tensor additive(const Tensor& mask, DType dtype) {
  if (mask.dtype() != DType::Bool) return mask;
  return ops::where(mask, ops::lit(-std::numeric_limits<double>::infinity()), ops::zeros_like(mask, dtype));
}

TensorList multi_head_attention(const TensorList& in, const Attrs& attrs) {
  const std::int64_t H = attrs.get_int("num_heads");
  const auto [L, N, S, E, heads] = check_mha(in, H);
  const bool batched = in[0].dim() == 3;
  const auto batch = [&](const Tensor& t) { return batched ? t : ops::unsqueeze(t, 1); };
  const Tensor q = batch(in[0]), k = batch(in[1]), v = batch(in[2]);
  const Tensor &in_w = in[3], &in_b = in[4];
  const std::int64_t head_dim = E / H;
  // The packed projection's thirds, as PyTorch's _in_projection_packed with distinct q, k, v.
  const auto project = [&](const Tensor& x, std::int64_t third, std::int64_t length) {
    const Tensor w = ops::narrow(in_w, 0, third * E, E);
    const Tensor b = in_b.defined() ? ops::narrow(in_b, 0, third * E, E) : Tensor();
    // (length, N, E) -> (N * H, length, head_dim)
    return ops::transpose(ops::reshape(ops::linear(x, w, b), {length, N * H, head_dim}), 0, 1);
  };
  const Tensor qh = project(q, 0, L), kh = project(k, 1, S), vh = project(v, 2, S);
  // The masks merged as one additive bias of shape (N * H, L or 1, S) or (L, S).
  Tensor bias;
  if (in[8].defined()) bias = additive(in[8], q.dtype());
  if (in[7].defined()) {
    const Tensor padding =
        ops::reshape(ops::expand(ops::reshape(additive(in[7], q.dtype()), {N, 1, 1, S}), {N, H, 1, S}), {N * H, 1, S});
    bias = bias.defined() ? ops::add(bias, padding) : padding;
  }
  // q scaled first, then q kᵀ (PyTorch's q_scaled and baddbmm).
  Tensor scores =
      ops::matmul(ops::mul(qh, ops::lit(std::sqrt(1.0 / static_cast<double>(head_dim)))), ops::transpose(kh, -2, -1));
  if (bias.defined()) scores = ops::add(bias, scores);
  const Tensor weights = ops::softmax(scores, -1);
  // (N * H, L, head_dim) -> (L, N, E), then the output projection.
  const Tensor heads_out = ops::reshape(ops::transpose(ops::matmul(weights, vh), 0, 1), {L, N, E});
  Tensor out = ops::linear(heads_out, in[5], in[6]);
  Tensor per_head = ops::reshape(weights, {N, H, L, S});
  if (attrs.get_bool("average_attn_weights")) per_head = ops::mean(per_head, std::vector<std::int64_t>{1});
  if (!batched) {
    out = ops::squeeze(out, {1});
    per_head = ops::squeeze(per_head, {0});
  }
  return {out, per_head};
}

}  // namespace

void register_attention_ops(OpRegistry& registry) {
  OpDef& op = registry.add(
      "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, *, bool "
      "is_causal=False, float? scale=None, bool enable_gqa=False) -> Tensor",
      OpKind::Composite, "attention",
      "softmax(query keyᵀ · scale + mask) value over (..., L, E) queries and (..., S, E) keys, broadcast over the "
      "leading dims; a row with every key masked gives 0");
  op.decompose = attention;
  OpDef& mha = registry.add(
      "multi_head_attention_forward(Tensor query, Tensor key, Tensor value, Tensor in_proj_weight, Tensor? "
      "in_proj_bias, Tensor out_proj_weight, Tensor? out_proj_bias, Tensor? key_padding_mask=None, Tensor? "
      "attn_mask=None, *, int num_heads, bool average_attn_weights=True) -> (Tensor attn_output, Tensor "
      "attn_weights)",
      OpKind::Composite, "attention",
      "F.multi_head_attention_forward with need_weights: (L, N, E) or (L, E) query, key and value projected by "
      "in_proj_weight's thirds, split into num_heads heads, softmax(q kᵀ / sqrt(E / heads) + masks) v, projected "
      "by out_proj_weight; the weights averaged over heads or per head");
  mha.decompose = multi_head_attention;
}

}  // namespace funcspec
