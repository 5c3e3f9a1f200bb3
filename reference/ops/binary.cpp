// Binary elementwise ops with broadcasting and type promotion (NOTE: [type promotion]). Each is a
// primitive whose canonicalize promotes and broadcasts through op calls, so that its kernel sees
// operands of one shape and one dtype (where's bool condition excepted).
#include <fmt/format.h>

#include <optional>

#include "reference/backends/common/binary_fn.h"
#include "reference/backends/cpu/binary.h"
#include "reference/backends/cuda/binary.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

std::vector<TensorMeta> same_as_first(const TensorList& in) { return {{in[0].shape(), in[0].dtype()}}; }

// The kernels of one backend (cpu:: or cuda::binary_kernel and friends), their attributes read alike
// for both.

// add and sub: fn(self, other) with alpha.
template <auto kernel>
KernelFn alpha_kernel(const char* name, common::BinaryFn fn) {
  return [name, fn](const KernelArgs& a) {
    kernel(name, fn, a.inputs[0], a.inputs[1], a.outputs[0], a.attrs.get_scalar("alpha"));
  };
}

template <auto kernel>
KernelFn div_kernel() {
  return [](const KernelArgs& a) {
    const std::optional<std::string> mode = a.attrs.get_optional_string("rounding_mode");
    const common::BinaryFn fn = !mode              ? common::BinaryFn::Div
                                : *mode == "trunc" ? common::BinaryFn::DivTrunc
                                                   : common::BinaryFn::DivFloor;
    kernel("div", fn, a.inputs[0], a.inputs[1], a.outputs[0], Scalar(std::int64_t{1}));
  };
}

template <auto kernel>
KernelFn plain_binary_kernel(std::string name, common::BinaryFn fn) {
  return [name = std::move(name), fn](const KernelArgs& a) {
    kernel(name, fn, a.inputs[0], a.inputs[1], a.outputs[0], Scalar(std::int64_t{1}));
  };
}

template <auto kernel>
KernelFn compare_kernel_fn(common::CompareFn fn) {
  return [fn](const KernelArgs& a) { kernel(fn, a.inputs[0], a.inputs[1], a.outputs[0]); };
}

// where and clamp: three inputs, one output.
template <auto kernel>
KernelFn ternary_kernel() {
  return [](const KernelArgs& a) { kernel(a.inputs[0], a.inputs[1], a.inputs[2], a.outputs[0]); };
}

void derive_variants(OpDef& op) {
  op.derive_inplace = true;
  op.derive_out = true;
}

// alpha must not need a higher category than the result: a float alpha for integer results, or
// a bool alpha for non-bool results. Bool results take a bool alpha or 1 (PyTorch also takes
// other integers there, whose meaning for bool is unclear).
void check_alpha(std::string_view op, DType result, const Scalar& alpha) {
  FUNCSPEC_CHECK(!alpha.is_bool() || result == DType::Bool, ErrorKind::InvalidArgument,
                 "[{}] alpha {} is a bool but the result is {}", op, alpha.to_string(), dtype_name(result));
  FUNCSPEC_CHECK(!alpha.is_floating() || is_floating(result), ErrorKind::InvalidArgument,
                 "[{}] alpha {} is a float but the result is {}", op, alpha.to_string(), dtype_name(result));
  FUNCSPEC_CHECK(result != DType::Bool || alpha.is_bool() || alpha == Scalar(std::int64_t{1}),
                 ErrorKind::InvalidArgument, "[{}] alpha {} is not a bool but the result is bool", op,
                 alpha.to_string());
}

