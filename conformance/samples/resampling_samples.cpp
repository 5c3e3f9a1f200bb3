// Samples of the resampling ops (docs/ops/resampling.md): pad's reflect, replicate and circular modes
// (appended to pad's own samples, index_samples.cpp), pixel_shuffle and pixel_unshuffle, interpolate
// in every mode with size or scale_factor (recomputed or not) and align_corners, grid_sample in every
// mode, padding mode and align_corners, 4-D and 5-D, and affine_grid, 2-D and 3-D. Each has batched
// inputs, unbatched ones where PyTorch takes them, a transposed input, a size-0 batch where PyTorch
// accepts one, a call of at most 24 input elements and every rejected input. grid_sample's points on
// pixels, borders, reflection points and nearest's ties are special points
// (special_point_declarations.cpp). Tolerances, in ulps:
//   - pad, pixel_shuffle, pixel_unshuffle and interpolate's nearest modes move elements: exact;
//   - interpolate's linear and cubic modes add at most 4^3 = 64 (trilinear: 2^3) products per output
//     with weights computed in float64 (at most 1 in magnitude, bicubic's taps sum to 1 with
//     |coefficient| < 1.2); against max|input|: float64 sums of 2^3 two-factor products give (8 + 3) eps
//     / 2, bicubic's 16 taps (16 + 3) eps / 2 times 1.4 (the coefficients' absolute sum): 16 ulps; float32
//     rounds every weight once more and PyTorch computes its float32 scale in float32 (a relative error
//     of eps32 / 2 in a source position that moves an output by up to 2 max|input| per position
//     times the position, at most 8 in these samples): 32 ulps. 'area' averages as adaptive_avg_pool:
//     16 ulps. Stated {16, 32} against max|input| for the op;
//   - grid_sample unnormalizes (3 roundings of a position up to 2 L = 10), then sums 2^3 (bicubic 16)
//     products of weights with values: a position off by 10 eps moves an output by up to
//     2 max|input| per unit, so 20 ulps from the position alone plus the sum's 16: stated 64 against
//     max|input| (grid values are at most 2 in magnitude, so this also covers the grid's scale);
//   - affine_grid sums 3 (3-D: 4) products of theta with base coordinates in [-1, 1] rounded once: 4.
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using Ints = std::vector<std::int64_t>;
using Floats = std::vector<double>;

Attrs padding(Ints pad, const char* mode) { return {{"pad", std::move(pad)}, {"mode", std::string(mode)}}; }

Attrs by_size(Ints size, const char* mode) { return {{"size", std::move(size)}, {"mode", std::string(mode)}}; }
Attrs by_scale(Floats scale, const char* mode) {
  return {{"scale_factor", std::move(scale)}, {"mode", std::string(mode)}};
}
Attrs with(Attrs attrs, const char* name, AttrValue value) {
  attrs.set(name, std::move(value));
  return attrs;
}

std::vector<OpSample> shuffle_samples(DType f, SampleRng& rng) {
  const auto factor = [](std::int64_t r) { return Attrs{{"upscale_factor", r}}; };
  return {
      {{rng.tensor({1, 8, 2, 3}, f)}, factor(2), "batched, factor 2"},
      {{rng.tensor({4, 2, 2}, f)}, factor(2), "unbatched"},
      {{rng.tensor({2, 1, 9, 1, 2}, f)}, factor(3), "two batch dims, factor 3"},
      {{rng.tensor({2, 3, 2}, f)}, factor(1), "factor 1 (a copy)"},
      {{rng.strided_tensor({4, 3, 2}, f)}, factor(2), "transposed input"},
      {{rng.tensor({0, 4, 2, 2}, f)}, factor(2), "size-0 batch"},
      {{rng.tensor({1, 4, 1, 2}, DType::Int64, -3, 3)}, factor(2), "int64"},
      {{rng.tensor({4, 4}, f)}, factor(2), "rank 2 shape-mismatch"},
      {{rng.tensor({1, 4, 2, 2}, f)}, factor(0), "factor 0 (rejected)"},
      {{rng.tensor({1, 6, 2, 2}, f)}, factor(2), "channels not divisible by 4 shape-mismatch"},
  };
}

