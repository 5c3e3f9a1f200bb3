// The singular value ops: svd, a primitive (the one-sided Jacobi algorithm, NOTE: [one-sided Jacobi
// singular value decomposition]: no decomposition into other ops exists), and the composites over it:
// svdvals, its singular values; matrix_norm and cond, decomposed as torch.linalg decomposes them (over
// vector_norm, amax/amin, svdvals and inverse), so their derivatives at ties of the row or column sums
// and at zero are PyTorch's by construction (SPEC OPS-8.4, OPS-8.5).
#include <fmt/format.h>

#include <algorithm>

#include "reference/backends/cpu/linalg_svd.h"
#include "reference/backends/cuda/linalg_svd.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace svd_ops {
namespace {

// A floating [*, m, n] input, as torch.linalg.svd checks it.
void check_svd_input(std::string_view op, const Tensor& a) {
  check_dtype(op, "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected 'A' to be a matrix or a batch of matrices but got shape {}", op,
                 shape_to_string(a.shape()));
}

template <auto kernel>
KernelFn svd_kernel() {
  return [](const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], a.outputs[1], a.outputs[2], a.attrs.get_bool("full_matrices"));
  };
}

// The orders torch.linalg.matrix_norm accepts: 'fro' and 'nuc', and the numbers ±1, ±2, ±inf, which
// the schema's str ord spells '1', '-1', '2', '-2', 'inf', '-inf'.
enum class MatrixOrd { Fro, Nuc, One, MinusOne, Two, MinusTwo, Inf, MinusInf };

MatrixOrd matrix_ord(std::string_view op, const std::string& ord) {
  static const std::pair<const char*, MatrixOrd> known[] = {
      {"fro", MatrixOrd::Fro}, {"nuc", MatrixOrd::Nuc},     {"1", MatrixOrd::One},   {"-1", MatrixOrd::MinusOne},
      {"2", MatrixOrd::Two},   {"-2", MatrixOrd::MinusTwo}, {"inf", MatrixOrd::Inf}, {"-inf", MatrixOrd::MinusInf}};
  for (const auto& [name, value] : known) {
    if (ord == name) return value;
  }
  fail(ErrorKind::InvalidArgument,
       "[{}] ord '{}' is not supported: expected 'fro', 'nuc', '1', '-1', '2', '-2', 'inf' or '-inf'", op, ord);
}

// A floating A of rank >= 2 and two distinct dims of it (wrap_dims refuses a repeated one), wrapped, as
// torch.linalg.matrix_norm checks them.
std::vector<std::int64_t> checked_matrix_dims(std::string_view op, const Tensor& a,
                                              const std::vector<std::int64_t>& dim) {
  check_dtype(op, "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch, "[{}] expected 'A' to have at least 2 dims but got shape {}",
                 op, shape_to_string(a.shape()));
  FUNCSPEC_CHECK(dim.size() == 2, ErrorKind::InvalidArgument, "[{}] dim must name 2 dims but names {}", op, dim.size());
  return wrap_dims(dim, a.dim(), op);
}

Tensor unsqueezed_at(Tensor t, std::vector<std::int64_t> dims) {
  std::sort(dims.begin(), dims.end());
  for (std::int64_t d : dims) t = call_one("unsqueeze", {t}, {{"dim", d}});
  return t;
}

// ||A|| over the matrices in dims (wrapped, distinct) of a floating A, as torch.linalg.matrix_norm
// computes it: 'fro' is the 2-norm of the entries; ±1 (±inf) the max (min) of the column (row) sums of
// |A| (vector_norm of order 1 over dims[0] (dims[1]), then amax/amin over the other dim); 'nuc' and ±2
// the sum, max and min of the singular values of the matrices moved to the last two dims.
Tensor matrix_norm_of(const Tensor& a, MatrixOrd ord, const std::vector<std::int64_t>& dims, bool keepdim) {
  switch (ord) {
    case MatrixOrd::Fro:
      return call_one("vector_norm", {a}, {{"ord", Scalar(2.0)}, {"dim", dims}, {"keepdim", keepdim}});
    case MatrixOrd::Nuc:
    case MatrixOrd::Two:
    case MatrixOrd::MinusTwo: {
      const Tensor moved =
          call_one("movedim", {a}, {{"source", dims}, {"destination", std::vector<std::int64_t>{-2, -1}}});
      const Tensor s = call_one("svdvals", {moved});
      const Attrs last{{"dim", std::vector<std::int64_t>{-1}}, {"keepdim", false}};
      const Tensor r = ord == MatrixOrd::Nuc ? call_one("sum", {s}, last)
                                             : call_one(ord == MatrixOrd::Two ? "amax" : "amin", {s}, last);
      return keepdim ? unsqueezed_at(r, dims) : r;
    }
    default: {
      const bool rows = ord == MatrixOrd::Inf || ord == MatrixOrd::MinusInf;
      const bool largest = ord == MatrixOrd::One || ord == MatrixOrd::Inf;
      const std::int64_t summed = rows ? dims[1] : dims[0];
      std::int64_t reduced = rows ? dims[0] : dims[1];
      const Tensor sums = call_one(
          "vector_norm", {a}, {{"ord", Scalar(1.0)}, {"dim", std::vector<std::int64_t>{summed}}, {"keepdim", keepdim}});
      if (!keepdim && summed < reduced) --reduced;
      return call_one(largest ? "amax" : "amin", {sums},
                      {{"dim", std::vector<std::int64_t>{reduced}}, {"keepdim", keepdim}});
    }
  }
}

}  // namespace
}  // namespace svd_ops

