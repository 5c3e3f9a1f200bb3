// Reductions over dims.
//
// NOTE: [reduction order]
// Every reduction visits the elements reduced into one output element sequentially, in row-major
// order of the reduced index (the input's strides play no part), so results are deterministic and
// the same on every layout. Sums and products accumulate in a wider type and round once at the end:
// float32 in float64, float64 in float64, the oracle dtype in itself, bool and int64 in 64-bit
// integers that wrap on overflow (two's complement, as PyTorch). `dim=None` and `dim=[]` both mean
// every dim (PyTorch's rule for an empty list); on a rank-0 tensor dims 0 and -1 are accepted and
// reduce nothing. The CUDA kernels keep this order up to 4096 reduced elements and use a fixed
// chunked tree beyond (NOTE: [cuda reduction order] in backends/cuda/reduce_launch.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "reference/api/ops.h"
#include "reference/backends/cpu/reduce.h"
#include "reference/backends/cuda/reduce.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

std::vector<std::int64_t> every_dim(const Tensor& self) {
  std::vector<std::int64_t> dims(static_cast<std::size_t>(self.dim()));
  std::iota(dims.begin(), dims.end(), std::int64_t{0});
  return dims;
}

// The wrapped, distinct dims an op with a `int[]? dim` attribute reduces (see NOTE: [reduction order]).
std::vector<std::int64_t> reduced_dims(const Tensor& self, const Attrs& attrs, std::string_view op) {
  const std::optional<std::vector<std::int64_t>> dims = attrs.get_optional_int_list("dim");
  if (!dims || dims->empty()) return every_dim(self);
  std::vector<std::int64_t> wrapped = wrap_dims(*dims, self.dim(), op);
  if (self.dim() == 0) return {};
  return wrapped;
}

Shape reduced_shape(const Shape& shape, std::span<const std::int64_t> dims, bool keepdim) {
  Shape out;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::find(dims.begin(), dims.end(), static_cast<std::int64_t>(d)) != dims.end();
    if (!reduced)
      out.push_back(shape[d]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

// How many input elements are reduced into each output element.
std::int64_t reduced_count(const Shape& shape, std::span<const std::int64_t> dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) n *= shape[static_cast<std::size_t>(d)];
  return n;
}

// min/max style reductions have no identity, so an empty reduction has no value.
void check_nonempty_reduction(std::string_view op, const Tensor& self, std::span<const std::int64_t> dims) {
  for (std::int64_t d : dims) {
    FUNCSPEC_CHECK(self.shape()[static_cast<std::size_t>(d)] != 0, ErrorKind::InvalidArgument,
                   "[{}] cannot reduce dim {} of size 0 (input shape {}): the operation has no identity", op, d,
                   shape_to_string(self.shape()));
  }
}

using ReduceKernel = void (*)(const Tensor&, const Tensor&, std::span<const std::int64_t>);
using ReduceDimsOf = std::function<std::vector<std::int64_t>(const Tensor& self, const Attrs& attrs)>;

// One backend's kernel function: `kernel` on the input, the output and the dims `dims_of` reads from
// the attributes (shared by the backends); empty where the backend has no kernel (a cuda kernel in
// a build without CUDA, see FUNCSPEC_CUDA_KERNEL).
KernelFn reduce_kernel_fn(ReduceKernel kernel, const ReduceDimsOf& dims_of) {
  if (kernel == nullptr) return nullptr;
  return [kernel, dims_of](const KernelArgs& a) { kernel(a.inputs[0], a.outputs[0], dims_of(a.inputs[0], a.attrs)); };
}

// Declares a reduction `name(Tensor self, int[]? dim=None, bool keepdim=False...)` whose kernels take
// the reduced dims. `output_dtype` maps the canonical input's dtype to the result's.
OpDef& add_dims_reduction(OpRegistry& registry, std::string_view schema, std::string summary, ReduceKernel cpu_kernel,
                          ReduceKernel cuda_kernel, DType (*output_dtype)(DType), bool needs_identity) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "reduce", std::move(summary));
  op.infer = [name = op.name(), output_dtype, needs_identity](const TensorList& in,
                                                              const Attrs& attrs) -> std::vector<TensorMeta> {
    const std::vector<std::int64_t> dims = reduced_dims(in[0], attrs, name);
    if (needs_identity) check_nonempty_reduction(name, in[0], dims);
    return {{reduced_shape(in[0].shape(), dims, attrs.get_bool("keepdim")), output_dtype(in[0].dtype())}};
  };
  const ReduceDimsOf dims_of = [name = op.name()](const Tensor& self, const Attrs& attrs) {
    return reduced_dims(self, attrs, name);
  };
  op.cpu_kernel = reduce_kernel_fn(cpu_kernel, dims_of);
  op.cuda_kernel = reduce_kernel_fn(cuda_kernel, dims_of);
  return op;
}

