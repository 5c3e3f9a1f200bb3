// The convolution family of torch.nn.functional (docs/ops/convolution.md): conv1d/2d/3d (explicit,
// 'same' and 'valid' padding), conv_transpose1d/2d/3d, unfold and fold, all composites over sliding
// windows (NOTE: [sliding windows]) and one einsum. A convolution gathers its input's windows and
// contracts them with the weight; a transposed convolution contracts first and scatters the products
// back over the windows, which is the adjoint of the convolution in its input, as PyTorch defines it.
// PyTorch's own kernels are primitives with hand-written backward formulas; these composites are the
// same function exactly, so every derivative and batching rule comes from index_select's,
// index_add's, einsum's and pad's (SPEC OPS-16.1).
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"
#include "reference/ops/sliding_windows.h"

namespace funcspec {
namespace {

// Letters of the einsum equations: spatial output dims, kernel taps.
constexpr char kSpatialLabels[] = "xyz";
constexpr char kTapLabels[] = "ijk";

// The checks and geometry shared by convolutions and transposed convolutions of `n` spatial dims.
struct ConvCall {
  std::int64_t n = 0;
  bool batched = true;
  std::int64_t groups = 1;
  std::vector<WindowGeometry> geometry;  // kernel from the weight, stride, dilation
  std::vector<std::int64_t> padding;
};

ConvCall checked_conv_call(std::string_view op, std::int64_t n, const Tensor& input, const Tensor& weight,
                           const Tensor& bias, const Attrs& attrs) {
  check_dtype(op, "input", input.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(weight.dtype() == input.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] input has dtype {} but weight has dtype {}; they must be equal", op, dtype_name(input.dtype()),
                 dtype_name(weight.dtype()));
  FUNCSPEC_CHECK(!bias.defined() || bias.dtype() == input.dtype(), ErrorKind::DtypeNotSupported,
                 "[{}] input has dtype {} but bias has dtype {}; they must be equal", op, dtype_name(input.dtype()),
                 dtype_name(bias.dtype()));
  FUNCSPEC_CHECK(input.dim() == n + 1 || input.dim() == n + 2, ErrorKind::ShapeMismatch,
                 "[{}] expected a {}-D (unbatched: C, {}) or {}-D (batched: N, C, {}) input but got shape {}", op,
                 n + 1, spatial_dims_name(n), n + 2, spatial_dims_name(n), shape_to_string(input.shape()));
  FUNCSPEC_CHECK(weight.dim() == n + 2, ErrorKind::ShapeMismatch, "[{}] expected a {}-D weight but got shape {}", op,
                 n + 2, shape_to_string(weight.shape()));
  ConvCall call;
  call.n = n;
  call.batched = input.dim() == n + 2;
  call.groups = attrs.get_int("groups");
  FUNCSPEC_CHECK(call.groups > 0, ErrorKind::InvalidArgument, "[{}] groups must be positive but is {}", op,
                 call.groups);
  const auto stride = spatial_list_at_least(op, "stride", attrs.get_int_list("stride"), n, 1);
  const auto dilation = spatial_list_at_least(op, "dilation", attrs.get_int_list("dilation"), n, 1);
  for (std::int64_t i = 0; i < n; ++i) call.geometry.push_back({weight.size(2 + i), stride[i], dilation[i]});
  return call;
}

void check_bias(std::string_view op, const Tensor& bias, std::int64_t out_channels) {
  if (!bias.defined()) return;
  FUNCSPEC_CHECK(bias.dim() == 1 && bias.size(0) == out_channels, ErrorKind::ShapeMismatch,
                 "[{}] expected bias to be 1-D with {} elements (the output channels) but got shape {}", op,
                 out_channels, shape_to_string(bias.shape()));
}

// `pad` (constant 0) with (before, after) per spatial dim, in F.pad's order (last dim first); no op
// when there is nothing to pad or crop.
Tensor pad_spatial(const Tensor& x, const std::vector<std::int64_t>& before, const std::vector<std::int64_t>& after) {
  std::vector<std::int64_t> pads;
  bool any = false;
  for (std::size_t i = before.size(); i-- > 0;) {
    pads.push_back(before[i]);
    pads.push_back(after[i]);
    any = any || before[i] != 0 || after[i] != 0;
  }
  return any ? ops::pad(x, pads) : x;
}

// `y` [N, C_out, spatial...] plus the bias along C_out, without N for an unbatched call.
Tensor biased_result(const Tensor& y, const Tensor& bias, const ConvCall& call) {
  Tensor out = y;
  if (bias.defined()) {
    std::vector<std::int64_t> shape{bias.size(0)};
    shape.resize(call.n + 1, 1);
    out = ops::add(y, ops::reshape(bias, shape));
  }
  return call.batched ? out : ops::squeeze(out, std::vector<std::int64_t>{0});
}

// input [N, C, L_1..L_n] (or without N), weight [C_out, C / groups, k_1..k_n]; padding (before,
// after) per spatial dim, already checked.
Tensor convolution(std::string_view op, const ConvCall& call, const Tensor& input, const Tensor& weight,
                   const Tensor& bias, const std::vector<std::int64_t>& before,
                   const std::vector<std::int64_t>& after) {
  const Tensor x = call.batched ? input : ops::unsqueeze(input, 0);
  const std::int64_t channels = x.size(1);
  const std::int64_t out_channels = weight.size(0);
  FUNCSPEC_CHECK(out_channels % call.groups == 0, ErrorKind::ShapeMismatch,
                 "[{}] groups={} must divide the weight's output channels, dim 0 of shape {}", op, call.groups,
                 shape_to_string(weight.shape()));
  FUNCSPEC_CHECK(channels == weight.size(1) * call.groups, ErrorKind::ShapeMismatch,
                 "[{}] with groups={} and a weight of shape {}, expected the input to have {} channels but it has "
                 "shape {}",
                 op, call.groups, shape_to_string(weight.shape()), weight.size(1) * call.groups,
                 shape_to_string(input.shape()));
  check_bias(op, bias, out_channels);
  for (std::int64_t i = 0; i < call.n; ++i) {
    const std::int64_t padded = x.size(2 + i) + before[i] + after[i];
    FUNCSPEC_CHECK(call.geometry[i].span() <= padded, ErrorKind::ShapeMismatch,
                   "[{}] the dilated kernel spans {} positions along spatial dim {} but the padded input has {} "
                   "(input shape {}, weight shape {})",
                   op, call.geometry[i].span(), i, padded, shape_to_string(input.shape()),
                   shape_to_string(weight.shape()));
  }
  // windows [N, groups, C / groups, O_1, k_1, ..., O_n, k_n] against weight [groups, C_out / groups,
  // C / groups, k_1..k_n]: one einsum sums each output over its channels and taps.
  const Tensor windows =
      ops::unflatten(gather_windows(pad_spatial(x, before, after), call.geometry), 1, {call.groups, -1});
  const Tensor w = ops::unflatten(weight, 0, {call.groups, -1});
  std::string windows_labels = "ngc", weight_labels = "gfc", out_labels = "ngf";
  for (std::int64_t i = 0; i < call.n; ++i) {
    windows_labels += {kSpatialLabels[i], kTapLabels[i]};
    weight_labels += kTapLabels[i];
    out_labels += kSpatialLabels[i];
  }
  return biased_result(
      ops::flatten(ops::einsum(windows_labels + "," + weight_labels + "->" + out_labels, {windows, w}), 1, 2), bias,
      call);
}

void register_conv(OpRegistry& registry, std::int64_t n) {
  const std::string name = fmt::format("conv{}d", n);
  {
    OpDef& op = registry.add(
        fmt::format("{}(Tensor input, Tensor weight, Tensor? bias=None, *, int[] stride=[1], int[] padding=[0], "
                    "int[] dilation=[1], int groups=1) -> Tensor",
                    name),
        OpKind::Composite, "convolution",
        fmt::format("the {}-D cross-correlation of an (N, C, {}) input with a (C_out, C / groups, k...) weight, "
                    "plus bias; padding in zeros on both sides",
                    n, spatial_dims_name(n)));
    op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
      const ConvCall call = checked_conv_call(name, n, in[0], in[1], in[2], attrs);
      const auto padding = spatial_list_at_least(name, "padding", attrs.get_int_list("padding"), n, 0);
      return {convolution(name, call, in[0], in[1], in[2], padding, padding)};
    };
  }
  {
    const std::string overload = name + ".padding";
    OpDef& op = registry.add(
        fmt::format("{}(Tensor input, Tensor weight, Tensor? bias=None, *, int[] stride=[1], str padding='valid', "
                    "int[] dilation=[1], int groups=1) -> Tensor",
                    overload),
        OpKind::Composite, "convolution",
        fmt::format("{} with padding 'valid' (none) or 'same' (the output keeps the input's size: dilation * "
                    "(k - 1) zeros per dim, the odd one after)",
                    name));
    op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
      const ConvCall call = checked_conv_call(name, n, in[0], in[1], in[2], attrs);
      const std::string mode = attrs.get_string("padding");
      FUNCSPEC_CHECK(mode == "valid" || mode == "same", ErrorKind::InvalidArgument,
                     "[{}] padding must be 'valid' or 'same' but is '{}'", name, mode);
      std::vector<std::int64_t> before(n, 0), after(n, 0);
      if (mode == "same") {
        for (std::int64_t i = 0; i < n; ++i) {
          FUNCSPEC_CHECK(call.geometry[i].stride == 1, ErrorKind::InvalidArgument,
                         "[{}] padding='same' is not supported for strided convolutions", name);
          // PyTorch's _convolution_same: the total d * (k - 1), the larger half after.
          const std::int64_t total = call.geometry[i].span() - 1;
          before[i] = total / 2;
          after[i] = total - total / 2;
        }
      }
      return {convolution(name, call, in[0], in[1], in[2], before, after)};
    };
  }
}