void register_add(OpRegistry& registry) {
  OpDef& op = registry.add("add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", OpKind::Primitive, "binary",
                           "self + alpha * other (one rounding for floating dtypes)");
  op.canonicalize = [](const TensorList& in, const Attrs&) { return cast_and_broadcast(in, result_type(in), "add"); };
  op.infer = [](const TensorList& in, const Attrs& attrs) {
    check_alpha("add", in[0].dtype(), attrs.get_scalar("alpha"));
    return same_as_first(in);
  };
  op.cpu_kernel = alpha_kernel<&cpu::binary_kernel>("add", common::BinaryFn::Add);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(alpha_kernel<&cuda::binary_kernel>("add", common::BinaryFn::Add));
  derive_variants(op);
}

void register_sub(OpRegistry& registry) {
  OpDef& op = registry.add("sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", OpKind::Primitive, "binary",
                           "self - alpha * other (one rounding for floating dtypes)");
  // PyTorch rejects bool operands of any kind; the check needs the dtypes before promotion.
  op.canonicalize = [](const TensorList& in, const Attrs&) {
    for (const Tensor& t : in) {
      FUNCSPEC_CHECK(t.dtype() != DType::Bool, ErrorKind::DtypeNotSupported,
                     "[sub] subtraction with a bool operand is not supported (use logical_not or logical_xor)");
    }
    return cast_and_broadcast(in, result_type(in), "sub");
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) {
    check_alpha("sub", in[0].dtype(), attrs.get_scalar("alpha"));
    return same_as_first(in);
  };
  op.cpu_kernel = alpha_kernel<&cpu::binary_kernel>("sub", common::BinaryFn::Sub);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(alpha_kernel<&cuda::binary_kernel>("sub", common::BinaryFn::Sub));
  derive_variants(op);
}

void register_div(OpRegistry& registry) {
  OpDef& op =
      registry.add("div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", OpKind::Primitive, "binary",
                   "self / other: true division (integers give float32), or rounded by 'trunc' or 'floor'");
  op.canonicalize = [](const TensorList& in, const Attrs& attrs) {
    const DType promoted = result_type(in);
    return cast_and_broadcast(in, attrs.is_none("rounding_mode") ? to_floating(promoted) : promoted, "div");
  };
  op.infer = [](const TensorList& in, const Attrs& attrs) {
    if (const std::optional<std::string> mode = attrs.get_optional_string("rounding_mode")) {
      FUNCSPEC_CHECK(*mode == "trunc" || *mode == "floor", ErrorKind::InvalidArgument,
                     "[div] rounding_mode must be None, 'trunc' or 'floor' but got '{}'", *mode);
      check_dtype("div", "self", in[0].dtype(), DTypeSet::NoBool);
    }
    return same_as_first(in);
  };
  op.cpu_kernel = div_kernel<&cpu::binary_kernel>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(div_kernel<&cuda::binary_kernel>());
  derive_variants(op);
}

// An op computed by one BinaryFn in the promoted dtype (made floating when `int_to_float`), with
// bool results allowed or not.
void register_promoting(OpRegistry& registry, const char* schema, common::BinaryFn fn, bool int_to_float,
                        bool allow_bool, const char* summary) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "binary", summary);
  op.canonicalize = [int_to_float, name = op.name()](const TensorList& in, const Attrs&) {
    const DType promoted = result_type(in);
    return cast_and_broadcast(in, int_to_float ? to_floating(promoted) : promoted, name);
  };
  op.infer = [allow_bool, name = op.name()](const TensorList& in, const Attrs&) {
    if (!allow_bool) check_dtype(name, "self", in[0].dtype(), DTypeSet::NoBool);
    return same_as_first(in);
  };
  op.cpu_kernel = plain_binary_kernel<&cpu::binary_kernel>(op.name(), fn);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(plain_binary_kernel<&cuda::binary_kernel>(op.name(), fn));
  derive_variants(op);
}

