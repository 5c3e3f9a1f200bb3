// Transform rules of qr (householder_product is a composite). Batching: qr acts on the last two
// dims and takes any leading dims as a batch, so the vmap batch goes to the front and the op runs
// once; mode 'r''s Q is the same [0] tensor for every example. The derivative is written in ops of
// the catalogue (einsum, solve_triangular, tril/triu, narrow), so every order of derivative has rules.
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/rules/registration.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace linalg_qr_rules {
namespace {

Tensor product(const Tensor& x, const Tensor& y) { return ops::einsum("...ij,...jk->...ik", {x, y}); }
Tensor transposed_product(const Tensor& x, const Tensor& y) { return ops::einsum("...ji,...jk->...ik", {x, y}); }
Tensor transposed(const Tensor& x) { return ops::einsum("...ij->...ji", {x}); }

// X R⁻¹ for an upper triangular R: X = Y R solved from the right.
Tensor solve_upper_from_right(const Tensor& r, const Tensor& x) {
  return call_one("solve_triangular", {r, x}, {{"upper", true}, {"left", false}});
}

// NOTE: [qr derivative]
// PyTorch's (linalg_qr_jvp), for real inputs. A = QR with QᵀQ = I and R upper triangular.
// m >= n: dA = dQ R + Q dR, so with X = Qᵀ dA R⁻¹, X = QᵀdQ + dR R⁻¹, where QᵀdQ is antisymmetric
//   and dR R⁻¹ upper triangular; X + Xᵀ = dR R⁻¹ + (dR R⁻¹)ᵀ, so dR R⁻¹ = Ψ(X + Xᵀ), Ψ keeping the
//   strict upper triangle and half the diagonal: dR = Ψ(X + Xᵀ) R and dQ = dA R⁻¹ − Q Ψ(X + Xᵀ).
// m < n: with A₁, R₁ the leading m×m blocks, X = Qᵀ dA₁ R₁⁻¹ = QᵀdQ + dR₁ R₁⁻¹ and QᵀdQ antisymmetric
//   (Q is square), so its strict lower triangle is X's: QᵀdQ = L − Lᵀ, L = tril(X, −1); then dQ =
//   Q (L − Lᵀ) and dR = Qᵀ dA − (L − Lᵀ) R.
// Where R (R₁) is singular the triangular solve divides by its zero and the tangent is inf or NaN,
// as PyTorch's is (OPS-5.1: solve_triangular does not raise). Mode 'r' and mode 'complete' with
// m > n raise invalid_argument, as PyTorch does (SPEC OPS-10.3): the first returns no Q to
// differentiate with, and the second's last m − n columns of Q are any orthonormal basis of the
// complement of A's columns, not a function of A.
TensorList qr_tangents(const Tensor& q, const Tensor& r, const Tensor& d_a) {
  const std::int64_t m = q.size(-2);
  const std::int64_t n = r.size(-1);
  if (m >= n) {
    const Tensor d_a_r_inv = solve_upper_from_right(r, d_a);
    const Tensor x = transposed_product(q, d_a_r_inv);
    const Tensor symmetric = ops::add(x, transposed(x));
    const Tensor psi = ops::mul(ops::add(ops::triu(symmetric), ops::triu(symmetric, 1)), ops::lit(0.5));
    return {ops::sub(d_a_r_inv, product(q, psi)), product(psi, r)};
  }
  const Tensor q_t_d_a = transposed_product(q, d_a);
  const Tensor x = solve_upper_from_right(ops::narrow(r, -1, 0, m), ops::narrow(q_t_d_a, -1, 0, m));
  const Tensor lower = ops::tril(x, -1);
  const Tensor antisymmetric = ops::sub(lower, transposed(lower));
  return {product(q, antisymmetric), ops::sub(q_t_d_a, product(antisymmetric, r))};
}

}  // namespace
}  // namespace linalg_qr_rules

void register_linalg_qr_rules(RuleAttacher& attach) {
  using namespace linalg_qr_rules;
  attach.batch("qr", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    rules::check_examples("qr", in, attrs);
    BatchedValues out = rules::batched_at_front(call("qr", {rules::batch_to_front(in.at(0))}, attrs));
    if (attrs.get_string("mode") == "r") out[0].bdim = std::nullopt;
    return out;
  });
  attach.jvp("qr", [](const JvpCall& c) -> TensorList {
    const std::string mode = c.attrs.get_string("mode");
    FUNCSPEC_CHECK(mode != "r", ErrorKind::InvalidArgument,
                   "[qr] the derivative of qr depends on Q, which mode='r' does not compute: use mode='reduced'");
    const std::int64_t m = c.outputs[1].size(-2);
    const std::int64_t n = c.outputs[1].size(-1);
    FUNCSPEC_CHECK(mode == "reduced" || m <= n, ErrorKind::InvalidArgument,
                   "[qr] qr is not differentiable with mode='complete' when A has more rows than columns ({} > {})", m,
                   n);
    return qr_tangents(c.outputs[0], c.outputs[1], c.tangents[0]);
  });
}

}  // namespace funcspec::transforms
