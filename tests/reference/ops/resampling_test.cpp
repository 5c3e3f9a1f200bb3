// Tests of the resampling ops (docs/ops/resampling.md) against PyTorch's cpu kernels written out
// here as direct loops (ReflectionPad.cpp, ReplicationPad.cpp, _pad_circular, PixelShuffle.cpp,
// UpSample.h and its kernels, GridSampler.h and GridSampler.cpp's scalar forward and backward,
// AffineGridGenerator.cpp), independently of the composites: the oracle check of the catalogue runs
// the same composites in another dtype and could not see a wrong source position, weight or slope.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "reference/ops/dispatch.h"
#include "reference/transforms/autodiff.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::expect_same;
using testing_support::values;
using transforms::Argnums;
using transforms::grad;
using transforms::PyFunction;
using transforms::PyTree;

using Ints = std::vector<std::int64_t>;
using Floats = std::vector<double>;

std::int64_t numel(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

Tensor random_tensor(const Shape& shape, std::mt19937_64& rng, double lo = -2, double hi = 2) {
  std::uniform_real_distribution<double> uniform(lo, hi);
  std::vector<double> data(static_cast<std::size_t>(numel(shape)));
  for (double& v : data) v = uniform(rng);
  return from_vector(data, shape, DType::Float64);
}

// The gradients of sum(op(inputs) * weights) with respect to every input, by reverse mode.
std::vector<std::vector<double>> gradients(const std::string& op, const TensorList& inputs, const Attrs& attrs,
                                           const Tensor& weights) {
  const PyFunction f = [&](const std::vector<PyTree>& args) {
    TensorList in;
    for (const PyTree& a : args) in.push_back(a.tensor());
    return PyTree(call_one("sum", {call_one("mul", {call_one(op, in, attrs), weights})}));
  };
  std::vector<PyTree> args;
  std::vector<std::int64_t> argnums;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    args.emplace_back(inputs[i]);
    argnums.push_back(static_cast<std::int64_t>(i));
  }
  const PyTree g = grad(f, {Argnums::many(argnums)})(args);
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < inputs.size(); ++i) out.push_back(values(g.children()[i].tensor()));
  return out;
}

// ---------------------------------------------------------------------------------------------
// pad

// The source position of padded position j (0-based in the output) of a dim of `size` padded by
// (before, after), as PyTorch's reflection, replication and circular kernels compute it.
std::int64_t pad_source(const std::string& mode, std::int64_t j, std::int64_t size, std::int64_t before,
                        std::int64_t after) {
  if (mode == "reflect" || mode == "replicate") {
    // ReflectionPad.cpp / ReplicationPad.cpp: i_start = max(0, -pad_l), o_start = max(0, pad_l).
    const std::int64_t i_start = std::max<std::int64_t>(0, -before), o_start = std::max<std::int64_t>(0, before);
    std::int64_t ip;
    if (j < before) {
      ip = mode == "reflect" ? before * 2 - j : before;
    } else if (j < size + before) {
      ip = j;
    } else {
      ip = mode == "reflect" ? (size + before - 1) * 2 - j : size + before - 1;
    }
    return ip - o_start + i_start;
  }
  // _pad_circular: the cropped input copied to [max(pad_l, 0), out - max(pad_r, 0)), then the left
  // pad copied from the end of that region and the right pad from its start.
  const std::int64_t out = size + before + after;
  const std::int64_t lead = std::max<std::int64_t>(0, before), trail = std::max<std::int64_t>(0, after);
  const std::int64_t low = std::max<std::int64_t>(0, -before);
  if (j < lead) j = out - trail - lead + j;
  if (j >= out - trail) j = lead + (j - (out - trail));
  return low + (j - lead);
}

// pad of the last dim of a [rows, size] tensor, and its gradient for weights w, as loops.
void direct_pad_1d(const std::vector<double>& x, std::int64_t rows, std::int64_t size, const std::string& mode,
                   std::int64_t before, std::int64_t after, const std::vector<double>& w, std::vector<double>& out,
                   std::vector<double>& grad_x) {
  const std::int64_t width = size + before + after;
  grad_x.assign(x.size(), 0.0);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t j = 0; j < width; ++j) {
      const std::int64_t src = r * size + pad_source(mode, j, size, before, after);
      out.push_back(x[static_cast<std::size_t>(src)]);
      grad_x[static_cast<std::size_t>(src)] += w[static_cast<std::size_t>(r * width + j)];
    }
  }
}

TEST(PadModes, AgreePyTorchsKernelsAndAccumulateTheirGradients) {
  std::mt19937_64 rng(22);
  struct Case {
    const char* mode;
    std::int64_t before, after;
  };
  const Case cases[] = {{"reflect", 3, 3},   {"reflect", 2, -1},   {"reflect", -2, 3},   {"reflect", -3, 1},
                        {"replicate", 5, 2}, {"replicate", -2, 3}, {"replicate", 1, -3}, {"circular", 4, 4},
                        {"circular", 2, -1}, {"circular", -1, 2},  {"circular", 1, -1},  {"circular", -2, -1}};
  for (const Case& c : cases) {
    const Tensor x = random_tensor({2, 3, 4}, rng);
    const Tensor w = random_tensor({2, 3, 4 + c.before + c.after}, rng);
    std::vector<double> want, want_grad;
    direct_pad_1d(values(x), 6, 4, c.mode, c.before, c.after, values(w), want, want_grad);
    const Attrs attrs{{"pad", Ints{c.before, c.after}}, {"mode", std::string(c.mode)}};
    const Tensor got = call_one("pad", {x}, attrs);
    EXPECT_EQ(got.shape(), (Shape{2, 3, 4 + c.before + c.after})) << c.mode << " " << c.before << " " << c.after;
    expect_same(values(got), want);
    expect_same(gradients("pad", {x}, attrs, w)[0], want_grad, 1e-15);
  }
}