// An op of the special-function family (docs/ops/special.md) computed by one BinaryFn in the
// promoted dtype made floating: integer and bool operands compute in float32, as PyTorch's
// "int to float" binary ops; with `floating_only`, a promoted integer or bool dtype is rejected
// instead (hypot has no integer kernel in PyTorch).
void register_special_binary(OpRegistry& registry, const char* schema, common::BinaryFn fn, bool floating_only,
                             bool inplace, const char* summary) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "binary", summary);
  op.canonicalize = [floating_only, name = op.name()](const TensorList& in, const Attrs&) {
    const DType promoted = result_type(in);
    return cast_and_broadcast(in, floating_only ? promoted : to_floating(promoted), name);
  };
  op.infer = [floating_only, name = op.name()](const TensorList& in, const Attrs&) {
    if (floating_only) check_dtype(name, "self", in[0].dtype(), DTypeSet::Floating);
    return same_as_first(in);
  };
  op.cpu_kernel = plain_binary_kernel<&cpu::binary_kernel>(op.name(), fn);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(plain_binary_kernel<&cuda::binary_kernel>(op.name(), fn));
  op.derive_inplace = inplace;  // PyTorch's special_* ops have only the out= variant
  op.derive_out = true;
}

// A bool-valued op. Comparisons compute in the promoted dtype; logical ops look only at whether
// each operand is nonzero, so they convert each to bool (promotion could turn a tiny float64
// into a float32 zero).
void register_bool_valued(OpRegistry& registry, const char* schema, common::CompareFn fn, const char* summary) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "binary", summary);
  const bool logical = fn == common::CompareFn::LogicalAnd || fn == common::CompareFn::LogicalOr;
  op.canonicalize = [logical, name = op.name()](const TensorList& in, const Attrs&) {
    return cast_and_broadcast(in, logical ? DType::Bool : result_type(in), name);
  };
  op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
    return {{in[0].shape(), DType::Bool}};
  };
  op.cpu_kernel = compare_kernel_fn<&cpu::compare_kernel>(fn);
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(compare_kernel_fn<&cuda::compare_kernel>(fn));
  derive_variants(op);
}

void register_where(OpRegistry& registry) {
  OpDef& op =
      registry.add("where(Tensor condition, Tensor self, Tensor other) -> Tensor", OpKind::Primitive, "binary",
                   "self where condition (bool) holds, else other; self and other promote, all three broadcast");
  // The condition is not a value: it takes no part in promotion and keeps its dtype (infer requires bool).
  op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
    const DType dtype = result_type(TensorList{in[1], in[2]});
    const Shape shape = broadcast_shapes(std::vector<Shape>{in[0].shape(), in[1].shape(), in[2].shape()}, "where");
    return {expand_to(in[0], shape), expand_to(cast_to(in[1], dtype), shape), expand_to(cast_to(in[2], dtype), shape)};
  };
  op.infer = [](const TensorList& in, const Attrs&) -> std::vector<TensorMeta> {
    check_dtype("where", "condition", in[0].dtype(), DTypeSet::BoolOnly);
    return {{in[1].shape(), in[1].dtype()}};
  };
  op.cpu_kernel = ternary_kernel<&cpu::where_kernel>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(ternary_kernel<&cuda::where_kernel>());
  op.derive_out = true;
}

void register_clamp(OpRegistry& registry) {
  OpDef& op =
      registry.add("clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", OpKind::Primitive, "binary",
                   "min(max(self, min), max) with absent bounds ignored; NaN in any operand gives NaN");
  op.canonicalize = [](const TensorList& in, const Attrs&) -> TensorList {
    FUNCSPEC_CHECK(in[1].defined() || in[2].defined(), ErrorKind::InvalidArgument,
                   "[clamp] at least one of min and max must be given");
    return cast_and_broadcast(in, result_type(in), "clamp");
  };
  op.infer = [](const TensorList& in, const Attrs&) {
    check_dtype("clamp", "self", in[0].dtype(), DTypeSet::NoBool);
    return same_as_first(in);
  };
  op.cpu_kernel = ternary_kernel<&cpu::clamp_kernel>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(ternary_kernel<&cuda::clamp_kernel>());
  derive_variants(op);
}

}  // namespace