std::vector<OpSample> unshuffle_samples(DType f, SampleRng& rng) {
  const auto factor = [](std::int64_t r) { return Attrs{{"downscale_factor", r}}; };
  return {
      {{rng.tensor({1, 2, 4, 6}, f)}, factor(2), "batched, factor 2"},
      {{rng.tensor({1, 4, 4}, f)}, factor(2), "unbatched"},
      {{rng.tensor({2, 1, 1, 6, 3}, f)}, factor(3), "two batch dims, factor 3"},
      {{rng.tensor({2, 3, 2}, f)}, factor(1), "factor 1 (a copy)"},
      {{rng.strided_tensor({1, 4, 2}, f)}, factor(2), "transposed input"},
      {{rng.tensor({0, 1, 2, 2}, f)}, factor(2), "size-0 batch"},
      {{rng.tensor({1, 1, 2, 4}, DType::Int64, -3, 3)}, factor(2), "int64"},
      {{rng.tensor({4, 4}, f)}, factor(2), "rank 2 shape-mismatch"},
      {{rng.tensor({1, 1, 2, 2}, f)}, factor(0), "factor 0 (rejected)"},
      {{rng.tensor({1, 1, 3, 4}, f)}, factor(2), "height not divisible shape-mismatch"},
  };
}

std::vector<OpSample> interpolate_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out{
      // nearest: floor(dst * scale) in float32, the scale L / O or 1 / scale_factor.
      {{rng.tensor({2, 2, 4}, f)}, by_size({6}, "nearest"), "nearest, 4 -> 6"},
      {{rng.tensor({1, 2, 5}, f)}, by_size({3}, "nearest"), "nearest, 5 -> 3"},
      {{rng.tensor({1, 2, 3}, f)}, by_scale({2.3}, "nearest"), "nearest, scale 2.3 (1 / 2.3, not 3 / 6)"},
      {{rng.tensor({1, 2, 3}, f)},
       with(by_scale({2.3}, "nearest"), "recompute_scale_factor", true),
       "nearest, scale 2.3 recomputed (3 / 6)"},
      {{rng.tensor({1, 2, 3, 5}, f)},
       by_scale({2.3, 1.1}, "nearest"),
       "nearest 2-D, scale (2.3, 1.1): outputs twice and once the input"},
      {{rng.tensor({1, 1, 2, 2, 3}, f)}, by_size({3, 3, 2}, "nearest"), "nearest 3-D"},
      {{rng.tensor({2, 2, 4}, f)}, by_size({6}, "nearest-exact"), "nearest-exact, 4 -> 6"},
      {{rng.tensor({1, 2, 4}, f)}, by_size({2}, "nearest-exact"), "nearest-exact, 4 -> 2: sources on integers"},
      {{rng.tensor({1, 2, 3, 4}, f)}, by_scale({1.7, 0.6}, "nearest-exact"), "nearest-exact 2-D, scales"},
      // linear: the source position scale (dst + 0.5) - 0.5 clamped at 0, or scale dst with align_corners.
      {{rng.tensor({2, 2, 4}, f)}, by_size({7}, "linear"), "linear, 4 -> 7"},
      {{rng.tensor({1, 2, 4}, f)},
       with(by_size({7}, "linear"), "align_corners", true),
       "linear, align_corners, 4 -> 7"},
      {{rng.tensor({1, 2, 4}, f)}, by_scale({1.3}, "linear"), "linear, scale 1.3 (1 / 1.3, not 4 / 5)"},
      {{rng.tensor({1, 2, 4}, f)},
       with(by_scale({1.3}, "linear"), "recompute_scale_factor", true),
       "linear, scale 1.3 recomputed (4 / 5)"},
      {{rng.tensor({1, 2, 4}, f)}, by_scale({1.1}, "linear"), "linear, scale 1.1 keeps the size: a copy"},
      {{rng.tensor({1, 2, 4}, f)}, with(by_size({1}, "linear"), "align_corners", true), "linear, align_corners, -> 1"},
      {{rng.tensor({1, 2, 5}, f)}, by_size({2}, "linear"), "linear, 5 -> 2"},
      {{rng.tensor({0, 2, 3}, f)}, by_size({5}, "linear"), "size-0 batch"},
      {{rng.tensor({1, 2, 3, 4}, f)}, by_size({5, 3}, "bilinear"), "bilinear"},
      {{rng.tensor({1, 2, 3, 4}, f)},
       with(by_size({5, 3}, "bilinear"), "align_corners", true),
       "bilinear, align_corners"},
      {{rng.strided_tensor({1, 2, 3, 4}, f)}, by_scale({1.5, 0.75}, "bilinear"), "bilinear, transposed input, scales"},
      {{rng.tensor({1, 2, 3, 4}, f)}, by_size({5, 6}, "bicubic"), "bicubic"},
      {{rng.tensor({1, 2, 3, 4}, f)},
       with(by_size({2, 7}, "bicubic"), "align_corners", true),
       "bicubic, align_corners"},
      {{rng.tensor({1, 2, 3, 4}, f)},
       by_scale({1.1, 1.5}, "bicubic"),
       "bicubic, scale 1.1 keeps the height and still moves it"},
      {{rng.tensor({1, 1, 2, 3, 2}, f)}, by_size({3, 2, 4}, "trilinear"), "trilinear"},
      {{rng.tensor({1, 1, 2, 3, 2}, f)},
       with(by_size({3, 2, 4}, "trilinear"), "align_corners", true),
       "trilinear, align_corners"},
      {{rng.tensor({1, 2, 5}, f)}, by_size({3}, "area"), "area, 5 -> 3: overlapping windows"},
      {{rng.tensor({1, 1, 4, 5}, f)}, by_size({3, 2}, "area"), "area 2-D"},
      {{rng.tensor({1, 1, 2, 3, 4}, f)}, by_scale({1.5, 0.7, 0.5}, "area"), "area 3-D, scales (always recomputed)"},
      {{rng.tensor({1, 2, 3}, f)}, by_size({0}, "area"), "area to size 0 (empty, as adaptive_avg_pool)"},
      {{rng.tensor({1, 1, 4}, f)}, by_size({6}, "bilinear"), "bilinear of a 3-D input shape-mismatch"},
      {{rng.tensor({2, 4}, f)}, by_size({6}, "nearest"), "2-D input shape-mismatch"},
      {{rng.tensor({1, 2, 4}, f)},
       with(by_size({6}, "nearest"), "align_corners", false),
       "align_corners with nearest (rejected)"},
      {{rng.tensor({1, 2, 4}, f)},
       with(by_size({6}, "linear"), "scale_factor", Floats{2.0}),
       "size and scale_factor (rejected)"},
      {{rng.tensor({1, 2, 4}, f)}, {{"mode", std::string("linear")}}, "neither size nor scale_factor (rejected)"},
      {{rng.tensor({1, 2, 4}, f)}, by_size({6, 6}, "linear"), "size of two entries for one spatial dim (rejected)"},
      {{rng.tensor({1, 2, 4}, f)},
       with(by_size({6}, "linear"), "recompute_scale_factor", true),
       "recompute_scale_factor with size (rejected)"},
      {{rng.tensor({1, 2, 4}, f)}, by_size({6}, "cubic"), "unknown mode (rejected)"},
      {{rng.tensor({1, 2, 4}, f)}, by_size({0}, "linear"), "size 0 (rejected)"},
      {{rng.tensor({1, 2, 4}, f)}, by_scale({0.2}, "nearest"), "scale 0.2 leaves no output (rejected)"},
      {{rng.tensor({1, 2, 0}, f)}, by_size({3}, "nearest"), "empty spatial dim shape-mismatch"},
      {{rng.tensor({1, 0, 4}, f)}, by_size({3}, "linear"), "empty channel dim shape-mismatch"},
      {{rng.tensor({1, 2, 4}, DType::Int64, -3, 3)}, by_size({6}, "nearest"), "int64 (rejected)"},
  };
  out.push_back({{rng.tensor({1, 1, 4}, f)}, by_size({6}, "linear"), "one channel, small"});
  return out;
}

