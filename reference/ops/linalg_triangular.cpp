// The triangular and Cholesky ops of the linalg family: solve_triangular (a primitive: it reads one
// triangle of A, and with unitriangular not even its diagonal, which no decomposition into the
// LU-based ops reproduces exactly or cheaply).
#include <fmt/format.h>

#include "reference/backends/cpu/linalg_triangular.h"
#include "reference/backends/cuda/linalg_triangular.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

Shape without_trailing(const Shape& shape, std::size_t trailing) {
  return Shape(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(trailing));
}

// A floating [*, n, n] argument.
void check_square_matrices(std::string_view op, std::string_view arg, const Tensor& a) {
  check_dtype(op, arg, a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to be a matrix or a batch of matrices but got shape {}", op, arg,
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(a.size(-1) == a.size(-2), ErrorKind::ShapeMismatch,
                 "[{}] expected '{}' to be a batch of square matrices but got shape {}", op, arg,
                 shape_to_string(a.shape()));
}

// torch.linalg.solve_triangular's shapes: A is [*a, n, n], B a (batch of) matrices, [*b, n, k]
// (left) or [*b, k, n], never a vector; the batch dims broadcast. Both of one floating dtype.
struct TriangularSolveShapes {
  Shape a_shape;
  Shape b_shape;
};

TriangularSolveShapes triangular_solve_shapes(const Tensor& a, const Tensor& b, bool left) {
  constexpr std::string_view op = "solve_triangular";
  check_square_matrices(op, "A", a);
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

}  // namespace

void register_linalg_triangular_ops(OpRegistry& registry) { register_solve_triangular(registry); }

}  // namespace funcspec
