// The LU factorization and the matrix exponential: lu_factor, matrix_exp and matrix_exp_frechet are
// primitives whose per-matrix routines the cpu and CUDA kernels share
// (reference/backends/common/linalg_lu.h, matrix_exp.h).
#include <fmt/format.h>

#include "reference/api/ops.h"
#include "reference/backends/cpu/linalg_lu_exp.h"
#include "reference/backends/cuda/linalg_lu_exp.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_checks.h"
#include "reference/ops/linalg_identity.h"
#include "reference/ops/linalg_lu_permutation.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
// File-local helpers in a namespace of their own: the unity build compiles this file together with
// linalg.cpp, whose helpers have similar names.
namespace linalg_lu_detail {
namespace {

Shape batch_dims(const Shape& shape) { return Shape(shape.begin(), shape.end() - 2); }

// A floating [*, m, n] argument, m and n free (square ones: check_square_floating).
void check_floating_matrix(std::string_view op, std::string_view arg, const Tensor& a) {
  check_dtype(op, arg, a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to be a matrix or a batch of matrices but got shape {}", op, arg,
                 shape_to_string(a.shape()));
}

// matrix_exp_frechet's A and E: square, of one dtype and size; their batch dims broadcast.
Shape frechet_shape(const Tensor& a, const Tensor& e) {
  check_square_floating("matrix_exp_frechet", "A", a);
  check_square_floating("matrix_exp_frechet", "E", e);
  FUNCSPEC_CHECK(a.dtype() == e.dtype(), ErrorKind::DtypeNotSupported,
                 "[matrix_exp_frechet] expected A and E to have the same dtype but got {} and {}",
                 dtype_name(a.dtype()), dtype_name(e.dtype()));
  FUNCSPEC_CHECK(a.size(-1) == e.size(-1), ErrorKind::ShapeMismatch,
                 "[matrix_exp_frechet] A of shape {} and E of shape {} hold matrices of different sizes",
                 shape_to_string(a.shape()), shape_to_string(e.shape()));
  Shape shape =
      broadcast_shapes(std::vector<Shape>{batch_dims(a.shape()), batch_dims(e.shape())}, "matrix_exp_frechet");
  shape.insert(shape.end(), {a.size(-1), a.size(-1)});
  return shape;
}

template <auto kernel>
KernelFn lu_factor_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], a.outputs[1], a.attrs.get_bool("pivot")); };
}

template <auto kernel>
KernelFn unary_matrix_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0]); };
}

template <auto kernel>
KernelFn binary_matrix_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.inputs[1], a.outputs[0]); };
}

void register_lu_factor(OpRegistry& registry) {
  OpDef& op =
      registry.add("lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", OpKind::Primitive, "linalg",
                   "P A = L U with partial pivoting, packed (U on and above the diagonal, L's multipliers "
                   "below) with LAPACK's 1-based int64 pivots; any [*, m, n]");
  op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
    const Tensor& a = in[0];
    check_floating_matrix("lu_factor", "A", a);
    Shape pivots = batch_dims(a.shape());
    pivots.push_back(std::min(a.size(-2), a.size(-1)));
    return {{a.shape(), a.dtype()}, {pivots, DType::Int64}};
  };
  op.cpu_kernel = lu_factor_kernel<&cpu::lu_factor>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(lu_factor_kernel<&cuda::lu_factor>());
}

void register_matrix_exp(OpRegistry& registry) {
  {
    OpDef& op = registry.add("matrix_exp(Tensor self) -> Tensor", OpKind::Primitive, "linalg",
                             "exp of each [n, n] matrix: scaling and squaring of a Taylor polynomial");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("matrix_exp", "self", in[0]);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = unary_matrix_kernel<&cpu::matrix_exp>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(unary_matrix_kernel<&cuda::matrix_exp>());
  }
  {
    OpDef& op = registry.add("matrix_exp_frechet(Tensor A, Tensor E) -> Tensor", OpKind::Primitive, "linalg",
                             "the derivative of matrix_exp at A in the direction E (linear in E): the upper-right "
                             "block of matrix_exp([[A, E], [0, A]])");
    op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
      const Shape shape = frechet_shape(in[0], in[1]);
      return {expand_to(in[0], shape), expand_to(in[1], shape)};
    };
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      return {{frechet_shape(in[0], in[1]), in[0].dtype()}};
    };
    op.cpu_kernel = binary_matrix_kernel<&cpu::matrix_exp_frechet>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(binary_matrix_kernel<&cuda::matrix_exp_frechet>());
  }
}

