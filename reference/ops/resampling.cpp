// The resampling ops of torch.nn.functional (docs/ops/resampling.md): pad's reflect, replicate and
// circular modes, pixel_shuffle and pixel_unshuffle, interpolate, grid_sample and affine_grid, all
// composites. Every position an output reads is computed from the shapes and attributes alone (int64
// index arithmetic, or float arithmetic where PyTorch's index is a float computation) and read by
// index_select or take_along_dim, and every interpolation weight is computed from the attributes
// (interpolate) or from the grid (grid_sample) and multiplied in, so every derivative is the adjoint
// of the read (index_add, scatter_add) times the weights, and the grid's derivative goes through the
// weights only (SPEC OPS-19.1 to OPS-19.4).
#include "reference/ops/resampling.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "reference/api/ops.h"
#include "reference/ops/dispatch.h"
#include "reference/ops/op_layer.h"
#include "reference/ops/registration.h"
#include "reference/ops/registry.h"

namespace funcspec {
namespace {

using Ints = std::vector<std::int64_t>;

std::string where_of(const Tensor& t) { return std::string(device_name(t.device())); }

Tensor int_range(std::int64_t start, std::int64_t end, const Tensor& like) {
  return ops::arange(start, end, 1, DType::Int64, where_of(like));
}

Tensor float64_range(std::int64_t count, const Tensor& like) {
  return ops::arange(0, count, 1, DType::Float64, where_of(like));
}

Tensor int_lit(std::int64_t v) { return ops::lit(Scalar(v)); }
Tensor float_lit(double v) { return ops::lit(Scalar(v)); }

// A 1-D tensor of weights [O] shaped to broadcast along `dim` of a rank-`rank` tensor.
Tensor along(const Tensor& weights, std::int64_t dim, std::int64_t rank) {
  Tensor w = weights;
  for (std::int64_t d = dim + 1; d < rank; ++d) w = ops::unsqueeze(w, -1);
  return w;
}

// ---------------------------------------------------------------------------------------------
// pad: reflect, replicate, circular

// The positions a padded dim of size `size` reads, before `before` and after `after` positions
// (negative: cropped): int64 [size + before + after].
Tensor padded_positions(const std::string& mode, std::int64_t size, std::int64_t before, std::int64_t after,
                        const Tensor& like) {
  if (mode == "circular") {
    // PyTorch's _pad_circular crops first, then wraps the cropped tensor (SPEC OPS-19.1).
    const std::int64_t low = std::max<std::int64_t>(0, -before);
    const std::int64_t kept = size - low - std::max<std::int64_t>(0, -after);
    const std::int64_t lead = std::max<std::int64_t>(0, before), trail = std::max<std::int64_t>(0, after);
    if (kept + lead + trail == 0) return int_range(0, 0, like);
    const Tensor q = int_range(-lead, kept + trail, like);
    return ops::add(ops::remainder(q, int_lit(kept)), int_lit(low));
  }
  const Tensor p = int_range(-before, size + after, like);
  if (mode == "replicate") return ops::clamp(p, int_lit(0), int_lit(size - 1));
  // reflect: about 0 and size - 1, once (every pad is below the size).
  const Tensor last = int_lit(size - 1);
  return ops::sub(last, ops::abs(ops::sub(last, ops::abs(p))));
}

}  // namespace

Tensor pad_with_mode(const Tensor& self, const std::vector<std::int64_t>& pad, const std::string& mode,
                     const Scalar& value) {
  FUNCSPEC_CHECK(value.to<double>() == 0, ErrorKind::InvalidArgument,
                 "[pad] padding mode '{}' takes no value, but value is {}", mode, value.to_string());
  const auto n = static_cast<std::int64_t>(pad.size() / 2);
  const std::int64_t rank = self.dim();
  FUNCSPEC_CHECK(n >= 1 && n <= 3 && (rank == n + 1 || rank == n + 2), ErrorKind::ShapeMismatch,
                 "[pad] '{}' padding of {} dims (pad {}) needs a {}-D or {}-D (batched) input, but self has shape {}",
                 mode, n, shape_to_string(pad), n + 1, n + 2, shape_to_string(self.shape()));
  const bool batched = rank == n + 2;
  if (mode != "circular") {
    // PyTorch's padding::check_valid_input: an empty batch is fine, no other dim may be empty.
    for (std::int64_t d = batched ? 1 : 0; d < rank; ++d) {
      FUNCSPEC_CHECK(self.size(d) != 0, ErrorKind::ShapeMismatch,
                     "[pad] '{}' padding expects every dim but the batch dim to be non-empty, but self has shape {}",
                     mode, shape_to_string(self.shape()));
    }
  }
  // pad[2i], pad[2i + 1] pad dim rank - 1 - i.
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t d = rank - 1 - i;
    const std::int64_t size = self.size(d), before = pad[as_index(2 * i)], after = pad[as_index(2 * i + 1)];
    const std::int64_t out = size + before + after;
    if (mode == "reflect") {
      FUNCSPEC_CHECK(before < size && after < size, ErrorKind::InvalidArgument,
                     "[pad] reflect padding ({}, {}) of dim {} must be less than its size {} (self of shape {})",
                     before, after, d, size, shape_to_string(self.shape()));
    }
    if (mode == "circular") {
      FUNCSPEC_CHECK(before <= size && after <= size, ErrorKind::InvalidArgument,
                     "[pad] circular padding ({}, {}) of dim {} of size {} would wrap around more than once", before,
                     after, d, size);
      FUNCSPEC_CHECK(out >= 0, ErrorKind::InvalidArgument,
                     "[pad] circular padding ({}, {}) of dim {} of size {} would give the negative size {}", before,
                     after, d, size, out);
      const std::int64_t kept = size - std::max<std::int64_t>(0, -before) - std::max<std::int64_t>(0, -after);
      FUNCSPEC_CHECK(std::max(before, after) <= std::max<std::int64_t>(kept, 0), ErrorKind::InvalidArgument,
                     "[pad] circular padding ({}, {}) of dim {} of size {} wraps the {} positions its negative pad "
                     "keeps more than once",
                     before, after, d, size, std::max<std::int64_t>(kept, 0));
    } else {
      FUNCSPEC_CHECK(out >= 1, ErrorKind::InvalidArgument,
                     "[pad] {} padding ({}, {}) of dim {} of size {} leaves no position (output size {})", mode, before,
                     after, d, size, out);
    }
  }
  check_dtype("pad", "self", self.dtype(), mode == "circular" ? DTypeSet::All : DTypeSet::NoBool);
  Tensor result = self;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t d = rank - 1 - i;
    result = ops::index_select(
        result, d, padded_positions(mode, self.size(d), pad[as_index(2 * i)], pad[as_index(2 * i + 1)], self));
  }
  return result;
}

