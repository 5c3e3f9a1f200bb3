// Tests of the pools (docs/ops/pooling.md) against PyTorch's cpu kernels written out here as direct
// loops (their window bounds, count and pick rules), independently of the composites: the oracle
// check of the catalogue runs the same composites in another dtype and could not see a wrong count
// or pick.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "reference/ops/dispatch.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::expect_same;
using testing_support::values;

using Ints = std::vector<std::int64_t>;

Tensor random_image(const Shape& shape, std::mt19937_64& rng, bool with_ties) {
  std::int64_t count = 1;
  for (std::int64_t s : shape) count *= s;
  std::uniform_int_distribution<int> small(-3, 3);
  std::uniform_real_distribution<double> uniform(-2, 2);
  std::vector<double> data(count);
  // Small integers tie often, which exercises the pick.
  for (double& v : data) v = with_ties ? small(rng) : uniform(rng);
  return from_vector(data, shape, DType::Float64);
}

// PyTorch's pooling_output_shape.
std::int64_t output_size(std::int64_t in, std::int64_t k, std::int64_t pad, std::int64_t stride, std::int64_t dil,
                         bool ceil_mode) {
  const std::int64_t room = in + 2 * pad - dil * (k - 1) - 1;
  std::int64_t out = (ceil_mode ? (room + stride - 1) / stride : room / stride) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

struct Pool2d {
  Ints kernel, stride, padding, dilation;
  bool ceil_mode;
};

// max_pool2d_with_indices as PyTorch's cpu kernel: scan the window's in-bounds positions in
// row-major order, replacing the pick by a greater or NaN value.
void direct_max_pool2d(const Tensor& input, const Pool2d& p, std::vector<double>& out_values,
                       std::vector<double>& out_indices, Shape& shape) {
  const std::vector<double> x = values(input);
  const std::int64_t planes = input.size(0) * input.size(1), h = input.size(2), w = input.size(3);
  const std::int64_t oh = output_size(h, p.kernel[0], p.padding[0], p.stride[0], p.dilation[0], p.ceil_mode);
  const std::int64_t ow = output_size(w, p.kernel[1], p.padding[1], p.stride[1], p.dilation[1], p.ceil_mode);
  shape = {input.size(0), input.size(1), oh, ow};
  for (std::int64_t plane = 0; plane < planes; ++plane) {
    for (std::int64_t oy = 0; oy < oh; ++oy) {
      for (std::int64_t ox = 0; ox < ow; ++ox) {
        std::int64_t y0 = oy * p.stride[0] - p.padding[0], x0 = ox * p.stride[1] - p.padding[1];
        const std::int64_t y1 = std::min(y0 + (p.kernel[0] - 1) * p.dilation[0] + 1, h);
        const std::int64_t x1 = std::min(x0 + (p.kernel[1] - 1) * p.dilation[1] + 1, w);
        while (y0 < 0) y0 += p.dilation[0];
        while (x0 < 0) x0 += p.dilation[1];
        std::int64_t best = y0 * w + x0;
        double best_value = -std::numeric_limits<double>::infinity();
        for (std::int64_t y = y0; y < y1; y += p.dilation[0]) {
          for (std::int64_t xx = x0; xx < x1; xx += p.dilation[1]) {
            const double v = x[plane * h * w + y * w + xx];
            if (v > best_value || std::isnan(v)) {
              best_value = v;
              best = y * w + xx;
            }
          }
        }
        out_values.push_back(best_value);
        out_indices.push_back(static_cast<double>(best));
      }
    }
  }
}

Attrs window_attrs(const Pool2d& p) {
  return {{"kernel_size", p.kernel},
          {"stride", p.stride},
          {"padding", p.padding},
          {"dilation", p.dilation},
          {"ceil_mode", p.ceil_mode}};
}

TEST(MaxPool2d, AgreesWithPyTorchsKernelLoop) {
  std::mt19937_64 rng(20261202);
  const Pool2d cases[] = {
      {{2, 2}, {2, 2}, {0, 0}, {1, 1}, false},
      {{3, 2}, {2, 1}, {1, 1}, {1, 1}, true},
      {{2, 3}, {1, 2}, {1, 0}, {2, 1}, false},
      {{3, 3}, {3, 3}, {1, 1}, {1, 1}, true},
  };
  for (const Pool2d& p : cases) {
    for (const bool ties : {false, true}) {
      Tensor input = random_image({2, 3, 7, 6}, rng, ties);
      std::vector<double> want_values, want_indices;
      Shape shape;
      direct_max_pool2d(input, p, want_values, want_indices, shape);
      const TensorList got = call("max_pool2d_with_indices", {input}, window_attrs(p));
      EXPECT_EQ(got[0].shape(), shape);
      expect_same(values(got[0]), want_values);
      expect_same(values(got[1]), want_indices);
    }
  }
}

TEST(MaxPool2d, PicksTheLastNan) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor input = from_values({nan, 1, nan, 5}, {1, 1, 2, 2});
  const TensorList got = call("max_pool2d_with_indices", {input}, {{"kernel_size", Ints{2}}});
  EXPECT_TRUE(std::isnan(values(got[0])[0]));
  expect_same(values(got[1]), {2});
}