TEST(PadModes, TwoDimsPadEachDimByItsPair) {
  // [[0, 1, 2], [3, 4, 5]] reflected by (1, 1) along W and (1, 0) along H.
  const Tensor x = from_values({0, 1, 2, 3, 4, 5}, {1, 2, 3});
  expect_same(values(call_one("pad", {x}, {{"pad", Ints{1, 1, 1, 0}}, {"mode", std::string("reflect")}})),
              {4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4});
  expect_same(values(call_one("pad", {x}, {{"pad", Ints{1, 1, 1, 0}}, {"mode", std::string("circular")}})),
              {5, 3, 4, 5, 3, 2, 0, 1, 2, 0, 5, 3, 4, 5, 3});
  expect_same(values(call_one("pad", {x}, {{"pad", Ints{1, 1, 1, 0}}, {"mode", std::string("replicate")}})),
              {0, 0, 1, 2, 2, 0, 0, 1, 2, 2, 3, 3, 4, 5, 5});
}

TEST(PadModes, RaisePyTorchsErrors) {
  const Tensor x = from_values({0, 1, 2, 3}, {1, 1, 4});
  const auto attrs = [](Ints pad, const char* mode) {
    return Attrs{{"pad", std::move(pad)}, {"mode", std::string(mode)}};
  };
  expect_op_error("pad", {x}, attrs({4, 0}, "reflect"), ErrorKind::InvalidArgument, "less than its size");
  expect_op_error("pad", {x}, attrs({-2, -2}, "reflect"), ErrorKind::InvalidArgument, "leaves no position");
  expect_op_error("pad", {x}, attrs({-4, 0}, "replicate"), ErrorKind::InvalidArgument, "leaves no position");
  expect_op_error("pad", {x}, attrs({5, 0}, "circular"), ErrorKind::InvalidArgument, "more than once");
  expect_op_error("pad", {x}, attrs({3, -2}, "circular"), ErrorKind::InvalidArgument, "keeps more than once");
  expect_op_error("pad", {x}, attrs({-3, -2}, "circular"), ErrorKind::InvalidArgument, "negative size");
  expect_op_error("pad", {x}, attrs({1, 1}, "wrap"), ErrorKind::InvalidArgument, "unknown padding mode");
  expect_op_error("pad", {from_values({0, 1}, {1, 1, 1, 2})}, attrs({1, 1}, "reflect"), ErrorKind::ShapeMismatch,
                  "needs a 2-D or 3-D");
  expect_op_error("pad", {from_values({}, {2, 0, 3})}, attrs({1, 1}, "replicate"), ErrorKind::ShapeMismatch,
                  "non-empty");
  Attrs valued = attrs({1, 1}, "reflect");
  valued.set("value", Scalar(1.5));
  expect_op_error("pad", {x}, valued, ErrorKind::InvalidArgument, "takes no value");
  expect_op_error("pad", {from_values({1, 0, 1}, {1, 1, 3}, DType::Bool)}, attrs({1, 1}, "reflect"),
                  ErrorKind::DtypeNotSupported, "pad");
  // An empty channel dim is fine for circular padding (PyTorch 2), not for the others.
  EXPECT_EQ(call_one("pad", {from_values({}, {2, 0, 3})}, attrs({1, 1}, "circular")).shape(), (Shape{2, 0, 5}));
}

// ---------------------------------------------------------------------------------------------
// pixel_shuffle

TEST(PixelShuffle, MovesEachChannelToItsSubPixel) {
  std::mt19937_64 rng(3);
  const std::int64_t r = 3, c = 2, h = 2, w = 3;
  const Tensor x = random_tensor({2, c * r * r, h, w}, rng);
  const std::vector<double> xs = values(x);
  std::vector<double> want;
  for (std::int64_t n = 0; n < 2; ++n) {
    for (std::int64_t ch = 0; ch < c; ++ch) {
      for (std::int64_t y = 0; y < h * r; ++y) {
        for (std::int64_t xx = 0; xx < w * r; ++xx) {
          // PixelShuffle.cpp: input channel ch r^2 + (y mod r) r + (x mod r) at (y / r, x / r).
          const std::int64_t in_channel = ch * r * r + (y % r) * r + (xx % r);
          want.push_back(xs[static_cast<std::size_t>(((n * c * r * r + in_channel) * h + y / r) * w + xx / r)]);
        }
      }
    }
  }
  const Tensor shuffled = call_one("pixel_shuffle", {x}, {{"upscale_factor", r}});
  EXPECT_EQ(shuffled.shape(), (Shape{2, c, h * r, w * r}));
  expect_same(values(shuffled), want);
  expect_same(values(call_one("pixel_unshuffle", {shuffled}, {{"downscale_factor", r}})), xs);
  // factor 1 is a copy, not a view.
  const Tensor same = call_one("pixel_shuffle", {x}, {{"upscale_factor", std::int64_t{1}}});
  EXPECT_FALSE(same.shares_storage_with(x));
  expect_op_error("pixel_shuffle", {random_tensor({1, 6, 2, 2}, rng)}, {{"upscale_factor", std::int64_t{2}}},
                  ErrorKind::ShapeMismatch, "divisible");
  expect_op_error("pixel_unshuffle", {random_tensor({1, 1, 3, 4}, rng)}, {{"downscale_factor", std::int64_t{2}}},
                  ErrorKind::ShapeMismatch, "divisible");
}

