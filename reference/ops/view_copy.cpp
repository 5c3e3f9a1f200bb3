// NOTE: [view copies]
// functionalize(f, remove='mutations_and_views') (docs/functionalize.md) runs f without any op that
// aliases: each view becomes its copying twin, and a write through a view becomes a scatter of the
// written values into a copy of the view's base. The twins are PyTorch's:
//   - `<view>_copy` for each view primitive (expand, view, permute, squeeze, unsqueeze, select,
//     slice, diagonal, detach): the elements the view would show, in a fresh contiguous tensor. The
//     schema is the view's without the alias annotations, and the view's own geometry function
//     checks the arguments, so a `_copy` raises exactly what its view raises. The one exception is
//     view_copy, which, as in PyTorch, also accepts an input whose strides cannot express the new
//     shape (it is reshape followed by a copy: the elements keep their row-major order).
//   - `select_scatter`, `slice_scatter`, `diagonal_scatter`: a copy of self with the region the
//     view names replaced by src (same shape as the region, same dtype as self).
// They are primitives so that a program using them never executes a view, and their transform
// rules live in reference/rules/view_copy.cpp.
#include <fmt/format.h>

#include "reference/backends/cpu/copy.h"
#include "reference/backends/cuda/copy.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

// The single geometry a view primitive gives `input` (its own argument checks included).
ViewGeometry view_geometry(const ViewFn& view, const Tensor& input, const Attrs& attrs) {
  std::vector<ViewGeometry> geometries = view(input, attrs);
  FUNCSPEC_INTERNAL_ASSERT(geometries.size() == 1, "a view primitive with several results has no _copy twin");
  return std::move(geometries.front());
}

// `schema` of a view with its alias annotations dropped and renamed `name`.
OpSchema copying_schema(const OpSchema& view, std::string name) {
  OpSchema schema = view;
  schema.name = std::move(name);
  for (ArgSpec& arg : schema.args) arg.alias.clear();
  for (ReturnSpec& r : schema.returns) r.alias.clear();
  return schema;
}

// The kernels below take the copy of one backend (cpu:: or cuda::copy_elements): the geometry work
// is the same for both.

// `<view>_copy`: the elements the view shows, copied into the output.
template <auto copy>
KernelFn view_twin_kernel(ViewFn fn) {
  return [fn = std::move(fn)](const KernelArgs& a) {
    const ViewGeometry g = view_geometry(fn, a.inputs[0], a.attrs);
    copy(Tensor::view_of(a.inputs[0], g.shape, g.strides, g.offset), a.outputs[0]);
  };
}

// view_copy: the output is contiguous, so seen with self's shape it takes self's elements in
// row-major order.
template <auto copy>
void view_copy_kernel(const KernelArgs& a) {
  const Tensor& self = a.inputs[0];
  copy(self, Tensor::view_of(a.outputs[0], self.shape(), contiguous_strides(self.shape()), 0));
}

// `<view>_scatter`: self copied into the output, then src into the region of the output.
template <auto copy>
KernelFn scatter_kernel(ViewFn fn) {
  return [fn = std::move(fn)](const KernelArgs& a) {
    const Tensor& out = a.outputs[0];
    copy(a.inputs[0], out);
    // The region's geometry over the (contiguous) output, not over self.
    const ViewGeometry region = view_geometry(fn, out, a.attrs);
    copy(a.inputs[1], Tensor::view_of(out, region.shape, region.strides, region.offset));
  };
}

void register_view_twin(OpRegistry& registry, const std::string& view_name) {
  const OpDef& view = registry.get(view_name);
  FUNCSPEC_INTERNAL_ASSERT(view.kind == OpKind::View, fmt::format("{} is not a view", view_name));
  OpDef& op =
      registry.add(copying_schema(view.schema, view_name + "_copy"), OpKind::Primitive, "view_copy",
                   fmt::format("the elements {}(self, ...) shows, copied into a fresh contiguous tensor", view_name));
  op.infer = [fn = view.view](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    return {{view_geometry(fn, in[0], attrs).shape, in[0].dtype()}};
  };
  op.cpu_kernel = view_twin_kernel<&cpu::copy_elements>(view.view);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(view_twin_kernel<&cuda::copy_elements>(view.view));
}

// view_copy is reshape-then-copy: the new shape needs only the element count, never the strides.
void register_view_copy(OpRegistry& registry) {
  const OpDef& view = registry.get("view");
  OpDef& op = registry.add(copying_schema(view.schema, "view_copy"), OpKind::Primitive, "view_copy",
                           "self's elements in row-major order in a fresh contiguous tensor of shape size (one -1 "
                           "inferred), whatever self's strides");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    return {{infer_size(attrs.get_int_list("size"), in[0].numel(), "view_copy"), in[0].dtype()}};
  };
  op.cpu_kernel = view_copy_kernel<&cpu::copy_elements>;
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(view_copy_kernel<&cuda::copy_elements>);
}

// `<view>_scatter(self, src, <view's attributes>)`: a copy of self with the region `view` names
// replaced by src.
void register_scatter(OpRegistry& registry, const std::string& view_name) {
  const OpDef& view = registry.get(view_name);
  OpSchema schema = copying_schema(view.schema, view_name + "_scatter");
  ArgSpec src_arg;
  src_arg.name = "src";
  schema.args.insert(schema.args.begin() + 1, src_arg);
  const std::string name = schema.name;
  OpDef& op = registry.add(std::move(schema), OpKind::Primitive, "view_copy",
                           fmt::format("a copy of self whose region {}(self, ...) is replaced by src (of that "
                                       "region's shape and self's dtype)",
                                       view_name));
  op.infer = [fn = view.view, name](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const Tensor& self = in[0];
    const Tensor& src = in[1];
    const ViewGeometry region = view_geometry(fn, self, attrs);
    FUNCSPEC_CHECK(src.shape() == region.shape, ErrorKind::ShapeMismatch,
                   "[{}] src has shape {} but the region of self (shape {}) it replaces has shape {}", name,
                   shape_to_string(src.shape()), shape_to_string(self.shape()), shape_to_string(region.shape));
    FUNCSPEC_CHECK(src.dtype() == self.dtype(), ErrorKind::DtypeNotSupported,
                   "[{}] 'src' has dtype {} but self has dtype {}; they must be equal", name, dtype_name(src.dtype()),
                   dtype_name(self.dtype()));
    return {{self.shape(), self.dtype()}};
  };
  op.cpu_kernel = scatter_kernel<&cpu::copy_elements>(view.view);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(scatter_kernel<&cuda::copy_elements>(view.view));
}

}  // namespace

void register_view_copy_ops(OpRegistry& registry) {
  for (const char* view : {"expand", "permute", "squeeze", "unsqueeze", "select", "slice", "diagonal", "detach"})
    register_view_twin(registry, view);
  register_view_copy(registry);
  for (const char* view : {"select", "slice", "diagonal"}) register_scatter(registry, view);
}

}  // namespace funcspec