void register_binary_ops(OpRegistry& registry) {
  using common::BinaryFn;
  using common::CompareFn;
  register_add(registry);
  register_sub(registry);
  register_div(registry);
  register_promoting(registry, "mul(Tensor self, Tensor other) -> Tensor", BinaryFn::Mul, false, true,
                     "self * other (logical and for bool)");
  register_promoting(registry, "pow(Tensor self, Tensor exponent) -> Tensor", BinaryFn::Pow, false, false,
                     "self ^ exponent; an integer base needs a non-negative exponent");
  register_promoting(registry, "maximum(Tensor self, Tensor other) -> Tensor", BinaryFn::Maximum, false, true,
                     "the larger of self and other, NaN propagating");
  register_promoting(registry, "minimum(Tensor self, Tensor other) -> Tensor", BinaryFn::Minimum, false, true,
                     "the smaller of self and other, NaN propagating");
  register_promoting(registry, "atan2(Tensor self, Tensor other) -> Tensor", BinaryFn::Atan2, true, true,
                     "the angle of the point (other, self), in (-pi, pi]");
  register_promoting(registry, "remainder(Tensor self, Tensor other) -> Tensor", BinaryFn::Remainder, false, false,
                     "self - floor(self / other) * other: the sign of other, as Python's %");
  register_bool_valued(registry, "eq(Tensor self, Tensor other) -> Tensor", CompareFn::Eq, "self == other");
  register_bool_valued(registry, "ne(Tensor self, Tensor other) -> Tensor", CompareFn::Ne, "self != other");
  register_bool_valued(registry, "lt(Tensor self, Tensor other) -> Tensor", CompareFn::Lt, "self < other");
  register_bool_valued(registry, "le(Tensor self, Tensor other) -> Tensor", CompareFn::Le, "self <= other");
  register_bool_valued(registry, "gt(Tensor self, Tensor other) -> Tensor", CompareFn::Gt, "self > other");
  register_bool_valued(registry, "ge(Tensor self, Tensor other) -> Tensor", CompareFn::Ge, "self >= other");
  register_bool_valued(registry, "logical_and(Tensor self, Tensor other) -> Tensor", CompareFn::LogicalAnd,
                       "self != 0 and other != 0");
  register_bool_valued(registry, "logical_or(Tensor self, Tensor other) -> Tensor", CompareFn::LogicalOr,
                       "self != 0 or other != 0");
  register_where(registry);
  register_clamp(registry);
  register_special_binary(registry, "xlogy(Tensor self, Tensor other) -> Tensor", BinaryFn::Xlogy, false, true,
                          "self * log(other), 0 where self is 0 unless other is NaN");
  register_special_binary(registry, "special_xlog1py(Tensor self, Tensor other) -> Tensor", BinaryFn::Xlog1py, false,
                          false, "self * log1p(other), 0 where self is 0 unless other is NaN");
  register_special_binary(registry, "hypot(Tensor self, Tensor other) -> Tensor", BinaryFn::Hypot, true, true,
                          "sqrt(self^2 + other^2) without overflow; an infinity wins over NaN");
  register_special_binary(registry, "copysign(Tensor self, Tensor other) -> Tensor", BinaryFn::Copysign, false, true,
                          "|self| with the sign bit of other");
  // The stats family's binary ops (docs/ops/binary.md): floating only, as PyTorch ("not implemented
  // for 'Long'"); PyTorch has their out= variants and no in-place ones.
  register_special_binary(registry, "logaddexp(Tensor self, Tensor other) -> Tensor", BinaryFn::Logaddexp, true, false,
                          "log(exp(self) + exp(other)) without overflow; equal infinities give themselves");
  register_special_binary(registry, "logaddexp2(Tensor self, Tensor other) -> Tensor", BinaryFn::Logaddexp2, true,
                          false, "log2(2^self + 2^other) without overflow; equal infinities give themselves");
}

}  // namespace funcspec
