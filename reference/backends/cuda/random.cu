// CUDA kernels of the random family. The generator itself (philox.h) is shared with the CPU, so
// the same (seed, counter) gives the same bits on both.
#include <cstdint>

#include "reference/random/philox.h"

namespace funcspec::cuda {
namespace {

__global__ void philox_blocks_kernel(std::uint64_t seed, std::uint64_t offset, std::uint32_t* out, std::int64_t count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const random::PhiloxStream stream{seed, offset};
  const random::PhiloxBlock block = stream.block(static_cast<std::uint64_t>(i));
  for (int w = 0; w < 4; ++w) out[4 * i + w] = block[w];
}

}  // namespace

void launch_philox_blocks(std::uint64_t seed, std::uint64_t offset, std::uint32_t* device_out, std::int64_t count) {
  if (count == 0) return;
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((count + kThreads - 1) / kThreads);
  philox_blocks_kernel<<<blocks, kThreads>>>(seed, offset, device_out, count);
}

}  // namespace funcspec::cuda
