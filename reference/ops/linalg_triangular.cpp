// The triangular and Cholesky ops of the linalg family: solve_triangular (a primitive: it reads one
// triangle of A, and with unitriangular not even its diagonal, which no decomposition into the
// LU-based ops reproduces exactly or cheaply), cholesky / cholesky_ex (primitives: a
// factorization no existing op computes), and cholesky_solve / cholesky_inverse (composites: two
// triangular solves, or one and a product, compute them exactly).
#include <fmt/format.h>

#include "reference/backends/cpu/linalg_triangular.h"
#include "reference/backends/cuda/linalg_triangular.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/linalg_checks.h"
#include "reference/ops/linalg_identity.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Shape without_trailing(const Shape& shape, std::size_t trailing) {
  return Shape(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(trailing));
}

// torch.linalg.solve_triangular's shapes: A is [*a, n, n], B a (batch of) matrices, [*b, n, k]
// (left) or [*b, k, n], never a vector; the batch dims broadcast. Both of one floating dtype.
struct TriangularSolveShapes {
  Shape a_shape;
  Shape b_shape;
};

TriangularSolveShapes triangular_solve_shapes(const Tensor& a, const Tensor& b, bool left) {
  constexpr std::string_view op = "solve_triangular";
  check_square_floating(op, "A", a);
  check_dtype(op, "B", b.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dtype() == b.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] expected A and B to have the same dtype but got {} and {}", op, dtype_name(a.dtype()),
                 dtype_name(b.dtype()));
  FUNCSPEC_CHECK(b.dim() >= 2, ErrorKind::ShapeMismatch, "[{}] B must have at least 2 dims but has shape {}", op,
                 shape_to_string(b.shape()));
  const std::int64_t n = a.size(-1);
  FUNCSPEC_CHECK(b.size(left ? -2 : -1) == n, ErrorKind::ShapeMismatch,
                 "[{}] A of shape {} and B of shape {} are incompatible: B's {} dim must have size {}", op,
                 shape_to_string(a.shape()), shape_to_string(b.shape()), left ? "second-to-last" : "last", n);
  const Shape batch =
      broadcast_shapes(std::vector<Shape>{without_trailing(a.shape(), 2), without_trailing(b.shape(), 2)}, op);
  TriangularSolveShapes s{batch, batch};
  s.a_shape.insert(s.a_shape.end(), {n, n});
  s.b_shape.insert(s.b_shape.end(), {b.size(-2), b.size(-1)});
  return s;
}

template <auto kernel>
KernelFn solve_triangular_kernel() {
  return [](const KernelArgs& a) {
    kernel(a.inputs[0], a.inputs[1], a.outputs[0], a.attrs.get_bool("upper"), a.attrs.get_bool("left"),
           a.attrs.get_bool("unitriangular"));
  };
}

void register_solve_triangular(OpRegistry& registry) {
  OpDef& op = registry.add(
      "solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor",
      OpKind::Primitive, "linalg",
      "X with tri(A) X = B (left) or X tri(A) = B, tri(A) A's upper or lower triangle (unit diagonal if "
      "unitriangular), as torch.linalg.solve_triangular");
  op.canonicalize = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const TriangularSolveShapes s = triangular_solve_shapes(in[0], in[1], attrs.get_bool("left"));
    return {expand_to(in[0], s.a_shape), expand_to(in[1], s.b_shape)};
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const TriangularSolveShapes s = triangular_solve_shapes(in[0], in[1], attrs.get_bool("left"));
    return {{s.b_shape, in[1].dtype()}};
  };
  op.cpu_kernel = solve_triangular_kernel<&cpu::solve_triangular>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(solve_triangular_kernel<&cuda::solve_triangular>());
}

// Raises not_positive_definite for the first batch element (row-major) whose factorization failed.
void check_positive_definite(const Tensor& info, const Tensor& a, std::string_view op) {
  const std::vector<std::int64_t> orders = info.to_vector<std::int64_t>();
  for (std::size_t element = 0; element < orders.size(); ++element) {
    if (orders[element] == 0) continue;
    const std::string matrix = a.dim() == 2
                                   ? std::string("the input")
                                   : fmt::format("the matrix at batch element {} (row-major over batch shape {})",
                                                 element, shape_to_string(without_trailing(a.shape(), 2)));
    fail(ErrorKind::NotPositiveDefinite,
         "[{}] the factorization could not be completed because {} is not positive-definite (the leading minor of "
         "order {} is not positive-definite)",
         op, matrix, orders[element]);
  }
}

