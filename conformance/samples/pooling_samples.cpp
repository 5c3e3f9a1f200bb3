// Samples of the pooling ops (docs/ops/pooling.md): batched and unbatched inputs, a transposed
// input, a size-0 batch, stride, padding, dilation, ceil_mode windows that hang over the padded
// edge and one ceil_mode would start in the right padding (dropped), count_include_pad and
// divisor_override, adaptive windows that overlap and that split unevenly, and the rejected
// inputs. The max pools' ties, NaNs and -inf windows are special points
// (special_point_declarations.cpp). Tolerances, in ulps:
//   - max pools pick an element: exact;
//   - avg pools sum at most m = 9 elements and divide: (m - 1) (eps / 2) m max|x| = 36 eps max|x|,
//     stated 8 ulps against 8 max|input|;
//   - adaptive avg pools contract with weights 1/c in one einsum: (P + 1) (eps / 2) max|x| for P <= 25
//     input positions, stated 16 ulps against max|input|; float32 contracts in float64 with float32
//     weights (0.5 eps32 each, relative) and rounds once: 2 ulps;
//   - lp pools raise to p, average and take the 1/p-th root, which shrinks the relative error: 16.
#include <fmt/format.h>

#include "conformance/samples/op_samples.h"

namespace funcspec::samples {
namespace {

using Ints = std::vector<std::int64_t>;

Shape spatial(Shape lead, std::int64_t n, std::int64_t size) {
  lead.insert(lead.end(), n, size);
  return lead;
}

Attrs window(Ints kernel, Ints stride = {}, Ints padding = {0}, Ints dilation = {1}, bool ceil_mode = false) {
  return {{"kernel_size", std::move(kernel)},
          {"stride", std::move(stride)},
          {"padding", std::move(padding)},
          {"dilation", std::move(dilation)},
          {"ceil_mode", ceil_mode}};
}

std::vector<OpSample> max_pool_samples(DType f, SampleRng& rng, std::int64_t n) {
  const std::int64_t len = n == 3 ? 4 : 5;
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, len), f)}, window({2}), "batched, stride = kernel"},
      {{rng.tensor(spatial({2}, n, len), f)}, window({3}, {1}, {1}), "unbatched, padding 1"},
      {{rng.tensor(spatial({1, 2}, n, len), f)}, window({2}, {1}, {0}, {2}), "dilation 2"},
      {{rng.tensor(spatial({1, 2}, n, len), f)},
       window({2}, {2}, {0}, {1}, true),
       "ceil_mode: the last window hangs over the edge"},
      {{rng.tensor(spatial({1, 1}, n, 4), f)},
       window({2}, {3}, {1}, {1}, true),
       "ceil_mode: a window starting in the right padding is dropped"},
      {{rng.tensor(spatial({0, 2}, n, 3), f)}, window({2}), "size-0 batch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, window({2}, {1}, {2}), "padding above half the kernel (rejected)"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, window({0}), "kernel_size 0 (rejected)"},
      {{rng.tensor(spatial({1, 2}, n, 1), f)}, window({2}), "output too small shape-mismatch"},
      {{rng.tensor(spatial({1, 0}, n, 3), f)}, window({2}), "no channels shape-mismatch"},
      {{rng.tensor(spatial({1, 1, 2}, n, 3), f)}, window({2}), "rank shape-mismatch"},
      {{rng.tensor(spatial({1, 2}, n, 3), DType::Int64, -3, 3)}, window({2}), "int64 (rejected)"},
  };
  if (n == 2) {
    out.push_back({{rng.strided_tensor({2, 5, 4}, f)}, window({2, 3}, {1, 2}), "transposed input, per-dim window"});
  }
  out.push_back({{rng.tensor(spatial({1, 1}, n, n == 3 ? 2 : 3), f)}, window({2}, {1}), "one channel, small"});
  return out;
}

Attrs averaging(Ints kernel, Ints stride = {}, Ints padding = {0}, bool ceil_mode = false,
                bool count_include_pad = true) {
  return {{"kernel_size", std::move(kernel)},
          {"stride", std::move(stride)},
          {"padding", std::move(padding)},
          {"ceil_mode", ceil_mode},
          {"count_include_pad", count_include_pad}};
}

