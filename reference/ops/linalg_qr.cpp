// The QR decomposition: qr, a primitive (Householder reflections, NOTE: [Householder QR]: no
// decomposition into other ops exists), and householder_product, the product of the reflectors
// that geqrf-style factors describe, a composite of matrix products (its derivative is theirs).
#include <fmt/format.h>

#include "reference/api/ops.h"
#include "reference/backends/cpu/linalg_qr.h"
#include "reference/backends/cuda/linalg_qr.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace linalg_qr_detail {
namespace {

// A floating [*, m, n] input and a mode of 'reduced', 'complete' or 'r', as torch.linalg.qr checks them.
void check_qr_arguments(const Tensor& a, const std::string& mode) {
  check_dtype("qr", "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[qr] expected 'A' to be a matrix or a batch of matrices but got shape {}",
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(mode == "reduced" || mode == "complete" || mode == "r", ErrorKind::InvalidArgument,
                 "[qr] expected mode to be 'reduced', 'complete' or 'r' but got '{}'", mode);
}

std::vector<TensorMeta> qr_results(const Tensor& a, const std::string& mode) {
  check_qr_arguments(a, mode);
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  const std::int64_t k = std::min(m, n);
  const std::int64_t q_cols = mode == "complete" ? m : k;
  Shape q(a.shape().begin(), a.shape().end() - 2);
  Shape r = q;
  q.insert(q.end(), {m, q_cols});
  r.insert(r.end(), {q_cols, n});
  // Mode 'r' computes no Q and returns a [0] tensor in its place, whatever A's batch dims (PyTorch's).
  if (mode == "r") q = {0};
  return {{q, a.dtype()}, {r, a.dtype()}};
}

template <auto kernel>
KernelFn qr_kernel() {
  return
      [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], a.outputs[1], a.attrs.get_string("mode") != "r"); };
}

// householder_product's arguments as torch.linalg.householder_product checks them: A [*, m, n] with
// n <= m, tau [*, k] with k <= n and A's batch dims, both of one floating dtype.
void check_householder_arguments(const Tensor& a, const Tensor& tau) {
  constexpr std::string_view op = "householder_product";
  check_dtype(op, "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected 'A' to be a matrix or a batch of matrices but got shape {}", op,
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(a.size(-2) >= a.size(-1), ErrorKind::ShapeMismatch,
                 "[{}] expected A's rows to be at least its columns but got shape {}", op, shape_to_string(a.shape()));
  FUNCSPEC_CHECK(tau.dim() == a.dim() - 1, ErrorKind::ShapeMismatch,
                 "[{}] expected tau to have one dim less than A ({}) but got shape {}", op, shape_to_string(a.shape()),
                 shape_to_string(tau.shape()));
  FUNCSPEC_CHECK(tau.size(-1) <= a.size(-1), ErrorKind::ShapeMismatch,
                 "[{}] expected at most as many reflectors as A's columns but got tau of shape {} for A of shape {}",
                 op, shape_to_string(tau.shape()), shape_to_string(a.shape()));
  FUNCSPEC_CHECK(Shape(tau.shape().begin(), tau.shape().end() - 1) == Shape(a.shape().begin(), a.shape().end() - 2),
                 ErrorKind::ShapeMismatch, "[{}] expected tau's batch dims to be A's but got shapes {} and {}", op,
                 shape_to_string(tau.shape()), shape_to_string(a.shape()));
  FUNCSPEC_CHECK(tau.dtype() == a.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] expected A and tau to have the same dtype but got {} and {}", op, dtype_name(a.dtype()),
                 dtype_name(tau.dtype()));
}

// The rows×cols matrix with ones on its diagonal, in `like`'s dtype and on its device.
Tensor eye_like(const Tensor& like, std::int64_t rows, std::int64_t cols) {
  const std::string where(device_name(like.device()));
  const Tensor row = ops::arange(0, rows, 1, DType::Int64, where);
  const Tensor col = ops::arange(0, cols, 1, DType::Int64, where);
  return ops::to_dtype(ops::eq(ops::unsqueeze(row, 1), col), like.dtype());
}

// NOTE: [householder product]
// H_0 H_1 ⋯ H_{k−1} restricted to its first n columns, H_i = I − τ_i v_i v_iᵀ with v_i column i of
// V = tril(A, −1) + I (zeros above row i, 1 at row i, A's entries below it): LAPACK's orgqr. Built
// from I[:, :n] by applying H_{k−1} first, each as X ← X − τ_i v_i (v_iᵀ X), so only the strict lower
// triangle of A's first k columns is read, and reaches the derivative. τ_i = 0 makes H_i = I; τ_i =
// 2/‖v_i‖² a reflection; other values give matrices that are not orthogonal, which the op computes
// all the same.
Tensor householder_product_of(const Tensor& a, const Tensor& tau) {
  const std::int64_t m = a.size(-2);
  const std::int64_t n = a.size(-1);
  const Tensor v = ops::add(ops::tril(a, -1), eye_like(a, m, n));
  Tensor x = ops::add(ops::zeros_like(a), eye_like(a, m, n));
  for (std::int64_t i = tau.size(-1) - 1; i >= 0; --i) {
    const Tensor v_i = ops::narrow(v, -1, i, 1);
    const Tensor tau_i = ops::unsqueeze(ops::narrow(tau, -1, i, 1), -1);
    const Tensor projection = ops::einsum("...ij,...ik->...jk", {v_i, x});
    x = ops::sub(x, ops::mul(tau_i, ops::einsum("...ij,...jk->...ik", {v_i, projection})));
  }
  return x;
}

}  // namespace
}  // namespace linalg_qr_detail

void register_linalg_qr_ops(OpRegistry& registry) {
  using namespace linalg_qr_detail;
  {
    OpDef& op = registry.add("qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", OpKind::Primitive, "linalg",
                             "A = Q R by Householder reflections, as torch.linalg.qr: Q [*, m, k] orthonormal columns "
                             "and R [*, k, n] upper (k = min(m, n)); 'complete': Q [*, m, m], R [*, m, n]; 'r': R "
                             "only (Q is [0])");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      return qr_results(in[0], attrs.get_string("mode"));
    };
    op.cpu_kernel = qr_kernel<&cpu::qr>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(qr_kernel<&cuda::qr>());
  }
  {
    OpDef& op = registry.add("householder_product(Tensor A, Tensor tau) -> Tensor", OpKind::Composite, "linalg",
                             "the first n columns of H_0 ⋯ H_{k-1}, H_i = I - tau_i v_i v_i^T with v_i column i of A "
                             "below the diagonal and 1 on it, as torch.linalg.householder_product (LAPACK's orgqr)");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      check_householder_arguments(in[0], in[1]);
      return {householder_product_of(in[0], in[1])};
    };
  }
}

}  // namespace funcspec
