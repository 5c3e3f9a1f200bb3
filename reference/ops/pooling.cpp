// The pooling ops of torch.nn.functional (docs/ops/pooling.md): max_pool1d/2d/3d (with indices),
// avg_pool1d/2d/3d, adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d (with indices) and
// lp_pool1d/2d and max_unpool1d/2d/3d, composites over sliding windows (NOTE: [sliding windows]) or, for the adaptive
// pools, over per-output masks of the input positions. A max pool picks one element per window by
// PyTorch's rule and gathers it, so its derivative routes the whole cotangent to that element
// (SPEC OPS-17.1); an average pool sums its window and divides by PyTorch's count (OPS-17.2).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"
#include "reference/ops/sliding_windows.h"

namespace funcspec {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The input as a batch: (N, C, spatial...) or an unbatched (C, spatial...) with a batch of one.
struct PoolInput {
  Tensor x;
  bool batched;
};

PoolInput checked_pool_input(std::string_view op, const Tensor& input, std::int64_t n) {
  check_dtype(op, "input", input.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(input.dim() == n + 1 || input.dim() == n + 2, ErrorKind::ShapeMismatch,
                 "[{}] expected a {}-D (C, {}) or {}-D (N, C, {}) input but got shape {}", op, n + 1,
                 spatial_dims_name(n), n + 2, spatial_dims_name(n), shape_to_string(input.shape()));
  const bool batched = input.dim() == n + 2;
  for (std::int64_t d = batched ? 1 : 0; d < input.dim(); ++d) {
    FUNCSPEC_CHECK(input.size(d) > 0, ErrorKind::ShapeMismatch,
                   "[{}] expected non-empty channel and spatial dims (a batch may be empty) but got shape {}", op,
                   shape_to_string(input.shape()));
  }
  return {batched ? input : ops::unsqueeze(input, 0), batched};
}

Tensor unbatch(const Tensor& y, bool batched) { return batched ? y : ops::squeeze(y, std::vector<std::int64_t>{0}); }

// The windows of a pool along each spatial dim: PyTorch's pooling_output_shape with ceil_mode (a
// last window must start inside the input or its left padding), and how far the input must be
// padded on the right so that exactly those windows fit.
struct PoolGeometry {
  std::vector<WindowGeometry> windows;
  std::vector<std::int64_t> padding, right_padding, outputs;
};

PoolGeometry pool_geometry(std::string_view op, const Tensor& x, std::int64_t n, const Attrs& attrs,
                           bool with_dilation) {
  PoolGeometry g;
  const auto kernel = spatial_list_at_least(op, "kernel_size", attrs.get_int_list("kernel_size"), n, 1);
  const auto& stride_attr = attrs.get_int_list("stride");
  const auto stride = stride_attr.empty() ? kernel : spatial_list_at_least(op, "stride", stride_attr, n, 1);
  g.padding = spatial_list_at_least(op, "padding", attrs.get_int_list("padding"), n, 0);
  const auto dilation = with_dilation ? spatial_list_at_least(op, "dilation", attrs.get_int_list("dilation"), n, 1)
                                      : std::vector<std::int64_t>(n, 1);
  const bool ceil_mode = attrs.get_bool("ceil_mode");
  for (std::int64_t i = 0; i < n; ++i) {
    const WindowGeometry w{kernel[i], stride[i], dilation[i]};
    // PyTorch bounds the padding by half the (undilated) kernel, so every window reads the input.
    FUNCSPEC_CHECK(g.padding[i] * 2 <= kernel[i], ErrorKind::InvalidArgument,
                   "[{}] padding {} must be at most half of kernel_size {}", op, shape_to_string(g.padding),
                   shape_to_string(kernel));
    const std::int64_t length = x.size(2 + i);
    const std::int64_t room = length + 2 * g.padding[i] - w.span();
    std::int64_t out = (room < 0 ? -1 : (ceil_mode ? (room + w.stride - 1) / w.stride : room / w.stride)) + 1;
    if (ceil_mode && out > 0 && (out - 1) * w.stride >= length + g.padding[i]) --out;
    FUNCSPEC_CHECK(out >= 1, ErrorKind::ShapeMismatch,
                   "[{}] an input of shape {} gives an output of size {} along spatial dim {}, too small", op,
                   shape_to_string(x.shape()), out, i);
    g.windows.push_back(w);
    g.outputs.push_back(out);
    g.right_padding.push_back((out - 1) * w.stride + w.span() - length - g.padding[i]);
  }
  return g;
}

// `t` padded by the pool's padding on the left and its right_padding on the right with `value`
// (a negative right padding crops positions no window reads).
Tensor pad_for_windows(const Tensor& t, const PoolGeometry& g, double value) {
  std::vector<std::int64_t> pads;
  bool any = false;
  for (std::size_t i = g.padding.size(); i-- > 0;) {
    pads.push_back(g.padding[i]);
    pads.push_back(g.right_padding[i]);
    any = any || g.padding[i] != 0 || g.right_padding[i] != 0;
  }
  return any ? ops::pad(t, pads, Scalar(value)) : t;
}

// [..., O_1, k_1, ..., O_n, k_n] -> [..., O_1, ..., O_n, k_1 * ... * k_n]
Tensor taps_last(const Tensor& windows, std::int64_t n) {
  const std::int64_t first = windows.dim() - 2 * n;
  std::vector<std::int64_t> order;
  for (std::int64_t d = 0; d < first; ++d) order.push_back(d);
  for (std::int64_t i = 0; i < n; ++i) order.push_back(first + 2 * i);
  for (std::int64_t i = 0; i < n; ++i) order.push_back(first + 2 * i + 1);
  return ops::flatten(ops::permute(windows, order), first + n, -1);
}

// The flat input position (row-major over the spatial dims) of every element of `shape`'s spatial
// dims, int64 on `device`.
Tensor spatial_positions(const Shape& spatial, Device device) {
  std::int64_t count = 1;
  for (std::int64_t s : spatial) count *= s;
  return ops::reshape(ops::arange(0, count, 1, DType::Int64, std::string(device_name(device))), spatial);
}

// Which element of each candidate row PyTorch's max kernels pick: scanning in order, an element
// replaces the pick when it is greater or NaN, so the last NaN wins, else the first of the largest
// values (the first valid element when all are -inf). `values` [..., T], `valid` broadcast to it;
// the result is int64 [..., 1].
Tensor pick_max(const Tensor& values, const Tensor& valid) {
  const Tensor largest = ops::amax(ops::where(valid, values, ops::lit(-kInf)), std::vector<std::int64_t>{-1}, true);
  const Tensor first_largest =
      ops::argmax(ops::to_dtype(ops::logical_and(valid, ops::eq(values, largest)), DType::Int64), -1, true);
  const Tensor is_nan = ops::to_dtype(ops::logical_and(valid, ops::ne(values, values)), DType::Int64);
  const std::int64_t last = values.size(-1) - 1;
  const Tensor last_nan = ops::sub(ops::lit(last), ops::argmax(ops::flip(is_nan, {-1}), -1, true));
  return ops::where(ops::any(ops::to_dtype(is_nan, DType::Bool), std::vector<std::int64_t>{-1}, true), last_nan,
                    first_largest);
}

TensorList max_pool(std::string_view op, std::int64_t n, const Tensor& input, const Attrs& attrs) {
  const PoolInput in = checked_pool_input(op, input, n);
  const PoolGeometry g = pool_geometry(op, in.x, n, attrs, true);
  // Padding reads as -inf with position -1, which the pick never takes.
  const Tensor windows = taps_last(gather_windows(pad_for_windows(in.x, g, -kInf), g.windows), n);
  const Shape spatial(in.x.shape().begin() + 2, in.x.shape().end());
  // [1, 1, O_1, .., O_n, taps]: the same positions for every sample and channel.
  const Tensor positions = ops::unsqueeze(
      ops::unsqueeze(
          taps_last(gather_windows(pad_for_windows(spatial_positions(spatial, in.x.device()), g, -1.0), g.windows), n),
          0),
      0);
  const Tensor pick = pick_max(windows, ops::ge(positions, ops::lit(std::int64_t{0})));
  const Tensor values = ops::squeeze(ops::take_along_dim(windows, pick, -1), std::vector<std::int64_t>{-1});
  const Tensor indices = ops::squeeze(ops::take_along_dim(positions, pick, -1), std::vector<std::int64_t>{-1});
  return {unbatch(values, in.batched), unbatch(indices, in.batched)};
}

Tensor avg_pool(std::string_view op, std::int64_t n, const Tensor& input, const Attrs& attrs) {
  const PoolInput in = checked_pool_input(op, input, n);
  const PoolGeometry g = pool_geometry(op, in.x, n, attrs, false);
  const std::optional<std::int64_t> divisor_override =
      attrs.has("divisor_override") ? attrs.get_optional_int("divisor_override") : std::nullopt;
  FUNCSPEC_CHECK(!divisor_override || *divisor_override != 0, ErrorKind::InvalidArgument,
                 "[{}] divisor_override must not be zero", op);
  const Tensor sums =
      ops::sum(taps_last(gather_windows(pad_for_windows(in.x, g, 0.0), g.windows), n), std::vector<std::int64_t>{-1});
  Tensor divisor;
  if (divisor_override) {
    divisor = ops::lit(static_cast<double>(*divisor_override));
  } else {
    // PyTorch's count: the window's positions inside the padded input (count_include_pad) or inside
    // the input itself; positions past the padding, which only ceil_mode windows reach, never count.
    const Shape spatial(in.x.shape().begin() + 2, in.x.shape().end());
    const std::string device(device_name(in.x.device()));
    Tensor counted = ops::ones(spatial, in.x.dtype(), device);
    std::vector<std::int64_t> pads;
    for (std::size_t i = g.padding.size(); i-- > 0;) {
      pads.push_back(g.padding[i]);
      pads.push_back(g.padding[i]);
    }
    counted = ops::pad(counted, pads, Scalar(attrs.get_bool("count_include_pad") ? 1.0 : 0.0));
    PoolGeometry beyond = g;
    for (std::size_t i = 0; i < beyond.padding.size(); ++i) {
      beyond.right_padding[i] -= g.padding[i];
      beyond.padding[i] = 0;
    }
    divisor = ops::sum(taps_last(gather_windows(pad_for_windows(counted, beyond, 0.0), g.windows), n),
                       std::vector<std::int64_t>{-1});
  }
  return unbatch(ops::div(sums, divisor), in.batched);
}

// The mask [O, L] of the positions output i of an adaptive pool reads: [floor(i L / O), ceil((i + 1)
// L / O)), as PyTorch's start_index and end_index.
Tensor adaptive_mask(std::int64_t out, std::int64_t length, Device device) {
  const std::string where(device_name(device));
  const Tensor i = ops::unsqueeze(ops::arange(0, out, 1, DType::Int64, where), 1);
  const Tensor l = ops::arange(0, length, 1, DType::Int64, where);
  const Tensor start = ops::div(ops::mul(i, ops::lit(length)), ops::lit(out), std::string("floor"));
  const Tensor end =
      ops::div(ops::add(ops::mul(ops::add(i, ops::lit(std::int64_t{1})), ops::lit(length)), ops::lit(out - 1)),
               ops::lit(out), std::string("floor"));
  return ops::logical_and(ops::ge(l, start), ops::lt(l, end));
}

std::vector<std::int64_t> adaptive_output_size(std::string_view op, const Attrs& attrs, std::int64_t n) {
  return spatial_list_at_least(op, "output_size", attrs.get_int_list("output_size"), n, 0);
}

Tensor adaptive_avg_pool(std::string_view op, std::int64_t n, const Tensor& input, const Attrs& attrs) {
  const PoolInput in = checked_pool_input(op, input, n);
  const auto outputs = adaptive_output_size(op, attrs, n);
  // One averaging matrix per spatial dim, mask / count, contracted with the input by one einsum.
  std::string input_labels = "nc", out_labels = "nc", equation_rest;
  TensorList operands{in.x};
  const char* in_letters = "hw";
  const char* out_letters = "yx";
  for (std::int64_t i = 0; i < n; ++i) {
    const Tensor mask = ops::to_dtype(adaptive_mask(outputs[i], in.x.size(2 + i), in.x.device()), in.x.dtype());
    operands.push_back(ops::div(mask, ops::sum(mask, std::vector<std::int64_t>{1}, true)));
    input_labels += in_letters[i];
    out_labels += out_letters[i];
    equation_rest += std::string(",") + out_letters[i] + in_letters[i];
  }
  return unbatch(ops::einsum(input_labels + equation_rest + "->" + out_labels, operands), in.batched);
}

TensorList adaptive_max_pool(std::string_view op, std::int64_t n, const Tensor& input, const Attrs& attrs) {
  const PoolInput in = checked_pool_input(op, input, n);
  const auto outputs = adaptive_output_size(op, attrs, n);
  // valid [O_1, .., O_n, L_1 * .. * L_n]: the input positions each output reads (n is 1 or 2).
  const Tensor first = adaptive_mask(outputs[0], in.x.size(2), in.x.device());
  Tensor valid = first;
  if (n == 2) {
    const Tensor second = adaptive_mask(outputs[1], in.x.size(3), in.x.device());
    // [O_1, 1, L_1, 1] & [O_2, 1, L_2] -> [O_1, O_2, L_1, L_2]
    valid =
        ops::flatten(ops::logical_and(ops::unsqueeze(ops::unsqueeze(first, 1), -1), ops::unsqueeze(second, 1)), -2, -1);
  }
  // Every example's positions in one last dim, against every output: [N, C, 1, .., 1, P].
  Tensor flat = ops::flatten(in.x, 2, -1);
  for (std::int64_t i = 0; i < n; ++i) flat = ops::unsqueeze(flat, 2);
  const Tensor pick = pick_max(flat, valid);
  const Tensor values = ops::squeeze(ops::take_along_dim(flat, pick, -1), std::vector<std::int64_t>{-1});
  const Tensor indices = ops::squeeze(pick, std::vector<std::int64_t>{-1});
  return {unbatch(values, in.batched), unbatch(indices, in.batched)};
}

Tensor lp_pool(std::string_view op, std::int64_t n, const Tensor& input, const Attrs& attrs) {
  const double p = attrs.get_float("norm_type");
  FUNCSPEC_CHECK(p > 0 && std::isfinite(p), ErrorKind::InvalidArgument,
                 "[{}] norm_type must be positive and finite but is {}", op, p);
  Attrs avg{{"kernel_size", attrs.get_int_list("kernel_size")},
            {"stride", attrs.get_int_list("stride")},
            {"padding", std::vector<std::int64_t>{0}},
            {"ceil_mode", attrs.get_bool("ceil_mode")},
            {"count_include_pad", true}};
  const Tensor out = avg_pool(op, n, ops::pow(input, ops::lit(p)), avg);
  std::int64_t taps = 1;
  for (std::int64_t k : per_spatial_dim(op, "kernel_size", attrs.get_int_list("kernel_size"), n)) taps *= k;
  // F.lp_pool*d's own composite: (sign(out) * relu(|out|)) * prod(kernel), to the power 1 / p.
  const Tensor kept = ops::mul(ops::sign(out), ops::relu(ops::abs(out)));
  return ops::pow(ops::mul(kept, ops::lit(static_cast<double>(taps))), ops::lit(1.0 / p));
}

// A max unpool's output sizes: output_size's last n entries (it has n or n + 2), each strictly
// between default - stride and default + stride, or the default (in - 1) stride - 2 padding +
// kernel, the size the max pool that made the indices read (F._unpool_output_size). As in PyTorch,
// kernel_size, stride and padding only size the output: any values are accepted.
std::vector<std::int64_t> unpool_output_size(std::string_view op, const Tensor& x, std::int64_t n, const Attrs& attrs) {
  const auto kernel = per_spatial_dim(op, "kernel_size", attrs.get_int_list("kernel_size"), n);
  const auto& stride_attr = attrs.get_int_list("stride");
  const auto stride = stride_attr.empty() ? kernel : per_spatial_dim(op, "stride", stride_attr, n);
  const auto padding = per_spatial_dim(op, "padding", attrs.get_int_list("padding"), n);
  std::vector<std::int64_t> sizes;
  for (std::int64_t i = 0; i < n; ++i) sizes.push_back((x.size(2 + i) - 1) * stride[i] + kernel[i] - 2 * padding[i]);
  const auto& requested = attrs.get_int_list("output_size");
  if (!requested.empty()) {
    const auto count = static_cast<std::int64_t>(requested.size());
    FUNCSPEC_CHECK(count == n || count == n + 2, ErrorKind::InvalidArgument,
                   "[{}] output_size {} must have {} or {} elements", op, shape_to_string(requested), n, n + 2);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t size = requested[count - n + i];
      FUNCSPEC_CHECK(sizes[i] - stride[i] < size && size < sizes[i] + stride[i], ErrorKind::InvalidArgument,
                     "[{}] output_size {} must lie strictly between {} and {} along spatial dim {}", op,
                     shape_to_string(requested), sizes[i] - stride[i], sizes[i] + stride[i], i);
      sizes[i] = size;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) {
    FUNCSPEC_CHECK(sizes[i] >= 0, ErrorKind::InvalidArgument,
                   "[{}] kernel_size, stride and padding give the negative output size {} along spatial dim {}", op,
                   sizes[i], i);
  }
  return sizes;
}

// Each input element written at its flat position in its (N, C) plane of zeros (SPEC OPS-17.4).
// Where several elements name one position, the last in the input's order writes it, as PyTorch's
// cpu loop does; the others do not reach the output, so their derivative is 0. Finding the last
// compares every pair of positions in a plane: quadratic in the plane's size, which the reference
// accepts for a rule that needs no sort.
Tensor max_unpool(std::string_view op, std::int64_t n, const Tensor& input, const Tensor& indices, const Attrs& attrs) {
  const PoolInput in = checked_pool_input(op, input, n);
  check_dtype(op, "indices", indices.dtype(), DTypeSet::Integral);
  FUNCSPEC_CHECK(indices.shape() == input.shape(), ErrorKind::ShapeMismatch,
                 "[{}] indices of shape {} must have the input's shape {}", op, shape_to_string(indices.shape()),
                 shape_to_string(input.shape()));
  const std::vector<std::int64_t> outputs = unpool_output_size(op, in.x, n, attrs);
  std::int64_t plane = 1;
  for (std::int64_t size : outputs) plane *= size;
  const Tensor x = ops::flatten(in.x, 2, -1);
  const Tensor index = ops::flatten(in.batched ? indices : ops::unsqueeze(indices, 0), 2, -1);
  const std::string where(device_name(x.device()));
  const Tensor order = ops::arange(0, x.size(2), 1, DType::Int64, where);
  const Tensor later = ops::lt(ops::unsqueeze(order, 1), order);  // [j, k]: k comes after j
  const Tensor same = ops::eq(ops::unsqueeze(index, -1), ops::unsqueeze(index, -2));
  const Tensor overwritten = ops::any(ops::logical_and(same, later), std::vector<std::int64_t>{-1});
  const Tensor written = ops::where(overwritten, ops::zeros_like(x), x);
  const Tensor planes = ops::zeros({x.size(0), x.size(1), plane}, x.dtype(), where);
  std::vector<std::int64_t> shape{x.size(0), x.size(1)};
  shape.insert(shape.end(), outputs.begin(), outputs.end());
  return unbatch(ops::reshape(ops::scatter_add(planes, 2, index, written), shape), in.batched);
}

}  // namespace

void register_pooling_ops(OpRegistry& registry) {
  for (const std::int64_t n : {1, 2, 3}) {
    const std::string spatial = spatial_dims_name(n);
    const std::string window_args =
        "int[] kernel_size, int[] stride=[], int[] padding=[0], int[] dilation=[1], bool ceil_mode=False";
    {
      const std::string name = fmt::format("max_pool{}d_with_indices", n);
      OpDef& op = registry.add(
          fmt::format("{}(Tensor input, *, {}) -> (Tensor values, Tensor indices)", name, window_args),
          OpKind::Composite, "pooling",
          fmt::format("the largest element of each window of an (N, C, {}) input (the last NaN, else the first of "
                      "ties) and its flat position in the input's spatial dims",
                      spatial));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) { return max_pool(name, n, in[0], attrs); };
    }
    {
      const std::string name = fmt::format("max_pool{}d", n);
      OpDef& op = registry.add(fmt::format("{}(Tensor input, *, {}) -> Tensor", name, window_args), OpKind::Composite,
                               "pooling", fmt::format("max_pool{}d_with_indices' values", n));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
        return {max_pool(name, n, in[0], attrs)[0]};
      };
    }
    {
      const std::string name = fmt::format("avg_pool{}d", n);
      const std::string divisor = n == 1 ? "" : ", int? divisor_override=None";
      OpDef& op = registry.add(
          fmt::format("{}(Tensor input, *, int[] kernel_size, int[] stride=[], int[] padding=[0], bool "
                      "ceil_mode=False, bool count_include_pad=True{}) -> Tensor",
                      name, divisor),
          OpKind::Composite, "pooling",
          fmt::format("the mean of each window of an (N, C, {}) input, zeros padded, divided by PyTorch's count",
                      spatial));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
        return {avg_pool(name, n, in[0], attrs)};
      };
    }
  }
  for (const std::int64_t n : {1, 2, 3}) {
    const std::string name = fmt::format("max_unpool{}d", n);
    OpDef& op = registry.add(
        fmt::format("{}(Tensor input, Tensor indices, *, int[] kernel_size, int[] stride=[], int[] padding=[0], "
                    "int[] output_size=[]) -> Tensor",
                    name),
        OpKind::Composite, "pooling",
        fmt::format("max_pool{}d's inverse: each element of an (N, C, {}) input at its flat position (indices) in "
                    "planes of zeros; the last of repeated positions wins",
                    n, spatial_dims_name(n)));
    op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {max_unpool(name, n, in[0], in[1], attrs)};
    };
  }
  for (const std::int64_t n : {1, 2}) {
    const std::string spatial = spatial_dims_name(n);
    {
      const std::string name = fmt::format("adaptive_avg_pool{}d", n);
      OpDef& op = registry.add(fmt::format("{}(Tensor input, *, int[] output_size) -> Tensor", name), OpKind::Composite,
                               "pooling",
                               fmt::format("the mean of input positions [floor(i L / O), ceil((i + 1) L / O)) for "
                                           "each output i of an (N, C, {}) input",
                                           spatial));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
        return {adaptive_avg_pool(name, n, in[0], attrs)};
      };
    }
    {
      const std::string name = fmt::format("adaptive_max_pool{}d_with_indices", n);
      OpDef& op = registry.add(
          fmt::format("{}(Tensor input, *, int[] output_size) -> (Tensor values, Tensor indices)", name),
          OpKind::Composite, "pooling",
          fmt::format("the largest of input positions [floor(i L / O), ceil((i + 1) L / O)) per output of an (N, C, "
                      "{}) input, and its flat position",
                      spatial));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) {
        return adaptive_max_pool(name, n, in[0], attrs);
      };
    }
    {
      const std::string name = fmt::format("adaptive_max_pool{}d", n);
      OpDef& op = registry.add(fmt::format("{}(Tensor input, *, int[] output_size) -> Tensor", name), OpKind::Composite,
                               "pooling", fmt::format("adaptive_max_pool{}d_with_indices' values", n));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
        return {adaptive_max_pool(name, n, in[0], attrs)[0]};
      };
    }
    {
      const std::string name = fmt::format("lp_pool{}d", n);
      OpDef& op = registry.add(
          fmt::format("{}(Tensor input, *, float norm_type, int[] kernel_size, int[] stride=[], bool ceil_mode=False) "
                      "-> Tensor",
                      name),
          OpKind::Composite, "pooling",
          fmt::format("(sum of x^p over each window of an (N, C, {}) input)^(1/p), as F.lp_pool{}d's composite",
                      spatial, n));
      op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
        return {lp_pool(name, n, in[0], attrs)};
      };
    }
  }
}

}  // namespace funcspec
