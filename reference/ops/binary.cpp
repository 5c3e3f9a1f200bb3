// Binary elementwise ops with broadcasting and type promotion.
#include "reference/backends/cpu/elementwise.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {

void register_binary_ops(OpRegistry& registry) {
  OpDef& op = registry.add("add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", OpKind::Primitive, "binary",
                           "self + alpha * other");
  op.canonicalize = [](const TensorList& in, const Attrs&) {
    return cast_and_broadcast(in, result_type(in), "add");
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    FUNCSPEC_CHECK(in[0].dtype() != DType::Bool || attrs.get_scalar("alpha").is_bool() ||
                       attrs.get_scalar("alpha") == Scalar(std::int64_t{1}),
                   ErrorKind::DtypeNotSupported, "[add] alpha must be a bool for bool inputs");
    return {{in[0].shape(), in[0].dtype()}};
  };
  op.cpu_kernel = [](const KernelArgs& a) {
    visit_dtype(a.outputs[0].dtype(), [&]<typename T>() {
      const T alpha = a.attrs.get_scalar("alpha").to<T>();
      cpu::map2<T, T>(a.inputs[0], a.inputs[1], a.outputs[0], [&](const T& x, const T& y) -> T {
        if constexpr (std::is_same_v<T, bool>) return x || (alpha && y);
        else return x + alpha * y;
      });
    });
  };
  op.derive_inplace = true;
  op.derive_out = true;
}

}  // namespace funcspec