// ---------------------------------------------------------------------------------------------
// interpolate

struct Dim {
  std::int64_t input, output;
  std::optional<double> scale;  // passed to the kernel (not recomputed)
};

// UpSample.h's compute_scales_value and area_pixel_compute_scale, in double.
double pytorch_scale(const Dim& d, bool align_corners) {
  if (align_corners) return d.output > 1 ? static_cast<double>(d.input - 1) / static_cast<double>(d.output - 1) : 0.0;
  return d.scale ? 1.0 / *d.scale : static_cast<double>(d.input) / static_cast<double>(d.output);
}

// Per output position: the input positions it reads and their weights, as PyTorch's kernels.
std::vector<std::vector<std::pair<std::int64_t, double>>> taps_of(const std::string& mode, const Dim& d,
                                                                  bool align_corners) {
  std::vector<std::vector<std::pair<std::int64_t, double>>> out;
  for (std::int64_t i = 0; i < d.output; ++i) {
    std::vector<std::pair<std::int64_t, double>> taps;
    if (mode == "nearest" || mode == "nearest-exact") {
      // nearest_neighbor_(exact_)compute_source_index with a float scale.
      const float scale =
          d.scale ? static_cast<float>(1.0 / *d.scale) : static_cast<float>(d.input) / static_cast<float>(d.output);
      const std::int64_t src = mode == "nearest"
                                   ? static_cast<std::int64_t>(std::floor(static_cast<float>(i) * scale))
                                   : static_cast<std::int64_t>(std::floor(static_cast<float>((i + 0.5) * scale)));
      taps.emplace_back(std::min(src, d.input - 1), 1.0);
    } else if (mode == "linear") {
      // compute_source_index_and_lambda.
      if (d.output == d.input) {
        taps.emplace_back(i, 1.0);
      } else {
        const double scale = pytorch_scale(d, align_corners);
        double real = align_corners ? scale * i : scale * (i + 0.5) - 0.5;
        if (!align_corners && real < 0) real = 0;
        const auto i0 = static_cast<std::int64_t>(real);
        const std::int64_t i1 = i0 + (i0 < d.input - 1 ? 1 : 0);
        const double l1 = real - static_cast<double>(i0);
        taps.emplace_back(i0, 1.0 - l1);
        taps.emplace_back(i1, l1);
      }
    } else if (mode == "cubic") {
      // upsample_bicubic2d: taps floor - 1 .. floor + 2, clamped, with cubic_interp1d's coefficients.
      const double scale = pytorch_scale(d, align_corners);
      const double real = align_corners ? scale * i : scale * (i + 0.5) - 0.5;
      const auto base = static_cast<std::int64_t>(std::floor(real));
      const double t = real - static_cast<double>(base);
      const double a = -0.75;
      const auto near = [a](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
      const auto far = [a](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
      const std::array<double, 4> c{far(t + 1), near(t), near(1 - t), far(2 - t)};
      for (std::int64_t j = 0; j < 4; ++j) {
        taps.emplace_back(std::clamp<std::int64_t>(base - 1 + j, 0, d.input - 1), c[static_cast<std::size_t>(j)]);
      }
    } else {
      // area: adaptive_avg_pool's start_index and end_index.
      const std::int64_t start = i * d.input / d.output, end = ((i + 1) * d.input + d.output - 1) / d.output;
      for (std::int64_t l = start; l < end; ++l) taps.emplace_back(l, 1.0 / static_cast<double>(end - start));
    }
    out.push_back(taps);
  }
  return out;
}

// A separable resampling of an [N, C, spatial...] input (the kernels' result, up to the order of sums).
std::vector<double> direct_resample(const Tensor& input, const std::string& mode, const std::vector<Dim>& dims,
                                    bool align_corners) {
  std::vector<double> x = values(input);
  Shape shape = input.shape();
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const auto taps = taps_of(mode, dims[k], align_corners);
    const std::size_t dim = k + 2;
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < dim; ++d) outer *= shape[d];
    for (std::size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
    const std::int64_t in = shape[dim], out_size = dims[k].output;
    std::vector<double> y(static_cast<std::size_t>(outer * out_size * inner), 0.0);
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t i = 0; i < out_size; ++i) {
        for (std::int64_t q = 0; q < inner; ++q) {
          double sum = 0;
          for (const auto& [pos, weight] : taps[static_cast<std::size_t>(i)]) {
            sum += weight * x[static_cast<std::size_t>((o * in + pos) * inner + q)];
          }
          y[static_cast<std::size_t>((o * out_size + i) * inner + q)] = sum;
        }
      }
    }
    x = std::move(y);
    shape[dim] = out_size;
  }
  return x;
}