// cholesky has no info output: the kernel's goes to a scratch tensor and any failure raises;
// cholesky_ex returns it and raises only with check_errors.
template <auto kernel>
KernelFn cholesky_kernel(bool with_info) {
  return [with_info](const KernelArgs& k) {
    const Tensor& a = k.inputs[0];
    const Tensor info =
        with_info ? k.outputs[1] : Tensor::empty(without_trailing(a.shape(), 2), DType::Int64, a.device());
    kernel(a, k.outputs[0], info, k.attrs.get_bool("upper"));
    if (!with_info || k.attrs.get_bool("check_errors")) {
      check_positive_definite(info, a, with_info ? "cholesky_ex" : "cholesky");
    }
  };
}

void register_cholesky(OpRegistry& registry) {
  {
    OpDef& op =
        registry.add("cholesky(Tensor A, *, bool upper=False) -> Tensor", OpKind::Primitive, "linalg",
                     "L with L Lᵀ = A from A's lower triangle (upper: U with Uᵀ U = A from its upper triangle), as "
                     "torch.linalg.cholesky; not positive-definite: not_positive_definite");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("cholesky", "A", in[0]);
      return {{in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = cholesky_kernel<&cpu::cholesky>(false);
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(cholesky_kernel<&cuda::cholesky>(false));
  }
  {
    OpDef& op = registry.add(
        "cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)",
        OpKind::Primitive, "linalg",
        "cholesky's factor and info, the order of the first leading minor that is not positive-definite (0: "
        "none), as torch.linalg.cholesky_ex; check_errors raises as cholesky does");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_square_floating("cholesky_ex", "A", in[0]);
      return {{in[0].shape(), in[0].dtype()}, {without_trailing(in[0].shape(), 2), DType::Int64}};
    };
    op.cpu_kernel = cholesky_kernel<&cpu::cholesky>(true);
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(cholesky_kernel<&cuda::cholesky>(true));
  }
}

Tensor matrix_transposed(const Tensor& t) {
  return call_one("transpose", {t}, {{"dim0", std::int64_t{-2}}, {"dim1", std::int64_t{-1}}});
}

Tensor triangular_solve(const Tensor& a, const Tensor& b, bool upper) {
  return call_one("solve_triangular", {a, b}, {{"upper", upper}});
}

void register_cholesky_composites(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", OpKind::Composite, "linalg",
        "X with A X = self for A = L Lᵀ (upper: Uᵀ U), input2 = the factor (its triangle read), as "
        "torch.cholesky_solve");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor &b = in[0], &factor = in[1];
      check_square_floating("cholesky_solve", "input2", factor);
      check_dtype("cholesky_solve", "self", b.dtype(), DTypeSet::Floating);
      FUNCSPEC_CHECK(b.dtype() == factor.dtype(), ErrorKind::DtypeNotSupported,
                     "[cholesky_solve] expected self and input2 to have the same dtype but got {} and {}",
                     dtype_name(b.dtype()), dtype_name(factor.dtype()));
      FUNCSPEC_CHECK(b.dim() >= 2, ErrorKind::ShapeMismatch,
                     "[cholesky_solve] self must have at least 2 dims but has shape {}", shape_to_string(b.shape()));
      // solve_triangular checks the sizes and broadcasts the batch dims. L·Lᵀ·X = B: L·Y = B, Lᵀ·X = Y;
      // Uᵀ·U·X = B: Uᵀ·Y = B, U·X = Y. Each solve reads only the factor's triangle.
      if (attrs.get_bool("upper")) {
        return {triangular_solve(factor, triangular_solve(matrix_transposed(factor), b, false), true)};
      }
      return {triangular_solve(matrix_transposed(factor), triangular_solve(factor, b, false), true)};
    };
  }
  {
    OpDef& op = registry.add("cholesky_inverse(Tensor self, bool upper=False) -> Tensor", OpKind::Composite, "linalg",
                             "(L Lᵀ)⁻¹ from the factor L = self (upper: (Uᵀ U)⁻¹), its triangle read, as "
                             "torch.cholesky_inverse");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& factor = in[0];
      check_square_floating("cholesky_inverse", "self", factor);
      // (L·Lᵀ)⁻¹ = L⁻ᵀ·L⁻¹ = Mᵀ·M with M = L⁻¹; (Uᵀ·U)⁻¹ = U⁻¹·U⁻ᵀ = M·Mᵀ with M = U⁻¹. The product
      // pairs the same factors at (i, j) and (j, i), so the result is exactly symmetric.
      const bool upper = attrs.get_bool("upper");
      const Tensor m = triangular_solve(
          factor, identity_matrix(factor.size(-1), factor.size(-1), factor.dtype(), factor.device()), upper);
      return {
          call_one("einsum", {m, m}, {{"equation", std::string(upper ? "...ik,...jk->...ij" : "...ki,...kj->...ij")}})};
    };
  }
}

}  // namespace

void register_linalg_triangular_ops(OpRegistry& registry) {
  register_solve_triangular(registry);
  register_cholesky(registry);
  register_cholesky_composites(registry);
}

}  // namespace funcspec
