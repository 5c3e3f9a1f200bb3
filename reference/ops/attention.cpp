// scaled_dot_product_attention (docs/ops/attention.md), as the composite PyTorch documents for it:
// softmax(q kᵀ · scale + bias) v, with the causal mask, a boolean or additive attn_mask and grouped
// key/value heads. A row whose every key is masked gives 0, as PyTorch 2's kernels (its math
// path's _safe_softmax) do, rather than the NaN of softmax over -inf (SPEC OPS-20.1). Dropout is not
// an attribute: the deterministic op is what the transforms' laws can check, and a dropout
// composes with it.
#include <cmath>
#include <limits>
#include <optional>
#include <string>

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

}  // namespace

void register_attention_ops(OpRegistry& registry) {
  OpDef& op = registry.add(
      "scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, *, bool "
      "is_causal=False, float? scale=None, bool enable_gqa=False) -> Tensor",
      OpKind::Composite, "attention",
      "softmax(query keyᵀ · scale + mask) value over (..., L, E) queries and (..., S, E) keys, broadcast over the "
      "leading dims; a row with every key masked gives 0");
  op.decompose = attention;
}

}  // namespace funcspec