void register_linalg_svd_ops(OpRegistry& registry) {
  using namespace svd_ops;
  OpDef& op = registry.add("svd(Tensor A, bool full_matrices=True) -> (Tensor U, Tensor S, Tensor Vh)",
                           OpKind::Primitive, "linalg",
                           "A = U diag(S) Vh with S descending and >= 0 and orthonormal columns in U and rows in Vh "
                           "(k = min(m, n) of each, or all m and n with full_matrices), as torch.linalg.svd");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_svd_input("svd", in[0]);
    const Tensor& a = in[0];
    const std::int64_t m = a.size(-2);
    const std::int64_t n = a.size(-1);
    const std::int64_t k = std::min(m, n);
    const bool full = attrs.get_bool("full_matrices");
    const Shape batch(a.shape().begin(), a.shape().end() - 2);
    auto with = [&](std::initializer_list<std::int64_t> tail) {
      Shape shape = batch;
      shape.insert(shape.end(), tail);
      return shape;
    };
    return {{with({m, full ? m : k}), a.dtype()}, {with({k}), a.dtype()}, {with({full ? n : k, n}), a.dtype()}};
  };
  op.cpu_kernel = svd_kernel<&cpu::svd>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(svd_kernel<&cuda::svd>());
  // svd's S: its derivative is svd's dS = diag(Uᵀ dA V), finite at repeated singular values, and the
  // transpose of the unused dU and dVh is never taken (their cotangents are zero), so the gradient
  // is PyTorch's U diag(gS) Vh there too (SPEC OPS-8.3).
  OpDef& values = registry.add("svdvals(Tensor A) -> Tensor", OpKind::Composite, "linalg",
                               "the singular values of A, descending, as torch.linalg.svdvals");
  values.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
    check_svd_input("svdvals", in[0]);
    return {call("svd", {in[0]}, {{"full_matrices", false}}).at(1)};
  };
  {
    OpDef& norm = registry.add("matrix_norm(Tensor A, str ord='fro', int[] dim=[-2,-1], bool keepdim=False) -> Tensor",
                               OpKind::Composite, "linalg",
                               "the ord norm of the matrices in dims `dim` of A, as torch.linalg.matrix_norm: 'fro', "
                               "'nuc', and the numbers 1, -1, 2, -2, inf, -inf written as strings");
    norm.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const MatrixOrd ord = matrix_ord("matrix_norm", attrs.get_string("ord"));
      const std::vector<std::int64_t> dims = checked_matrix_dims("matrix_norm", in[0], attrs.get_int_list("dim"));
      return {matrix_norm_of(in[0], ord, dims, attrs.get_bool("keepdim"))};
    };
  }
  {
    OpDef& cond =
        registry.add("cond(Tensor A, str? p=None) -> Tensor", OpKind::Composite, "linalg",
                     "the condition number of A in the p norm, as torch.linalg.cond: None, '2' and '-2' from "
                     "the singular values (any m×n), the others matrix_norm(A, p)·matrix_norm(inverse(A), p)");
    cond.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& a = in[0];
      const std::optional<std::string> p = attrs.is_none("p") ? std::nullopt : std::optional(attrs.get_string("p"));
      const MatrixOrd ord = p ? matrix_ord("cond", *p) : MatrixOrd::Two;
      checked_matrix_dims("cond", a, {-2, -1});
      const bool spectral = ord == MatrixOrd::Two || ord == MatrixOrd::MinusTwo;
      if (!spectral) {
        FUNCSPEC_CHECK(a.size(-1) == a.size(-2), ErrorKind::ShapeMismatch,
                       "[cond] the {} norm needs square matrices but 'A' has shape {}", *p, shape_to_string(a.shape()));
      }
      // No condition number of an empty matrix: 0, as PyTorch (after NumPy) returns it.
      if (a.numel() == 0) return {call_one("sum", {a}, {{"dim", std::vector<std::int64_t>{-2, -1}}})};
      if (spectral) {
        const Tensor s = call_one("svdvals", {a});
        const std::int64_t k = s.size(-1);
        const Tensor largest = call_one("select", {s}, {{"dim", std::int64_t{-1}}, {"index", std::int64_t{0}}});
        const Tensor least = call_one("select", {s}, {{"dim", std::int64_t{-1}}, {"index", k - 1}});
        return {ord == MatrixOrd::Two ? call_one("div", {largest, least}) : call_one("div", {least, largest})};
      }
      const std::vector<std::int64_t> dims{a.dim() - 2, a.dim() - 1};
      const Tensor inverse = call_one("inverse", {a});
      return {call_one("mul", {matrix_norm_of(a, ord, dims, false), matrix_norm_of(inverse, ord, dims, false)})};
    };
  }
}

}  // namespace funcspec
