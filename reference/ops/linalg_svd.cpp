// The singular value ops: svd, a primitive (the one-sided Jacobi algorithm, NOTE: [one-sided Jacobi
// singular value decomposition]: no decomposition into other ops exists).
#include <fmt/format.h>

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
}

}  // namespace funcspec