Attrs sampling(const char* mode, const char* padding_mode, bool align_corners) {
  return {{"mode", std::string(mode)}, {"padding_mode", std::string(padding_mode)}, {"align_corners", align_corners}};
}

std::vector<OpSample> grid_sample_samples(DType f, SampleRng& rng) {
  std::vector<OpSample> out;
  // The grid reaches past [-1, 1], so that every padding mode reads outside the input.
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    for (const char* padding_mode : {"zeros", "border", "reflection"}) {
      for (const bool align_corners : {false, true}) {
        out.push_back({{rng.tensor({1, 2, 3, 4}, f), rng.tensor({1, 2, 3, 2}, f, -1.6, 1.6)},
                       sampling(mode, padding_mode, align_corners),
                       fmt::format("{}, {}{}", mode, padding_mode, align_corners ? ", align_corners" : "")});
      }
    }
  }
  out.insert(out.end(),
             {
                 {{rng.tensor({2, 1, 3, 3}, f), rng.tensor({2, 2, 2, 2}, f, -1.6, 1.6)},
                  sampling("bilinear", "zeros", false),
                  "batch of 2"},
                 {{rng.strided_tensor({1, 2, 4, 3}, f), rng.tensor({1, 3, 1, 2}, f, -1.2, 1.2)},
                  sampling("bilinear", "border", false),
                  "transposed input"},
                 {{rng.tensor({1, 1, 2, 2, 3}, f), rng.tensor({1, 1, 2, 2, 3}, f, -1.6, 1.6)},
                  sampling("bilinear", "zeros", false),
                  "5-D (trilinear)"},
                 {{rng.tensor({1, 1, 2, 2, 3}, f), rng.tensor({1, 2, 1, 2, 3}, f, -1.6, 1.6)},
                  sampling("bilinear", "reflection", true),
                  "5-D, reflection, align_corners"},
                 {{rng.tensor({1, 1, 2, 2, 3}, f), rng.tensor({1, 1, 2, 2, 3}, f, -1.6, 1.6)},
                  sampling("nearest", "border", false),
                  "5-D nearest"},
                 {{rng.tensor({0, 2, 3, 3}, f), rng.tensor({0, 2, 2, 2}, f)},
                  sampling("bilinear", "zeros", false),
                  "size-0 batch"},
                 {{rng.tensor({1, 2, 3, 3}, f), rng.tensor({1, 0, 2, 2}, f)},
                  sampling("bilinear", "zeros", false),
                  "no grid points"},
                 {{rng.tensor({1, 1, 2, 2}, f), rng.tensor({1, 2, 2, 2}, f)},
                  sampling("area", "zeros", false),
                  "unknown mode (rejected)"},
                 {{rng.tensor({1, 1, 2, 2}, f), rng.tensor({1, 2, 2, 2}, f)},
                  sampling("bilinear", "circular", false),
                  "unknown padding_mode (rejected)"},
                 {{rng.tensor({1, 1, 2, 3, 2}, f), rng.tensor({1, 1, 1, 2, 3}, f, -1.6, 1.6)},
                  sampling("bicubic", "reflection", false),
                  "5-D bicubic (tricubic, PyTorch 2)"},
                 {{rng.tensor({1, 1, 4}, f), rng.tensor({1, 2, 1}, f)},
                  sampling("bilinear", "zeros", false),
                  "3-D input shape-mismatch"},
                 {{rng.tensor({2, 1, 2, 2}, f), rng.tensor({1, 2, 2, 2}, f)},
                  sampling("bilinear", "zeros", false),
                  "batch sizes differ shape-mismatch"},
                 {{rng.tensor({1, 1, 2, 2}, f), rng.tensor({1, 2, 2, 3}, f)},
                  sampling("bilinear", "zeros", false),
                  "grid of 3 coordinates for a 4-D input shape-mismatch"},
                 {{rng.tensor({1, 1, 0, 2}, f), rng.tensor({1, 2, 2, 2}, f)},
                  sampling("bilinear", "zeros", false),
                  "empty spatial dim shape-mismatch"},
                 {{rng.tensor({1, 1, 2, 2}, f), rng.tensor({1, 2, 2, 2}, DType::Int64, -1, 2)},
                  sampling("bilinear", "zeros", false),
                  "int64 grid of a floating input (rejected)"},
                 {{rng.tensor({1, 1, 2, 2}, DType::Int64, -3, 3), rng.tensor({1, 2, 2, 2}, DType::Int64, -1, 2)},
                  sampling("nearest", "zeros", false),
                  "int64 (rejected)"},
             });
  out.push_back({{rng.tensor({1, 1, 3, 3}, f), rng.tensor({1, 2, 2, 2}, f, -1.2, 1.2)},
                 sampling("bilinear", "zeros", false),
                 "one channel, small"});
  return out;
}