// L (m×k, unit lower) and U (k×n, upper) out of the packed factors, k = min(m, n).
std::pair<Tensor, Tensor> unpack_factors(const Tensor& lu) {
  const std::int64_t m = lu.size(-2);
  const std::int64_t n = lu.size(-1);
  const std::int64_t k = std::min(m, n);
  const Tensor l = ops::add(ops::tril(ops::narrow(lu, -1, 0, k), -1), identity_matrix(m, k, lu.dtype(), lu.device()));
  return {l, ops::triu(ops::narrow(lu, -2, 0, k))};
}

Tensor matrix_product(const Tensor& x, const Tensor& y) { return ops::einsum("...ij,...jk->...ik", {x, y}); }
Tensor transposed(const Tensor& x) { return ops::einsum("...ij->...ji", {x}); }

void register_lu(OpRegistry& registry) {
  OpDef& op =
      registry.add("lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", OpKind::Composite, "linalg",
                   "A = P L U from lu_factor: P [*, m, m] a permutation, L [*, m, k] unit lower, U [*, k, "
                   "n] upper, k = min(m, n)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& a = in[0];
    check_floating_matrix("lu", "A", a);
    const TensorList factors = call("lu_factor", {a}, {{"pivot", attrs.get_bool("pivot")}});
    const auto [l, u] = unpack_factors(factors[0]);
    return {lu_permutation_matrix(factors[1], a.size(-2), a.dtype()), l, u};
  };
}

// lu_solve's operands with their batch dims broadcast: LU [*, n, n], pivots [*, n], B [*, n, k]
// (left) or [*, k, n].
struct LuSolveOperands {
  Tensor lu, pivots, b;
};

LuSolveOperands lu_solve_operands(const Tensor& lu, const Tensor& pivots, const Tensor& b, bool left) {
  check_square_floating("lu_solve", "LU", lu);
  check_dtype("lu_solve", "pivots", pivots.dtype(), DTypeSet::Integral);
  const std::int64_t n = lu.size(-1);
  FUNCSPEC_CHECK(pivots.dim() == lu.dim() - 1 && pivots.shape() == Shape(lu.shape().begin(), lu.shape().end() - 1),
                 ErrorKind::ShapeMismatch, "[lu_solve] LU of shape {} needs pivots of shape {} but got {}",
                 shape_to_string(lu.shape()), shape_to_string(Shape(lu.shape().begin(), lu.shape().end() - 1)),
                 shape_to_string(pivots.shape()));
  check_floating_matrix("lu_solve", "B", b);
  FUNCSPEC_CHECK(lu.dtype() == b.dtype(), ErrorKind::DtypeNotSupported,
                 "[lu_solve] expected LU and B to have the same dtype but got {} and {}", dtype_name(lu.dtype()),
                 dtype_name(b.dtype()));
  FUNCSPEC_CHECK(b.size(left ? -2 : -1) == n, ErrorKind::ShapeMismatch,
                 "[lu_solve] LU of shape {} and B of shape {} are incompatible: B's {} dim must have size {}",
                 shape_to_string(lu.shape()), shape_to_string(b.shape()), left ? "second-to-last" : "last", n);
  const Shape batch = broadcast_shapes(std::vector<Shape>{batch_dims(lu.shape()), batch_dims(b.shape())}, "lu_solve");
  Shape lu_shape = batch, pivots_shape = batch, b_shape = batch;
  lu_shape.insert(lu_shape.end(), {n, n});
  pivots_shape.push_back(n);
  b_shape.insert(b_shape.end(), {b.size(-2), b.size(-1)});
  return {ops::expand(lu, lu_shape), ops::expand(pivots, pivots_shape), ops::expand(b, b_shape)};
}

