// Ops whose result depends on tensor values rather than only on shapes: scalar extraction (item,
// is_nonzero) and dynamic output shapes (nonzero, masked_select). The dispatcher refuses them on
// meta (data_dependent_on_meta); their kernels allocate their own outputs.
#include "reference/backends/cpu/dynamic.h"
#include "reference/backends/cuda/dynamic.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

void check_single_element(std::string_view op, const Tensor& self) {
  FUNCSPEC_CHECK(self.numel() == 1, ErrorKind::ScalarConversion,
                 "[{}] a tensor with {} elements (shape {}) cannot be converted to a single value", op, self.numel(),
                 shape_to_string(self.shape()));
}

// The kernels of each op, for the cpu and the cuda backend alike: `fn` is the backend's function
// (cpu::single_element or cuda::single_element, ...), which share one signature.
template <auto fn>
KernelFn item_kernel() {
  return [](const KernelArgs& a) { a.outputs[0] = Tensor::wrapped_scalar(fn(a.inputs[0])); };
}

template <auto fn>
KernelFn is_nonzero_kernel() {
  return
      [](const KernelArgs& a) { a.outputs[0] = Tensor::wrapped_scalar(Scalar(fn(a.inputs[0]).template to<bool>())); };
}

template <auto fn>
KernelFn nonzero_kernel() {
  return [](const KernelArgs& a) { a.outputs[0] = fn(a.inputs[0]); };
}

template <auto fn>
KernelFn masked_select_kernel() {
  return [](const KernelArgs& a) { a.outputs[0] = fn(a.inputs[0], a.inputs[1]); };
}

}  // namespace

void register_dynamic_ops(OpRegistry& registry) {
  {
    OpDef& op = registry.add("item(Tensor self) -> Scalar", OpKind::ScalarExtraction, "dynamic",
                             "the value of a one-element tensor, as a wrapped number (floating values as double)");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_single_element("item", in[0]);
      return {};
    };
    op.cpu_kernel = item_kernel<&cpu::single_element>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(item_kernel<&cuda::single_element>());
  }
  {
    OpDef& op = registry.add("is_nonzero(Tensor self) -> bool", OpKind::ScalarExtraction, "dynamic",
                             "whether the single element of self is non-zero (NaN counts as non-zero)");
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_single_element("is_nonzero", in[0]);
      return {};
    };
    op.cpu_kernel = is_nonzero_kernel<&cpu::single_element>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(is_nonzero_kernel<&cuda::single_element>());
  }
  {
    OpDef& op = registry.add("nonzero(Tensor self) -> Tensor", OpKind::DynamicShape, "dynamic",
                             "int64 [n, rank]: the indices of the non-zero elements in row-major order");
    op.cpu_kernel = nonzero_kernel<&cpu::nonzero_indices>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(nonzero_kernel<&cuda::nonzero_indices>());
  }
  {
    OpDef& op = registry.add("masked_select(Tensor self, Tensor mask) -> Tensor", OpKind::DynamicShape, "dynamic",
                             "1-D: self's elements where the bool mask is true (both broadcast), in row-major order");
    op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
      const Shape shape = broadcast_shapes(std::vector<Shape>{in[0].shape(), in[1].shape()}, "masked_select");
      return {expand_to(in[0], shape), expand_to(in[1], shape)};
    };
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      check_dtype("masked_select", "mask", in[1].dtype(), DTypeSet::BoolOnly);
      return {};
    };
    op.cpu_kernel = masked_select_kernel<&cpu::select_masked>();
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(masked_select_kernel<&cuda::select_masked>());
  }
}

}  // namespace funcspec