DType same_dtype(DType d) { return d; }
DType bool_dtype(DType) { return DType::Bool; }

// sum and prod: `dtype` casts the input first; without it bool and int64 accumulate into int64.
TensorList cast_for_accumulation(const TensorList& in, const Attrs& attrs) {
  const std::optional<DType> requested = attrs.get_optional_dtype("dtype");
  const DType natural = is_floating(in[0].dtype()) ? in[0].dtype() : DType::Int64;
  return {cast_to(in[0], requested.value_or(natural))};
}

void register_arg_reduction(OpRegistry& registry, std::string_view schema, std::string summary, ReduceKernel cpu_kernel,
                            ReduceKernel cuda_kernel) {
  OpDef& op = registry.add(schema, OpKind::Primitive, "reduce", std::move(summary));
  // dim=None reduces the flattened tensor: the index counts in row-major order over every dim.
  const ReduceDimsOf dims_of = [name = op.name()](const Tensor& self, const Attrs& attrs) {
    if (const std::optional<std::int64_t> dim = attrs.get_optional_int("dim")) {
      const std::int64_t wrapped = wrap_dim(*dim, self.dim(), name);
      return self.dim() == 0 ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{wrapped};
    }
    return every_dim(self);
  };
  op.infer = [name = op.name(), dims_of](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_dtype(name, "self", in[0].dtype(), DTypeSet::NoBool);
    const std::vector<std::int64_t> dims = dims_of(in[0], attrs);
    check_nonempty_reduction(name, in[0], dims);
    return {{reduced_shape(in[0].shape(), dims, attrs.get_bool("keepdim")), DType::Int64}};
  };
  op.cpu_kernel = reduce_kernel_fn(cpu_kernel, dims_of);
  op.cuda_kernel = reduce_kernel_fn(cuda_kernel, dims_of);
}

double norm_order(const Attrs& attrs) {
  const Scalar p = attrs.get_scalar("p");
  const double order = p.to<double>();
  FUNCSPEC_CHECK(!p.is_bool() && (order >= 0 || std::isinf(order)), ErrorKind::InvalidArgument,
                 "[norm] p={} is not supported (expected 0, a positive number, inf or -inf)", p.to_string());
  return order;
}

void register_norm(OpRegistry& registry) {
  OpDef& op = registry.add(
      "norm(Tensor self, Scalar p=2, int[]? dim=None, bool keepdim=False) -> Tensor", OpKind::Primitive, "reduce",
      "the vector p-norm over dim: (sum |x|^p)^(1/p); p=0 counts non-zeros, p=+-inf is max/min |x|");
  op.infer = [](const TensorList& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    check_dtype("norm", "self", in[0].dtype(), DTypeSet::Floating);
    const double p = norm_order(attrs);
    const std::vector<std::int64_t> dims = reduced_dims(in[0], attrs, "norm");
    if (std::isinf(p)) check_nonempty_reduction(fmt::format("norm with p={}", p), in[0], dims);
    return {{reduced_shape(in[0].shape(), dims, attrs.get_bool("keepdim")), in[0].dtype()}};
  };
  using NormKernel = void (*)(const Tensor&, const Tensor&, std::span<const std::int64_t>, double);
  auto norm_kernel = [](NormKernel kernel) -> KernelFn {
    if (kernel == nullptr) return nullptr;
    return [kernel](const KernelArgs& a) {
      kernel(a.inputs[0], a.outputs[0], reduced_dims(a.inputs[0], a.attrs, "norm"), norm_order(a.attrs));
    };
  };
  op.cpu_kernel = norm_kernel(cpu::norm_kernel);
  op.cuda_kernel = norm_kernel(FUNCSPEC_CUDA_KERNEL(cuda::norm_kernel));
}

