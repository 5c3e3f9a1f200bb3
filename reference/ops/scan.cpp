// Scans (cumsum, cumprod) and reorderings (flip, roll, sort, topk). Scans follow NOTE: [reduction
// order]: each prefix is accumulated sequentially along dim in the wider accumulation type and
// rounded once. sort is always stable, with NaN ordered as the largest value; topk is the prefix of
// that sort, so its ties also go to the lower index. The CUDA kernels compute the same orders
// (backends/cuda/scan_launch.h): sequential scans, a stable merge sort.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "reference/api/ops.h"
#include "reference/backends/cpu/scan.h"
#include "reference/backends/cuda/scan.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

using ScanKernel = void (*)(const Tensor&, const Tensor&, std::int64_t);
using FlipKernel = void (*)(const Tensor&, const Tensor&, std::span<const std::int64_t>);
using RollKernel = void (*)(const Tensor&, const Tensor&, std::span<const std::int64_t>, std::span<const std::int64_t>);
using SortKernel = void (*)(const Tensor&, const Tensor&, const Tensor&, std::int64_t, bool);

// One backend's kernel function from its kernel and how the attributes become its arguments (shared
// by the backends): `call(kernel, args)`. Empty where the backend has no kernel (a cuda kernel in a
// build without CUDA, see FUNCSPEC_CUDA_KERNEL).
template <typename Kernel, typename Call>
KernelFn scan_kernel_fn(Kernel kernel, Call call) {
  if (kernel == nullptr) return nullptr;
  return [kernel, call](const KernelArgs& a) { call(kernel, a); };
}

void register_scan(OpRegistry& registry, std::string_view schema, std::string summary, ScanKernel cpu_kernel,
                   ScanKernel cuda_kernel) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "scan", std::move(summary));
  // The dtype rule of sum: `dtype` casts the input first; without it bool and int64 scan in int64.
  op.canonicalize = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const DType natural = is_floating(in[0].dtype()) ? in[0].dtype() : DType::Int64;
    return {cast_to(in[0], attrs.get_optional_dtype("dtype").value_or(natural))};
  };
  op.infer = [name = op.name()](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    wrap_dim(attrs.get_int("dim"), in[0].dim(), name);
    return {{in[0].shape(), in[0].dtype()}};
  };
  const auto run = [name = op.name()](ScanKernel kernel, const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), name));
  };
  op.cpu_kernel = scan_kernel_fn(cpu_kernel, run);
  op.cuda_kernel = scan_kernel_fn(cuda_kernel, run);
}

void register_flip(OpRegistry& registry) {
  OpDef& op = registry.add("flip(Tensor self, int[] dims) -> Tensor", OpKind::Primitive, "scan",
                           "a copy of self with the order of elements reversed along each of dims");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    wrap_dims(attrs.get_int_list("dims"), in[0].dim(), "flip");
    return {{in[0].shape(), in[0].dtype()}};
  };
  const auto run = [](FlipKernel kernel, const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], wrap_dims(a.attrs.get_int_list("dims"), a.inputs[0].dim(), "flip"));
  };
  op.cpu_kernel = scan_kernel_fn(&cpu::flip_kernel, run);
  op.cuda_kernel = scan_kernel_fn<FlipKernel>(FUNCSPEC_CUDA_KERNEL(&cuda::flip_kernel), run);
}

// roll's dims, wrapped one by one (a dim may repeat: its shifts add up, as in PyTorch).
std::vector<std::int64_t> roll_dims(const Tensor& self, const Attrs& attrs) {
  const std::vector<std::int64_t>& shifts = attrs.get_int_list("shifts");
  const std::vector<std::int64_t>& dims = attrs.get_int_list("dims");
  if (dims.empty()) {
    FUNCSPEC_CHECK(shifts.size() == 1, ErrorKind::InvalidArgument,
                   "[roll] without dims, shifts must hold exactly one value (the flattened shift) but got {}",
                   shape_to_string(shifts));
    return {};
  }
  FUNCSPEC_CHECK(shifts.size() == dims.size(), ErrorKind::InvalidArgument,
                 "[roll] shifts {} and dims {} must have the same length", shape_to_string(shifts),
                 shape_to_string(dims));
  std::vector<std::int64_t> wrapped;
  for (std::int64_t d : dims) wrapped.push_back(wrap_dim(d, self.dim(), "roll"));
  return wrapped;
}