// NOTE: [lu_solve through solve_triangular]
// With A = P·L·U: A·X = B is X = U⁻¹·L⁻¹·Pᵀ·B, Aᵀ·X = B (adjoint) is X = P·L⁻ᵀ·U⁻ᵀ·B, X·A = B
// (left=False) is X = B·U⁻¹·L⁻¹·Pᵀ and X·Aᵀ = B is X = B·P·L⁻ᵀ·U⁻ᵀ. Each inverse is a
// solve_triangular reading the packed LU itself: U is its upper triangle, L its strict lower
// triangle with a unit diagonal (unitriangular), and Uᵀ and Lᵀ the lower and upper triangles of its
// transpose; so no factor is unpacked, and the gradient with respect to LU is that of the packed
// factors (L's part below the diagonal, U's on and above it), as PyTorch's. Substitution does not
// check U's diagonal (SPEC OPS-5.1): a zero there gives inf or NaN, as PyTorch's getrs and JAX's
// lu_solve give, rather than an error. Being a composite, lu_solve takes every derivative from
// solve_triangular, einsum and transpose; the pivots are integers and carry none.
Tensor triangle_solve(const Tensor& factors, const Tensor& b, bool upper, bool left, bool unitriangular) {
  return call_one("solve_triangular", {factors, b},
                  {{"upper", upper}, {"left", left}, {"unitriangular", unitriangular}});
}

void register_lu_solve(OpRegistry& registry) {
  OpDef& op = registry.add(
      "lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor",
      OpKind::Composite, "linalg",
      "X with A X = B (left) or X A = B for A = P L U given by lu_factor; adjoint solves with A^T; batch dims "
      "broadcast");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const bool left = attrs.get_bool("left");
    const bool adjoint = attrs.get_bool("adjoint");
    const LuSolveOperands o = lu_solve_operands(in[0], in[1], in[2], left);
    const Tensor p = lu_permutation_matrix(o.pivots, o.lu.size(-1), o.lu.dtype());
    // L·Y = Pᵀ·B, then U·X = Y; Uᵀ·Y = B, then Lᵀ·Z = Y, X = P·Z; and the same from the right.
    if (left && !adjoint) {
      return {triangle_solve(o.lu, triangle_solve(o.lu, matrix_product(transposed(p), o.b), false, true, true), true,
                             true, false)};
    }
    const Tensor lu_t = transposed(o.lu);
    if (left) {
      return {matrix_product(p, triangle_solve(lu_t, triangle_solve(lu_t, o.b, false, true, false), true, true, true))};
    }
    if (!adjoint) {
      return {matrix_product(triangle_solve(o.lu, triangle_solve(o.lu, o.b, true, false, false), false, false, true),
                             transposed(p))};
    }
    return {triangle_solve(lu_t, triangle_solve(lu_t, matrix_product(o.b, p), true, false, true), false, false, false)};
  };
}

}  // namespace
}  // namespace linalg_lu_detail

Tensor lu_permutation_matrix(const Tensor& pivots, std::int64_t rows, DType dtype) {
  const std::string device(device_name(pivots.device()));
  const Tensor index = ops::arange(0, rows, 1, DType::Int64, device);
  Shape shape(pivots.shape().begin(), pivots.shape().end() - 1);
  shape.insert(shape.end(), {rows, rows});
  const Tensor identity = ops::to_dtype(ops::eq(ops::unsqueeze(index, 1), index), dtype);
  Tensor p = ops::expand(identity, shape);
  for (std::int64_t j = 0; j < pivots.size(-1); ++j) {
    const Tensor swapped_with = ops::sub(ops::select(pivots, -1, j), ops::lit(std::int64_t{1}));
    const Tensor e_p = ops::to_dtype(ops::eq(ops::unsqueeze(swapped_with, -1), index), dtype);
    const Tensor e_j = ops::to_dtype(ops::eq(index, ops::lit(j)), dtype);
    const Tensor d = ops::sub(e_j, e_p);
    p = ops::sub(p, ops::einsum("...ij,...j,...k->...ik", {p, d, d}));
  }
  return p;
}

void register_linalg_lu_ops(OpRegistry& registry) {
  linalg_lu_detail::register_lu_factor(registry);
  linalg_lu_detail::register_lu(registry);
  linalg_lu_detail::register_lu_solve(registry);
  linalg_lu_detail::register_matrix_exp(registry);
}

}  // namespace funcspec