// avg_pool2d as PyTorch's cpu kernel: the window clipped to the padded input gives the count with
// padding, clipped to the input the count without.
std::vector<double> direct_avg_pool2d(const Tensor& input, const Pool2d& p, bool count_include_pad, Shape& shape) {
  const std::vector<double> x = values(input);
  const std::int64_t planes = input.size(0) * input.size(1), h = input.size(2), w = input.size(3);
  const std::int64_t oh = output_size(h, p.kernel[0], p.padding[0], p.stride[0], 1, p.ceil_mode);
  const std::int64_t ow = output_size(w, p.kernel[1], p.padding[1], p.stride[1], 1, p.ceil_mode);
  shape = {input.size(0), input.size(1), oh, ow};
  std::vector<double> out;
  for (std::int64_t plane = 0; plane < planes; ++plane) {
    for (std::int64_t oy = 0; oy < oh; ++oy) {
      for (std::int64_t ox = 0; ox < ow; ++ox) {
        std::int64_t y0 = oy * p.stride[0] - p.padding[0], x0 = ox * p.stride[1] - p.padding[1];
        std::int64_t y1 = std::min(y0 + p.kernel[0], h + p.padding[0]);
        std::int64_t x1 = std::min(x0 + p.kernel[1], w + p.padding[1]);
        const std::int64_t padded_count = (y1 - y0) * (x1 - x0);
        y0 = std::max<std::int64_t>(y0, 0);
        x0 = std::max<std::int64_t>(x0, 0);
        y1 = std::min(y1, h);
        x1 = std::min(x1, w);
        double sum = 0;
        for (std::int64_t y = y0; y < y1; ++y) {
          for (std::int64_t xx = x0; xx < x1; ++xx) sum += x[plane * h * w + y * w + xx];
        }
        out.push_back(sum / static_cast<double>(count_include_pad ? padded_count : (y1 - y0) * (x1 - x0)));
      }
    }
  }
  return out;
}

TEST(AvgPool2d, AgreesWithPyTorchsKernelLoop) {
  std::mt19937_64 rng(5);
  const Pool2d cases[] = {
      {{2, 2}, {2, 2}, {0, 0}, {1, 1}, false},
      {{3, 2}, {2, 1}, {1, 1}, {1, 1}, true},
      {{3, 3}, {2, 2}, {1, 1}, {1, 1}, true},
      {{2, 3}, {3, 2}, {1, 0}, {1, 1}, true},
  };
  for (const Pool2d& p : cases) {
    for (const bool count_include_pad : {true, false}) {
      const Tensor input = random_image({2, 2, 6, 7}, rng, false);
      Shape shape;
      const std::vector<double> want = direct_avg_pool2d(input, p, count_include_pad, shape);
      Attrs attrs{{"kernel_size", p.kernel},
                  {"stride", p.stride},
                  {"padding", p.padding},
                  {"ceil_mode", p.ceil_mode},
                  {"count_include_pad", count_include_pad}};
      const Tensor got = call_one("avg_pool2d", {input}, attrs);
      EXPECT_EQ(got.shape(), shape);
      expect_same(values(got), want, 1e-14);
    }
  }
}

TEST(AdaptivePool2d, AveragesAndPicksOverPyTorchsWindows) {
  std::mt19937_64 rng(9);
  const Tensor input = random_image({1, 2, 5, 7}, rng, true);
  const std::vector<double> x = values(input);
  const Ints out{3, 4};
  const Tensor avg = call_one("adaptive_avg_pool2d", {input}, {{"output_size", out}});
  const TensorList max = call("adaptive_max_pool2d_with_indices", {input}, {{"output_size", out}});
  std::vector<double> want_avg, want_max, want_index;
  for (std::int64_t plane = 0; plane < 2; ++plane) {
    for (std::int64_t i = 0; i < 3; ++i) {
      for (std::int64_t j = 0; j < 4; ++j) {
        const std::int64_t y0 = i * 5 / 3, y1 = ((i + 1) * 5 + 2) / 3;
        const std::int64_t x0 = j * 7 / 4, x1 = ((j + 1) * 7 + 3) / 4;
        double sum = 0, best = -std::numeric_limits<double>::infinity();
        std::int64_t best_index = y0 * 7 + x0;
        for (std::int64_t y = y0; y < y1; ++y) {
          for (std::int64_t xx = x0; xx < x1; ++xx) {
            const double v = x[plane * 35 + y * 7 + xx];
            sum += v;
            if (v > best || std::isnan(v)) {
              best = v;
              best_index = y * 7 + xx;
            }
          }
        }
        want_avg.push_back(sum / static_cast<double>((y1 - y0) * (x1 - x0)));
        want_max.push_back(best);
        want_index.push_back(static_cast<double>(best_index));
      }
    }
  }
  expect_same(values(avg), want_avg, 1e-14);
  expect_same(values(max[0]), want_max);
  expect_same(values(max[1]), want_index);
}