TEST(Interpolate, AgreesWithPyTorchsKernelsInEveryMode) {
  std::mt19937_64 rng(7);
  struct Case {
    const char* mode;
    const char* kernel_mode;
    Shape shape;
    std::optional<Ints> size;
    std::optional<Floats> scale;
    std::optional<bool> align_corners;
    bool recompute;
  };
  const Case cases[] = {
      {"nearest", "nearest", {2, 2, 4}, Ints{7}, std::nullopt, std::nullopt, false},
      {"nearest", "nearest", {1, 2, 3}, std::nullopt, Floats{2.3}, std::nullopt, false},
      {"nearest", "nearest", {1, 2, 3}, std::nullopt, Floats{2.3}, std::nullopt, true},
      {"nearest", "nearest", {1, 1, 5, 3}, std::nullopt, Floats{1.1, 0.7}, std::nullopt, false},
      {"nearest-exact", "nearest-exact", {1, 2, 5, 3}, Ints{3, 7}, std::nullopt, std::nullopt, false},
      {"nearest-exact", "nearest-exact", {1, 2, 4}, std::nullopt, Floats{2.3}, std::nullopt, false},
      {"linear", "linear", {2, 2, 4}, Ints{7}, std::nullopt, std::nullopt, false},
      {"linear", "linear", {2, 2, 4}, Ints{7}, std::nullopt, true, false},
      {"linear", "linear", {1, 2, 4}, std::nullopt, Floats{1.3}, false, false},
      {"linear", "linear", {1, 2, 4}, std::nullopt, Floats{1.3}, false, true},
      {"linear", "linear", {1, 2, 4}, std::nullopt, Floats{1.1}, std::nullopt, false},
      {"linear", "linear", {1, 2, 6}, Ints{1}, std::nullopt, true, false},
      {"linear", "linear", {1, 2, 6}, Ints{4}, std::nullopt, false, false},
      {"bilinear", "linear", {1, 2, 3, 4}, Ints{5, 3}, std::nullopt, std::nullopt, false},
      {"bilinear", "linear", {1, 2, 3, 4}, std::nullopt, Floats{1.5, 0.75}, true, false},
      {"trilinear", "linear", {1, 1, 2, 3, 2}, Ints{3, 2, 5}, std::nullopt, std::nullopt, false},
      {"bicubic", "cubic", {1, 2, 3, 4}, Ints{5, 7}, std::nullopt, std::nullopt, false},
      {"bicubic", "cubic", {1, 2, 3, 4}, Ints{2, 7}, std::nullopt, true, false},
      {"bicubic", "cubic", {1, 2, 3, 4}, std::nullopt, Floats{1.1, 1.5}, false, false},
      {"bicubic", "cubic", {1, 2, 5, 6}, Ints{2, 3}, std::nullopt, std::nullopt, false},
      {"area", "area", {1, 2, 5}, Ints{3}, std::nullopt, std::nullopt, false},
      {"area", "area", {1, 1, 2, 3, 4}, std::nullopt, Floats{1.5, 0.7, 0.5}, std::nullopt, false},
  };
  for (const Case& c : cases) {
    const Tensor x = random_tensor(c.shape, rng);
    Attrs attrs{{"mode", std::string(c.mode)}};
    std::vector<Dim> dims;
    for (std::size_t k = 2; k < c.shape.size(); ++k) {
      Dim d{c.shape[k], 0, std::nullopt};
      if (c.size) {
        d.output = (*c.size)[k - 2];
      } else {
        const double s = (*c.scale)[k - 2];
        d.output = static_cast<std::int64_t>(static_cast<double>(d.input) * s);
        if (!c.recompute && std::string(c.mode) != "area") d.scale = s;
      }
      dims.push_back(d);
    }
    if (c.size) attrs.set("size", *c.size);
    if (c.scale) attrs.set("scale_factor", *c.scale);
    if (c.align_corners) attrs.set("align_corners", *c.align_corners);
    if (c.recompute) attrs.set("recompute_scale_factor", true);
    const Tensor got = call_one("interpolate", {x}, attrs);
    Shape want_shape = {c.shape[0], c.shape[1]};
    for (const Dim& d : dims) want_shape.push_back(d.output);
    EXPECT_EQ(got.shape(), want_shape) << attrs.to_string();
    SCOPED_TRACE(attrs.to_string());
    expect_same(values(got), direct_resample(x, c.kernel_mode, dims, c.align_corners.value_or(false)), 1e-14);
  }
}