std::vector<OpSample> avg_pool_samples(DType f, SampleRng& rng, std::int64_t n) {
  const std::int64_t len = n == 3 ? 4 : 5;
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, len), f)}, averaging({2}), "batched, stride = kernel"},
      {{rng.tensor(spatial({2}, n, len), f)}, averaging({3}, {2}, {1}), "unbatched, padding counted"},
      {{rng.tensor(spatial({1, 2}, n, len), f)}, averaging({3}, {2}, {1}, false, false), "padding not counted"},
      {{rng.tensor(spatial({1, 2}, n, 4), f)},
       averaging({3}, {2}, {1}, true, true),
       "ceil_mode with padding counted: positions past the padding never count"},
      {{rng.tensor(spatial({1, 2}, n, 4), f)}, averaging({3}, {2}, {0}, true, false), "ceil_mode, padding not counted"},
      {{rng.tensor(spatial({0, 2}, n, 3), f)}, averaging({2}), "size-0 batch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, averaging({2}, {1}, {2}), "padding above half the kernel (rejected)"},
      {{rng.tensor(spatial({1, 2}, n, 1), f)}, averaging({2}), "output too small shape-mismatch"},
      {{rng.tensor(spatial({1, 2}, n, 3), DType::Int64, -3, 3)}, averaging({2}), "int64 (rejected)"},
  };
  if (n >= 2) {
    Attrs divided = averaging({2}, {1}, {1});
    divided.set("divisor_override", std::int64_t{3});
    out.push_back({{rng.tensor(spatial({1, 2}, n, 3), f)}, divided, "divisor_override 3"});
    Attrs zero = averaging({2});
    zero.set("divisor_override", std::int64_t{0});
    out.push_back({{rng.tensor(spatial({1, 2}, n, 3), f)}, zero, "divisor_override 0 (rejected)"});
  }
  if (n == 2) {
    out.push_back({{rng.strided_tensor({2, 5, 4}, f)}, averaging({2, 3}, {1, 2}), "transposed input, per-dim window"});
  }
  out.push_back({{rng.tensor(spatial({1, 1}, n, n == 3 ? 2 : 3), f)}, averaging({2}, {1}), "one channel, small"});
  return out;
}

Attrs sized(Ints output_size) { return {{"output_size", std::move(output_size)}}; }

std::vector<OpSample> adaptive_samples(DType f, SampleRng& rng, std::int64_t n) {
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, 5), f)}, sized({3}), "5 -> 3: overlapping windows"},
      {{rng.tensor(spatial({2}, n, 5), f)}, sized({2}), "unbatched, 5 -> 2"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, sized({5}), "3 -> 5: windows repeat inputs"},
      {{rng.tensor(spatial({1, 2}, n, 4), f)}, sized({1}), "global pool"},
      {{rng.tensor(spatial({0, 2}, n, 3), f)}, sized({2}), "size-0 batch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, sized({-1}), "negative output_size (rejected)"},
      {{rng.tensor(spatial({1, 0}, n, 3), f)}, sized({2}), "no channels shape-mismatch"},
      {{rng.tensor(spatial({1, 2}, n, 3), DType::Int64, -3, 3)}, sized({2}), "int64 (rejected)"},
  };
  if (n == 2) {
    out.push_back({{rng.strided_tensor({2, 5, 4}, f)}, sized({2, 3}), "transposed input, per-dim sizes"});
  }
  out.push_back({{rng.tensor(spatial({1, 1}, n, 3), f)}, sized({2}), "one channel, small"});
  return out;
}

std::vector<OpSample> lp_pool_samples(DType f, SampleRng& rng, std::int64_t n) {
  const auto lp = [](double p, Ints kernel, Ints stride = {}, bool ceil_mode = false) {
    return Attrs{
        {"norm_type", p}, {"kernel_size", std::move(kernel)}, {"stride", std::move(stride)}, {"ceil_mode", ceil_mode}};
  };
  std::vector<OpSample> out{
      {{rng.tensor(spatial({2, 2}, n, 4), f, 0.25, 2)}, lp(2.0, {2}), "p 2, positive"},
      {{rng.tensor(spatial({2}, n, 5), f, 0.25, 2)}, lp(3.0, {3}, {1}), "unbatched, p 3"},
      {{rng.tensor(spatial({1, 2}, n, 5), f)}, lp(2.0, {2}, {2}, true), "p 2 of signed values, ceil_mode"},
      {{rng.tensor(spatial({0, 2}, n, 3), f)}, lp(2.0, {2}), "size-0 batch"},
      {{rng.tensor(spatial({1, 2}, n, 3), f)}, lp(0.0, {2}), "norm_type 0 (rejected)"},
  };
  out.push_back({{rng.tensor(spatial({1, 1}, n, 3), f, 0.25, 2)}, lp(2.0, {2}, {1}), "one channel, small"});
  return out;
}

// Flat positions in output planes of `plane` elements for an input of `shape` with n spatial dims:
// distinct, one in each of the plane's blocks as a non-overlapping max pool's indices are, or
// (`repeated`) drawn from the first two positions, so most repeat, as overlapping windows repeat
// their maximum.
Tensor unpool_positions(SampleRng& rng, const Shape& shape, std::int64_t n, std::int64_t plane, bool repeated) {
  std::int64_t per_plane = 1, total = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    total *= shape[d];
    if (d + static_cast<std::size_t>(n) >= shape.size()) per_plane *= shape[d];
  }
  const std::int64_t block = plane / per_plane;
  std::vector<std::int64_t> positions;
  for (std::int64_t k = 0; k < total; ++k) {
    positions.push_back(repeated ? rng.integer(0, 2) : (k % per_plane) * block + rng.integer(0, block));
  }
  return from_vector(positions, shape, DType::Int64);
}

Attrs unpooling(Ints kernel, Ints stride = {}, Ints padding = {0}, Ints output_size = {}) {
  return {{"kernel_size", std::move(kernel)},
          {"stride", std::move(stride)},
          {"padding", std::move(padding)},
          {"output_size", std::move(output_size)}};
}