// The attributes a composite passes on to the reductions it is built from.
Attrs dims_attrs(const Attrs& attrs, bool keepdim) { return {{"dim", attrs.at("dim")}, {"keepdim", keepdim}}; }

void register_mean(OpRegistry& registry) {
  OpDef& op = registry.add(
      "mean(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", OpKind::Composite,
      "reduce", "sum over dim divided by the number of reduced elements (floating only; empty gives NaN)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const std::optional<DType> requested = attrs.get_optional_dtype("dtype");
    const Tensor self = requested ? cast_to(in[0], *requested) : in[0];
    check_dtype("mean", "self", self.dtype(), DTypeSet::Floating);
    const std::int64_t count = reduced_count(self.shape(), reduced_dims(self, attrs, "mean"));
    const Tensor total = call_one("sum", {self}, dims_attrs(attrs, attrs.get_bool("keepdim")));
    return {call_one("div", {total, ops::lit(count)})};
  };
}

// var and std: sum((x - mean)^2) / max(N - correction, 0), correction 1 when None. A non-positive
// N - correction divides by zero: inf, or NaN where the sum of squares is 0 (PyTorch's rule).
Tensor variance(const Tensor& self, const Attrs& attrs, std::string_view op) {
  check_dtype(op, "self", self.dtype(), DTypeSet::Floating);
  const double correction = attrs.get_optional_scalar("correction").value_or(Scalar(1)).to<double>();
  const auto count = static_cast<double>(reduced_count(self.shape(), reduced_dims(self, attrs, op)));
  const Tensor mean = call_one("mean", {self}, dims_attrs(attrs, true));
  const Tensor centered = call_one("sub", {self, mean});
  const Tensor squares = call_one("mul", {centered, centered});
  const Tensor total = call_one("sum", {squares}, dims_attrs(attrs, attrs.get_bool("keepdim")));
  return call_one("div", {total, ops::lit(std::max(count - correction, 0.0))});
}

void register_var_std(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "var(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
        OpKind::Composite, "reduce", "sum((x - mean)^2) / max(N - correction, 0) over dim (two-pass; floating only)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {variance(in[0], attrs, "var")};
    };
  }
  {
    OpDef& op =
        registry.add("std(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
                     OpKind::Composite, "reduce", "sqrt(var) over dim (floating only)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {call_one("sqrt", {variance(in[0], attrs, "std")})};
    };
  }
}

void register_logsumexp(OpRegistry& registry) {
  OpDef& op =
      registry.add("logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor", OpKind::Composite, "reduce",
                   "log(sum(exp(x))) over dim, computed as m + log(sum(exp(x - m))) with m the detached max");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor self = cast_to(in[0], to_floating(in[0].dtype()));
    const bool keepdim = attrs.get_bool("keepdim");
    const std::vector<std::int64_t> dims = reduced_dims(self, attrs, "logsumexp");
    if (reduced_count(self.shape(), dims) == 0) {
      // log of an empty sum: -inf, with no max to subtract.
      return {call_one("log", {call_one("sum", {call_one("exp", {self})}, dims_attrs(attrs, keepdim))})};
    }
    // The max is a constant shift (detached: the gradient flows through the exp terms alone). An
    // infinite max is replaced by 0, so that rows of -inf give log(0) = -inf and rows holding +inf
    // give log(inf) = inf, instead of inf - inf = NaN.
    const Tensor max = ops::detach(call_one("amax", {self}, dims_attrs(attrs, true)));
    const Tensor max_is_infinite =
        call_one("eq", {call_one("abs", {max}), ops::lit(std::numeric_limits<double>::infinity())});
    const Tensor shift = call_one("where", {max_is_infinite, ops::lit(0.0), max});
    const Tensor total =
        call_one("sum", {call_one("exp", {call_one("sub", {self, shift})})}, dims_attrs(attrs, keepdim));
    const Tensor shift_like_total = call_one("view", {shift}, {{"size", total.shape()}});
    return {call_one("add", {call_one("log", {total}), shift_like_total})};
  };
}