TEST(Interpolate, MatchesValuesPyTorchPrints) {
  // torch 1.13 and 2.15: F.interpolate(arange(4.).reshape(1, 1, 4), scale_factor=1.3, mode='linear')
  const Tensor x = from_values({0, 1, 2, 3}, {1, 1, 4});
  const Tensor linear = call_one("interpolate", {x}, {{"scale_factor", Floats{1.3}}, {"mode", std::string("linear")}});
  expect_same(values(linear), {0.0, 0.6538461538461537, 1.4230769230769231, 2.1923076923076925, 2.9615384615384617},
              1e-15);
  // nearest with scale_factor 2.3 reads floor(dst / 2.3): [0, 0, 0, 1, 1, 2], not 3 / 6's [0, 0, 1, 1, 2, 2].
  const Tensor y = from_values({0, 1, 2}, {1, 1, 3});
  expect_same(values(call_one("interpolate", {y}, {{"scale_factor", Floats{2.3}}})), {0, 0, 0, 1, 1, 2});
  expect_same(values(call_one("interpolate", {y}, {{"scale_factor", Floats{2.3}}, {"recompute_scale_factor", true}})),
              {0, 0, 1, 1, 2, 2});
  expect_same(
      values(call_one("interpolate", {y}, {{"scale_factor", Floats{2.3}}, {"mode", std::string("nearest-exact")}})),
      {0, 0, 1, 1, 1, 2});
}

TEST(Interpolate, RaisesFInterpolatesErrors) {
  const Tensor x = from_values({0, 1, 2, 3}, {1, 1, 4});
  const auto mode = [](const char* m, Ints size) { return Attrs{{"mode", std::string(m)}, {"size", std::move(size)}}; };
  Attrs aligned = mode("nearest", {6});
  aligned.set("align_corners", true);
  expect_op_error("interpolate", {x}, aligned, ErrorKind::InvalidArgument, "align_corners");
  expect_op_error("interpolate", {x}, {{"mode", std::string("linear")}}, ErrorKind::InvalidArgument,
                  "give size or scale_factor");
  expect_op_error("interpolate", {x}, mode("bilinear", {6}), ErrorKind::ShapeMismatch, "needs a 4-D");
  expect_op_error("interpolate", {x}, mode("cubic", {6}), ErrorKind::InvalidArgument, "unknown mode");
  expect_op_error("interpolate", {x}, mode("linear", {0}), ErrorKind::InvalidArgument, "must be positive");
  expect_op_error("interpolate", {x}, mode("linear", {2, 2}), ErrorKind::InvalidArgument, "one per spatial dim");
  EXPECT_EQ(call_one("interpolate", {x}, mode("area", {0})).shape(), (Shape{1, 1, 0}));
}

// ---------------------------------------------------------------------------------------------
// grid_sample: GridSampler.h and GridSampler.cpp's scalar 2-D kernels (forward and backward).

enum class Padding { Zeros, Border, Reflection };

double clip_with_grad(double in, std::int64_t size, double* grad) {
  if (in <= 0) {
    *grad = 0;
    return 0;
  }
  const double max = static_cast<double>(size - 1);
  if (in >= max) {
    *grad = 0;
    return max;
  }
  *grad = 1;
  return in;
}

double reflect_with_grad(double in, std::int64_t twice_low, std::int64_t twice_high, double* grad) {
  if (twice_low == twice_high) {
    *grad = 0;
    return 0;
  }
  const double min = static_cast<double>(twice_low) / 2, span = static_cast<double>(twice_high - twice_low) / 2;
  in = in - min;
  int mult = 1;
  if (in < 0) {
    mult = -1;
    in = -in;
  }
  const double extra = std::fmod(in, span);
  const auto flips = static_cast<int>(std::floor(in / span));
  if (flips % 2 == 0) {
    *grad = mult;
    return extra + min;
  }
  *grad = -mult;
  return span - extra + min;
}

double source_with_grad(double coord, std::int64_t size, Padding padding, bool align_corners, double* grad) {
  double x;
  if (align_corners) {
    *grad = static_cast<double>(size - 1) / 2;
    x = ((coord + 1) / 2) * static_cast<double>(size - 1);
  } else {
    *grad = static_cast<double>(size) / 2;
    x = ((coord + 1) * static_cast<double>(size) - 1) / 2;
  }
  double clip = 1, refl = 1;
  if (padding == Padding::Border) {
    x = clip_with_grad(x, size, &clip);
  } else if (padding == Padding::Reflection) {
    x = align_corners ? reflect_with_grad(x, 0, 2 * (size - 1), &refl) : reflect_with_grad(x, -1, 2 * size - 1, &refl);
    x = clip_with_grad(x, size, &clip);
  }
  *grad *= clip * refl;
  return x;
}

// compute_coordinates for bicubic's integral taps, then get_value_bounded's truncation and bounds.
bool bounded(double coord, std::int64_t size, Padding padding, bool align_corners, std::int64_t* index) {
  double unused = 0;
  if (padding == Padding::Border) {
    coord = clip_with_grad(coord, size, &unused);
  } else if (padding == Padding::Reflection) {
    coord = align_corners ? reflect_with_grad(coord, 0, 2 * (size - 1), &unused)
                          : reflect_with_grad(coord, -1, 2 * size - 1, &unused);
    coord = clip_with_grad(coord, size, &unused);
  }
  *index = static_cast<std::int64_t>(coord);
  return *index >= 0 && *index < size;
}

