// The pseudo-inverse and the ops built on it, as torch.linalg has them: pinv, lstsq (its solution)
// and matrix_rank, composites, and pinv_with_tolerances, the custom op that carries pinv's derivative
// (NOTE: [pinv derivative]).
//
// NOTE: [pinv derivative]
// pinv(A) = V diag(σ⁺) Uᵀ keeps the singular values above max(atol, rtol·σ_max) and drops the others,
// so it is discontinuous wherever the rank changes, and that is where it is used. Differentiating its
// decomposition differentiates the SVD, whose singular vectors have no derivative at repeated or
// zero singular values: inf or NaN at every rank-deficient matrix. PyTorch gives linalg_pinv a
// derivative of its own instead (pinv_jvp / pinv_backward in FunctionsManual.cpp): the derivative of
// the pseudo-inverse at constant rank,
//   dP = −P dA P + P Pᵀ dAᵀ (I − A P) + (I − P A) dAᵀ Pᵀ P,
// finite everywhere, and the derivative itself wherever the rank is locally constant (always for
// full rank). So the reference gives it too, from an op whose rule it is: pinv_with_tolerances, a
// custom op (NOTE: [op kinds]) whose forward is the decomposition above (svd, or eigh where
// hermitian), whose jvp rule is the formula written in ops (so every order follows, the rule's own
// derivative going through P's), and whose batching rule calls it once on the whole batch. pinv
// itself is a composite that checks its arguments and fills in PyTorch's default tolerances, so the
// generated families (which check primitives and composites) see it as any op. atol and rtol are
// not differentiated: pinv is locally constant in them, and their tangents are dropped.
// With hermitian=True the matrix read is the symmetric one rebuilt from A's lower triangle (what
// eigh(A) reads, SPEC OPS-4.3), and the rule takes the tangent through the same triangle, so it is
// the derivative of the function computed (SPEC OPS-9.2).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "reference/api/ops.h"
#include "reference/core/promotion.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace pinv_ops {
namespace {

Shape without_trailing(const Shape& shape, std::size_t trailing) {
  return Shape(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(trailing));
}

// A floating [*, m, n] A; square where hermitian (eigh reads it).
void check_matrices(std::string_view op, const Tensor& a, bool hermitian) {
  check_dtype(op, "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected 'A' to be a matrix or a batch of matrices but got shape {}", op,
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(!hermitian || a.size(-1) == a.size(-2), ErrorKind::ShapeMismatch,
                 "[{}] hermitian=True expects 'A' to be a batch of square matrices but got shape {}", op,
                 shape_to_string(a.shape()));
}

// The machine epsilon of A's dtype, which PyTorch's default rtol scales.
double dtype_epsilon(DType dtype) {
  switch (dtype) {
    case DType::Float32: return static_cast<double>(std::numeric_limits<float>::epsilon());
    case DType::Float64: return std::numeric_limits<double>::epsilon();
    default: return static_cast<double>(std::numeric_limits<oracle_t>::epsilon());
  }
}

Tensor filled(const Tensor& like, DType dtype, double value) {
  return ops::full({}, Scalar(value), dtype, std::string(device_name(like.device())));
}

// The batch shape the result has: A's batch dims broadcast with the tolerances' shapes.
Shape result_batch(std::string_view op, const Tensor& a, const Tensor& atol, const Tensor& rtol) {
  return broadcast_shapes(std::vector<Shape>{without_trailing(a.shape(), 2), atol.shape(), rtol.shape()}, op);
}

// A tolerance in `dtype`: a tensor cast to it, or a Python number (a wrapped scalar) as a 0-dim tensor.
Tensor tolerance_tensor(const Tensor& like, const Tensor& t, DType dtype) {
  return t.is_wrapped_number() ? ops::add(filled(like, dtype, 0.0), t) : ops::to_dtype(t, dtype);
}

// PyTorch's get_atol_rtol: atol defaults to 0; rtol, where not given, to eps·max(m, n) of A's dtype
// when atol is not given either, else to 0 where atol > 0 and to that default elsewhere. Both in
// float64 (the oracle dtype for oracle inputs), as PyTorch materializes them.
std::pair<Tensor, Tensor> tolerances(const Tensor& a, const Tensor& atol, const Tensor& rtol) {
  const DType dtype = promote_types(a.dtype(), DType::Float64);
  const double default_rtol = dtype_epsilon(a.dtype()) * static_cast<double>(std::max(a.size(-2), a.size(-1)));
  const Tensor atol_t = atol.defined() ? tolerance_tensor(a, atol, dtype) : filled(a, dtype, 0.0);
  Tensor rtol_t;
  if (rtol.defined()) {
    rtol_t = tolerance_tensor(a, rtol, dtype);
  } else if (atol.defined()) {
    rtol_t = ops::where(ops::gt(atol_t, ops::lit(0.0)), filled(a, dtype, 0.0), filled(a, dtype, default_rtol));
  } else {
    rtol_t = filled(a, dtype, default_rtol);
  }
  return {atol_t, rtol_t};
}

Tensor optional_input(const TensorList& in, std::size_t i) { return in.size() > i ? in[i] : Tensor(); }

Tensor transposed(const Tensor& x) { return ops::transpose(x, -2, -1); }

// Which values (singular values, or |eigenvalues| where hermitian) count: those above
// max(atol, rtol·max), compared in the tolerances' dtype. Each matrix has at least one value.
Tensor above_threshold(const Tensor& magnitude, const Tensor& atol, const Tensor& rtol) {
  const Tensor values = ops::to_dtype(magnitude, atol.dtype());
  const Tensor largest = ops::amax(values, std::vector<std::int64_t>{-1}, true);
  const Tensor threshold = ops::maximum(ops::unsqueeze(atol, -1), ops::mul(ops::unsqueeze(rtol, -1), largest));
  return ops::gt(values, threshold);
}

Tensor zeros_of_shape(const Tensor& like, DType dtype, const Shape& shape) {
  return ops::expand(filled(like, dtype, 0.0), shape);
}

// pinv_with_tolerances' forward (NOTE: [pinv derivative]).
Tensor pseudo_inverse(const Tensor& a, const Tensor& atol, const Tensor& rtol, bool hermitian) {
  constexpr std::string_view op = "pinv_with_tolerances";
  check_matrices(op, a, hermitian);
  for (const auto& [name, t] : {std::pair{"atol", atol}, std::pair{"rtol", rtol}}) {
    check_dtype(op, name, t.dtype(), DTypeSet::Floating);
  }
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  Shape shape = result_batch(op, a, atol, rtol);
  shape.insert(shape.end(), {n, m});
  // No singular value: the zero matrix of the result's shape (max over none has no value).
  if (std::min(m, n) == 0) return zeros_of_shape(a, a.dtype(), shape);
  Tensor vectors_left;   // [*, m, k]
  Tensor vectors_right;  // [*, n, k]
  Tensor inverted;       // [*, k]
  if (hermitian) {
    const TensorList eigen = call("eigh", {a}, {{"UPLO", std::string("L")}});
    inverted = ops::where(above_threshold(ops::abs(eigen[0]), atol, rtol), ops::reciprocal(eigen[0]),
                          ops::zeros_like(eigen[0]));
    vectors_left = eigen[1];
    vectors_right = eigen[1];
  } else {
    const TensorList svd = call("svd", {a}, {{"full_matrices", false}});
    inverted = ops::where(above_threshold(svd[1], atol, rtol), ops::reciprocal(svd[1]), ops::zeros_like(svd[1]));
    vectors_left = svd[0];
    vectors_right = transposed(svd[2]);
  }
  // V diag(σ⁺) Uᵀ, whose batch dims are A's broadcast with the tolerances' (through σ⁺).
  return ops::einsum("...ik,...k,...jk->...ij", {vectors_right, inverted, vectors_left});
}

void register_pinv(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "pinv_with_tolerances(Tensor A, Tensor atol, Tensor rtol, bool hermitian=False) -> Tensor", OpKind::Custom,
        "linalg",
        "pinv(A, atol=atol, rtol=rtol, hermitian=hermitian) with both tolerances given; the op that carries pinv's "
        "constant-rank derivative (a custom op: forward through svd or eigh, its own jvp and batching rules)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {pseudo_inverse(in[0], in[1], in[2], attrs.get_bool("hermitian"))};
    };
  }
  {
    OpDef& op = registry.add(
        "pinv(Tensor A, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor", OpKind::Composite,
        "linalg",
        "Moore-Penrose pseudo-inverse [*, n, m] keeping singular values (|eigenvalues| where hermitian) above "
        "max(atol, rtol·σ_max), torch.linalg.pinv");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const bool hermitian = attrs.get_bool("hermitian");
      check_matrices("pinv", in[0], hermitian);
      const auto [atol, rtol] = tolerances(in[0], optional_input(in, 1), optional_input(in, 2));
      result_batch("pinv", in[0], atol, rtol);
      return call("pinv_with_tolerances", {in[0], atol, rtol}, {{"hermitian", hermitian}});
    };
    op.derive_out = true;
  }
}