namespace {

// ---------------------------------------------------------------------------------------------
// pixel_shuffle, pixel_unshuffle

Tensor pixel_shuffle(const Tensor& x, std::int64_t r) {
  FUNCSPEC_CHECK(x.dim() >= 3, ErrorKind::ShapeMismatch,
                 "[pixel_shuffle] expects an input of at least 3 dims (..., C, H, W) but got shape {}",
                 shape_to_string(x.shape()));
  FUNCSPEC_CHECK(r > 0, ErrorKind::InvalidArgument, "[pixel_shuffle] upscale_factor must be positive but is {}", r);
  const std::int64_t c = x.size(-3), h = x.size(-2), w = x.size(-1);
  FUNCSPEC_CHECK(c % (r * r) == 0, ErrorKind::ShapeMismatch,
                 "[pixel_shuffle] the channel dim {} of an input of shape {} is not divisible by upscale_factor^2 = {}",
                 c, shape_to_string(x.shape()), r * r);
  const std::int64_t b = x.dim() - 3;
  Shape split(x.shape().begin(), x.shape().begin() + b);
  Shape out = split;
  split.insert(split.end(), {c / (r * r), r, r, h, w});
  out.insert(out.end(), {c / (r * r), h * r, w * r});
  Ints order;
  for (std::int64_t d = 0; d < b; ++d) order.push_back(d);
  // (C', r_h, r_w, H, W) -> (C', H, r_h, W, r_w)
  order.insert(order.end(), {b, b + 3, b + 1, b + 4, b + 2});
  // The clone makes the result PyTorch's fresh tensor, a view of nothing the input owns.
  return ops::reshape(ops::clone(ops::permute(ops::reshape(x, split), order)), out);
}

Tensor pixel_unshuffle(const Tensor& x, std::int64_t r) {
  FUNCSPEC_CHECK(x.dim() >= 3, ErrorKind::ShapeMismatch,
                 "[pixel_unshuffle] expects an input of at least 3 dims (..., C, H, W) but got shape {}",
                 shape_to_string(x.shape()));
  FUNCSPEC_CHECK(r > 0, ErrorKind::InvalidArgument, "[pixel_unshuffle] downscale_factor must be positive but is {}", r);
  const std::int64_t c = x.size(-3), h = x.size(-2), w = x.size(-1);
  FUNCSPEC_CHECK(h % r == 0 && w % r == 0, ErrorKind::ShapeMismatch,
                 "[pixel_unshuffle] the height {} and width {} of an input of shape {} must be divisible by "
                 "downscale_factor {}",
                 h, w, shape_to_string(x.shape()), r);
  const std::int64_t b = x.dim() - 3;
  Shape split(x.shape().begin(), x.shape().begin() + b);
  Shape out = split;
  split.insert(split.end(), {c, h / r, r, w / r, r});
  out.insert(out.end(), {c * r * r, h / r, w / r});
  Ints order;
  for (std::int64_t d = 0; d < b; ++d) order.push_back(d);
  // (C, H', r_h, W', r_w) -> (C, r_h, r_w, H', W')
  order.insert(order.end(), {b, b + 2, b + 4, b + 1, b + 3});
  return ops::reshape(ops::clone(ops::permute(ops::reshape(x, split), order)), out);
}

// ---------------------------------------------------------------------------------------------
// interpolate

constexpr double kCubicA = -0.75;

// PyTorch's cubic convolution weights (UpSample.h, A = -0.75): for |x| <= 1 and 1 < |x| < 2.
Tensor cubic_near(const Tensor& x) {
  // ((A + 2) x - (A + 3)) x^2 + 1
  return ops::add(ops::mul(ops::sub(ops::mul(x, float_lit(kCubicA + 2)), float_lit(kCubicA + 3)), ops::mul(x, x)),
                  float_lit(1.0));
}
Tensor cubic_far(const Tensor& x) {
  // ((A x - 5 A) x + 8 A) x - 4 A
  const Tensor inner =
      ops::add(ops::mul(ops::sub(ops::mul(x, float_lit(kCubicA)), float_lit(5 * kCubicA)), x), float_lit(8 * kCubicA));
  return ops::sub(ops::mul(inner, x), float_lit(4 * kCubicA));
}

// The four coefficients of taps floor(s) - 1 .. floor(s) + 2 at fraction t = s - floor(s).
std::array<Tensor, 4> cubic_coefficients(const Tensor& t) {
  const Tensor one_minus = ops::sub(float_lit(1.0), t);
  return {cubic_far(ops::add(t, float_lit(1.0))), cubic_near(t), cubic_near(one_minus),
          cubic_far(ops::add(one_minus, float_lit(1.0)))};
}

struct Resize {
  std::int64_t input = 0, output = 0;
  std::optional<double> scale;  // the user's scale factor, where the kernel uses it (not recomputed)
};

// The ratio input positions advance per output position in the linear and cubic modes: PyTorch's
// area_pixel_compute_scale, in float64.
double linear_ratio(const Resize& r, bool align_corners) {
  if (align_corners) return r.output > 1 ? static_cast<double>(r.input - 1) / static_cast<double>(r.output - 1) : 0.0;
  if (r.scale && *r.scale > 0) return 1.0 / *r.scale;
  return static_cast<double>(r.input) / static_cast<double>(r.output);
}

// The source position of each output, float64 [O]: PyTorch's area_pixel_compute_source_index.
Tensor source_positions(const Resize& r, bool align_corners, bool cubic, const Tensor& like) {
  const double ratio = linear_ratio(r, align_corners);
  const Tensor dst = float64_range(r.output, like);
  if (align_corners) return ops::mul(dst, float_lit(ratio));
  const Tensor src = ops::sub(ops::mul(ops::add(dst, float_lit(0.5)), float_lit(ratio)), float_lit(0.5));
  return cubic ? src : ops::clamp(src, float_lit(0.0), Tensor());
}

// nearest and nearest-exact: PyTorch's float32 index arithmetic, floor(fl32(dst * scale)) or
// floor(fl32((dst + 0.5) * scale)) with scale = fl32(1 / scale_factor) or fl32(L) / fl32(O), at most L - 1.
Tensor nearest_index(const Resize& r, bool exact, const Tensor& like) {
  const float scale = (r.scale && *r.scale > 0) ? static_cast<float>(1.0 / *r.scale)
                                                : static_cast<float>(r.input) / static_cast<float>(r.output);
  Tensor dst = ops::arange(0, r.output, 1, DType::Float32, where_of(like));
  if (exact) dst = ops::add(dst, float_lit(0.5));
  const Tensor src = ops::to_dtype(ops::floor(ops::mul(dst, float_lit(static_cast<double>(scale)))), DType::Int64);
  return ops::minimum(src, int_lit(r.input - 1));
}

// sum_k index_select(x, dim, index[k]) * weight[k] (weights float64 [O], rounded to x's dtype).
Tensor weighted_taps(const Tensor& x, std::int64_t dim, const std::vector<Tensor>& index,
                     const std::vector<Tensor>& weight) {
  Tensor sum;
  for (std::size_t k = 0; k < index.size(); ++k) {
    const Tensor term =
        ops::mul(ops::index_select(x, dim, index[k]), along(ops::to_dtype(weight[k], x.dtype()), dim, x.dim()));
    sum = k == 0 ? term : ops::add(sum, term);
  }
  return sum;
}

Tensor resize_linear(const Tensor& x, std::int64_t dim, const Resize& r, bool align_corners) {
  // compute_source_index_and_lambda: an output dim of the input's size is a copy.
  if (r.output == r.input) return x;
  const Tensor real = source_positions(r, align_corners, false, x);
  const Tensor low = ops::floor(real);
  const Tensor i0 = ops::to_dtype(low, DType::Int64);
  const Tensor i1 = ops::where(ops::lt(i0, int_lit(r.input - 1)), ops::add(i0, int_lit(1)), i0);
  const Tensor lambda1 = ops::sub(real, low);
  return weighted_taps(x, dim, {i0, i1}, {ops::sub(float_lit(1.0), lambda1), lambda1});
}

Tensor resize_cubic(const Tensor& x, std::int64_t dim, const Resize& r, bool align_corners) {
  const Tensor real = source_positions(r, align_corners, true, x);
  const Tensor low = ops::floor(real);
  const Tensor base = ops::to_dtype(low, DType::Int64);
  const std::array<Tensor, 4> coefficients = cubic_coefficients(ops::sub(real, low));
  std::vector<Tensor> index, weight;
  for (std::int64_t j = 0; j < 4; ++j) {
    index.push_back(ops::clamp(ops::add(base, int_lit(j - 1)), int_lit(0), int_lit(r.input - 1)));
    weight.push_back(coefficients[as_index(j)]);
  }
  return weighted_taps(x, dim, index, weight);
}

// F.interpolate's 'area': adaptive_avg_pool, the mean of positions [floor(i L / O), ceil((i + 1) L / O)).
Tensor resize_area(const Tensor& x, std::int64_t dim, const Resize& r) {
  if (r.output == 0) return ops::clone(ops::narrow(x, dim, 0, 0));
  const Tensor i = ops::unsqueeze(int_range(0, r.output, x), 1);
  const Tensor l = int_range(0, r.input, x);
  const std::string floor_mode("floor");
  const Tensor start = ops::div(ops::mul(i, int_lit(r.input)), int_lit(r.output), floor_mode);
  const Tensor end = ops::div(ops::add(ops::mul(ops::add(i, int_lit(1)), int_lit(r.input)), int_lit(r.output - 1)),
                              int_lit(r.output), floor_mode);
  const Tensor mask = ops::to_dtype(ops::logical_and(ops::ge(l, start), ops::lt(l, end)), DType::Float64);
  const Tensor average = ops::to_dtype(ops::div(mask, ops::sum(mask, std::vector<std::int64_t>{1}, true)), x.dtype());
  // [..., L] @ [L, O] along `dim`.
  const Tensor moved = ops::movedim(x, {dim}, {-1});
  return ops::movedim(ops::matmul(moved, ops::transpose(average, 0, 1)), {-1}, {dim});
}

bool is_nearest_mode(const std::string& mode) { return mode == "nearest" || mode == "nearest-exact"; }

// F.interpolate's argument handling, in its order.
Tensor interpolate(const Tensor& input, const Attrs& attrs) {
  const std::string& mode = attrs.get_string("mode");
  const std::optional<bool> align_attr =
      attrs.is_none("align_corners") ? std::nullopt : std::optional<bool>(attrs.get_bool("align_corners"));
  FUNCSPEC_CHECK(!(align_attr && (is_nearest_mode(mode) || mode == "area")), ErrorKind::InvalidArgument,
                 "[interpolate] align_corners can only be set with the interpolating modes linear, bilinear, bicubic "
                 "and trilinear, not '{}'",
                 mode);
  const bool align_corners = align_attr.value_or(false);
  const std::int64_t n = input.dim() - 2;
  const std::optional<Ints> size = attrs.get_optional_int_list("size");
  const std::optional<std::vector<double>> scale_factor = attrs.get_optional_float_list("scale_factor");
  FUNCSPEC_CHECK(!(size && scale_factor), ErrorKind::InvalidArgument,
                 "[interpolate] give size or scale_factor, not both");
  FUNCSPEC_CHECK(size || scale_factor, ErrorKind::InvalidArgument, "[interpolate] give size or scale_factor");
  const std::size_t given = size ? size->size() : scale_factor->size();
  FUNCSPEC_CHECK(given == 1 || static_cast<std::int64_t>(given) == n, ErrorKind::InvalidArgument,
                 "[interpolate] {} {} must have one entry or one per spatial dim of the input of shape {}",
                 size ? "size" : "scale_factor",
                 size ? shape_to_string(*size) : fmt::format("[{}]", fmt::join(*scale_factor, ", ")),
                 shape_to_string(input.shape()));
  const std::optional<bool> recompute_attr = attrs.is_none("recompute_scale_factor")
                                                 ? std::nullopt
                                                 : std::optional<bool>(attrs.get_bool("recompute_scale_factor"));
  FUNCSPEC_CHECK(!(recompute_attr.value_or(false) && size), ErrorKind::InvalidArgument,
                 "[interpolate] recompute_scale_factor is not meaningful with an explicit size");
  // 'area' always computes its output size from a scale factor.
  const bool recompute = recompute_attr.value_or(false) || mode == "area";
  const std::int64_t spatial = std::max<std::int64_t>(n, 0);
  std::vector<Resize> dims(as_index(spatial));
  for (std::int64_t k = 0; k < spatial; ++k) {
    Resize& r = dims[as_index(k)];
    r.input = input.size(2 + k);
    if (size) {
      r.output = (*size)[given == 1 ? 0 : as_index(k)];
      continue;
    }
    const double s = (*scale_factor)[given == 1 ? 0 : as_index(k)];
    FUNCSPEC_CHECK(std::isfinite(s), ErrorKind::InvalidArgument, "[interpolate] scale_factor {} must be finite", s);
    // floor(L * s) as PyTorch's int(): a truncation of the product.
    r.output = static_cast<std::int64_t>(static_cast<double>(r.input) * s);
    if (!recompute) r.scale = s;
  }
  const bool known = is_nearest_mode(mode) || mode == "linear" || mode == "bilinear" || mode == "bicubic" ||
                     mode == "trilinear" || mode == "area";
  FUNCSPEC_CHECK(known, ErrorKind::InvalidArgument,
                 "[interpolate] unknown mode '{}' (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area)",
                 mode);
  const std::int64_t needed = mode == "linear"                            ? 3
                              : (mode == "bilinear" || mode == "bicubic") ? 4
                              : mode == "trilinear"                       ? 5
                                                                          : 0;
  FUNCSPEC_CHECK(
      input.dim() >= 3 && input.dim() <= 5 && (needed == 0 || input.dim() == needed), ErrorKind::ShapeMismatch,
      "[interpolate] mode '{}' needs a {} input (N, C, spatial...) but got shape {}", mode,
      needed == 0 ? std::string("3-D, 4-D or 5-D") : fmt::format("{}-D", needed), shape_to_string(input.shape()));
  for (std::int64_t k = 0; k < n; ++k) {
    FUNCSPEC_CHECK(input.size(2 + k) > 0, ErrorKind::ShapeMismatch,
                   "[interpolate] the input of shape {} has an empty spatial dim", shape_to_string(input.shape()));
  }
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t out = dims[as_index(k)].output;
    FUNCSPEC_CHECK(mode == "area" ? out >= 0 : out > 0, ErrorKind::InvalidArgument,
                   "[interpolate] output size {} of spatial dim {} (input of shape {}) must be {}", out, k,
                   shape_to_string(input.shape()), mode == "area" ? "at least 0" : "positive");
  }
  FUNCSPEC_CHECK(input.size(1) > 0, ErrorKind::ShapeMismatch,
                 "[interpolate] expects a non-empty channel dim but got an input of shape {}",
                 shape_to_string(input.shape()));
  check_dtype("interpolate", "input", input.dtype(), DTypeSet::Floating);
  Tensor y = input;
  bool copied = false;
  for (std::int64_t k = 0; k < n; ++k) {
    const Resize& r = dims[as_index(k)];
    const std::int64_t dim = 2 + k;
    if (is_nearest_mode(mode)) {
      y = ops::index_select(y, dim, nearest_index(r, mode == "nearest-exact", y));
      copied = true;
    } else if (mode == "bicubic") {
      y = resize_cubic(y, dim, r, align_corners);
      copied = true;
    } else if (mode == "area") {
      y = resize_area(y, dim, r);
      copied = true;
    } else if (r.output != r.input) {
      y = resize_linear(y, dim, r, align_corners);
      copied = true;
    }
  }
  // Like PyTorch, the result is a new tensor even where every dim is a copy.
  return copied ? y : ops::clone(y);
}

