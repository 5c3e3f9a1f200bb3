// Creation ops: tensors made from attributes alone. A primitive without tensor inputs runs on the
// device its `device` attribute names (NOTE: [dispatch]), so `full(..., device='meta')` allocates
// nothing.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "reference/backends/cpu/creation.h"
#include "reference/backends/cuda/creation.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

// PyTorch's dtype for a Python number: bool, int64, or the default float.
DType dtype_of_literal(const Scalar& value) {
  return value.is_bool() ? DType::Bool : value.is_integral() ? DType::Int64 : kDefaultFloat;
}

void check_sizes(std::string_view op, const std::vector<std::int64_t>& size) {
  for (std::int64_t s : size) {
    FUNCSPEC_CHECK(s >= 0, ErrorKind::InvalidArgument, "[{}] negative size {} in {}", op, s, shape_to_string(size));
  }
}

// A fill value must be representable in the target dtype (up to rounding), as PyTorch requires:
// NaN or infinity into int64, or a finite value beyond float32's range, is an error rather than a
// silently wrong constant.
void check_fill_representable(std::string_view op, const Scalar& value, DType dtype) {
  if (!value.is_floating()) return;
  const double v = value.to<double>();
  if (dtype == DType::Int64) {
    FUNCSPEC_CHECK(std::isfinite(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0,
                   ErrorKind::InvalidArgument, "[{}] fill value {} cannot be converted to int64 without overflow", op,
                   v);
  } else if (dtype == DType::Float32) {
    FUNCSPEC_CHECK(!std::isfinite(v) || std::abs(v) <= static_cast<double>(std::numeric_limits<float>::max()),
                   ErrorKind::InvalidArgument, "[{}] fill value {} cannot be converted to float32 without overflow", op,
                   v);
  }
}

std::string device_attr(const Tensor& t) { return std::string(device_name(t.device())); }

// The kernels of one backend (cpu:: or cuda::fill and arange), their attributes read alike for both.
template <auto kernel>
KernelFn fill_kernel() {
  return [](const KernelArgs& a) { kernel(a.outputs[0], a.attrs.get_scalar("fill_value")); };
}

void register_full(OpRegistry& registry) {
  OpDef& op = registry.add(
      "full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, str device='cpu') -> Tensor", OpKind::Primitive,
      "creation",
      "a tensor of the given size filled with fill_value (dtype None: bool, int64 or float32 by the value)");
  op.infer = [](const TensorList&, const Attrs& attrs) -> std::vector<TensorMeta> {
    const std::vector<std::int64_t>& size = attrs.get_int_list("size");
    check_sizes("full", size);
    const Scalar fill = attrs.get_scalar("fill_value");
    const DType dtype = attrs.get_optional_dtype("dtype").value_or(dtype_of_literal(fill));
    check_fill_representable("full", fill, dtype);
    return {{size, dtype}};
  };
  op.cpu_kernel = fill_kernel<&cpu::fill>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(fill_kernel<&cuda::fill>());
}

struct ArangeParams {
  Scalar start, end, step;
  bool integral;  // all three are bool or integer literals
};

ArangeParams arange_params(const Attrs& attrs) {
  ArangeParams p{attrs.get_scalar("start"), attrs.get_scalar("end"), attrs.get_scalar("step"), false};
  p.integral = !p.start.is_floating() && !p.end.is_floating() && !p.step.is_floating();
  return p;
}

std::int64_t arange_length(const ArangeParams& p) {
  const double start = p.start.to<double>(), end = p.end.to<double>(), step = p.step.to<double>();
  FUNCSPEC_CHECK(std::isfinite(start) && std::isfinite(end), ErrorKind::InvalidArgument,
                 "[arange] start {} and end {} must be finite", start, end);
  FUNCSPEC_CHECK(step != 0, ErrorKind::InvalidArgument, "[arange] step must be nonzero");
  FUNCSPEC_CHECK(std::isfinite(step), ErrorKind::InvalidArgument, "[arange] step {} must be finite", step);
  FUNCSPEC_CHECK((step > 0 && end >= start) || (step < 0 && end <= start), ErrorKind::InvalidArgument,
                 "[arange] the range from {} to {} cannot be walked with step {}", start, end, step);
  if (p.integral) {
    // Exact ceiling division, so large integer ranges do not suffer double rounding.
    const std::int64_t span = p.end.to<std::int64_t>() - p.start.to<std::int64_t>();
    const std::int64_t s = p.step.to<std::int64_t>();
    return span / s + (span % s != 0 ? 1 : 0);
  }
  return static_cast<std::int64_t>(std::ceil((end - start) / step));
}

template <auto kernel>
KernelFn arange_kernel() {
  return [](const KernelArgs& a) {
    const ArangeParams p = arange_params(a.attrs);
    // An int64 result of float arguments is computed in floating point and truncated per element.
    kernel(a.outputs[0], p.start, p.step, p.integral && a.outputs[0].dtype() == DType::Int64);
  };
}

void register_arange(OpRegistry& registry) {
  OpDef& op = registry.add(
      "arange(*, Scalar start=0, Scalar end, Scalar step=1, ScalarType? dtype=None, str device='cpu') -> Tensor",
      OpKind::Primitive, "creation",
      "start, start + step, ... up to end (excluded): ceil((end - start) / step) values; int64 if all integral "
      "else float32");
  op.infer = [](const TensorList&, const Attrs& attrs) -> std::vector<TensorMeta> {
    const ArangeParams p = arange_params(attrs);
    const DType dtype = attrs.get_optional_dtype("dtype").value_or(p.integral ? DType::Int64 : kDefaultFloat);
    check_dtype("arange", "dtype", dtype, DTypeSet::NoBool);
    return {{{arange_length(p)}, dtype}};
  };
  op.cpu_kernel = arange_kernel<&cpu::arange>();
  op.cuda_kernel = FUNCSPEC_CUDA_KERNEL(arange_kernel<&cuda::arange>());
}

void register_constant_composites(OpRegistry& registry) {
  for (const auto& [name, value] : {std::pair{"zeros", 0}, std::pair{"ones", 1}}) {
    OpDef& op =
        registry.add(fmt::format("{}(int[] size, *, ScalarType dtype=float32, str device='cpu') -> Tensor", name),
                     OpKind::Composite, "creation", fmt::format("full(size, {}) of the given dtype", value));
    op.decompose = [fill = value](const TensorList&, const Attrs& attrs) -> TensorList {
      return call("full", {},
                  {{"size", attrs.get_int_list("size")},
                   {"fill_value", Scalar(fill)},
                   {"dtype", attrs.get_dtype("dtype")},
                   {"device", attrs.get_string("device")}});
    };
  }
  for (const auto& [name, value] : {std::pair{"zeros_like", 0}, std::pair{"ones_like", 1}}) {
    OpDef& op =
        registry.add(fmt::format("{}(Tensor self, *, ScalarType? dtype=None) -> Tensor", name), OpKind::Composite,
                     "creation", fmt::format("a contiguous tensor of self's shape and device filled with {}", value));
    op.decompose = [fill = value](const TensorList& in, const Attrs& attrs) -> TensorList {
      return call("full", {},
                  {{"size", in[0].shape()},
                   {"fill_value", Scalar(fill)},
                   {"dtype", attrs.get_optional_dtype("dtype").value_or(in[0].dtype())},
                   {"device", device_attr(in[0])}});
    };
  }
  OpDef& op =
      registry.add("full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor", OpKind::Composite,
                   "creation", "a contiguous tensor of self's shape and device filled with fill_value (dtype: self's)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    return call("full", {},
                {{"size", in[0].shape()},
                 {"fill_value", attrs.get_scalar("fill_value")},
                 {"dtype", attrs.get_optional_dtype("dtype").value_or(in[0].dtype())},
                 {"device", device_attr(in[0])}});
  };
}

}  // namespace

void register_creation_ops(OpRegistry& registry) {
  register_full(registry);
  register_arange(registry);
  register_constant_composites(registry);
}

}  // namespace funcspec