Attrs grid_of(Ints size, bool align_corners) { return {{"size", std::move(size)}, {"align_corners", align_corners}}; }

std::vector<OpSample> affine_grid_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 2, 3}, f)}, grid_of({2, 1, 3, 4}, false), "2-D"},
      {{rng.tensor({2, 2, 3}, f)}, grid_of({2, 3, 3, 4}, true), "2-D, align_corners"},
      {{rng.tensor({1, 3, 4}, f)}, grid_of({1, 1, 2, 2, 3}, false), "3-D"},
      {{rng.tensor({1, 3, 4}, f)}, grid_of({1, 1, 2, 2, 3}, true), "3-D, align_corners"},
      {{rng.tensor({1, 2, 3}, f)}, grid_of({1, 1, 1, 3}, true), "a unit spatial dim (its coordinate is 0)"},
      {{rng.strided_tensor({2, 2, 3}, f)}, grid_of({2, 1, 2, 2}, false), "transposed theta"},
      {{rng.tensor({1, 3, 3}, f)}, grid_of({1, 1, 2, 2}, false), "theta 3x3 for a 4-D size shape-mismatch"},
      {{rng.tensor({1, 2, 3}, f)}, grid_of({1, 1, 2}, false), "size of 3 entries (rejected)"},
      {{rng.tensor({1, 2, 3}, f)}, grid_of({1, 1, 0, 2}, false), "size with a 0 (rejected)"},
      {{rng.tensor({2, 2, 3}, f)}, grid_of({1, 1, 2, 2}, false), "batch sizes differ shape-mismatch"},
      {{rng.tensor({1, 2, 3}, DType::Int64, -2, 2)}, grid_of({1, 1, 2, 2}, false), "int64 theta (rejected)"},
  };
}

}  // namespace