// ---------------------------------------------------------------------------------------------
// grid_sample

// A grid coordinate in [-1, 1] as a position in [0, L - 1] (align_corners) or [-0.5, L - 0.5].
Tensor unnormalize(const Tensor& coord, std::int64_t size, bool align_corners) {
  const Tensor shifted = ops::add(coord, float_lit(1.0));
  if (align_corners) return ops::mul(ops::div(shifted, float_lit(2.0)), float_lit(static_cast<double>(size - 1)));
  return ops::div(ops::sub(ops::mul(shifted, float_lit(static_cast<double>(size))), float_lit(1.0)), float_lit(2.0));
}

// PyTorch's clip_coordinates_set_grad: [0, L - 1], with slope 0 at and beyond both borders.
Tensor clip_coordinates(const Tensor& ix, std::int64_t size) {
  const double last = static_cast<double>(size - 1);
  return ops::where(ops::le(ix, float_lit(0.0)), float_lit(0.0),
                    ops::where(ops::ge(ix, float_lit(last)), float_lit(last), ix));
}

// PyTorch's reflect_coordinates_set_grad: reflected by the bounds twice_low / 2 and twice_high / 2
// until inside, with slope +-1 (+1 at the low bound itself, where in - min is not negative).
Tensor reflect_coordinates(const Tensor& ix, std::int64_t twice_low, std::int64_t twice_high) {
  if (twice_low == twice_high) return ops::mul(ix, float_lit(0.0));
  const double low = static_cast<double>(twice_low) / 2;
  const double span = static_cast<double>(twice_high - twice_low) / 2;
  const Tensor shifted = ops::sub(ix, float_lit(low));
  const Tensor in = ops::where(ops::lt(shifted, float_lit(0.0)), ops::neg(shifted), shifted);
  const Tensor extra = ops::remainder(in, float_lit(span));
  const Tensor flips = ops::floor(ops::div(in, float_lit(span)));
  const Tensor odd = ops::eq(ops::remainder(flips, float_lit(2.0)), float_lit(1.0));
  return ops::where(odd, ops::add(ops::sub(float_lit(span), extra), float_lit(low)), ops::add(extra, float_lit(low)));
}

