// Conversions and copies: the ops the op layer itself relies on (to_dtype for promotion, clone and
// copy_ for the in-place machinery).
#include <fmt/format.h>

#include "reference/backends/cpu/copy.h"
#include "reference/backends/cuda/copy.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

std::vector<TensorMeta> same_shape_as_input(const TensorList& in, DType dtype) { return {{in[0].shape(), dtype}}; }

// to_dtype and clone: the input copied into the output (cpu:: or cuda::copy_elements).
template <auto copy>
void copy_kernel(const KernelArgs& a) {
  copy(a.inputs[0], a.outputs[0]);
}

// copy_: src (input 1) written into self (input 0).
template <auto copy>
void copy_into_self_kernel(const KernelArgs& a) {
  copy(a.inputs[1], a.inputs[0]);
}

// True when two elements of `t` share one memory location: a dim of size > 1 with stride 0, or
// strides that make distinct indices collide. Writing into such a tensor has no defined result.
bool has_internal_overlap(const Tensor& t) {
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (|stride|, size) of dims with size > 1
  for (std::size_t d = 0; d < t.shape().size(); ++d) {
    if (t.shape()[d] <= 1) continue;
    if (t.strides()[d] == 0) return true;
    dims.emplace_back(std::abs(t.strides()[d]), t.shape()[d]);
  }
  // Sorted by stride, a layout where each stride exceeds the span of the smaller ones is
  // overlap-free (every view made by the view ops is); anything else is settled by enumeration.
  std::sort(dims.begin(), dims.end());
  std::int64_t span = 0;
  bool nested = true;
  for (const auto& [stride, size] : dims) {
    nested = nested && stride > span;
    span += stride * (size - 1);
  }
  if (nested) return false;
  std::vector<std::int64_t> offsets;
  offsets.reserve(static_cast<std::size_t>(t.numel()));
  for_each_offset<1>(t.shape(), {t.strides()},
                     [&](const std::array<std::int64_t, 1>& at) { offsets.push_back(at[0]); });
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

}  // namespace

void register_conversion_ops(OpRegistry& registry) {
  {
    OpDef& op = registry.add("to_dtype(Tensor self, ScalarType dtype) -> Tensor", OpKind::Primitive, "conversion",
                             "a copy converted to dtype (float to int64 truncates; anything to bool is x != 0)");
    op.infer = [](const TensorList& in, const Attrs& attrs) {
      return same_shape_as_input(in, attrs.get_dtype("dtype"));
    };
    op.cpu_kernel = copy_kernel<&cpu::copy_elements>;
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(copy_kernel<&cuda::copy_elements>);
  }
  {
    OpDef& op = registry.add("clone(Tensor self) -> Tensor", OpKind::Primitive, "conversion",
                             "a contiguous copy that shares nothing with self");
    op.infer = [](const TensorList& in, const Attrs&) { return same_shape_as_input(in, in[0].dtype()); };
    op.cpu_kernel = copy_kernel<&cpu::copy_elements>;
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(copy_kernel<&cuda::copy_elements>);
  }
  {
    OpDef& op = registry.add("contiguous(Tensor(a) self) -> Tensor(a)", OpKind::Composite, "conversion",
                             "self when already contiguous, else a contiguous copy");
    op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
      if (in[0].is_contiguous()) return {in[0]};
      return call("clone", {in[0]});
    };
  }
  {
    OpDef& op = registry.add("copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)", OpKind::InPlace, "conversion",
                             "writes src, broadcast to self's shape and converted to self's dtype, into self");
    // The op layer: broadcast src to self, and take a private copy of src when it shares memory
    // with self, so the kernel never reads what it has already overwritten.
    op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
      const Tensor& self = in[0];
      Tensor src = in[1];
      const Shape target = broadcast_shapes(std::vector<Shape>{self.shape(), src.shape()}, "copy_");
      FUNCSPEC_CHECK(target == self.shape(), ErrorKind::InplaceBroadcast,
                     "[copy_] cannot write a source of shape {} into a tensor of shape {}",
                     shape_to_string(src.shape()), shape_to_string(self.shape()));
      if (src.shares_storage_with(self)) src = call_one("clone", {src});
      return {self, expand_to(src, self.shape())};
    };
    op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
      FUNCSPEC_CHECK(!has_internal_overlap(in[0]), ErrorKind::InternalOverlap,
                     "[copy_] the target of shape {} and strides {} has elements sharing one memory location",
                     shape_to_string(in[0].shape()), shape_to_string(in[0].strides()));
      return {};
    };
    op.cpu_kernel = copy_into_self_kernel<&cpu::copy_elements>;
    op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(copy_into_self_kernel<&cuda::copy_elements>);
  }
  {
    OpDef& op = registry.add("detach(Tensor(a) self) -> Tensor(a)", OpKind::View, "conversion",
                             "an alias of self that transforms treat as a constant (stop_gradient)");
    op.view = [](const Tensor& self, const Attrs&) {
      return std::vector<ViewGeometry>{{self.shape(), self.strides(), self.storage_offset()}};
    };
  }
}

}  // namespace funcspec