void register_roll(OpRegistry& registry) {
  OpDef& op = registry.add("roll(Tensor self, int[] shifts, int[] dims=[]) -> Tensor", OpKind::Primitive, "scan",
                           "elements shifted by shifts[i] along dims[i], wrapping around; with no dims, the "
                           "flattened tensor is rolled and reshaped back");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    roll_dims(in[0], attrs);
    return {{in[0].shape(), in[0].dtype()}};
  };
  const auto run = [](RollKernel kernel, const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], a.attrs.get_int_list("shifts"), roll_dims(a.inputs[0], a.attrs));
  };
  op.cpu_kernel = scan_kernel_fn(&cpu::roll_kernel, run);
  op.cuda_kernel = scan_kernel_fn<RollKernel>(FUNCSPEC_CUDA_KERNEL(&cuda::roll_kernel), run);
}

void register_sort(OpRegistry& registry) {
  OpDef& op = registry.add(
      "sort(Tensor self, int dim=-1, bool descending=False, bool stable=True) -> (Tensor values, Tensor indices)",
      OpKind::Primitive, "scan",
      "values sorted along dim and their int64 positions in self; always stable, NaN sorts as the largest value");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    wrap_dim(attrs.get_int("dim"), in[0].dim(), "sort");
    return {{in[0].shape(), in[0].dtype()}, {in[0].shape(), DType::Int64}};
  };
  const auto run = [](SortKernel kernel, const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], a.outputs[1], wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), "sort"),
           a.attrs.get_bool("descending"));
  };
  op.cpu_kernel = scan_kernel_fn(&cpu::sort_kernel, run);
  op.cuda_kernel = scan_kernel_fn<SortKernel>(FUNCSPEC_CUDA_KERNEL(&cuda::sort_kernel), run);
}

void register_topk(OpRegistry& registry) {
  OpDef& op = registry.add(
      "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
      OpKind::Primitive, "scan",
      "the k largest (or smallest) values along dim, in sorted order, and their int64 positions; ties go to the "
      "lower index, NaN counts as the largest value");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const std::int64_t dim = wrap_dim(attrs.get_int("dim"), in[0].dim(), "topk");
    const std::int64_t size = in[0].dim() == 0 ? 1 : in[0].shape()[static_cast<std::size_t>(dim)];
    const std::int64_t k = attrs.get_int("k");
    FUNCSPEC_CHECK(k >= 0 && k <= size, ErrorKind::IndexOutOfRange,
                   "[topk] k={} is out of range for dim {} of size {} (input shape {})", k, dim, size,
                   shape_to_string(in[0].shape()));
    Shape shape = in[0].shape();
    if (!shape.empty()) shape[static_cast<std::size_t>(dim)] = k;
    return {{shape, in[0].dtype()}, {shape, DType::Int64}};
  };
  const auto run = [](SortKernel kernel, const KernelArgs& a) {
    kernel(a.inputs[0], a.outputs[0], a.outputs[1], wrap_dim(a.attrs.get_int("dim"), a.inputs[0].dim(), "topk"),
           a.attrs.get_bool("largest"));
  };
  op.cpu_kernel = scan_kernel_fn(&cpu::topk_kernel, run);
  op.cuda_kernel = scan_kernel_fn<SortKernel>(FUNCSPEC_CUDA_KERNEL(&cuda::topk_kernel), run);
}

