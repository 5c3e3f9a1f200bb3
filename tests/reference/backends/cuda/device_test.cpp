#include <gtest/gtest.h>

#include <vector>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/random/philox.h"

namespace funcspec {
namespace {

TEST(CudaBackend, PhiloxGivesTheSameBitsOnTheGpuAsOnTheCpu) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no GPU: " << cuda::device_description();
  constexpr std::int64_t kBlocks = 100000;
  const std::uint64_t seed = 0x0123456789ABCDEFull, offset = 987654321;
  std::vector<std::uint32_t> on_gpu(4 * kBlocks);
  cuda::philox_blocks(seed, offset, on_gpu.data(), kBlocks);
  const random::PhiloxStream stream{seed, offset};
  for (std::int64_t i = 0; i < kBlocks; ++i) {
    const random::PhiloxBlock expected = stream.block(static_cast<std::uint64_t>(i));
    for (int w = 0; w < 4; ++w) {
      ASSERT_EQ(on_gpu[static_cast<std::size_t>(4 * i + w)], expected[w]) << "block " << i << " word " << w;
    }
  }
}

TEST(CudaBackend, DescribesItselfEvenWithoutADevice) {
  EXPECT_FALSE(cuda::device_description().empty());
  EXPECT_GE(cuda::device_count(), 0);
}

}  // namespace
}  // namespace funcspec