// PyTorch's grid_sampler_compute_source_index_set_grad: unnormalize, then the padding mode's map.
Tensor source_index(const Tensor& coord, std::int64_t size, const std::string& padding_mode, bool align_corners) {
  Tensor ix = unnormalize(coord, size, align_corners);
  if (padding_mode == "border") return clip_coordinates(ix, size);
  if (padding_mode == "reflection") {
    ix = align_corners ? reflect_coordinates(ix, 0, 2 * (size - 1)) : reflect_coordinates(ix, -1, 2 * size - 1);
    return clip_coordinates(ix, size);
  }
  return ix;
}

// One tap along one spatial dim: the int64 position (inside [0, L)), whether it is inside the input
// (undefined: always), and its weight (undefined: 1).
struct Tap {
  Tensor index, inside, weight;
};

// A float tensor of integral values (floor or round of a position) as int64 positions, clamped to
// [lo, hi] first and NaN mapped to lo, so that no conversion overflows; the weights keep the values.
Tensor safe_index(const Tensor& integral, double lo, double hi) {
  const Tensor clamped = ops::clamp(integral, float_lit(lo), float_lit(hi));
  return ops::to_dtype(ops::where(ops::ne(integral, integral), float_lit(lo), clamped), DType::Int64);
}

// A tap at int64 `position` (possibly outside [0, L)) under zeros padding: masked, and clamped for the read.
Tap zeros_tap(const Tensor& position, std::int64_t size, const Tensor& weight) {
  const Tensor inside = ops::logical_and(ops::ge(position, int_lit(0)), ops::lt(position, int_lit(size)));
  return {ops::clamp(position, int_lit(0), int_lit(size - 1)), inside, weight};
}