// NOTE: [cumulative extremes]
// cummax and cummin are composites: for each position i the extreme of the prefix x[0..i] (a detached
// amax/amin over an n x n lower-triangular arrangement of the lane, the positions past i filled with
// x[0], which the prefix holds), then its index, the LAST position j <= i whose element equals it (or
// the last NaN when it is NaN), as PyTorch's cpu kernel replaces its pick by every element that is
// greater or equal, or NaN (SPEC OPS-23.5). The values are gather(x, indices), so the derivative goes
// to the element at the index alone, as PyTorch's cummaxmin_backward (a scatter_add at the indices).
// It costs n^2 elements per lane of n.
TensorList cumulative_extreme(const Tensor& self, const Attrs& attrs, bool largest, std::string_view op) {
  const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), op);
  if (self.dim() == 0 || self.numel() == 0)
    return {ops::clone(self), ops::full_like(self, std::int64_t{0}, DType::Int64)};
  const std::int64_t n = self.shape()[static_cast<std::size_t>(dim)];
  const Tensor lane = ops::movedim(self, {dim}, {-1});  // [..., n]: x_j
  const Tensor position = ops::arange(std::int64_t{0}, n, std::int64_t{1}, DType::Int64,
                                      std::string(device_name(self.device())));           // j
  const Tensor upto = ops::le(ops::unsqueeze(position, 0), ops::unsqueeze(position, 1));  // [i, j]: j <= i
  const Tensor row = ops::unsqueeze(lane, -2);                                            // [..., 1, n]
  const Tensor prefixes = ops::where(upto, row, ops::narrow(row, -1, 0, 1));              // [..., n, n]
  const Tensor extreme = ops::detach(largest ? ops::amax(prefixes, std::vector<std::int64_t>{-1}, true)
                                             : ops::amin(prefixes, std::vector<std::int64_t>{-1}, true));
  const Tensor equal =
      ops::logical_or(ops::eq(row, extreme), ops::logical_and(ops::ne(extreme, extreme), ops::ne(row, row)));
  const Tensor index = ops::amax(ops::where(ops::logical_and(upto, equal), position, ops::lit(std::int64_t{-1})),
                                 std::vector<std::int64_t>{-1});  // [..., n]
  const Tensor values = ops::gather(lane, -1, index);
  return {ops::movedim(values, {-1}, {dim}), ops::movedim(index, {-1}, {dim})};
}

void register_cumulative_extremes(OpRegistry& registry) {
  for (const auto& [schema, largest] :
       {std::pair{"cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", true},
        std::pair{"cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", false}}) {
    OpDef& op = registry.add(schema, OpKind::Composite, "scan",
                             largest ? "running maxima along dim and their indices: the last of ties, the last NaN"
                                     : "running minima along dim and their indices: the last of ties, the last NaN");
    op.decompose = [name = op.name(), largest = largest](const TensorList& in, const Attrs& attrs) -> TensorList {
      return cumulative_extreme(in[0], attrs, largest, name);
    };
  }
}

// argsort and msort: sort's indices, and sort's values along dim 0 (always stable, as sort).
void register_sort_composites(OpRegistry& registry) {
  for (const char* schema :
       {"argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor",
        "argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor"}) {
    OpDef& op = registry.add(schema, OpKind::Composite, "scan",
                             "int64 positions that sort self along dim (sort's indices: always stable, NaN largest)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {call("sort", {in[0]},
                   {{"dim", attrs.get_int("dim")}, {"descending", attrs.get_bool("descending")}, {"stable", true}})[1]};
    };
  }
  OpDef& op = registry.add("msort(Tensor self) -> Tensor", OpKind::Composite, "scan",
                           "self sorted along dim 0 (sort's values: stable, NaN last)");
  op.decompose = [](const TensorList& in, const Attrs&) -> TensorList {
    return {call("sort", {in[0]}, {{"dim", std::int64_t{0}}, {"descending", false}, {"stable", true}})[0]};
  };
}