void register_lstsq(OpRegistry& registry) {
  OpDef& op = registry.add(
      "lstsq(Tensor A, Tensor B, float? rcond=None, *, str? driver=None) -> Tensor", OpKind::Composite, "linalg",
      "the solution of torch.linalg.lstsq: the least-squares solution of least norm, pinv(A, rtol=rcond) @ B, "
      "batch dims broadcast; B [*, m, k], or [*, m] for a vector");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    constexpr std::string_view name = "lstsq";
    const Tensor& a = in[0];
    const Tensor& b = in[1];
    check_matrices(name, a, false);
    check_dtype(name, "B", b.dtype(), DTypeSet::Floating);
    FUNCSPEC_CHECK(a.dtype() == b.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] expected A and B to have the same dtype but got {} and {}", name, dtype_name(a.dtype()),
                   dtype_name(b.dtype()));
    const std::int64_t rank_difference = a.dim() - b.dim();
    FUNCSPEC_CHECK(rank_difference == 0 || rank_difference == 1, ErrorKind::ShapeMismatch,
                   "[{}] B must have as many dims as A (a batch of matrices) or one fewer (a batch of vectors), but "
                   "A has shape {} and B {}",
                   name, shape_to_string(a.shape()), shape_to_string(b.shape()));
    const bool vector = rank_difference == 1;
    FUNCSPEC_CHECK(b.size(vector ? -1 : -2) == a.size(-2), ErrorKind::ShapeMismatch,
                   "[{}] A of shape {} and B of shape {} are incompatible: B's {} dim must have A's {} rows", name,
                   shape_to_string(a.shape()), shape_to_string(b.shape()), vector ? "last" : "second-to-last",
                   a.size(-2));
    broadcast_shapes(std::vector<Shape>{without_trailing(a.shape(), 2), without_trailing(b.shape(), vector ? 1 : 2)},
                     name);
    const std::optional<std::string> driver = attrs.get_optional_string("driver");
    FUNCSPEC_CHECK(!driver || *driver == "gels" || *driver == "gelsy" || *driver == "gelsd" || *driver == "gelss",
                   ErrorKind::InvalidArgument,
                   "[{}] driver must be one of 'gels', 'gelsy', 'gelsd', 'gelss' (or None) but is '{}'", name,
                   driver.value_or(""));
    // rcond is LAPACK's: singular values at most rcond·σ_max are dropped; None is eps·max(m, n), and
    // a negative rcond keeps every nonzero singular value (SPEC OPS-9.4).
    const std::optional<double> rcond = attrs.get_optional_float("rcond");
    const Tensor atol = filled(a, promote_types(a.dtype(), DType::Float64), 0.0);
    const Tensor rtol =
        rcond ? filled(a, atol.dtype(), std::max(*rcond, 0.0)) : tolerances(a, Tensor(), Tensor()).second;
    const Tensor inverse = call_one("pinv_with_tolerances", {a, atol, rtol}, {{"hermitian", false}});
    return {ops::einsum(vector ? "...ij,...j->...i" : "...ij,...jk->...ik", {inverse, b})};
  };
}