// input [N, C_in, L_1..L_n] (or without N), weight [C_in, C_out / groups, k_1..k_n]: every input
// element times the kernel is added into the output at o*s + j*d, then `padding` is cropped from
// both sides and `output_padding` more positions are kept (zeros past the last product) at the end.
Tensor transposed_convolution(std::string_view op, const ConvCall& call, const Tensor& input, const Tensor& weight,
                              const Tensor& bias, const std::vector<std::int64_t>& output_padding) {
  const Tensor x = call.batched ? input : ops::unsqueeze(input, 0);
  const std::int64_t channels = x.size(1);
  FUNCSPEC_CHECK(weight.size(0) % call.groups == 0, ErrorKind::ShapeMismatch,
                 "[{}] groups={} must divide the weight's input channels, dim 0 of shape {}", op, call.groups,
                 shape_to_string(weight.shape()));
  FUNCSPEC_CHECK(channels == weight.size(0), ErrorKind::ShapeMismatch,
                 "[{}] a weight of shape {} expects an input with {} channels but it has shape {}", op,
                 shape_to_string(weight.shape()), weight.size(0), shape_to_string(input.shape()));
  const std::int64_t out_channels = weight.size(1) * call.groups;
  check_bias(op, bias, out_channels);
  std::vector<std::int64_t> full(call.n), crop_before(call.n), crop_after(call.n);
  for (std::int64_t i = 0; i < call.n; ++i) {
    const WindowGeometry& g = call.geometry[i];
    FUNCSPEC_CHECK(output_padding[i] < std::max(g.stride, g.dilation), ErrorKind::InvalidArgument,
                   "[{}] output_padding {} must be smaller than either stride or dilation along spatial dim {}", op,
                   output_padding[i], i);
    const std::int64_t length = x.size(2 + i);
    full[i] = (length - 1) * g.stride + g.span();
    const std::int64_t out = full[i] - 2 * call.padding[i] + output_padding[i];
    FUNCSPEC_CHECK(length >= 1 && out >= 1, ErrorKind::ShapeMismatch,
                   "[{}] an input of shape {} gives an output of size {} along spatial dim {}, too small", op,
                   shape_to_string(input.shape()), out, i);
    crop_before[i] = -call.padding[i];
    crop_after[i] = output_padding[i] - call.padding[i];
  }
  // products [N, groups, C_out / groups, L_1, k_1, ..., L_n, k_n] of input [N, groups, C_in /
  // groups, L...] and weight [groups, C_in / groups, C_out / groups, k...], summed over the input
  // channels, then scattered over the windows.
  const Tensor xs = ops::unflatten(x, 1, {call.groups, -1});
  const Tensor w = ops::unflatten(weight, 0, {call.groups, -1});
  std::string input_labels = "ngc", weight_labels = "gcf", product_labels = "ngf";
  for (std::int64_t i = 0; i < call.n; ++i) {
    input_labels += kSpatialLabels[i];
    weight_labels += kTapLabels[i];
    product_labels += {kSpatialLabels[i], kTapLabels[i]};
  }
  const Tensor products =
      ops::flatten(ops::einsum(input_labels + "," + weight_labels + "->" + product_labels, {xs, w}), 1, 2);
  return biased_result(pad_spatial(scatter_windows(products, call.geometry, full), crop_before, crop_after), bias,
                       call);
}