std::vector<Tap> linear_taps(const Tensor& ix, std::int64_t size) {
  const Tensor low = ops::floor(ix);
  const Tensor i0 = safe_index(low, -2.0, static_cast<double>(size + 1));
  const Tensor w1 = ops::sub(ix, low);
  const Tensor w0 = ops::sub(ops::add(low, float_lit(1.0)), ix);
  return {zeros_tap(i0, size, w0), zeros_tap(ops::add(i0, int_lit(1)), size, w1)};
}

std::vector<Tap> nearest_taps(const Tensor& ix, std::int64_t size) {
  // round: half to even, as PyTorch's nearbyint.
  return {zeros_tap(safe_index(ops::round(ix), -1.0, static_cast<double>(size)), size, Tensor())};
}

// The position an integral tap `k` reads under the padding mode (bicubic, GridSampler's
// get_value_bounded): zeros reads nothing outside, border the nearest edge, reflection the mirror image.
Tap padded_tap(const Tensor& k, std::int64_t size, const std::string& padding_mode, bool align_corners,
               const Tensor& weight) {
  if (padding_mode == "zeros") return zeros_tap(k, size, weight);
  if (padding_mode == "border") return {ops::clamp(k, int_lit(0), int_lit(size - 1)), Tensor(), weight};
  if (align_corners) {
    if (size == 1) return {ops::mul(k, int_lit(0)), Tensor(), weight};
    const std::int64_t period = 2 * (size - 1);
    const Tensor m = ops::remainder(ops::abs(k), int_lit(period));
    return {ops::where(ops::le(m, int_lit(size - 1)), m, ops::sub(int_lit(period), m)), Tensor(), weight};
  }
  const std::int64_t period = 2 * size;
  const Tensor m = ops::remainder(k, int_lit(period));
  return {ops::where(ops::lt(m, int_lit(size)), m, ops::sub(int_lit(period - 1), m)), Tensor(), weight};
}

