// Transform rules of lu_factor, matrix_exp and matrix_exp_frechet. Batching: each acts on the last
// two dims and takes any leading dims as a batch, so the vmap batch goes to the front and the op
// runs once. The derivatives are written in ops of the catalogue (einsum, solve, tril/triu, cat,
// narrow, matrix_exp_frechet), so every order of derivative has rules.
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_identity.h"
#include "reference/ops/linalg_lu_permutation.h"
#include "reference/ops/registry.h"
#include "reference/rules/batching_helpers.h"
#include "reference/rules/registration.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace linalg_lu_rules {
namespace {

Tensor product(const Tensor& x, const Tensor& y) { return ops::einsum("...ij,...jk->...ik", {x, y}); }

// NOTE: [lu_factor derivative]
// PyTorch's (linalg_lu_jvp, lu_factor_ex_jvp). With A = P·L·U, k = min(m, n), L1 and U1 the k×k
// leading blocks of L (m×k, unit lower) and U (k×n, upper), and Pᵀ·dA split into its leading k×k
// block dA1 and the rest dA2 (the columns past k when m < n, the rows past k when m > n):
//   dX = L1⁻¹·dA1·U1⁻¹,  dL1 = L1·tril(dX, -1),  dU1 = triu(dX)·U1,
//   m < n: dU2 = L1⁻¹·dA2 - tril(dX, -1)·U2;  m > n: dL2 = dA2·U1⁻¹ - L2·triu(dX),
// and the packed tangent is dL + dU (dL is strictly lower: L's unit diagonal is constant). The
// pivots are piecewise constant: no tangent. The triangular solves are solve on the triangular
// factors, so an exactly singular U1 (a zero pivot) is solve's singular_matrix error: the derivative
// is not defined there (PyTorch's triangular solves divide by the zero and give inf or NaN).
Tensor lu_factor_tangent(const Tensor& lu, const Tensor& pivots, const Tensor& tangent) {
  const std::int64_t m = lu.size(-2);
  const std::int64_t n = lu.size(-1);
  const std::int64_t k = std::min(m, n);
  const DType dtype = lu.dtype();
  const Tensor p = lu_permutation_matrix(pivots, m, dtype);
  const Tensor permuted = ops::einsum("...ji,...jk->...ik", {p, tangent});
  const Tensor l = ops::add(ops::tril(ops::narrow(lu, -1, 0, k), -1), identity_matrix(m, k, dtype, lu.device()));
  const Tensor u = ops::triu(ops::narrow(lu, -2, 0, k));
  const Tensor l1 = ops::narrow(l, -2, 0, k);
  const Tensor u1 = ops::narrow(u, -1, 0, k);
  const Tensor d_a1 = ops::narrow(ops::narrow(permuted, -2, 0, k), -1, 0, k);
  const Tensor dx = ops::solve(l1, ops::solve(u1, d_a1, /*left=*/false));
  const Tensor lower = ops::tril(dx, -1);
  const Tensor upper = ops::triu(dx);
  const Tensor leading = ops::add(product(l1, lower), product(upper, u1));
  if (m < n) {
    const Tensor d_u2 =
        ops::sub(ops::solve(l1, ops::narrow(permuted, -1, k, n - k)), product(lower, ops::narrow(u, -1, k, n - k)));
    return ops::cat({leading, d_u2}, -1);
  }
  if (m > n) {
    const Tensor d_l2 = ops::sub(ops::solve(u1, ops::narrow(permuted, -2, k, m - k), /*left=*/false),
                                 product(ops::narrow(l, -2, k, m - k), upper));
    return ops::cat({leading, d_l2}, -2);
  }
  return leading;
}

// [[a, e], [0, a]] for a and e of one shape [*, n, n].
Tensor block_upper(const Tensor& a, const Tensor& e) {
  const Tensor top = ops::cat({a, e}, -1);
  const Tensor bottom = ops::cat({ops::zeros_like(a), a}, -1);
  return ops::cat({top, bottom}, -2);
}

}  // namespace
}  // namespace linalg_lu_rules

void register_linalg_lu_rules(RuleAttacher& attach) {
  using namespace linalg_lu_rules;
  for (const char* name : {"lu_factor", "matrix_exp"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      rules::check_examples(op, in, attrs);
      return rules::batched_at_front(call(op, {rules::batch_to_front(in.at(0))}, attrs));
    });
  }
  // The op layer has checked A and E and broadcast their batch dims on the examples.
  attach.batch("matrix_exp_frechet",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
                 const Tensor a = rules::materialize_batch(in.at(0), context.batch_size);
                 const Tensor e = rules::materialize_batch(in.at(1), context.batch_size);
                 return rules::batched_at_front(call("matrix_exp_frechet", {a, e}, attrs));
               });

  attach.jvp("lu_factor", [](const JvpCall& c) -> TensorList {
    return {lu_factor_tangent(c.outputs[0], c.outputs[1], c.tangents[0]), Tensor()};
  });

  // NOTE: [matrix_exp derivative]
  // d exp(A) = L(A, dA), the Fréchet derivative, which is the upper-right block of
  // exp([[A, dA], [0, A]]) (PyTorch's and JAX's rule): matrix_exp_frechet, linear in dA. Its own
  // derivative is the same identity one size up: L(A, E) is the upper-right n×n block of
  // exp(M) for M = [[A, E], [0, A]], so d L = the upper-right block of L(M, dM) with
  // dM = [[dA, dE], [0, dA]]. Its transpose in E is L(Aᵀ, ·): ⟨L(A, E), G⟩ = ⟨E, L(Aᵀ, G)⟩, since
  // L(A, E) = ∫₀¹ exp(sA)·E·exp((1-s)A) ds.
  attach.jvp("matrix_exp", [](const JvpCall& c) -> TensorList {
    return {call_one("matrix_exp_frechet", {c.primals[0], c.tangents[0]})};
  });
  attach.jvp("matrix_exp_frechet", [](const JvpCall& c) -> TensorList {
    const Tensor& a = c.primals[0];
    const Tensor& e = c.primals[1];
    const std::int64_t n = a.size(-1);
    const Tensor d_a = c.tangents[0].defined() ? c.tangents[0] : ops::zeros_like(a);
    const Tensor d_e = c.tangents[1].defined() ? c.tangents[1] : ops::zeros_like(e);
    const Tensor block = call_one("matrix_exp_frechet", {block_upper(a, e), block_upper(d_a, d_e)});
    return {ops::narrow(ops::narrow(block, -2, 0, n), -1, n, n)};
  });
  attach.transpose("matrix_exp_frechet", [](const TransposeCall& c) -> TensorList {
    FUNCSPEC_INTERNAL_ASSERT(!c.linear[0], "matrix_exp_frechet is linear in E only, with A constant");
    const Tensor a_transposed = ops::einsum("...ij->...ji", {c.inputs[0]});
    return {Tensor(), call_one("matrix_exp_frechet", {a_transposed, c.cotangents[0]})};
  });
}

}  // namespace funcspec::transforms
