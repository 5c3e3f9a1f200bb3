// Samples of the convolution family (docs/ops/convolution.md): batched and unbatched inputs, a
// transposed input, a size-0 batch, stride, padding, dilation and groups alone and together,
// 'same' padding with odd and even kernels (the odd zero after), windows that fall off the padded
// edge, and the inputs each op rejects (a kernel larger than the padded input, groups that do not
// divide the channels, a wrong rank, dtype or attribute; a weight of another dtype than the input
// is a unit test, since the oracle runs every floating input in one dtype). The ops are bilinear (convolutions) or
// linear (unfold, fold), so they declare no special points.
//
// Tolerance: an output sums m = (C / groups) * prod(k) products of values in [-2, 2) (fold and a
// transposed convolution sum fewer, at most prod(k) overlapping ones); recursive summation is off
// by at most (m + 1) u S with S = sum |terms| <= 4 m. The largest m in the samples is 2 * 3 * 3 =
// 18: (19)(eps / 2)(72) = 684 eps, under 16 ulps of an absolute floor of 64 (stated 16). float32
// contracts in float64 and rounds once; its bias add and the scatter's additions of up to 9 float32
// products (each under 72 in size) add at most 10 roundings: 10 (eps32 / 2) 72 / 64 < 6 ulps.
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

constexpr OracleTolerance kConvolutionTolerance{16.0, 6.0, 64.0, 0.0};

Attrs conv_attrs(std::vector<std::int64_t> stride, std::vector<std::int64_t> padding,
                 std::vector<std::int64_t> dilation, std::int64_t groups) {
  return {{"stride", std::move(stride)},
          {"padding", std::move(padding)},
          {"dilation", std::move(dilation)},
          {"groups", groups}};
}

// A shape of `lead` followed by `n` copies of `size`.
Shape spatial(Shape lead, std::int64_t n, std::int64_t size) {
  lead.insert(lead.end(), n, size);
  return lead;
}