void register_conv_transpose(OpRegistry& registry, std::int64_t n) {
  const std::string name = fmt::format("conv_transpose{}d", n);
  OpDef& op = registry.add(
      fmt::format("{}(Tensor input, Tensor weight, Tensor? bias=None, *, int[] stride=[1], int[] padding=[0], "
                  "int[] output_padding=[0], int groups=1, int[] dilation=[1]) -> Tensor",
                  name),
      OpKind::Composite, "convolution",
      fmt::format("the {}-D transposed convolution (the adjoint of conv{}d in its input) of an (N, C_in, {}) input "
                  "with a (C_in, C_out / groups, k...) weight, plus bias",
                  n, n, spatial_dims_name(n)));
  op.decompose = [name, n](const TensorList& in, const Attrs& attrs) -> TensorList {
    ConvCall call = checked_conv_call(name, n, in[0], in[1], in[2], attrs);
    call.padding = spatial_list_at_least(name, "padding", attrs.get_int_list("padding"), n, 0);
    const auto output_padding =
        spatial_list_at_least(name, "output_padding", attrs.get_int_list("output_padding"), n, 0);
    return {transposed_convolution(name, call, in[0], in[1], in[2], output_padding)};
  };
}

// unfold's and fold's attributes, for their two spatial dims.
struct BlockCall {
  std::vector<WindowGeometry> geometry;
  std::vector<std::int64_t> padding;
};

