// Transform rules of svd. Batching: svd acts on the last two dims and takes any leading dims as a
// batch, so the vmap batch goes to the front and the op runs once.
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace svd_rules {
namespace {

Tensor transposed(const Tensor& a) { return ops::einsum("...ij->...ji", {a}); }

// The k×k identity in `like`'s dtype and device.
Tensor identity_like(const Tensor& like, std::int64_t k) {
  const Tensor index = ops::arange(0, k, 1, DType::Int64, std::string(device_name(like.device())));
  return ops::to_dtype(ops::eq(ops::unsqueeze(index, 1), index), like.dtype());
}

}  // namespace
}  // namespace svd_rules

void register_linalg_svd_rules(RuleAttacher& attach) {
  using namespace svd_rules;
  attach.batch("svd", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    rules::check_examples("svd", in, attrs);
    return rules::batched_at_front(call("svd", {rules::batch_to_front(in.at(0))}, attrs));
  });
  // A = U S Vᵀ (reduced: U m×k, V n×k, k = min(m, n)). With dP = Uᵀ dA V and
  // F_ij = 1/(s_j² − s_i²) for i ≠ j, F_ii = 0, the first-order perturbation of distinct singular
  // values and their vectors is
  //   dS  = diag(dP)
  //   dU  = U (F ∘ (dP S + S dPᵀ)) + (I − U Uᵀ) dA V S⁻¹
  //   dVh = −(F ∘ (S dP + dPᵀ S)) Vh + S⁻¹ Uᵀ dA (I − V Vh)
  // (Uᵀ dU and Vᵀ dV antisymmetric: each singular vector keeps its norm; the projector terms vanish
  // when U, respectively V, is square). At a repeated singular value F has an infinite entry and dU,
  // dVh are inf or NaN, as PyTorch's are; dS stays finite (SPEC OPS-8.2). With full_matrices the
  // columns of U (rows of Vh) beyond k are any orthonormal completion, not a function of A: their
  // tangent is zero, as PyTorch's linalg_svd_jvp gives it, so their cotangent is ignored.
  attach.jvp("svd", [](const JvpCall& c) -> TensorList {
    const Tensor& da = c.tangents[0];
    const Tensor& u = c.outputs[0];
    const Tensor& s = c.outputs[1];
    const Tensor& vh = c.outputs[2];
    const std::int64_t m = da.size(-2);
    const std::int64_t n = da.size(-1);
    const std::int64_t k = s.size(-1);
    const bool full = c.attrs.get_bool("full_matrices");
    const Tensor ur = u.size(-1) == k ? u : ops::narrow(u, -1, 0, k);
    const Tensor vhr = vh.size(-2) == k ? vh : ops::narrow(vh, -2, 0, k);
    const Tensor dp = ops::einsum("...ji,...jk,...lk->...il", {ur, da, vhr});
    const Tensor d_s = ops::diagonal(dp, 0, -2, -1);
    const Tensor s2 = ops::mul(s, s);
    const Tensor eye = identity_like(s, k);
    // s_j² − s_i² at [..., i, j]; the diagonal's zero gaps are moved to 1 before the reciprocal, then masked.
    const Tensor gaps = ops::sub(ops::unsqueeze(s2, -2), ops::unsqueeze(s2, -1));
    const Tensor f = ops::mul(ops::reciprocal(ops::add(gaps, eye)), ops::sub(ops::lit(1), eye));
    const Tensor dp_s = ops::mul(dp, ops::unsqueeze(s, -2));
    const Tensor s_dp = ops::mul(ops::unsqueeze(s, -1), dp);
    Tensor d_u = ops::einsum("...ij,...jk->...ik", {ur, ops::mul(f, ops::add(dp_s, transposed(dp_s)))});
    if (m > k) {
      const Tensor da_v_sinv = ops::div(ops::einsum("...ij,...kj->...ik", {da, vhr}), ops::unsqueeze(s, -2));
      d_u = ops::add(d_u, ops::sub(da_v_sinv, ops::einsum("...ij,...kj,...kl->...il", {ur, ur, da_v_sinv})));
      if (full) d_u = ops::pad(d_u, {0, m - k});
    }
    Tensor d_vh = ops::neg(ops::einsum("...ij,...jk->...ik", {ops::mul(f, ops::add(s_dp, transposed(s_dp))), vhr}));
    if (n > k) {
      const Tensor sinv_ut_da = ops::div(ops::einsum("...ji,...jk->...ik", {ur, da}), ops::unsqueeze(s, -1));
      d_vh = ops::add(d_vh, ops::sub(sinv_ut_da, ops::einsum("...ij,...kj,...kl->...il", {sinv_ut_da, vhr, vhr})));
      if (full) d_vh = ops::pad(d_vh, {0, 0, 0, n - k});
    }
    return {d_u, d_s, d_vh};
  });
}

}  // namespace funcspec::transforms
