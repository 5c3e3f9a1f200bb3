// Tests of the convolution family (docs/ops/convolution.md) against definitions written here
// independently of the composites: a direct loop for conv2d, and the adjoint identities
// <conv(x), y> = <x, conv_transpose(y)> and <unfold(x), c> = <x, fold(c)>. The oracle check of
// the catalogue runs the same composites in another dtype, so it could not see a wrong window or
// a wrong weight layout; these can.
#include <gtest/gtest.h>

#include <random>

#include "reference/ops/dispatch.h"
#include "tests/reference/test_support.h"

namespace funcspec {
namespace {

using testing_support::expect_op_error;
using testing_support::expect_same;
using testing_support::uniform_tensor;
using testing_support::values;

using Ints = std::vector<std::int64_t>;

double dot(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = values(a), y = values(b);
  EXPECT_EQ(x.size(), y.size());
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += x[i] * y[i];
  return sum;
}

struct Conv2dParams {
  Ints stride, padding, dilation;
  std::int64_t groups;
};

// conv2d by its definition: out[n, f, y, x] = bias[f] + sum over the group's channels c and taps
// (i, j) of input[n, g * Cg + c, y * s0 - p0 + i * d0, x * s1 - p1 + j * d1] * weight[f, c, i, j],
// reading zero outside the input.
std::vector<double> direct_conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& p,
                                  Shape& shape) {
  const std::vector<double> x = values(input), w = values(weight), b = values(bias);
  const std::int64_t batch = input.size(0), channels = input.size(1), height = input.size(2), width = input.size(3);
  const std::int64_t filters = weight.size(0), group_channels = weight.size(1), kh = weight.size(2),
                     kw = weight.size(3);
  const std::int64_t oh = (height + 2 * p.padding[0] - p.dilation[0] * (kh - 1) - 1) / p.stride[0] + 1;
  const std::int64_t ow = (width + 2 * p.padding[1] - p.dilation[1] * (kw - 1) - 1) / p.stride[1] + 1;
  shape = {batch, filters, oh, ow};
  std::vector<double> out;
  const std::int64_t filters_per_group = filters / p.groups;
  for (std::int64_t n = 0; n < batch; ++n) {
    for (std::int64_t f = 0; f < filters; ++f) {
      const std::int64_t g = f / filters_per_group;
      for (std::int64_t oy = 0; oy < oh; ++oy) {
        for (std::int64_t ox = 0; ox < ow; ++ox) {
          double sum = b[f];
          for (std::int64_t c = 0; c < group_channels; ++c) {
            for (std::int64_t i = 0; i < kh; ++i) {
              for (std::int64_t j = 0; j < kw; ++j) {
                const std::int64_t y = oy * p.stride[0] - p.padding[0] + i * p.dilation[0];
                const std::int64_t xx = ox * p.stride[1] - p.padding[1] + j * p.dilation[1];
                if (y < 0 || y >= height || xx < 0 || xx >= width) continue;
                const std::int64_t channel = g * group_channels + c;
                sum += x[((n * channels + channel) * height + y) * width + xx] *
                       w[((f * group_channels + c) * kh + i) * kw + j];
              }
            }
          }
          out.push_back(sum);
        }
      }
    }
  }
  (void)channels;
  return out;
}

Attrs conv_attrs(const Conv2dParams& p) {
  return {{"stride", p.stride}, {"padding", p.padding}, {"dilation", p.dilation}, {"groups", p.groups}};
}

TEST(Conv2d, AgreesWithTheDirectLoop) {
  std::mt19937_64 rng(20261202);
  const Conv2dParams cases[] = {
      {{1, 1}, {0, 0}, {1, 1}, 1},
      {{2, 1}, {1, 2}, {1, 1}, 1},
      {{1, 2}, {0, 1}, {2, 1}, 2},
      {{3, 2}, {2, 0}, {1, 2}, 4},
  };
  for (const Conv2dParams& p : cases) {
    const Tensor input = uniform_tensor({2, 4, 7, 6}, rng);
    const Tensor weight = uniform_tensor({4, 4 / p.groups, 3, 2}, rng);
    const Tensor bias = uniform_tensor({4}, rng);
    Shape shape;
    const std::vector<double> want = direct_conv2d(input, weight, bias, p, shape);
    const Tensor got = call_one("conv2d", {input, weight, bias}, conv_attrs(p));
    EXPECT_EQ(got.shape(), shape);
    expect_same(values(got), want, 1e-13);
  }
}

TEST(Conv1d, SamePaddingOfAnEvenKernelPutsTheOddZeroAfter) {
  const Tensor got =
      call_one("conv1d.padding", {from_values({1, 2, 3, 4}, {1, 4}), from_values({1, 10}, {1, 1, 2}), Tensor()},
               {{"padding", std::string("same")}});
  expect_same(values(got), {21, 32, 43, 4});
}

TEST(Conv3d, UnbatchedIsTheBatchOfOne) {
  std::mt19937_64 rng(3);
  const Tensor input = uniform_tensor({2, 3, 4, 3}, rng);
  const Tensor weight = uniform_tensor({3, 2, 2, 2, 2}, rng);
  const Tensor unbatched = call_one("conv3d", {input, weight, Tensor()}, {{"padding", Ints{1}}});
  const Tensor batched = call_one(
      "conv3d", {call_one("unsqueeze", {input}, {{"dim", std::int64_t{0}}}), weight, Tensor()}, {{"padding", Ints{1}}});
  EXPECT_EQ(unbatched.shape(), (Shape{3, 4, 5, 4}));
  expect_same(values(unbatched), values(batched));
}

// conv_transpose2d(y) is conv2d's input gradient: for every x and y of matching shapes,
// <conv2d(x, w), y> = <x, conv_transpose2d(y, w)>, with output_padding recovering x's size where
// the stride leaves positions after the last window.
TEST(ConvTranspose2d, IsTheAdjointOfConv2d) {
  std::mt19937_64 rng(7);
  struct Case {
    Conv2dParams p;
    Shape input;
  };
  const Case cases[] = {
      {{{1, 1}, {0, 0}, {1, 1}, 1}, {1, 2, 5, 4}},
      {{{2, 3}, {1, 0}, {1, 1}, 1}, {2, 2, 6, 7}},
      {{{2, 1}, {1, 1}, {2, 1}, 2}, {1, 4, 8, 5}},
  };
  for (const Case& c : cases) {
    const Tensor x = uniform_tensor(c.input, rng);
    const Tensor w = uniform_tensor({6, c.input[1] / c.p.groups, 3, 2}, rng);
    const Tensor y_shape_probe = call_one("conv2d", {x, w, Tensor()}, conv_attrs(c.p));
    const Tensor y = uniform_tensor(y_shape_probe.shape(), rng);
    Ints output_padding;
    for (int d = 0; d < 2; ++d) {
      const std::int64_t kernel = w.size(2 + d);
      const std::int64_t reach =
          (y.size(2 + d) - 1) * c.p.stride[d] - 2 * c.p.padding[d] + c.p.dilation[d] * (kernel - 1) + 1;
      output_padding.push_back(c.input[2 + d] - reach);
    }
    Attrs attrs = conv_attrs(c.p);
    attrs.set("output_padding", output_padding);
    const Tensor xt = call_one("conv_transpose2d", {y, w, Tensor()}, attrs);
    ASSERT_EQ(xt.shape(), x.shape());
    EXPECT_NEAR(dot(y_shape_probe, y), dot(x, xt), 1e-11);
  }
}

TEST(Fold, IsTheAdjointOfUnfold) {
  std::mt19937_64 rng(11);
  const Attrs blocks{
      {"kernel_size", Ints{2, 3}}, {"dilation", Ints{1, 2}}, {"padding", Ints{1, 0}}, {"stride", Ints{2, 1}}};
  const Tensor x = uniform_tensor({2, 3, 5, 7}, rng);
  const Tensor columns = call_one("unfold", {x}, blocks);
  EXPECT_EQ(columns.shape(), (Shape{2, 3 * 6, 3 * 3}));
  const Tensor c = uniform_tensor(columns.shape(), rng);
  Attrs fold_attrs = blocks;
  fold_attrs.set("output_size", Ints{5, 7});
  const Tensor folded = call_one("fold", {c}, fold_attrs);
  ASSERT_EQ(folded.shape(), x.shape());
  EXPECT_NEAR(dot(columns, c), dot(x, folded), 1e-11);
}

TEST(ConvolutionErrors, ArePyTorchsKinds) {
  const Tensor x = from_values({1, 2, 3, 4}, {1, 1, 2, 2});
  const Tensor k3 = from_values({1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 3, 3});
  expect_op_error("conv2d", {x, k3, Tensor()}, {}, ErrorKind::ShapeMismatch, "dilated kernel spans 3");
  expect_op_error("conv2d", {x, k3, Tensor()}, {{"groups", std::int64_t{0}}}, ErrorKind::InvalidArgument,
                  "groups must be positive");
  expect_op_error("conv2d.padding", {x, k3, Tensor()}, {{"padding", std::string("same")}, {"stride", Ints{2}}},
                  ErrorKind::InvalidArgument, "strided");
  expect_op_error("conv2d", {x, k3, Tensor()}, {{"stride", Ints{1, 1, 1}}}, ErrorKind::InvalidArgument,
                  "a list of 2 values");
  expect_op_error("conv2d", {x, from_values({1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 3, 3}, DType::Float32), Tensor()},
                  {{"padding", Ints{1}}}, ErrorKind::DtypeNotSupported, "they must be equal");
  const Tensor w = from_values({1, 1}, {1, 1, 2});
  expect_op_error("conv_transpose1d", {from_values({1, 2, 3}, {1, 1, 3}), w, Tensor()},
                  {{"stride", Ints{2}}, {"output_padding", Ints{2}}}, ErrorKind::InvalidArgument,
                  "smaller than either stride or dilation");
  expect_op_error("fold", {from_values({1, 2, 3, 4, 5}, {1, 1, 5})},
                  {{"output_size", Ints{3}}, {"kernel_size", Ints{1}}}, ErrorKind::ShapeMismatch,
                  "holds 3 x 3 = 9 blocks");
}

}  // namespace
}  // namespace funcspec