std::vector<OpSample> conv_samples(DType f, SampleRng& rng, std::int64_t n) {
  // C_out 3, C_in 2, 3 taps per dim (2 in 3-D, which keeps m within the tolerance's 18).
  const Shape kernel3 = spatial({3, 2}, n, n == 3 ? 2 : 3);
  const std::int64_t len = n == 3 ? 4 : 5;
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, len), f), rng.tensor(kernel3, f), rng.tensor({3}, f)}, {}, "batched, bias"},
      {{rng.tensor(spatial({2}, n, len), f), rng.tensor(kernel3, f)}, {}, "unbatched, no bias"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f), rng.tensor({2}, f)},
       conv_attrs({2}, {1}, {1}, 1),
       "stride 2, padding 1: the last window falls off the padded edge"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       conv_attrs({1}, {0}, {2}, 1),
       "dilation 2"},
      {{rng.tensor(spatial({2, 4}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f), rng.tensor({2}, f)},
       conv_attrs({1}, {1}, {1}, 2),
       "groups 2, padding 1"},
      {{rng.tensor(spatial({1, 2}, n, 3), f), rng.tensor(spatial({2, 1}, n, 2), f)},
       conv_attrs({1}, {0}, {1}, 2),
       "depthwise (groups = channels)"},
      {{rng.tensor(spatial({0, 2}, n, 3), f), rng.tensor(spatial({3, 2}, n, 2), f), rng.tensor({3}, f)},
       {},
       "size-0 batch"},
      {{rng.tensor(spatial({2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 4), f)},
       conv_attrs({1}, {0}, {1}, 1),
       "kernel larger than the input shape-mismatch"},
      {{rng.tensor(spatial({1, 3}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       conv_attrs({1}, {0}, {1}, 2),
       "groups not dividing the channels shape-mismatch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f), rng.tensor(spatial({2, 3}, n, 2), f)}, {}, "channels shape-mismatch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f), rng.tensor({3}, f)},
       {},
       "bias of the wrong size shape-mismatch"},
      {{rng.tensor(spatial({1, 1, 2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f)}, {}, "rank shape-mismatch"},
      {{rng.tensor(spatial({2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       conv_attrs({0}, {0}, {1}, 1),
       "stride 0 (rejected)"},
      {{rng.tensor(spatial({2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       conv_attrs({1}, {-1}, {1}, 1),
       "negative padding (rejected)"},
      {{rng.tensor(spatial({2}, n, 3), DType::Int64, -3, 3), rng.tensor(spatial({2, 2}, n, 2), DType::Int64, -3, 3)},
       {},
       "int64 (rejected)"},
  };
  // Small enough for the gradient laws' programs (at most 24 input elements).
  out.push_back(
      {{rng.tensor(spatial({1, 1}, n, n == 3 ? 2 : 3), f), rng.tensor(spatial({1, 1}, n, 2), f), rng.tensor({1}, f)},
       {},
       "one channel, small"});
  if (n >= 2) {
    // Attributes per dim.
    std::vector<std::int64_t> stride(n, 1), padding(n, 0), dilation(n, 1);
    stride[0] = 2;
    padding[n - 1] = 1;
    dilation[n - 1] = 2;
    out.push_back({{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f)},
                   conv_attrs(stride, padding, dilation, 1),
                   "stride, padding and dilation per dim"});
    out.push_back({{rng.tensor(spatial({2}, n, 3), f), rng.tensor(spatial({2, 2}, n, 2), f)},
                   conv_attrs({1, 1, 1, 1}, {0}, {1}, 1),
                   "stride of 4 values (rejected)"});
  }
  if (n == 2) {
    out.push_back({{rng.strided_tensor({2, 5, 4}, f), rng.tensor({2, 2, 2, 3}, f)}, {}, "transposed input"});
  }
  return out;
}

// conv{n}d.padding: 'valid' and 'same' with odd and even (dilated) kernels.
std::vector<OpSample> conv_padding_mode_samples(DType f, SampleRng& rng, std::int64_t n) {
  const auto mode = [](const char* m, std::int64_t dilation = 1, std::int64_t stride = 1) {
    return Attrs{{"padding", std::string(m)},
                 {"dilation", std::vector<std::int64_t>{dilation}},
                 {"stride", std::vector<std::int64_t>{stride}},
                 {"groups", std::int64_t{1}}};
  };
  std::vector<OpSample> out{
      {{rng.tensor(spatial({1, 2}, n, 4), f), rng.tensor(spatial({2, 2}, n, 3), f), rng.tensor({2}, f)},
       mode("same"),
       "same, odd kernel"},
      {{rng.tensor(spatial({1, 2}, n, 4), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       mode("same"),
       "same, even kernel: the odd zero after"},
      {{rng.tensor(spatial({2}, n, 4), f), rng.tensor(spatial({1, 2}, n, 2), f)},
       mode("same", 2),
       "same, dilation 2, unbatched"},
      {{rng.tensor(spatial({1, 2}, n, 4), f), rng.tensor(spatial({2, 2}, n, 2), f)}, mode("valid"), "valid"},
      {{rng.tensor(spatial({1, 2}, n, 4), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       mode("same", 1, 2),
       "same with stride 2 (rejected)"},
      {{rng.tensor(spatial({1, 2}, n, 4), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       mode("full"),
       "unknown padding mode (rejected)"},
  };
  out.push_back({{rng.tensor(spatial({1, 1}, n, n == 3 ? 2 : 3), f), rng.tensor(spatial({1, 1}, n, 2), f)},
                 mode("same"),
                 "same, one channel, small"});
  return out;
}

Attrs transpose_attrs(std::vector<std::int64_t> stride, std::vector<std::int64_t> padding,
                      std::vector<std::int64_t> output_padding, std::int64_t groups,
                      std::vector<std::int64_t> dilation) {
  return {{"stride", std::move(stride)},
          {"padding", std::move(padding)},
          {"output_padding", std::move(output_padding)},
          {"groups", groups},
          {"dilation", std::move(dilation)}};
}

std::vector<OpSample> conv_transpose_samples(DType f, SampleRng& rng, std::int64_t n) {
  const std::int64_t len = n == 3 ? 2 : 3;
  const std::int64_t taps = n == 3 ? 2 : 3;  // as conv_samples
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, len), f), rng.tensor(spatial({2, 3}, n, 2), f), rng.tensor({3}, f)},
       {},
       "batched, bias"},
      {{rng.tensor(spatial({2}, n, len), f), rng.tensor(spatial({2, 2}, n, taps), f)}, {}, "unbatched, no bias"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, taps), f), rng.tensor({2}, f)},
       transpose_attrs({2}, {1}, {1}, 1, {1}),
       "stride 2, padding 1, output_padding 1"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 1}, n, 2), f)},
       transpose_attrs({1}, {0}, {1}, 1, {2}),
       "dilation 2, output_padding 1 (below the dilation)"},
      {{rng.tensor(spatial({1, 4}, n, len), f), rng.tensor(spatial({4, 1}, n, 2), f), rng.tensor({2}, f)},
       transpose_attrs({2}, {0}, {0}, 2, {1}),
       "groups 2, stride 2"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, taps), f)},
       transpose_attrs({1}, {n == 3 ? 1 : 2}, {0}, 1, {1}),
       "padding that crops past the kernel's overlap"},
      {{rng.tensor(spatial({0, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f)}, {}, "size-0 batch"},
      {{rng.tensor(spatial({1, 2}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       transpose_attrs({2}, {0}, {2}, 1, {1}),
       "output_padding equal to the stride (rejected)"},
      {{rng.tensor(spatial({1, 2}, n, 1), f), rng.tensor(spatial({2, 2}, n, 2), f)},
       transpose_attrs({1}, {1}, {0}, 1, {1}),
       "output too small shape-mismatch"},
      {{rng.tensor(spatial({1, 3}, n, len), f), rng.tensor(spatial({2, 2}, n, 2), f)}, {}, "channels shape-mismatch"},
      {{rng.tensor(spatial({1, 3}, n, len), f), rng.tensor(spatial({3, 2}, n, 2), f)},
       transpose_attrs({1}, {0}, {0}, 2, {1}),
       "groups not dividing the channels shape-mismatch"},
      {{rng.tensor(spatial({2}, n, len), DType::Int64, -3, 3), rng.tensor(spatial({2, 2}, n, 2), DType::Int64, -3, 3)},
       {},
       "int64 (rejected)"},
  };
  out.push_back({{rng.tensor(spatial({1, 1}, n, 2), f), rng.tensor(spatial({1, 1}, n, 2), f), rng.tensor({1}, f)},
                 transpose_attrs({2}, {0}, {1}, 1, {1}),
                 "one channel, small"});
  return out;
}

Attrs block_attrs(std::vector<std::int64_t> kernel, std::vector<std::int64_t> dilation,
                  std::vector<std::int64_t> padding, std::vector<std::int64_t> stride) {
  return {{"kernel_size", std::move(kernel)},
          {"dilation", std::move(dilation)},
          {"padding", std::move(padding)},
          {"stride", std::move(stride)}};
}

std::vector<OpSample> unfold_samples(DType f, SampleRng& rng) {
  return {
      {{rng.tensor({2, 2, 4, 4}, f)}, block_attrs({2}, {1}, {0}, {1}), "2x2 blocks"},
      {{rng.tensor({2, 3, 4}, f)}, block_attrs({2, 3}, {1}, {1}, {2, 1}), "unbatched, padding, stride per dim"},
      {{rng.strided_tensor({1, 5, 4}, f)}, block_attrs({2}, {2}, {0}, {1}), "transposed input, dilation 2"},
      {{rng.tensor({0, 2, 3, 3}, f)}, block_attrs({2}, {1}, {0}, {1}), "size-0 batch"},
      {{rng.tensor({1, 2, 5, 3}, f)}, block_attrs({3, 2}, {1}, {0}, {2}), "stride 2: the last row left out"},
      {{rng.tensor({1, 2, 2, 2}, f)}, block_attrs({3}, {1}, {0}, {1}), "kernel larger than the input shape-mismatch"},
      {{rng.tensor({2, 2, 2, 2, 2}, f)}, block_attrs({2}, {1}, {0}, {1}), "5-D shape-mismatch"},
      {{rng.tensor({1, 2, 3, 3}, f)}, block_attrs({0}, {1}, {0}, {1}), "kernel_size 0 (rejected)"},
      {{rng.tensor({1, 2, 3, 3}, DType::Int64, -3, 3)}, block_attrs({2}, {1}, {0}, {1}), "int64 (rejected)"},
  };
}

Attrs fold_attrs(std::vector<std::int64_t> output_size, Attrs blocks) {
  blocks.set("output_size", std::move(output_size));
  return blocks;
}

std::vector<OpSample> fold_samples(DType f, SampleRng& rng) {
  return {
      // 2 channels, 2x2 taps, 3x3 blocks of a 4x4 image: the taps overlap.
      {{rng.tensor({2, 8, 9}, f)}, fold_attrs({4}, block_attrs({2}, {1}, {0}, {1})), "overlapping blocks"},
      {{rng.tensor({6, 8}, f)}, fold_attrs({3, 4}, block_attrs({2, 3}, {1}, {1}, {2, 1})), "unbatched, padding"},
      {{rng.strided_tensor({4, 4}, f)},
       fold_attrs({4}, block_attrs({2}, {1}, {0}, {2})),
       "transposed input, stride 2: no overlap"},
      {{rng.tensor({1, 4, 4}, f)},
       fold_attrs({5}, block_attrs({2}, {2}, {0}, {2})),
       "dilation 2: positions no block reaches stay 0"},
      {{rng.tensor({0, 4, 4}, f)}, fold_attrs({3}, block_attrs({2}, {1}, {0}, {1})), "size-0 batch"},
      {{rng.tensor({1, 5, 4}, f)},
       fold_attrs({3}, block_attrs({2}, {1}, {0}, {1})),
       "columns not divisible by the taps shape-mismatch"},
      {{rng.tensor({1, 4, 5}, f)}, fold_attrs({3}, block_attrs({2}, {1}, {0}, {1})), "block count shape-mismatch"},
      {{rng.tensor({1, 4, 4}, DType::Int64, -3, 3)},
       fold_attrs({3}, block_attrs({2}, {1}, {0}, {1})),
       "int64 (rejected)"},
  };
}

}  // namespace

void register_convolution_samples(OpSampleRegistry& registry) {
  for (const std::int64_t n : {1, 2, 3}) {
    registry.add({fmt::format("conv{}d", n), [n](DType f, SampleRng& rng) { return conv_samples(f, rng, n); },
                  kConvolutionTolerance, ""});
    registry.add({fmt::format("conv{}d.padding", n),
                  [n](DType f, SampleRng& rng) { return conv_padding_mode_samples(f, rng, n); }, kConvolutionTolerance,
                  ""});
    registry.add({fmt::format("conv_transpose{}d", n),
                  [n](DType f, SampleRng& rng) { return conv_transpose_samples(f, rng, n); }, kConvolutionTolerance,
                  ""});
  }
  registry.add({"unfold", unfold_samples, kConvolutionTolerance, ""});
  registry.add({"fold", fold_samples, kConvolutionTolerance, ""});
}

}  // namespace funcspec::samples