BlockCall checked_block_call(std::string_view op, const Attrs& attrs) {
  const auto kernel = spatial_list_at_least(op, "kernel_size", attrs.get_int_list("kernel_size"), 2, 1);
  const auto dilation = spatial_list_at_least(op, "dilation", attrs.get_int_list("dilation"), 2, 1);
  const auto stride = spatial_list_at_least(op, "stride", attrs.get_int_list("stride"), 2, 1);
  BlockCall call;
  call.padding = spatial_list_at_least(op, "padding", attrs.get_int_list("padding"), 2, 0);
  for (int i = 0; i < 2; ++i) call.geometry.push_back({kernel[i], stride[i], dilation[i]});
  return call;
}

// The number of blocks along each spatial dim of `sizes` padded, each at least one.
std::vector<std::int64_t> block_counts(std::string_view op, const BlockCall& call, std::int64_t h, std::int64_t w) {
  const std::int64_t sizes[] = {h, w};
  std::vector<std::int64_t> counts;
  for (int i = 0; i < 2; ++i) counts.push_back(call.geometry[i].count(sizes[i] + 2 * call.padding[i]));
  FUNCSPEC_CHECK(counts[0] >= 1 && counts[1] >= 1, ErrorKind::ShapeMismatch,
                 "[{}] a spatial size of ({}, {}) padded by {} holds no block of a kernel spanning ({}, {})", op, h, w,
                 shape_to_string(call.padding), call.geometry[0].span(), call.geometry[1].span());
  return counts;
}