// aminmax: amin and amax over one dim or every dim, so the derivative of each is theirs (ties split
// it evenly, a NaN result gives NaN to its reduction, SPEC OPS-23.6), as PyTorch 2's aminmax backward
// (PyTorch 1.13 has none). An empty reduction is invalid_argument, checked here so that the message
// names aminmax (PyTorch: "cannot compute aminmax over an empty dimension", or an IndexError for an
// empty `dim`) (SPEC OPS-23.12).
void register_aminmax(OpRegistry& registry) {
  OpDef& op = registry.add("aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
                           OpKind::Composite, "reduce",
                           "amin and amax over dim (every dim when None); an empty reduction is an error");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& self = in[0];
    const std::optional<std::int64_t> dim = attrs.get_optional_int("dim");
    const bool keepdim = attrs.get_bool("keepdim");
    std::vector<std::int64_t> dims;
    if (dim) {
      const std::int64_t wrapped = wrap_dim(*dim, self.dim(), "aminmax");
      if (self.dim() > 0) dims.push_back(wrapped);
      FUNCSPEC_CHECK(self.dim() == 0 || self.shape()[static_cast<std::size_t>(wrapped)] != 0,
                     ErrorKind::InvalidArgument, "[aminmax] cannot reduce dim {} of size 0 (input shape {})", wrapped,
                     shape_to_string(self.shape()));
    } else {
      FUNCSPEC_CHECK(self.numel() != 0, ErrorKind::InvalidArgument,
                     "[aminmax] cannot compute aminmax over an empty tensor (shape {}): it has no identity",
                     shape_to_string(self.shape()));
      dims = every_dim(self);
    }
    if (self.dim() == 0) return {ops::clone(self), ops::clone(self)};
    return {ops::amin(self, dims, keepdim), ops::amax(self, dims, keepdim)};
  };
}

// NOTE: [selection reductions]
// max.dim, min.dim, median, nanmedian and kthvalue select one element of each reduced row; they are
// composites of argmax/argmin or the stable sort, then gather (or narrow), so their derivative goes to
// the selected element alone, as PyTorch's value_selecting_reduction_backward sends it (SPEC OPS-23.1).
// The selected element of a tie is the first (max/min) or the one the stable sort puts at the
// position (median, kthvalue): PyTorch documents the index of a tie as unspecified for median and
// kthvalue (SPEC OPS-23.3). NaN is the largest value for the sort, and max/min/median return the
// first NaN of a row holding one (OPS-23.2). median() and nanmedian() without a dim return the value
// alone and split its derivative evenly among the elements equal to it, as PyTorch's
// evenly_distribute_backward (OPS-23.4).

// A rank-0 tensor is its own selection along dim 0 or -1, at index 0.
TensorList select_rank0(const Tensor& self) {
  return {ops::clone(self), ops::full_like(self, std::int64_t{0}, DType::Int64)};
}

// The values and indices at `position` (int64, the reduced dim kept with size 1) of a sorted row.
TensorList pick_sorted(const TensorList& sorted, const Tensor& position, std::int64_t dim, bool keepdim) {
  Tensor values = ops::gather(sorted[0], dim, position);
  Tensor indices = ops::gather(sorted[1], dim, position);
  if (!keepdim) {
    values = ops::squeeze(values, {dim});
    indices = ops::squeeze(indices, {dim});
  }
  return {values, indices};
}

TensorList extreme_along(const Tensor& self, const Attrs& attrs, std::string_view op, bool largest) {
  const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), op);
  if (self.dim() == 0) return select_rank0(self);
  check_nonempty_reduction(op, self, std::vector<std::int64_t>{dim});
  // argmax/argmin take no bool; false < true is int64's order.
  const Tensor keys = self.dtype() == DType::Bool ? ops::to_dtype(self, DType::Int64) : self;
  const Tensor index = largest ? ops::argmax(keys, dim, true) : ops::argmin(keys, dim, true);
  Tensor values = ops::gather(self, dim, index);
  Tensor indices = index;
  if (!attrs.get_bool("keepdim")) {
    values = ops::squeeze(values, {dim});
    indices = ops::squeeze(indices, {dim});
  }
  return {values, indices};
}