// NOTE: [logcumsumexp]
// logcumsumexp is a composite, like the cumulative extremes: each prefix x[0..i] of a lane is a row of
// an n x n lower-triangular arrangement, the positions past i filled with -inf (exp(-inf) = 0, and
// where's derivative sends nothing to them), reduced by logsumexp (its detached max shift, with
// infinite maxima replaced by 0). So the value is log(sum_{k<=i} exp(x_k)) and the derivative
// d y_i / d x_k = exp(x_k - y_i) (k <= i), as PyTorch's logcumsumexp_backward: a prefix of -inf only
// gives y_i = -inf and 0/0 = NaN to its elements, a later finite prefix gives them 0, and an element
// +inf gives NaN to itself and 0 to the finite elements of its prefixes (SPEC OPS-23.10). A rank-0
// input is its own result (derivative 1, as PyTorch's backward returns the cotangent there). It
// costs n^2 elements per lane of n.
TensorList log_cumulative_sum_exp(const Tensor& self, const Attrs& attrs, std::string_view op) {
  check_dtype(op, "self", self.dtype(), DTypeSet::Floating);
  const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), op);
  if (self.dim() == 0 || self.numel() == 0) return {ops::clone(self)};
  const std::int64_t n = self.shape()[static_cast<std::size_t>(dim)];
  const Tensor lane = ops::movedim(self, {dim}, {-1});  // [..., n]: x_j
  const Tensor position = ops::arange(std::int64_t{0}, n, std::int64_t{1}, DType::Int64,
                                      std::string(device_name(self.device())));           // j
  const Tensor upto = ops::le(ops::unsqueeze(position, 0), ops::unsqueeze(position, 1));  // [i, j]: j <= i
  const Tensor prefixes =
      ops::where(upto, ops::unsqueeze(lane, -2), ops::lit(-std::numeric_limits<double>::infinity()));
  const Tensor values = ops::logsumexp(prefixes, {-1});  // [..., n]
  return {ops::movedim(values, {-1}, {dim})};
}

void register_logcumsumexp(OpRegistry& registry) {
  OpDef& op = registry.add("logcumsumexp(Tensor self, int dim) -> Tensor", OpKind::Composite, "scan",
                           "log(cumsum(exp(self))) along dim without overflow (floating only)");
  op.decompose = [name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
    return log_cumulative_sum_exp(in[0], attrs, name);
  };
  op.derive_out = true;
}

// NOTE: [diff and trapezoid]
// diff, trapezoid and cumulative_trapezoid are composites, PyTorch's own decompositions op for op
// (aten/src/ATen/native/ReduceOps.cpp and Integration.cpp), so values and derivatives follow theirs:
// diff concatenates prepend and append, then takes min(n, size) forward differences (ne for bool, as
// PyTorch's logical_xor); trapezoid with dx is (sum(y) - (y[0] + y[-1]) / 2) * dx, with x
// sum(dx * (y[1:] + y[:-1])) / 2 where dx = x[1:] - x[:-1] (a 1-D x lies along dim, a lower-rank x
// is padded with leading 1s and broadcasts with y after the differences); cumulative_trapezoid is
// cumsum(dx / 2 * (y[1:] + y[:-1])). A dim of size 0 integrates to zeros of y's dtype (trapezoid)
// or is empty (cumulative_trapezoid, also for size 1) (SPEC OPS-23.13).
void check_diff_operand(const Tensor& self, const Tensor& t, std::int64_t dim, const char* which) {
  if (!t.defined()) return;
  FUNCSPEC_CHECK(t.dim() == self.dim(), ErrorKind::InvalidArgument,
                 "[diff] expects {} to have the same number of dims as the input ({}), got {}", which, self.dim(),
                 t.dim());
  for (std::int64_t d = 0; d < self.dim(); ++d) {
    const auto u = static_cast<std::size_t>(d);
    FUNCSPEC_CHECK(d == dim || t.shape()[u] == self.shape()[u], ErrorKind::ShapeMismatch,
                   "[diff] expects the shape of {} to match the input's except along dim {}: input.size({}) = {}, "
                   "but got {}.size({}) = {}",
                   which, dim, d, self.shape()[u], which, d, t.shape()[u]);
  }
}