void register_matrix_rank(OpRegistry& registry) {
  OpDef& op =
      registry.add("matrix_rank(Tensor A, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> Tensor",
                   OpKind::Composite, "linalg",
                   "int64 count of the singular values (|eigenvalues| where hermitian) above max(atol, rtol·σ_max), "
                   "torch.linalg.matrix_rank");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    constexpr std::string_view name = "matrix_rank";
    const Tensor& a = in[0];
    const bool hermitian = attrs.get_bool("hermitian");
    check_matrices(name, a, hermitian);
    const auto [atol, rtol] = tolerances(a, optional_input(in, 1), optional_input(in, 2));
    const Shape shape = result_batch(name, a, atol, rtol);
    if (std::min(a.size(-2), a.size(-1)) == 0) {
      return {zeros_of_shape(a, DType::Int64, shape)};
    }
    const Tensor magnitude = hermitian ? ops::abs(call("eigh", {a}, {{"UPLO", std::string("L")}})[0])
                                       : call("svd", {a}, {{"full_matrices", false}})[1];
    return {ops::sum(above_threshold(magnitude, atol, rtol), std::vector<std::int64_t>{-1})};
  };
  op.derive_out = true;
}

}  // namespace
}  // namespace pinv_ops

void register_linalg_pinv_ops(OpRegistry& registry) {
  using namespace pinv_ops;
  register_pinv(registry);
  register_lstsq(registry);
  register_matrix_rank(registry);
}

}  // namespace funcspec