TensorList sorted_along(const Tensor& self, std::int64_t dim) {
  return call("sort", {self}, {{"dim", dim}, {"descending", false}, {"stable", true}});
}

// median.dim (the lower median: position (n-1)/2 of the stable sort; a row holding NaN gives its first
// NaN, which the sort puts at position n - #NaN) and nanmedian.dim (the lower median of the non-NaN
// elements; a row of NaN gives its first NaN).
TensorList median_along(const Tensor& self, std::int64_t dim, bool keepdim, bool ignore_nan, std::string_view op) {
  check_dtype(op, "self", self.dtype(), DTypeSet::NoBool);
  if (self.dim() == 0) return select_rank0(self);
  check_nonempty_reduction(op, self, std::vector<std::int64_t>{dim});
  const std::int64_t n = self.shape()[static_cast<std::size_t>(dim)];
  const Tensor nan_count = ops::sum(ops::ne(self, self), std::vector<std::int64_t>{dim}, true);
  Tensor position;
  if (ignore_nan) {
    const Tensor valid = ops::sub(ops::lit(n), nan_count);
    position = ops::where(ops::gt(valid, ops::lit(std::int64_t{0})),
                          ops::div(ops::sub(valid, ops::lit(std::int64_t{1})), ops::lit(std::int64_t{2}), "floor"),
                          ops::lit(std::int64_t{0}));
  } else {
    position = ops::where(ops::gt(nan_count, ops::lit(std::int64_t{0})), ops::sub(ops::lit(n), nan_count),
                          ops::lit((n - 1) / 2));
  }
  return pick_sorted(sorted_along(self, dim), position, dim, keepdim);
}

// median() and nanmedian(): the value of median.dim over the flattened input, with the derivative
// split evenly among the elements equal to it (among the NaN elements when it is NaN). The finite
// case adds an exact zero (detach(x) - x) / k to the detached value, so the value is exact (signed
// zeros included); an infinite or NaN median is the mean of the k elements equal to it, which is
// that value exactly. An empty input gives NaN, as PyTorch.
Tensor median_all(const Tensor& self, bool ignore_nan, std::string_view op) {
  check_dtype(op, "self", self.dtype(), DTypeSet::NoBool);
  if (self.numel() == 0) {
    FUNCSPEC_CHECK(is_floating(self.dtype()), ErrorKind::InvalidArgument,
                   "[{}] an empty integer tensor has no median (NaN is not an integer)", op);
    return ops::full_like(ops::sum(self), std::numeric_limits<double>::quiet_NaN());
  }
  const Tensor flat = ops::reshape(self, {-1});
  const Tensor value = median_along(flat, 0, false, ignore_nan, op)[0];
  if (!is_floating(self.dtype())) return value;
  const Tensor v = ops::detach(value);
  const Tensor x = ops::reshape(self, {-1});
  const Tensor is_nan_v = ops::ne(v, v);
  const Tensor mask = ops::logical_or(ops::eq(x, v), ops::logical_and(is_nan_v, ops::ne(x, x)));
  const Tensor count = ops::sum(mask);
  const Tensor zero = ops::lit(0.0);
  const Tensor finite = ops::logical_and(ops::logical_not(is_nan_v),
                                         ops::ne(ops::abs(v), ops::lit(std::numeric_limits<double>::infinity())));
  const Tensor exact = ops::sub(v, ops::div(ops::sum(ops::where(mask, ops::sub(ops::detach(x), x), zero)), count));
  const Tensor spread = ops::div(ops::sum(ops::where(mask, x, zero)), count);
  return ops::where(finite, exact, spread);
}