std::vector<OpSample> pad_mode_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 3, 5}, f)}, padding({2, 1}, "reflect"), "reflect, batched"},
      {{rng.tensor({3, 4}, f)}, padding({1, -1}, "reflect"), "reflect, unbatched, crops"},
      {{rng.tensor({1, 2, 3, 4}, f)}, padding({1, 2, 2, 0}, "reflect"), "reflect 2-D"},
      {{rng.tensor({1, 1, 2, 3, 3}, f)}, padding({1, 1, 0, 1, 1, 0}, "reflect"), "reflect 3-D"},
      {{rng.strided_tensor({2, 3, 4}, f)}, padding({3, 3}, "reflect"), "reflect, transposed input, the widest pad"},
      {{rng.tensor({1, 4}, DType::Int64, -3, 3)}, padding({1, 1}, "reflect"), "reflect, int64"},
      {{rng.tensor({0, 2, 3}, f)}, padding({1, 1}, "reflect"), "reflect, size-0 batch"},
      {{rng.tensor({1, 1, 4}, f)}, padding({4, 0}, "reflect"), "reflect pad as wide as the dim (rejected)"},
      {{rng.tensor({1, 1, 4}, f)}, padding({-2, -2}, "reflect"), "reflect crops everything (rejected)"},
      {{rng.tensor({1, 1, 1, 4}, f)}, padding({1, 1}, "reflect"), "reflect of one dim of a 4-D input shape-mismatch"},
      {{rng.tensor({2, 0, 3}, f)}, padding({1, 1}, "reflect"), "reflect, empty channel dim shape-mismatch"},
      {{rng.tensor({1, 1, 4}, f)}, with(padding({1, 1}, "reflect"), "value", 1.5), "reflect with a value (rejected)"},
      {{rng.tensor({1, 1, 4}, DType::Bool)}, padding({1, 1}, "reflect"), "reflect, bool (rejected)"},
      {{rng.tensor({2, 3, 4}, f)}, padding({3, 1}, "replicate"), "replicate, batched"},
      {{rng.tensor({2, 3, 3}, f)}, padding({1, 2, -1, 1}, "replicate"), "replicate 2-D unbatched, crops"},
      {{rng.tensor({1, 1, 2, 2, 3}, f)}, padding({1, 0, 0, 1, 1, 1}, "replicate"), "replicate 3-D"},
      {{rng.tensor({1, 2}, f)}, padding({5, 0}, "replicate"), "replicate wider than the dim"},
      {{rng.tensor({1, 1, 4}, f)}, padding({-3, -1}, "replicate"), "replicate crops everything (rejected)"},
      {{rng.tensor({2, 2, 4}, f)}, padding({2, 1}, "circular"), "circular, batched"},
      {{rng.tensor({3, 4}, f)}, padding({1, -1}, "circular"), "circular, unbatched, crops then wraps"},
      {{rng.tensor({1, 2, 3}, f)}, padding({1, 1, 2, 0}, "circular"), "circular 2-D unbatched"},
      {{rng.tensor({1, 1, 2, 2, 2}, f)}, padding({1, 1, 1, 0, 0, 1}, "circular"), "circular 3-D"},
      {{rng.tensor({1, 1, 4}, DType::Bool)}, padding({4, 0}, "circular"), "circular, bool, a whole period"},
      {{rng.tensor({2, 0, 3}, f)}, padding({1, 1}, "circular"), "circular, empty channel dim"},
      {{rng.tensor({1, 1, 4}, f)}, padding({5, 0}, "circular"), "circular wraps twice (rejected)"},
      {{rng.tensor({1, 1, 4}, f)}, padding({3, -2}, "circular"), "circular wraps the cropped dim twice (rejected)"},
      {{rng.tensor({1, 1, 4}, f)}, padding({-3, -2}, "circular"), "circular negative size (rejected)"},
      {{rng.tensor({1, 1, 4}, f)}, padding({1, 1}, "wrap"), "unknown mode (rejected)"},
      {{rng.tensor({1, 1, 4}, f)}, padding({1}, "reflect"), "reflect, odd pad (rejected)"},
  };
}

void register_resampling_samples(OpSampleRegistry& registry) {
  constexpr OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  registry.add({"pixel_shuffle", shuffle_samples, exact, ""});
  registry.add({"pixel_unshuffle", unshuffle_samples, exact, ""});
  registry.add({"interpolate", interpolate_samples, {16.0, 32.0, 0.0, 1.0}, ""});
  registry.add({"grid_sample", grid_sample_samples, {64.0, 64.0, 0.0, 1.0}, ""});
  registry.add({"affine_grid", affine_grid_samples, {4.0, 4.0, 0.0, 1.0}, ""});
}

}  // namespace funcspec::samples
