// Inverses and powers of matrices: inv, inv_ex and matrix_power, all composites. inv is
// torch.linalg.inv, the same function as the primitive `inverse` (torch.inverse is PyTorch's alias
// of it): a composite over it keeps one LU kernel and one set of rules, and names itself in its
// argument errors. inv_ex adds LAPACK's getrf info, which lu_factor's factors give exactly (NOTE: [LU
// with partial pivoting]: the same elimination with the same zero-pivot test as inverse's kernel),
// and matrix_power is PyTorch's sequence of matrix products (SPEC OPS-11.3).
#include <fmt/format.h>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_checks.h"
#include "reference/ops/linalg_identity.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {

Tensor identity_matrix(std::int64_t rows, std::int64_t cols, DType dtype, Device device) {
  const std::string where(device_name(device));
  const Tensor row = ops::arange(0, rows, 1, DType::Int64, where);
  const Tensor col = ops::arange(0, cols, 1, DType::Int64, where);
  return ops::to_dtype(ops::eq(ops::unsqueeze(row, 1), col), dtype);
}

// File-local helpers in a namespace of their own: the unity build compiles this file with the other
// linalg files.
namespace linalg_inverse_detail {
namespace {

Shape batch_dims(const Shape& shape) { return Shape(shape.begin(), shape.end() - 2); }

// getrf's info of each matrix of `a` ([*, n, n]): the 1-based index of the first zero on U's
// diagonal, 0 when there is none (SPEC OPS-11.2). The factorization runs on a detached `a`: info is
// an integer, a constant of every derivative, and lu_factor's own derivative is undefined exactly
// where info is not 0.
Tensor zero_pivot_info(const Tensor& a) {
  const std::int64_t n = a.size(-1);
  if (n == 0) return ops::zeros(batch_dims(a.shape()), DType::Int64, std::string(device_name(a.device())));
  const Tensor lu = call("lu_factor", {ops::detach(a)})[0];
  const Tensor zero_pivot = ops::to_dtype(ops::eq(ops::diagonal(lu, 0, -2, -1), ops::lit(0.0)), DType::Int64);
  // argmax is the first zero pivot (the first of ties); amax is 1 when there is one, else 0.
  return ops::mul(ops::add(ops::argmax(zero_pivot, -1), ops::lit(std::int64_t{1})),
                  ops::amax(zero_pivot, std::vector<std::int64_t>{-1}));
}

void register_inv(OpRegistry& registry) {
  OpDef& op = registry.add("inv(Tensor A) -> Tensor", OpKind::Composite, "linalg",
                           "A⁻¹ of each [n, n] matrix, as torch.linalg.inv: the primitive inverse (singular: "
                           "singular_matrix)");
  op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
    check_square_floating("inv", "A", in[0]);
    return {ops::inverse(in[0])};
  };
  op.derive_out = true;
}

void register_inv_ex(OpRegistry& registry) {
  OpDef& op = registry.add(
      "inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", OpKind::Composite, "linalg",
      "inv's inverse and info, getrf's first zero pivot (1-based; 0: invertible), as torch.linalg.inv_ex; the "
      "inverse of a singular matrix is unspecified; check_errors raises singular_matrix");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& a = in[0];
    check_square_floating("inv_ex", "A", a);
    const Tensor info = zero_pivot_info(a);
    // With check_errors, inverse raises for the first singular matrix (row-major over the batch).
    if (attrs.get_bool("check_errors")) return {ops::inverse(a), info};
    // A singular matrix is replaced by the identity before inverting, so nothing raises and its
    // (unspecified, SPEC OPS-11.2) inverse and the derivative there are those of I; an invertible
    // one is inverted as it is, with inverse's derivative.
    const std::int64_t n = a.size(-1);
    const Tensor singular = ops::unsqueeze(ops::unsqueeze(ops::ne(info, ops::lit(std::int64_t{0})), -1), -1);
    const Tensor invertible = ops::where(singular, identity_matrix(n, n, a.dtype(), a.device()), a);
    return {ops::inverse(invertible), info};
  };
}

// PyTorch's products (linalg_matrix_power): a power of 2 or 3 directly, (A·A)·A for 3; above that,
// binary powering from the least significant bit, z running through A, A², A⁴, ... and the result
// collecting z's from the left: A⁵ = A·A⁴, A⁶ = A²·A⁴, A⁷ = (A·A²)·A⁴.
Tensor positive_power(const Tensor& a, std::int64_t n) {
  if (n == 1) return ops::clone(a);
  if (n == 2) return ops::matmul(a, a);
  if (n == 3) return ops::matmul(ops::matmul(a, a), a);
  Tensor z, result;
  for (std::int64_t remaining = n; remaining > 0; remaining /= 2) {
    z = z.defined() ? ops::matmul(z, z) : a;
    if (remaining % 2 == 1) result = result.defined() ? ops::matmul(result, z) : z;
  }
  return result;
}

void register_matrix_power(OpRegistry& registry) {
  OpDef& op = registry.add("matrix_power(Tensor self, int n) -> Tensor", OpKind::Composite, "linalg",
                           "self to the integer power n, as torch.linalg.matrix_power: n = 0 the identity, n < 0 "
                           "inv(self) to the power -n, PyTorch's order of products");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::int64_t n = attrs.get_int("n");
    FUNCSPEC_CHECK(self.dim() >= 2 && self.size(-1) == self.size(-2), ErrorKind::ShapeMismatch,
                   "[matrix_power] expected 'self' to be a batch of square matrices but got shape {}",
                   shape_to_string(self.shape()));
    // The identity of self's dtype for any self (bool, integers, singular matrices), as PyTorch: a
    // constant, so every derivative of it is 0.
    if (n == 0) {
      const std::int64_t size = self.size(-1);
      return {ops::contiguous(ops::expand(identity_matrix(size, size, self.dtype(), self.device()), self.shape()))};
    }
    if (n < 0) check_square_floating("matrix_power", "self", self);
    // A product is taken from n = 2 on (|n| for a negative n, of the floating inverse).
    if (n >= 2) check_dtype("matrix_power", "self", self.dtype(), DTypeSet::NoBool);
    return {positive_power(n < 0 ? call_one("inv", {self}) : self, n < 0 ? -n : n)};
  };
  op.derive_out = true;
}

}  // namespace
}  // namespace linalg_inverse_detail

void register_linalg_inverse_ops(OpRegistry& registry) {
  linalg_inverse_detail::register_inv(registry);
  linalg_inverse_detail::register_inv_ex(registry);
  linalg_inverse_detail::register_matrix_power(registry);
}

}  // namespace funcspec
