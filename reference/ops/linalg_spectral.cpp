// The spectral linalg ops: eigh, a primitive (the cyclic Jacobi algorithm, NOTE: [cyclic Jacobi
// eigenvalue algorithm]: no decomposition into other ops exists), and eigvalsh, its eigenvalues.
#include <fmt/format.h>

#include "reference/backends/cpu/linalg_spectral.h"
#include "reference/backends/cuda/linalg_spectral.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
// File-local helpers in a namespace of their own: the unity build compiles this file with linalg.cpp.
namespace spectral_ops {
namespace {

// A floating [*, n, n] input and a UPLO of 'L' or 'U', as torch.linalg.eigh checks them.
void check_eigh_arguments(std::string_view op, const Tensor& a, const Attrs& attrs) {
  check_dtype(op, "A", a.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(a.dim() >= 2, ErrorKind::ShapeMismatch,
                 "[{}] expected 'A' to be a matrix or a batch of matrices but got shape {}", op,
                 shape_to_string(a.shape()));
  FUNCSPEC_CHECK(a.size(-1) == a.size(-2), ErrorKind::ShapeMismatch,
                 "[{}] expected 'A' to be a batch of square matrices but got shape {}", op, shape_to_string(a.shape()));
  const std::string uplo = attrs.get_string("UPLO");
  FUNCSPEC_CHECK(uplo == "L" || uplo == "U", ErrorKind::InvalidArgument,
                 "[{}] expected UPLO to be 'L' or 'U' but got '{}'", op, uplo);
}

template <auto kernel>
KernelFn eigh_kernel() {
  return
      [](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], a.outputs[1], a.attrs.get_string("UPLO") == "L"); };
}

}  // namespace
}  // namespace spectral_ops

void register_linalg_spectral_ops(OpRegistry& registry) {
  using namespace spectral_ops;
  {
    OpDef& op = registry.add("eigh(Tensor A, str UPLO='L') -> (Tensor eigenvalues, Tensor eigenvectors)",
                             OpKind::Primitive, "linalg",
                             "eigenvalues (ascending) and orthonormal eigenvectors (columns) of the symmetric matrix "
                             "rebuilt from A's UPLO triangle, as torch.linalg.eigh");
    op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
      check_eigh_arguments("eigh", in[0], attrs);
      const Shape values(in[0].shape().begin(), in[0].shape().end() - 1);
      return {{values, in[0].dtype()}, {in[0].shape(), in[0].dtype()}};
    };
    op.cpu_kernel = eigh_kernel<&cpu::eigh>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(eigh_kernel<&cuda::eigh>());
  }
  {
    OpDef& op = registry.add("eigvalsh(Tensor A, str UPLO='L') -> Tensor", OpKind::Composite, "linalg",
                             "the eigenvalues of eigh(A, UPLO), ascending, as torch.linalg.eigvalsh");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      check_eigh_arguments("eigvalsh", in[0], attrs);
      return {call("eigh", {in[0]}, attrs).at(0)};
    };
  }
}

}  // namespace funcspec