void register_unfold(OpRegistry& registry) {
  OpDef& op = registry.add(
      "unfold(Tensor input, *, int[] kernel_size, int[] dilation=[1], int[] padding=[0], int[] stride=[1]) -> "
      "Tensor",
      OpKind::Composite, "convolution",
      "F.unfold (im2col): the sliding blocks of an (N, C, H, W) or (C, H, W) input as columns, (N, C * kh * kw, "
      "blocks)");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& input = in[0];
    FUNCSPEC_CHECK(input.dim() == 3 || input.dim() == 4, ErrorKind::ShapeMismatch,
                   "[unfold] expected a 3-D (C, H, W) or 4-D (N, C, H, W) input but got shape {}",
                   shape_to_string(input.shape()));
    check_dtype("unfold", "input", input.dtype(), DTypeSet::Floating);
    const BlockCall call = checked_block_call("unfold", attrs);
    const bool batched = input.dim() == 4;
    const Tensor x = batched ? input : ops::unsqueeze(input, 0);
    FUNCSPEC_CHECK(x.size(1) > 0 && x.size(2) > 0 && x.size(3) > 0, ErrorKind::ShapeMismatch,
                   "[unfold] expected non-empty channel and spatial dims but got shape {}",
                   shape_to_string(input.shape()));
    const std::vector<std::int64_t> counts = block_counts("unfold", call, x.size(2), x.size(3));
    // [N, C, O_1, k_1, O_2, k_2] -> [N, C, k_1, k_2, O_1, O_2] -> [N, C * k_1 * k_2, O_1 * O_2]
    const Tensor windows = gather_windows(pad_spatial(x, call.padding, call.padding), call.geometry);
    Tensor y =
        ops::reshape(ops::permute(windows, {0, 1, 3, 5, 2, 4}),
                     {x.size(0), x.size(1) * call.geometry[0].kernel * call.geometry[1].kernel, counts[0] * counts[1]});
    return {batched ? y : ops::squeeze(y, std::vector<std::int64_t>{0})};
  };
}

void register_fold(OpRegistry& registry) {
  OpDef& op = registry.add(
      "fold(Tensor input, *, int[] output_size, int[] kernel_size, int[] dilation=[1], int[] padding=[0], int[] "
      "stride=[1]) -> Tensor",
      OpKind::Composite, "convolution",
      "F.fold (col2im): columns (N, C * kh * kw, blocks) summed back into an (N, C, H, W) image, the adjoint of "
      "unfold");
  op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
    const Tensor& input = in[0];
    FUNCSPEC_CHECK(input.dim() == 2 || input.dim() == 3, ErrorKind::ShapeMismatch,
                   "[fold] expected a 2-D (C * kh * kw, blocks) or 3-D (N, C * kh * kw, blocks) input but got shape "
                   "{}",
                   shape_to_string(input.shape()));
    check_dtype("fold", "input", input.dtype(), DTypeSet::Floating);
    const BlockCall call = checked_block_call("fold", attrs);
    const auto output_size = spatial_list_at_least("fold", "output_size", attrs.get_int_list("output_size"), 2, 1);
    const bool batched = input.dim() == 3;
    const Tensor x = batched ? input : ops::unsqueeze(input, 0);
    const std::int64_t taps = call.geometry[0].kernel * call.geometry[1].kernel;
    FUNCSPEC_CHECK(x.size(1) % taps == 0, ErrorKind::ShapeMismatch,
                   "[fold] the input's column dim {} must be divisible by the kernel's {} taps (input shape {})",
                   x.size(1), taps, shape_to_string(input.shape()));
    const std::vector<std::int64_t> counts = block_counts("fold", call, output_size[0], output_size[1]);
    FUNCSPEC_CHECK(x.size(2) == counts[0] * counts[1], ErrorKind::ShapeMismatch,
                   "[fold] output_size {} holds {} x {} = {} blocks but the input has {} (input shape {})",
                   shape_to_string(output_size), counts[0], counts[1], counts[0] * counts[1], x.size(2),
                   shape_to_string(input.shape()));
    // [N, C * k_1 * k_2, O_1 * O_2] -> [N, C, k_1, k_2, O_1, O_2] -> [N, C, O_1, k_1, O_2, k_2]
    const Tensor windows = ops::permute(ops::reshape(x, {x.size(0), x.size(1) / taps, call.geometry[0].kernel,
                                                         call.geometry[1].kernel, counts[0], counts[1]}),
                                        {0, 1, 4, 2, 5, 3});
    const std::int64_t padded[] = {output_size[0] + 2 * call.padding[0], output_size[1] + 2 * call.padding[1]};
    const std::vector<std::int64_t> crop{-call.padding[0], -call.padding[1]};
    Tensor y = pad_spatial(scatter_windows(windows, call.geometry, padded), crop, crop);
    return {batched ? y : ops::squeeze(y, std::vector<std::int64_t>{0})};
  };
}

}  // namespace

void register_convolution_ops(OpRegistry& registry) {
  for (const std::int64_t n : {1, 2, 3}) {
    register_conv(registry, n);
    register_conv_transpose(registry, n);
  }
  register_unfold(registry);
  register_fold(registry);
}

}  // namespace funcspec