// max_unpool2d as PyTorch's cpu kernel: per plane, write each input element at its index in input
// order, so a later element naming the same position overwrites an earlier one.
std::vector<double> direct_max_unpool2d(const Tensor& input, const Tensor& indices, std::int64_t out_h,
                                        std::int64_t out_w) {
  const std::vector<double> x = values(input);
  const std::vector<std::int64_t> index = indices.to_vector<std::int64_t>();
  const std::int64_t planes = input.size(0) * input.size(1), per_plane = input.size(2) * input.size(3);
  std::vector<double> out(static_cast<std::size_t>(planes * out_h * out_w), 0.0);
  for (std::int64_t plane = 0; plane < planes; ++plane) {
    for (std::int64_t i = 0; i < per_plane; ++i) {
      const auto k = static_cast<std::size_t>(plane * per_plane + i);
      out[static_cast<std::size_t>(plane * out_h * out_w + index[k])] = x[k];
    }
  }
  return out;
}

TEST(MaxUnpool2d, AgreesWithPyTorchsKernelLoop) {
  std::mt19937_64 rng(20261202);
  struct Case {
    Ints kernel, stride, padding, output_size;
    std::int64_t out_h, out_w;
  };
  // A 3x4 input: (3 - 1) s + k - 2p per dim, or output_size's last two entries.
  const Case cases[] = {
      {{2}, {}, {0}, {}, 6, 8},
      {{3, 2}, {1, 2}, {1, 0}, {}, 3, 8},
      {{2}, {}, {0}, {2, 3, 7, 9}, 7, 9},
      {{2}, {}, {0}, {5, 7}, 5, 7},
  };
  for (const Case& c : cases) {
    for (const std::int64_t span : {std::int64_t{2}, c.out_h * c.out_w}) {  // mostly repeated, then spread
      const Tensor input = random_image({2, 3, 3, 4}, rng, false);
      std::uniform_int_distribution<std::int64_t> position(0, span - 1);
      std::vector<std::int64_t> index(2 * 3 * 3 * 4);
      for (std::int64_t& i : index) i = position(rng);
      const Tensor indices = from_vector(index, {2, 3, 3, 4}, DType::Int64);
      const Tensor got = call_one(
          "max_unpool2d", {input, indices},
          {{"kernel_size", c.kernel}, {"stride", c.stride}, {"padding", c.padding}, {"output_size", c.output_size}});
      EXPECT_EQ(got.shape(), (Shape{2, 3, c.out_h, c.out_w}));
      expect_same(values(got), direct_max_unpool2d(input, indices, c.out_h, c.out_w));
    }
  }
}

TEST(MaxUnpool2d, UndoesANonOverlappingMaxPool) {
  std::mt19937_64 rng(20261203);
  const Tensor input = random_image({1, 2, 4, 6}, rng, true);
  const TensorList pooled = call("max_pool2d_with_indices", {input}, {{"kernel_size", Ints{2}}});
  const Tensor restored = call_one("max_unpool2d", pooled, {{"kernel_size", Ints{2}}});
  // Every picked element is back at its place, every other one is 0.
  const std::vector<double> x = values(input), y = values(restored);
  std::vector<bool> picked(x.size(), false);
  const std::vector<std::int64_t> positions = pooled[1].to_vector<std::int64_t>();
  for (std::size_t k = 0; k < positions.size(); ++k) {
    picked[(k / 6) * 24 + static_cast<std::size_t>(positions[k])] = true;  // 6 windows, 24 positions per plane
  }
  for (std::size_t k = 0; k < x.size(); ++k) EXPECT_EQ(y[k], picked[k] ? x[k] : 0.0) << k;
}

TEST(MaxUnpool2d, RejectsPositionsOutsideThePlaneAndBadSizes) {
  const Tensor input = from_values({1, 2, 3, 4}, {1, 1, 2, 2});
  const Attrs kernel2{{"kernel_size", Ints{2}}};
  for (const std::int64_t bad : {std::int64_t{16}, std::int64_t{-1}}) {
    const Tensor indices = from_vector(std::vector<std::int64_t>{0, 5, 10, bad}, {1, 1, 2, 2}, DType::Int64);
    expect_op_error("max_unpool2d", {input, indices}, kernel2, ErrorKind::IndexOutOfRange, "index");
  }
  const Tensor indices = from_vector(std::vector<std::int64_t>{0, 5, 10, 15}, {1, 1, 2, 2}, DType::Int64);
  expect_op_error("max_unpool2d", {input, indices}, {{"kernel_size", Ints{2}}, {"output_size", Ints{6, 4}}},
                  ErrorKind::InvalidArgument, "strictly between 2 and 6");
  expect_op_error("max_unpool2d", {input, indices}, {{"kernel_size", Ints{2}}, {"output_size", Ints{4}}},
                  ErrorKind::InvalidArgument, "must have 2 or 4 elements");
  expect_op_error("max_unpool2d", {input, from_vector(std::vector<std::int64_t>{0, 5}, {1, 1, 1, 2}, DType::Int64)},
                  kernel2, ErrorKind::ShapeMismatch, "must have the input's shape");
  expect_op_error("max_unpool2d", {input, input}, kernel2, ErrorKind::DtypeNotSupported, "indices");
}

}  // namespace
}  // namespace funcspec