std::vector<OpSample> max_unpool_samples(DType f, SampleRng& rng, std::int64_t n) {
  const auto plane = [n](std::int64_t size) {
    std::int64_t count = 1;
    for (std::int64_t i = 0; i < n; ++i) count *= size;
    return count;
  };
  const auto sample = [&](Shape lead, std::int64_t size, std::int64_t out, bool repeated, Attrs attrs,
                          std::string label) {
    const Shape shape = spatial(std::move(lead), n, size);
    return OpSample{{rng.tensor(shape, f), unpool_positions(rng, shape, n, plane(out), repeated)},
                    std::move(attrs),
                    std::move(label)};
  };
  std::vector<OpSample> out{
      sample({2, 2}, 2, 4, false, unpooling({2}), "batched, distinct positions (a kernel-2 pool's indices)"),
      sample({2}, 2, 4, false, unpooling({2}), "unbatched"),
      sample({1, 2}, 2, 3, false, unpooling({2}, {1}), "stride 1"),
      sample({1, 2}, 2, 2, false, unpooling({2}, {2}, {1}), "padding 1 shrinks the output"),
      sample({1, 1}, 2, 5, false, unpooling({2}, {}, {0}, Ints(static_cast<std::size_t>(n), 5)),
             "output_size one above the default"),
      sample({1, 1}, 2, 3, false, unpooling({2}, {}, {0}, Ints(static_cast<std::size_t>(n + 2), 3)),
             "output_size with the batch and channel dims, one below the default"),
      sample({0, 2}, 2, 4, false, unpooling({2}), "size-0 batch"),
      sample({1, 1}, 2, 4, false, unpooling({2}, {}, {0}, Ints(static_cast<std::size_t>(n), 6)),
             "output_size at default + stride (rejected)"),
      sample({1, 1}, 2, 4, false, unpooling({2}, {}, {0}, {4, 4, 4, 4, 4, 4}),
             "output_size of the wrong length (rejected)"),
      sample({1, 0}, 2, 4, false, unpooling({2}), "no channels shape-mismatch"),
  };
  out.push_back(sample({1, 2}, 2, 4, true, unpooling({2}, {1}), "mostly repeated positions: the last wins"));
  {
    const Shape shape = spatial({1, 1}, n, 2);
    out.push_back({{rng.tensor(shape, f), rng.tensor(spatial({1, 1}, n, 1), DType::Int64, 0, 1)},
                   unpooling({2}),
                   "indices of another shape shape-mismatch"});
    out.push_back({{rng.tensor(shape, f), rng.tensor(shape, f, 0, 3)}, unpooling({2}), "float indices (rejected)"});
    out.push_back({{rng.tensor(shape, DType::Int64, -3, 3), unpool_positions(rng, shape, n, plane(4), false)},
                   unpooling({2}),
                   "int64 input (rejected)"});
  }
  if (n == 2) {
    const Tensor x = rng.strided_tensor({2, 2, 3}, f);
    out.push_back({{x, unpool_positions(rng, x.shape(), n, 4 * 6, false)}, unpooling({2}), "transposed input"});
  }
  return out;
}

}  // namespace

void register_pooling_samples(OpSampleRegistry& registry) {
  constexpr OracleTolerance exact{0.5, 0.5, 0.0, 0.0};
  for (const std::int64_t n : {1, 2, 3}) {
    const auto max_samples = [n](DType f, SampleRng& rng) { return max_pool_samples(f, rng, n); };
    registry.add({fmt::format("max_pool{}d", n), max_samples, exact, ""});
    registry.add({fmt::format("max_pool{}d_with_indices", n), max_samples, exact, ""});
    registry.add({fmt::format("avg_pool{}d", n),
                  [n](DType f, SampleRng& rng) { return avg_pool_samples(f, rng, n); },
                  {8.0, 8.0, 0.0, 8.0},
                  ""});
  }
  for (const std::int64_t n : {1, 2, 3}) {
    // Writes elements where they are: exact.
    registry.add({fmt::format("max_unpool{}d", n),
                  [n](DType f, SampleRng& rng) { return max_unpool_samples(f, rng, n); }, exact, ""});
  }
  for (const std::int64_t n : {1, 2}) {
    const auto adaptive = [n](DType f, SampleRng& rng) { return adaptive_samples(f, rng, n); };
    registry.add({fmt::format("adaptive_avg_pool{}d", n), adaptive, {16.0, 2.0, 0.0, 1.0}, ""});
    registry.add({fmt::format("adaptive_max_pool{}d", n), adaptive, exact, ""});
    registry.add({fmt::format("adaptive_max_pool{}d_with_indices", n), adaptive, exact, ""});
    registry.add({fmt::format("lp_pool{}d", n),
                  [n](DType f, SampleRng& rng) { return lp_pool_samples(f, rng, n); },
                  {16.0, 16.0, 0.0, 1.0},
                  ""});
  }
}

}  // namespace funcspec::samples