void register_selection_reductions(OpRegistry& registry) {
  for (const auto& [schema, largest] :
       {std::pair{"max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", true},
        std::pair{"min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", false}}) {
    OpDef& op = registry.add(schema, OpKind::Composite, "reduce",
                             largest ? "the largest value along dim and its index: the first of ties, the first NaN"
                                     : "the smallest value along dim and its index: the first of ties, the first NaN");
    op.decompose = [name = op.name(), largest = largest](const TensorList& in, const Attrs& attrs) -> TensorList {
      return extreme_along(in[0], attrs, name, largest);
    };
  }
  for (const auto& [name, ignore_nan] : {std::pair{"median", false}, std::pair{"nanmedian", true}}) {
    {
      OpDef& op = registry.add(
          fmt::format("{}.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", name),
          OpKind::Composite, "reduce",
          ignore_nan ? "the lower median of the non-NaN elements along dim and its index (NaN for a row of NaN)"
                     : "the lower median along dim and its index; a row holding NaN gives its first NaN");
      op.decompose = [op_name = op.name(), ignore_nan = ignore_nan](const TensorList& in,
                                                                    const Attrs& attrs) -> TensorList {
        return median_along(in[0], wrap_dim(attrs.get_int("dim"), in[0].dim(), op_name), attrs.get_bool("keepdim"),
                            ignore_nan, op_name);
      };
    }
    {
      OpDef& op =
          registry.add(fmt::format("{}(Tensor self) -> Tensor", name), OpKind::Composite, "reduce",
                       ignore_nan ? "the lower median of every non-NaN element; derivative split among ties"
                                  : "the lower median of every element (NaN if any); derivative split among ties");
      op.decompose = [op_name = op.name(), ignore_nan = ignore_nan](const TensorList& in, const Attrs&) -> TensorList {
        return {median_all(in[0], ignore_nan, op_name)};
      };
    }
  }
  {
    OpDef& op =
        registry.add("kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
                     OpKind::Composite, "reduce",
                     "the k-th smallest value along dim (position k-1 of the stable sort) and its index");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor& self = in[0];
      check_dtype("kthvalue", "self", self.dtype(), DTypeSet::NoBool);
      const std::int64_t dim = wrap_dim(attrs.get_int("dim"), self.dim(), "kthvalue");
      const std::int64_t size = self.dim() == 0 ? 1 : self.shape()[static_cast<std::size_t>(dim)];
      const std::int64_t k = attrs.get_int("k");
      FUNCSPEC_CHECK(k >= 1 && k <= size, ErrorKind::IndexOutOfRange,
                     "[kthvalue] k={} is out of range for dim {} of size {} (input shape {})", k, dim, size,
                     shape_to_string(self.shape()));
      if (self.dim() == 0) return select_rank0(self);
      const TensorList sorted = sorted_along(self, dim);
      Tensor values = ops::narrow(sorted[0], dim, k - 1, 1);
      Tensor indices = ops::narrow(sorted[1], dim, k - 1, 1);
      if (!attrs.get_bool("keepdim")) {
        values = ops::squeeze(values, {dim});
        indices = ops::squeeze(indices, {dim});
      }
      return {values, indices};
    };
  }
}

// nansum, nanmean: the sum (mean) of the non-NaN elements, as PyTorch's composites: NaN is replaced by
// 0 before summing, so its derivative is 0 and the others' that of sum (mean over the non-NaN count).
void register_nan_reductions(OpRegistry& registry) {
  {
    OpDef& op = registry.add(
        "nansum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        OpKind::Composite, "reduce", "sum over dim of the non-NaN elements (NaN counts as 0); sum's dtype rule");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor self = cast_for_accumulation(in, attrs)[0];
      const Tensor zeroed = is_floating(self.dtype()) ? ops::where(ops::ne(self, self), ops::lit(0.0), self) : self;
      return {call_one("sum", {zeroed}, dims_attrs(attrs, attrs.get_bool("keepdim")))};
    };
  }
  {
    OpDef& op = registry.add(
        "nanmean(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        OpKind::Composite, "reduce", "nansum over dim divided by the count of non-NaN elements (floating only)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const std::optional<DType> requested = attrs.get_optional_dtype("dtype");
      const Tensor self = requested ? cast_to(in[0], *requested) : in[0];
      check_dtype("nanmean", "self", self.dtype(), DTypeSet::Floating);
      const bool keepdim = attrs.get_bool("keepdim");
      const Tensor is_number = ops::eq(self, self);
      const Tensor total = call_one("sum", {ops::where(is_number, self, ops::lit(0.0))}, dims_attrs(attrs, keepdim));
      const Tensor count = call_one("sum", {is_number}, dims_attrs(attrs, keepdim));
      return {ops::div(total, count)};
    };
  }
  {
    OpDef& op = registry.add("count_nonzero(Tensor self, int? dim=None) -> Tensor", OpKind::Composite, "reduce",
                             "int64 count of the non-zero elements over dim (every dim when None); NaN counts");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor nonzero = ops::ne(in[0], ops::lit(false));
      const std::optional<std::int64_t> dim = attrs.get_optional_int("dim");
      return {ops::sum(nonzero,
                       dim ? ops::OptionalDims(std::vector<std::int64_t>{*dim}) : ops::OptionalDims(std::nullopt))};
    };
  }
}