std::array<double, 4> cubic_coefficients(double t) {
  const double a = -0.75;
  const auto near = [a](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  const auto far = [a](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

// get_cubic_coefficients_grad.
std::array<double, 4> cubic_coefficients_grad(double t) {
  const double a = -0.75;
  double x = -1 - t;
  const double c0 = (-3 * a * x - 10 * a) * x - 8 * a;
  x = -t;
  const double c1 = (-3 * (a + 2) * x - 2 * (a + 3)) * x;
  x = 1 - t;
  const double c2 = (3 * (a + 2) * x - 2 * (a + 3)) * x;
  x = 2 - t;
  const double c3 = (3 * a * x - 10 * a) * x + 8 * a;
  return {c0, c1, c2, c3};
}

struct GridResult {
  std::vector<double> out, grad_input, grad_grid;
};

// grid_sampler_2d_cpu_fallback and grid_sampler_2d_backward_cpu_fallback for one sample and channel
// at a time, with cotangent w.
GridResult direct_grid_sample_2d(const Tensor& input, const Tensor& grid, const Tensor& w, const std::string& mode,
                                 Padding padding, bool align_corners) {
  const std::vector<double> x = values(input), g = values(grid), gw = values(w);
  const std::int64_t n = input.size(0), c = input.size(1), h = input.size(2), wd = input.size(3);
  const std::int64_t oh = grid.size(1), ow = grid.size(2);
  GridResult r;
  r.out.assign(static_cast<std::size_t>(n * c * oh * ow), 0.0);
  r.grad_input.assign(x.size(), 0.0);
  r.grad_grid.assign(g.size(), 0.0);
  const auto at = [&](std::int64_t b, std::int64_t ch, std::int64_t yy, std::int64_t xx) {
    return x[static_cast<std::size_t>(((b * c + ch) * h + yy) * wd + xx)];
  };
  const auto add = [&](std::int64_t b, std::int64_t ch, std::int64_t yy, std::int64_t xx, double v) {
    if (yy >= 0 && yy < h && xx >= 0 && xx < wd)
      r.grad_input[static_cast<std::size_t>(((b * c + ch) * h + yy) * wd + xx)] += v;
  };
  const auto inside = [&](std::int64_t yy, std::int64_t xx) { return yy >= 0 && yy < h && xx >= 0 && xx < wd; };
  for (std::int64_t b = 0; b < n; ++b) {
    for (std::int64_t p = 0; p < oh * ow; ++p) {
      const std::size_t gi = static_cast<std::size_t>((b * oh * ow + p) * 2);
      double gix_mult = 0, giy_mult = 0;
      double gix = 0, giy = 0;
      if (mode == "bicubic") {
        double unused = 0;
        const double ix = source_with_grad(g[gi], wd, Padding::Zeros, align_corners, &gix_mult);
        const double iy = source_with_grad(g[gi + 1], h, Padding::Zeros, align_corners, &giy_mult);
        (void)unused;
        const double fx = std::floor(ix), fy = std::floor(iy);
        const auto cx = cubic_coefficients(ix - fx), cy = cubic_coefficients(iy - fy);
        const auto dx = cubic_coefficients_grad(ix - fx), dy = cubic_coefficients_grad(iy - fy);
        for (std::int64_t ch = 0; ch < c; ++ch) {
          const double go = gw[static_cast<std::size_t>((b * c + ch) * oh * ow + p)];
          double out = 0;
          for (std::size_t i = 0; i < 4; ++i) {
            for (std::size_t j = 0; j < 4; ++j) {
              std::int64_t xi = 0, yi = 0;
              const bool ok_x = bounded(fx - 1 + static_cast<double>(i), wd, padding, align_corners, &xi);
              const bool ok_y = bounded(fy - 1 + static_cast<double>(j), h, padding, align_corners, &yi);
              const double val = ok_x && ok_y ? at(b, ch, yi, xi) : 0.0;
              out += val * cx[i] * cy[j];
              if (ok_x && ok_y) add(b, ch, yi, xi, go * cx[i] * cy[j]);
              gix -= val * dx[i] * cy[j] * go;
              giy -= val * dy[j] * cx[i] * go;
            }
          }
          r.out[static_cast<std::size_t>((b * c + ch) * oh * ow + p)] = out;
        }
      } else {
        const double ix = source_with_grad(g[gi], wd, padding, align_corners, &gix_mult);
        const double iy = source_with_grad(g[gi + 1], h, padding, align_corners, &giy_mult);
        if (mode == "nearest") {
          const auto xn = static_cast<std::int64_t>(std::nearbyint(ix));
          const auto yn = static_cast<std::int64_t>(std::nearbyint(iy));
          for (std::int64_t ch = 0; ch < c; ++ch) {
            const double go = gw[static_cast<std::size_t>((b * c + ch) * oh * ow + p)];
            r.out[static_cast<std::size_t>((b * c + ch) * oh * ow + p)] = inside(yn, xn) ? at(b, ch, yn, xn) : 0.0;
            add(b, ch, yn, xn, go);
          }
          gix_mult = giy_mult = 0;
        } else {
          const auto x0 = static_cast<std::int64_t>(std::floor(ix)), y0 = static_cast<std::int64_t>(std::floor(iy));
          const std::int64_t x1 = x0 + 1, y1 = y0 + 1;
          const double nw = (x1 - ix) * (y1 - iy), ne = (ix - x0) * (y1 - iy), sw = (x1 - ix) * (iy - y0),
                       se = (ix - x0) * (iy - y0);
          for (std::int64_t ch = 0; ch < c; ++ch) {
            const double go = gw[static_cast<std::size_t>((b * c + ch) * oh * ow + p)];
            double out = 0;
            if (inside(y0, x0)) {
              const double v = at(b, ch, y0, x0);
              out += v * nw;
              gix -= v * (y1 - iy) * go;
              giy -= v * (x1 - ix) * go;
            }
            if (inside(y0, x1)) {
              const double v = at(b, ch, y0, x1);
              out += v * ne;
              gix += v * (y1 - iy) * go;
              giy -= v * (ix - x0) * go;
            }
            if (inside(y1, x0)) {
              const double v = at(b, ch, y1, x0);
              out += v * sw;
              gix -= v * (iy - y0) * go;
              giy += v * (x1 - ix) * go;
            }
            if (inside(y1, x1)) {
              const double v = at(b, ch, y1, x1);
              out += v * se;
              gix += v * (iy - y0) * go;
              giy += v * (ix - x0) * go;
            }
            r.out[static_cast<std::size_t>((b * c + ch) * oh * ow + p)] = out;
            add(b, ch, y0, x0, nw * go);
            add(b, ch, y0, x1, ne * go);
            add(b, ch, y1, x0, sw * go);
            add(b, ch, y1, x1, se * go);
          }
        }
      }
      r.grad_grid[gi] = gix_mult * gix;
      r.grad_grid[gi + 1] = giy_mult * giy;
    }
  }
  return r;
}

Attrs sampling(const std::string& mode, const std::string& padding, bool align_corners) {
  return {{"mode", mode}, {"padding_mode", padding}, {"align_corners", align_corners}};
}

void expect_grid_sample_matches(const Tensor& input, const Tensor& grid, const Tensor& w) {
  const std::pair<const char*, Padding> paddings[] = {
      {"zeros", Padding::Zeros}, {"border", Padding::Border}, {"reflection", Padding::Reflection}};
  for (const char* mode : {"bilinear", "nearest", "bicubic"}) {
    for (const auto& [padding_name, padding] : paddings) {
      for (const bool align_corners : {false, true}) {
        const Attrs attrs = sampling(mode, padding_name, align_corners);
        SCOPED_TRACE(attrs.to_string());
        const GridResult want = direct_grid_sample_2d(input, grid, w, mode, padding, align_corners);
        expect_same(values(call_one("grid_sample", {input, grid}, attrs)), want.out, 1e-13);
        const auto got = gradients("grid_sample", {input, grid}, attrs, w);
        expect_same(got[0], want.grad_input, 1e-13);
        expect_same(got[1], want.grad_grid, 1e-13);
      }
    }
  }
}

TEST(GridSample, AgreesWithPyTorchsScalarKernelsAndTheirBackward) {
  std::mt19937_64 rng(11);
  const Tensor input = random_tensor({2, 2, 3, 4}, rng);
  const Tensor grid = random_tensor({2, 3, 5, 2}, rng, -2.5, 2.5);
  const Tensor w = random_tensor({2, 2, 3, 5}, rng);
  expect_grid_sample_matches(input, grid, w);
}

TEST(GridSample, SpecialPointsTakePyTorchsOneSidedSlopes) {
  // W = 4, H = 3. Coordinates that land exactly on pixels, on borders, on reflection points and on
  // nearest's ties for both align_corners (x = -1, 1 are the borders with align_corners; x = 3 is a
  // reflection point; x = +-0.5 and 0 give .5 ties and pixels without it).
  std::mt19937_64 rng(12);
  const Tensor input = random_tensor({1, 1, 3, 4}, rng);
  const Tensor grid = from_values({-1, -1, 1, 1, 3, -3, -0.5, 0, 0.5, 0.5, 0, 0, 1.25, -1.5, -0.25, 1}, {1, 2, 4, 2});
  const Tensor w = random_tensor({1, 1, 2, 4}, rng);
  expect_grid_sample_matches(input, grid, w);
}

TEST(GridSample, DocumentedSlopes) {
  // W = 4, H = 1: input [1, 2, 4, 7]; PyTorch 1.13 and 2.15 give these grid gradients (x only).
  const Tensor input = from_values({1, 2, 4, 7}, {1, 1, 1, 4});
  const auto slope = [&](double x, const char* padding, bool align_corners) {
    const Tensor grid = from_values({x, 0}, {1, 1, 1, 2});
    return gradients("grid_sample", {input, grid}, sampling("bilinear", padding, align_corners),
                     from_values({1}, {1, 1, 1, 1}))[1][0];
  };
  EXPECT_EQ(slope(-1, "zeros", true), 1.5);          // on pixel 0: the segment to pixel 1, 1.5 per unit of x
  EXPECT_EQ(slope(1, "zeros", true), -10.5);         // on the last pixel: the segment to the zero beyond
  EXPECT_EQ(slope(-1, "border", true), 0.0);         // on a border
  EXPECT_EQ(slope(3, "reflection", true), 0.0);      // ix = 6 reflects onto the border 0
  EXPECT_EQ(slope(1.5, "reflection", false), -6.0);  // ix = 4.5 reflects to 2.5, slope -(7 - 4) * 2
  EXPECT_EQ(slope(-0.25, "border", false), 4.0);
}

TEST(GridSample, FiveDimensionsAreTrilinear) {
  std::mt19937_64 rng(13);
  const Tensor input = random_tensor({1, 2, 2, 3, 4}, rng);
  const Tensor grid = random_tensor({1, 2, 2, 1, 3}, rng, -1.3, 1.3);
  const std::vector<double> x = values(input), g = values(grid);
  std::vector<double> want;
  for (std::int64_t ch = 0; ch < 2; ++ch) {
    for (std::int64_t p = 0; p < 4; ++p) {
      const double ix = ((g[p * 3] + 1) * 4 - 1) / 2, iy = ((g[p * 3 + 1] + 1) * 3 - 1) / 2,
                   iz = ((g[p * 3 + 2] + 1) * 2 - 1) / 2;
      const double fx = std::floor(ix), fy = std::floor(iy), fz = std::floor(iz);
      double sum = 0;
      for (int dz = 0; dz < 2; ++dz) {
        for (int dy = 0; dy < 2; ++dy) {
          for (int dx = 0; dx < 2; ++dx) {
            const auto xx = static_cast<std::int64_t>(fx) + dx, yy = static_cast<std::int64_t>(fy) + dy,
                       zz = static_cast<std::int64_t>(fz) + dz;
            if (xx < 0 || xx >= 4 || yy < 0 || yy >= 3 || zz < 0 || zz >= 2) continue;
            const double weight =
                (dx ? ix - fx : fx + 1 - ix) * (dy ? iy - fy : fy + 1 - iy) * (dz ? iz - fz : fz + 1 - iz);
            sum += weight * x[static_cast<std::size_t>(((ch * 2 + zz) * 3 + yy) * 4 + xx)];
          }
        }
      }
      want.push_back(sum);
    }
  }
  expect_same(values(call_one("grid_sample", {input, grid}, sampling("bilinear", "zeros", false))), want, 1e-13);
}

TEST(GridSample, FiveDimensionsAreTricubicWithPyTorch2sValue) {
  // torch 2.15: F.grid_sample(arange(8.).reshape(1, 1, 2, 2, 2), [[[[[0.3, -0.2, 0.1]]]]], mode='bicubic',
  // align_corners=True); 64 taps, the 56 outside the input read as zeros.
  const Tensor input = from_values({0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 2, 2});
  const Tensor grid = from_values({0.3, -0.2, 0.1}, {1, 1, 1, 1, 3});
  expect_same(values(call_one("grid_sample", {input, grid}, sampling("bicubic", "zeros", true))), {6.002530244140626},
              1e-15);
}

// ---------------------------------------------------------------------------------------------
// affine_grid

TEST(AffineGrid, IsTheBaseGridTimesTheta) {
  std::mt19937_64 rng(17);
  for (const bool align_corners : {false, true}) {
    const Tensor theta = random_tensor({2, 2, 3}, rng);
    const std::vector<double> t = values(theta);
    const std::int64_t h = 3, w = 4;
    // AffineGridGenerator.cpp: linspace(-1, 1, L), times (L - 1) / L without align_corners.
    const auto base = [&](std::int64_t i, std::int64_t length) {
      const double v = -1 + 2.0 * static_cast<double>(i) / static_cast<double>(length - 1);
      return align_corners ? v : v * static_cast<double>(length - 1) / static_cast<double>(length);
    };
    std::vector<double> want;
    for (std::int64_t b = 0; b < 2; ++b) {
      for (std::int64_t y = 0; y < h; ++y) {
        for (std::int64_t x = 0; x < w; ++x) {
          for (std::int64_t j = 0; j < 2; ++j) {
            const double* row = &t[static_cast<std::size_t>(b * 6 + j * 3)];
            want.push_back(row[0] * base(x, w) + row[1] * base(y, h) + row[2]);
          }
        }
      }
    }
    const Tensor got = call_one("affine_grid", {theta}, {{"size", Ints{2, 1, h, w}}, {"align_corners", align_corners}});
    EXPECT_EQ(got.shape(), (Shape{2, h, w, 2}));
    expect_same(values(got), want, 1e-14);
  }
  // The identity maps the pixel centers onto grid_sample's positions: sampling reproduces the input.
  const Tensor identity = from_values({1, 0, 0, 0, 1, 0}, {1, 2, 3});
  const Tensor image = random_tensor({1, 1, 3, 4}, rng);
  for (const bool align_corners : {false, true}) {
    const Tensor grid =
        call_one("affine_grid", {identity}, {{"size", Ints{1, 1, 3, 4}}, {"align_corners", align_corners}});
    expect_same(values(call_one("grid_sample", {image, grid}, sampling("bilinear", "zeros", align_corners))),
                values(image), 1e-14);
  }
  expect_op_error("affine_grid", {random_tensor({1, 3, 3}, rng)}, {{"size", Ints{1, 1, 2, 2}}},
                  ErrorKind::ShapeMismatch, "needs theta");
  expect_op_error("affine_grid", {random_tensor({1, 2, 3}, rng)}, {{"size", Ints{1, 1, 0, 2}}},
                  ErrorKind::InvalidArgument, "positive");
}

}  // namespace
}  // namespace funcspec
