// Transform rules of the triangular and Cholesky ops of the linalg family (solve_triangular,
// cholesky, cholesky_ex).
// Batching: the ops act on the last two dims and take any leading dims as a batch, so the vmap batch
// goes to the front and the op runs once. The derivatives are written with ops that have rules of
// their own (solve_triangular itself, tril/triu, einsum), so higher orders follow.
#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/rules/batching_helpers.h"
#include "reference/rules/registration.h"
#include "reference/transforms/op_rules.h"

namespace funcspec::transforms {
namespace {

// The last two dims swapped, as an einsum (which has every derivative rule).
Tensor swap_matrix_dims(const Tensor& a) { return ops::einsum("...ij->...ji", {a}); }

// The part of `a` that solve_triangular reads with these attributes: its upper or lower triangle,
// without the diagonal when the diagonal counts as 1.
Tensor triangle_read(const Tensor& a, const Attrs& attrs) {
  const bool upper = attrs.get_bool("upper");
  const std::int64_t diagonal = attrs.get_bool("unitriangular") ? (upper ? 1 : -1) : 0;
  return call_one(upper ? "triu" : "tril", {a}, {{"diagonal", diagonal}});
}

// The symmetric matrix whose factor cholesky computes: A's lower triangle mirrored onto the upper
// one (upper: the upper triangle mirrored down).
Tensor symmetric_from_triangle(const Tensor& a, bool upper) {
  const std::string mask = upper ? "triu" : "tril";
  const Tensor strict = call_one(mask, {a}, {{"diagonal", std::int64_t{upper ? 1 : -1}}});
  return ops::add(call_one(mask, {a}, {{"diagonal", std::int64_t{0}}}), swap_matrix_dims(strict));
}

// NOTE: [Cholesky jvp]
// cholesky is f(S(A)), S the symmetric matrix of the triangle read (symmetric_from_triangle) and f
// the factorization of a symmetric matrix. L Lᵀ = S gives dL Lᵀ + L dLᵀ = dS, i.e.
// L⁻¹ dL + (L⁻¹ dL)ᵀ = L⁻¹ dS L⁻ᵀ with L⁻¹ dL lower triangular, so dL = L Φ(L⁻¹ dS L⁻ᵀ), Φ keeping the
// strict lower part and half the diagonal. L⁻¹ dS L⁻ᵀ is L⁻¹ (L⁻¹ dS)ᵀ (dS is symmetric): two lower
// triangular solves. An upper factor U = Lᵀ takes the transposed tangent. Only the triangle read
// moves the result, so the engine's vjp, this rule's transpose, is zero on the other triangle.
Tensor cholesky_tangent(const Tensor& factor, const Tensor& tangent, bool upper) {
  const Tensor lower = upper ? swap_matrix_dims(factor) : factor;
  const Attrs lower_left{{"upper", false}};
  const Tensor half = call_one("solve_triangular", {lower, symmetric_from_triangle(tangent, upper)}, lower_left);
  const Tensor m = call_one("solve_triangular", {lower, swap_matrix_dims(half)}, lower_left);
  const Tensor phi = ops::mul(ops::add(call_one("tril", {m}, {{"diagonal", std::int64_t{0}}}),
                                       call_one("tril", {m}, {{"diagonal", std::int64_t{-1}}})),
                              ops::lit(0.5));
  const Tensor d_lower = ops::einsum("...ij,...jk->...ik", {lower, phi});
  return upper ? swap_matrix_dims(d_lower) : d_lower;
}

}  // namespace

void register_linalg_triangular_rules(RuleAttacher& attach) {
  // The op layer has broadcast A's and B's batch dims on the examples: with both batched at the
  // front they still agree.
  attach.batch("solve_triangular",
               [](const BatchedValues& in, const Attrs& attrs, const BatchContext& context) -> BatchedValues {
                 const Tensor a = rules::materialize_batch(in.at(0), context.batch_size);
                 const Tensor b = rules::materialize_batch(in.at(1), context.batch_size);
                 return rules::batched_at_front(call("solve_triangular", {a, b}, attrs));
               });
  for (const char* name : {"cholesky", "cholesky_ex"}) {
    const std::string op = name;
    attach.batch(op, [op](const BatchedValues& in, const Attrs& attrs, const BatchContext&) -> BatchedValues {
      rules::check_examples(op, in, attrs);
      return rules::batched_at_front(call(op, {rules::batch_to_front(in.at(0))}, attrs));
    });
  }
  attach.jvp("cholesky", [](const JvpCall& c) -> TensorList {
    return {cholesky_tangent(c.outputs[0], c.tangents[0], c.attrs.get_bool("upper"))};
  });
  // info is an integer result: no tangent.
  attach.jvp("cholesky_ex", [](const JvpCall& c) -> TensorList {
    return {cholesky_tangent(c.outputs[0], c.tangents[0], c.attrs.get_bool("upper")), Tensor()};
  });

  // T X = B with T = tri(A) gives T dX = dB - tri(dA) X (X T = B: dX T = dB - X tri(dA)), tri the
  // triangle the op reads: entries of A it never reads move nothing. The inputs are canonical.
  attach.jvp("solve_triangular", [](const JvpCall& c) -> TensorList {
    const Tensor& x = c.outputs[0];
    Tensor rhs = c.tangents[1];
    if (c.tangents[0].defined()) {
      const Tensor read = triangle_read(c.tangents[0], c.attrs);
      rhs = add_tangents(rhs, c.attrs.get_bool("left") ? ops::einsum("...ij,...jk->...ik", {read, ops::neg(x)})
                                                       : ops::einsum("...ij,...jk->...ik", {ops::neg(x), read}));
    }
    if (!rhs.defined()) return {Tensor()};
    return {call_one("solve_triangular", {c.primals[0], rhs}, c.attrs)};
  });
  // Linear in B for a constant A: X = T⁻¹ B pulls a cotangent G back to T⁻ᵀ G (X = B T⁻¹: to G T⁻ᵀ),
  // a triangular solve with Aᵀ, whose read triangle is the other one, on the same side.
  attach.transpose("solve_triangular", [](const TransposeCall& c) -> TensorList {
    FUNCSPEC_INTERNAL_ASSERT(!c.linear[0], "solve_triangular is linear in B only, with A constant");
    Attrs transposed = c.attrs;
    transposed.set("upper", !c.attrs.get_bool("upper"));
    return {Tensor(), call_one("solve_triangular", {swap_matrix_dims(c.inputs[0]), c.cotangents[0]}, transposed)};
  });
}

}  // namespace funcspec::transforms