// var_mean, std_mean: (var, mean) and (std, mean) over the same dims, as PyTorch's composites.
void register_moment_pairs(OpRegistry& registry) {
  for (const char* name : {"var_mean", "std_mean"}) {
    const bool is_std = std::string_view(name) == "std_mean";
    OpDef& op = registry.add(
        fmt::format("{}(Tensor self, int[]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, "
                    "Tensor)",
                    name),
        OpKind::Composite, "reduce",
        is_std ? "(std, mean) over dim: std's correction, mean's dims"
               : "(var, mean) over dim: var's correction, mean's dims");
    op.decompose = [is_std, op_name = op.name()](const TensorList& in, const Attrs& attrs) -> TensorList {
      const Tensor var = variance(in[0], attrs, op_name);
      const Tensor mean = call_one("mean", {in[0]}, dims_attrs(attrs, attrs.get_bool("keepdim")));
      return {is_std ? call_one("sqrt", {var}) : var, mean};
    };
  }
}

}  // namespace

void register_reduce_ops(OpRegistry& registry) {
  {
    OpDef& op = add_dims_reduction(
        registry, "sum(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "sum over dim (bool/int64 sum into int64; float32 accumulates in float64)", cpu::sum_kernel,
        FUNCSPEC_CUDA_KERNEL(cuda::sum_kernel), same_dtype, false);
    op.canonicalize = cast_for_accumulation;
    op.derive_out = true;
  }
  add_dims_reduction(registry,
                     "prod(Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
                     "product over dim (bool/int64 multiply into int64; float32 accumulates in float64)",
                     cpu::prod_kernel, FUNCSPEC_CUDA_KERNEL(cuda::prod_kernel), same_dtype, false)
      .canonicalize = cast_for_accumulation;
  add_dims_reduction(registry, "amax(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
                     "largest value over dim; NaN propagates; an empty reduction is an error", cpu::amax_kernel,
                     FUNCSPEC_CUDA_KERNEL(cuda::amax_kernel), same_dtype, true);
  add_dims_reduction(registry, "amin(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
                     "smallest value over dim; NaN propagates; an empty reduction is an error", cpu::amin_kernel,
                     FUNCSPEC_CUDA_KERNEL(cuda::amin_kernel), same_dtype, true);
  add_dims_reduction(registry, "all(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
                     "whether every element over dim is non-zero (True when empty)", cpu::all_kernel,
                     FUNCSPEC_CUDA_KERNEL(cuda::all_kernel), bool_dtype, false);
  add_dims_reduction(registry, "any(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
                     "whether some element over dim is non-zero (False when empty)", cpu::any_kernel,
                     FUNCSPEC_CUDA_KERNEL(cuda::any_kernel), bool_dtype, false);
  register_arg_reduction(registry, "argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
                         "int64 index of the first largest value over dim (of the flattened tensor when None); NaN "
                         "counts as largest",
                         cpu::argmax_kernel, FUNCSPEC_CUDA_KERNEL(cuda::argmax_kernel));
  register_arg_reduction(registry, "argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
                         "int64 index of the first smallest value over dim (of the flattened tensor when None); NaN "
                         "counts as smallest",
                         cpu::argmin_kernel, FUNCSPEC_CUDA_KERNEL(cuda::argmin_kernel));
  register_norm(registry);
  register_mean(registry);
  register_var_std(registry);
  register_logsumexp(registry);
  register_aminmax(registry);
  register_selection_reductions(registry);
  register_nan_reductions(registry);
  register_moment_pairs(registry);
}

}  // namespace funcspec
