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

}  // namespace
}  // namespace funcspec