Tensor difference(const TensorList& in, const Attrs& attrs) {
  const Tensor& self = in[0];
  FUNCSPEC_CHECK(self.dim() >= 1, ErrorKind::InvalidArgument,
                 "[diff] expects an input of at least one dim, got rank 0");
  const std::int64_t n = attrs.get_int("n");
  FUNCSPEC_CHECK(n >= 0, ErrorKind::InvalidArgument, "[diff] order n must be non-negative, got {}", n);
  const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), "diff");
  check_diff_operand(self, in[1], dim, "prepend");
  check_diff_operand(self, in[2], dim, "append");
  TensorList parts;
  for (const Tensor& t : {in[1], self, in[2]})
    if (t.defined()) parts.push_back(t);
  Tensor x = parts.size() == 1 ? self : ops::cat(parts, dim);
  if (n == 0) return ops::clone(x);
  const bool logical = x.dtype() == DType::Bool;
  const std::int64_t size = x.shape()[static_cast<std::size_t>(dim)];
  if (size == 0) return ops::clone(x);
  for (std::int64_t k = 0, length = size - 1; k < std::min(n, size); ++k, --length) {
    const Tensor right = ops::narrow(x, dim, 1, length);
    const Tensor left = ops::narrow(x, dim, 0, length);
    x = logical ? ops::ne(right, left) : ops::sub(right, left);
  }
  return x;
}

void register_diff(OpRegistry& registry) {
  OpDef& op = registry.add(
      "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", OpKind::Composite,
      "scan", "the n-th forward difference along dim, after prepend and append are joined");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {difference(in, attrs)}; };
  op.derive_out = true;
}

// The dim trapezoid integrates along; a rank-0 y has none (PyTorch's IndexError).
std::int64_t integration_dim(const Tensor& y, const Attrs& attrs, std::string_view op) {
  const std::int64_t dim = attrs.get_int("dim");
  FUNCSPEC_CHECK(y.dim() > 0, ErrorKind::DimOutOfRange, "[{}] dim {} given for a rank-0 y, which has no dims", op, dim);
  return wrap_dim(dim, y.dim(), op);
}

// y[1:] + y[:-1] along dim (empty for a dim of size 0 or 1).
Tensor neighbour_sums(const Tensor& y, std::int64_t dim) {
  const std::int64_t size = y.shape()[static_cast<std::size_t>(dim)];
  const std::int64_t length = std::max<std::int64_t>(size - 1, 0);
  return ops::add(ops::narrow(y, dim, std::min<std::int64_t>(size, 1), length), ops::narrow(y, dim, 0, length));
}

// x[1:] - x[:-1] along dim, x viewed against y as PyTorch: a 1-D x lies along dim (one x per
// sample), a lower-rank x gets leading 1s.
Tensor spacings(const Tensor& y, const Tensor& x, std::int64_t dim, std::string_view op) {
  FUNCSPEC_CHECK(y.dtype() != DType::Bool && x.dtype() != DType::Bool, ErrorKind::DtypeNotSupported,
                 "[{}] bool y or x is not supported", op);
  Tensor viewed = x;
  if (x.dim() == 1) {
    FUNCSPEC_CHECK(x.shape()[0] == y.shape()[static_cast<std::size_t>(dim)], ErrorKind::ShapeMismatch,
                   "[{}] there must be one x value for each sample point: x has {}, y has {} along dim {}", op,
                   x.shape()[0], y.shape()[static_cast<std::size_t>(dim)], dim);
    std::vector<std::int64_t> size(static_cast<std::size_t>(y.dim()), 1);
    size[static_cast<std::size_t>(dim)] = x.shape()[0];
    viewed = ops::view(x, size);
  } else if (x.dim() < y.dim()) {
    std::vector<std::int64_t> size(static_cast<std::size_t>(y.dim() - x.dim()), 1);
    size.insert(size.end(), x.shape().begin(), x.shape().end());
    viewed = ops::view(x, size);
  }
  FUNCSPEC_CHECK(dim < viewed.dim(), ErrorKind::DimOutOfRange, "[{}] dim {} is out of range for x of rank {}", op, dim,
                 viewed.dim());
  const std::int64_t size = viewed.shape()[static_cast<std::size_t>(dim)];
  const std::int64_t length = std::max<std::int64_t>(size - 1, 0);
  return ops::sub(ops::narrow(viewed, dim, std::min<std::int64_t>(size, 1), length),
                  ops::narrow(viewed, dim, 0, length));
}