std::vector<Tap> cubic_taps(const Tensor& ix, std::int64_t size, const std::string& padding_mode, bool align_corners) {
  const Tensor low = ops::floor(ix);
  const std::array<Tensor, 4> coefficients = cubic_coefficients(ops::sub(ix, low));
  Tensor base;
  if (padding_mode == "reflection") {
    // Reflection repeats with a period; reduce by it before the conversion.
    const double period = static_cast<double>(align_corners ? std::max<std::int64_t>(2 * (size - 1), 1) : 2 * size);
    base = safe_index(ops::remainder(low, float_lit(period)), 0.0, period);
  } else {
    base = safe_index(low, -3.0, static_cast<double>(size + 2));
  }
  std::vector<Tap> taps;
  for (std::int64_t j = 0; j < 4; ++j) {
    taps.push_back(
        padded_tap(ops::add(base, int_lit(j - 1)), size, padding_mode, align_corners, coefficients[as_index(j)]));
  }
  return taps;
}

void check_grid_sample(const Tensor& input, const Tensor& grid, const std::string& mode,
                       const std::string& padding_mode) {
  FUNCSPEC_CHECK(mode == "bilinear" || mode == "nearest" || mode == "bicubic", ErrorKind::InvalidArgument,
                 "[grid_sample] mode must be 'bilinear', 'nearest' or 'bicubic' but is '{}'", mode);
  FUNCSPEC_CHECK(padding_mode == "zeros" || padding_mode == "border" || padding_mode == "reflection",
                 ErrorKind::InvalidArgument,
                 "[grid_sample] padding_mode must be 'zeros', 'border' or 'reflection' but is '{}'", padding_mode);
  FUNCSPEC_CHECK(input.dtype() == grid.dtype(), ErrorKind::DtypeNotSupported,
                 "[grid_sample] input ({}) and grid ({}) must have the same dtype", dtype_name(input.dtype()),
                 dtype_name(grid.dtype()));
  const std::string shapes = fmt::format("input of shape {} and grid of shape {}", shape_to_string(input.shape()),
                                         shape_to_string(grid.shape()));
  FUNCSPEC_CHECK((input.dim() == 4 || input.dim() == 5) && grid.dim() == input.dim(), ErrorKind::ShapeMismatch,
                 "[grid_sample] expects a 4-D or 5-D input and a grid of the same rank, but got an {}", shapes);
  FUNCSPEC_CHECK(input.size(0) == grid.size(0), ErrorKind::ShapeMismatch,
                 "[grid_sample] input and grid must have the same batch size, but got an {}", shapes);
  FUNCSPEC_CHECK(grid.size(-1) == input.dim() - 2, ErrorKind::ShapeMismatch,
                 "[grid_sample] the grid's last dim must be {} for this input, but got an {}", input.dim() - 2, shapes);
  for (std::int64_t d = 2; d < input.dim(); ++d) {
    FUNCSPEC_CHECK(input.size(d) > 0, ErrorKind::ShapeMismatch,
                   "[grid_sample] expects non-empty spatial dims but got an {}", shapes);
  }
  check_dtype("grid_sample", "input", input.dtype(), DTypeSet::Floating);
}

