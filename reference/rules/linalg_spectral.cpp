// Transform rules of eigh (eigvalsh is a composite of it). Batching: eigh acts on the last two dims
// and takes any leading dims as a batch, so the vmap batch goes to the front and the op runs once.
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_identity.h"
#include "reference/rules/batching_helpers.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace spectral_rules {
namespace {

Tensor transposed(const Tensor& a) { return ops::einsum("...ij->...ji", {a}); }

// T(x): the symmetric matrix eigh sees, x's lower (else upper) triangle reflected onto the other.
// Linear, and written with ops that have every derivative rule, so higher derivatives need no more.
Tensor symmetric_from_triangle(const Tensor& x, bool lower) {
  return lower ? ops::add(ops::tril(x), transposed(ops::tril(x, -1)))
               : ops::add(ops::triu(x), transposed(ops::triu(x, 1)));
}

}  // namespace
}  // namespace spectral_rules

void register_linalg_spectral_rules(RuleAttacher& attach) {
  using namespace spectral_rules;
  attach.batch("eigh", [](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
    rules::check_examples("eigh", in, attrs);
    return rules::batched_at_front(call("eigh", {rules::batch_to_front(in.at(0))}, attrs));
  });
  // eigh(A) = f(T(A)) with S = T(A) = V diag(λ) Vᵀ, so dS = T(dA) and, with W = Vᵀ dS V,
  //   dλ = diag(W),   dV = V (F ∘ W),   F_ij = 1/(λ_j − λ_i) for i ≠ j, F_ii = 0
  // (the first-order perturbation of distinct eigenvalues and their eigenvectors, which keeps each
  // eigenvector's norm: diag(Vᵀ dV) = 0). At a repeated eigenvalue F has an infinite entry and dV is
  // inf or NaN, as PyTorch's eigenvector derivative is (SPEC OPS-EIGH.3); dλ stays finite.
  attach.jvp("eigh", [](const JvpCall& c) -> TensorList {
    const bool lower = c.attrs.get_string("UPLO") == "L";
    const Tensor& values = c.outputs[0];
    const Tensor& vectors = c.outputs[1];
    const Tensor w =
        ops::einsum("...ji,...jk,...kl->...il", {vectors, symmetric_from_triangle(c.tangents[0], lower), vectors});
    const Tensor d_values = ops::diagonal(w, 0, -2, -1);
    const Tensor eye = identity_matrix(values.size(-1), values.size(-1), values.dtype(), values.device());
    // λ_j − λ_i at [..., i, j]; the diagonal's zero gaps are moved to 1 before the reciprocal, then masked.
    const Tensor gaps = ops::sub(ops::unsqueeze(values, -2), ops::unsqueeze(values, -1));
    const Tensor f = ops::mul(ops::reciprocal(ops::add(gaps, eye)), ops::sub(ops::lit(1), eye));
    const Tensor d_vectors = ops::einsum("...ij,...jk->...ik", {vectors, ops::mul(f, w)});
    return {d_values, d_vectors};
  });
}

}  // namespace funcspec::transforms