void check_dx(const Tensor& y, const Scalar& dx, std::string_view op) {
  FUNCSPEC_CHECK(y.dtype() != DType::Bool, ErrorKind::DtypeNotSupported, "[{}] bool y is not supported", op);
  FUNCSPEC_CHECK(!dx.is_bool(), ErrorKind::InvalidArgument, "[{}] dx must be a real number", op);
}

void register_trapezoid(OpRegistry& registry) {
  {
    OpDef& op =
        registry.add("trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", OpKind::Composite, "scan",
                     "the trapezoidal rule along dim at abscissae x: sum((x[1:] - x[:-1]) (y[1:] + y[:-1])) / 2");
    op.decompose = [name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& y = in[0];
      const std::int64_t dim = integration_dim(y, attrs, name);
      if (y.shape()[static_cast<std::size_t>(dim)] == 0)
        return {ops::zeros_like(ops::sum(y, std::vector<std::int64_t>{dim}), y.dtype())};
      const Tensor dx = spacings(y, in[1], dim, name);
      return {ops::div(ops::sum(ops::mul(dx, neighbour_sums(y, dim)), std::vector<std::int64_t>{dim}), ops::lit(2.0))};
    };
  }
  {
    OpDef& op = registry.add("trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", OpKind::Composite, "scan",
                             "the trapezoidal rule along dim at spacing dx: (sum(y) - (y[0] + y[-1]) / 2) dx");
    op.decompose = [name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& y = in[0];
      const std::int64_t dim = integration_dim(y, attrs, name);
      const std::vector<std::int64_t> dims{dim};
      if (y.shape()[static_cast<std::size_t>(dim)] == 0) return {ops::zeros_like(ops::sum(y, dims), y.dtype())};
      const Scalar dx = attrs.get_scalar("dx");
      check_dx(y, dx, name);
      const Tensor ends = ops::add(ops::select(y, dim, 0), ops::select(y, dim, -1));
      const Tensor inner = ops::sub(ops::sum(y, dims), ops::mul(ends, ops::lit(0.5)));
      return {ops::mul(inner, ops::lit(dx.to<double>()))};
    };
  }
  {
    OpDef& op = registry.add("cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", OpKind::Composite,
                             "scan", "the running trapezoidal integrals along dim at abscissae x");
    op.decompose = [name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& y = in[0];
      const std::int64_t dim = integration_dim(y, attrs, name);
      const Tensor dx = spacings(y, in[1], dim, name);
      return {ops::cumsum(ops::mul(ops::div(dx, ops::lit(2.0)), neighbour_sums(y, dim)), dim)};
    };
  }
  {
    OpDef& op = registry.add("cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor",
                             OpKind::Composite, "scan", "the running trapezoidal integrals along dim at spacing dx");
    op.decompose = [name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& y = in[0];
      const std::int64_t dim = integration_dim(y, attrs, name);
      const Scalar dx = attrs.get_scalar("dx");
      check_dx(y, dx, name);
      return {ops::cumsum(ops::mul(ops::lit(dx.to<double>() / 2.0), neighbour_sums(y, dim)), dim)};
    };
  }
}

}  // namespace

void register_scan_ops(OpRegistry& registry) {
  register_scan(registry, "cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
                "running sums along dim (bool/int64 into int64; float32 accumulates in float64)", cpu::cumsum_kernel,
                FUNCSPEC_CUDA_KERNEL(cuda::cumsum_kernel));
  register_scan(registry, "cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
                "running products along dim (bool/int64 into int64; float32 accumulates in float64)",
                cpu::cumprod_kernel, FUNCSPEC_CUDA_KERNEL(cuda::cumprod_kernel));
  register_flip(registry);
  register_roll(registry);
  register_sort(registry);
  register_topk(registry);
  register_cumulative_extremes(registry);
  register_sort_composites(registry);
  register_logcumsumexp(registry);
  register_diff(registry);
  register_trapezoid(registry);
}

}  // namespace funcspec