Tensor grid_sample(const Tensor& input, const Tensor& grid, const Attrs& attrs) {
  const std::string& mode = attrs.get_string("mode");
  const std::string& padding_mode = attrs.get_string("padding_mode");
  const bool align_corners = attrs.get_bool("align_corners");
  check_grid_sample(input, grid, mode, padding_mode);
  const std::int64_t n = input.dim() - 2;
  const std::int64_t batch = input.size(0), channels = input.size(1);
  Shape out_spatial(grid.shape().begin() + 1, grid.shape().end() - 1);
  std::int64_t points = 1;
  for (std::int64_t s : out_spatial) points *= s;
  // taps[k]: the taps along spatial dim k (input dim 2 + k), each over the grid points [N, P].
  std::vector<std::vector<Tap>> taps(as_index(n));
  std::vector<std::int64_t> strides(as_index(n), 1);
  for (std::int64_t k = n - 1; k >= 0; --k) {
    const std::int64_t size = input.size(2 + k);
    if (k + 1 < n) strides[as_index(k)] = strides[as_index(k + 1)] * input.size(3 + k);
    // grid[..., 0] is x (the last spatial dim), grid[..., 1] y, grid[..., 2] z.
    const Tensor coord = ops::reshape(ops::select(grid, -1, n - 1 - k), {batch, points});
    if (mode == "bicubic") {
      taps[as_index(k)] = cubic_taps(unnormalize(coord, size, align_corners), size, padding_mode, align_corners);
      continue;
    }
    const Tensor ix = source_index(coord, size, padding_mode, align_corners);
    taps[as_index(k)] = mode == "nearest" ? nearest_taps(ix, size) : linear_taps(ix, size);
  }
  const Tensor flat = ops::flatten(input, 2, -1);  // [N, C, P_in]
  Tensor sum;
  std::vector<std::size_t> pick(as_index(n), 0);
  while (true) {
    Tensor position, inside, weight;
    for (std::int64_t k = 0; k < n; ++k) {
      const Tap& tap = taps[as_index(k)][pick[as_index(k)]];
      const Tensor scaled = ops::mul(tap.index, int_lit(strides[as_index(k)]));
      position = position.defined() ? ops::add(position, scaled) : scaled;
      if (tap.inside.defined()) inside = inside.defined() ? ops::logical_and(inside, tap.inside) : tap.inside;
      if (tap.weight.defined()) weight = weight.defined() ? ops::mul(weight, tap.weight) : tap.weight;
    }
    // [N, 1, P]: the same positions for every channel.
    Tensor value = ops::take_along_dim(flat, ops::unsqueeze(position, 1), 2);
    if (inside.defined()) value = ops::where(ops::unsqueeze(inside, 1), value, float_lit(0.0));
    if (weight.defined()) value = ops::mul(value, ops::unsqueeze(weight, 1));
    sum = sum.defined() ? ops::add(sum, value) : value;
    std::int64_t k = n - 1;
    while (k >= 0 && ++pick[as_index(k)] == taps[as_index(k)].size()) pick[as_index(k--)] = 0;
    if (k < 0) break;
  }
  Shape out{batch, channels};
  out.insert(out.end(), out_spatial.begin(), out_spatial.end());
  return ops::reshape(sum, out);
}

// ---------------------------------------------------------------------------------------------
// affine_grid

// F.affine_grid's base grid coordinates along a dim of L positions: the pixel centers in [-1, 1]
// (align_corners: the corner pixels' centers at -1 and 1), 0 for L = 1; float64 [L].
Tensor base_coordinates(std::int64_t length, bool align_corners, const Tensor& like) {
  if (length == 1) return ops::zeros({1}, DType::Float64, where_of(like));
  const Tensor twice = ops::sub(ops::mul(float64_range(length, like), float_lit(2.0)), float_lit(length - 1.0));
  return ops::div(twice, float_lit(align_corners ? length - 1.0 : static_cast<double>(length)));
}

Tensor affine_grid(const Tensor& theta, const Attrs& attrs) {
  const Ints& size = attrs.get_int_list("size");
  const bool align_corners = attrs.get_bool("align_corners");
  check_dtype("affine_grid", "theta", theta.dtype(), DTypeSet::Floating);
  FUNCSPEC_CHECK(size.size() == 4 || size.size() == 5, ErrorKind::InvalidArgument,
                 "[affine_grid] size {} must be (N, C, H, W) or (N, C, D, H, W)", shape_to_string(size));
  const std::int64_t n = static_cast<std::int64_t>(size.size()) - 2;
  FUNCSPEC_CHECK(theta.dim() == 3 && theta.size(1) == n && theta.size(2) == n + 1, ErrorKind::ShapeMismatch,
                 "[affine_grid] size {} needs theta of shape (N, {}, {}) but got {}", shape_to_string(size), n, n + 1,
                 shape_to_string(theta.shape()));
  for (std::int64_t s : size) {
    FUNCSPEC_CHECK(s > 0, ErrorKind::InvalidArgument, "[affine_grid] size {} must be positive", shape_to_string(size));
  }
  FUNCSPEC_CHECK(theta.size(0) == size[0], ErrorKind::ShapeMismatch,
                 "[affine_grid] theta of shape {} has another batch size than size {}", shape_to_string(theta.shape()),
                 shape_to_string(size));
  // The base grid [spatial..., n + 1]: x (the last spatial dim), y, (z), 1.
  const Shape spatial(size.begin() + 2, size.end());
  TensorList columns;
  for (std::int64_t k = n - 1; k >= 0; --k) {
    Shape view(as_index(n), 1);
    view[as_index(k)] = spatial[as_index(k)];
    columns.push_back(
        ops::broadcast_to(ops::reshape(base_coordinates(spatial[as_index(k)], align_corners, theta), view), spatial));
  }
  columns.push_back(ops::ones(spatial, DType::Float64, where_of(theta)));
  const Tensor base = ops::to_dtype(ops::stack(columns, -1), theta.dtype());
  // grid[b, p, j] = sum_k base[p, k] theta[b, j, k]
  return ops::einsum(n == 2 ? "hwk,bjk->bhwj" : "dhwk,bjk->bdhwj", {base, theta});
}

}  // namespace

void register_resampling_ops(OpRegistry& registry) {
  {
    OpDef& op =
        registry.add("pixel_shuffle(Tensor self, *, int upscale_factor) -> Tensor", OpKind::Composite, "resampling",
                     "(..., C r^2, H, W) -> (..., C, H r, W r): channel c r^2 + i r + j to (c, h r + i, w r + j)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {pixel_shuffle(in[0], attrs.get_int("upscale_factor"))};
    };
  }
  {
    OpDef& op = registry.add("pixel_unshuffle(Tensor self, *, int downscale_factor) -> Tensor", OpKind::Composite,
                             "resampling", "pixel_shuffle's inverse: (..., C, H r, W r) -> (..., C r^2, H, W)");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {pixel_unshuffle(in[0], attrs.get_int("downscale_factor"))};
    };
  }
  {
    OpDef& op = registry.add(
        "interpolate(Tensor input, *, int[]? size=None, float[]? scale_factor=None, str mode='nearest', bool? "
        "align_corners=None, bool? recompute_scale_factor=None) -> Tensor",
        OpKind::Composite, "resampling",
        "F.interpolate of an (N, C, spatial...) input: nearest, nearest-exact, linear, bilinear, bicubic, trilinear or "
        "area, with PyTorch's source positions per dim");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {interpolate(in[0], attrs)}; };
  }
  {
    OpDef& op = registry.add(
        "grid_sample(Tensor input, Tensor grid, *, str mode='bilinear', str padding_mode='zeros', bool "
        "align_corners=False) -> Tensor",
        OpKind::Composite, "resampling",
        "the input (N, C, H, W) or (N, C, D, H, W) sampled at the grid's points (N, H_o, W_o, 2) or (N, D_o, H_o, "
        "W_o, 3) in [-1, 1], (bi/tri)linearly, nearest or (bi/tri)cubically, with zeros, border or reflection "
        "padding");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList {
      return {grid_sample(in[0], in[1], attrs)};
    };
  }
  {
    OpDef& op = registry.add("affine_grid(Tensor theta, *, int[] size, bool align_corners=False) -> Tensor",
                             OpKind::Composite, "resampling",
                             "the sampling grid (N, H, W, 2) or (N, D, H, W, 3) of the affine maps theta (N, 2, 3) or "
                             "(N, 3, 4) over the pixel centers of size in [-1, 1]");
    op.decompose = [](const TensorList& in, const Attrs& attrs) -> TensorList { return {affine_grid(in[0], attrs)}; };
  }
}

}  // namespace funcspec
