#include <gtest/gtest.h>

#include <vector>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/random/philox.h"
#include "tests/reference/backends/cuda/cuda_test_support.h"
#include "tests/reference/test_support.h"

namespace funcspec::cuda_philox_test {

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

}  // namespace funcspec::cuda_philox_test

namespace funcspec::cuda_device_test {

using cuda_testing::expect_identical;

// Every layout a view can have survives the trip to the GPU and back, value for value.
TEST(CudaTransfer, RoundTripsKeepValuesForEveryLayoutAndDtype) {
  FUNCSPEC_REQUIRE_GPU();
  for (DType dtype : {DType::Bool, DType::Int64, DType::Float32, DType::Float64}) {
    const Tensor base =
        call_one("to_dtype", {from_values({0, 1, -2, 3.5, 4, -0.0, 6, 7, 8, 9, 10, 11}, {3, 4})}, {{"dtype", dtype}});
    const TensorList views = {base,
                              Tensor::view_of(base, {4, 3}, {1, 4}, 0),
                              Tensor::view_of(base, {2, 2}, {4, 2}, 1),
                              Tensor::view_of(base, {3, 4}, {0, 1}, 4),
                              Tensor::view_of(base, {0, 4}, {4, 1}, 0),
                              Tensor::view_of(base, {}, {}, 5)};
    for (const Tensor& view : views) {
      const Tensor on_gpu = to_device(view, Device::Cuda);
      EXPECT_TRUE(on_gpu.is_contiguous());
      const Tensor back = to_device(on_gpu, Device::Cpu);
      expect_identical(on_gpu, view, std::string(dtype_name(dtype)) + " " + shape_to_string(view.strides()));
      EXPECT_EQ(back.to_vector<double>(), view.to_vector<double>());
      // A view of a cuda tensor comes back with its own geometry, not its storage's.
      const Tensor gpu_view = cuda_testing::same_view_on_cuda(view);
      EXPECT_EQ(to_device(gpu_view, Device::Cpu).to_vector<double>(), view.to_vector<double>());
    }
  }
}

TEST(CudaTransfer, MixingDevicesInOneOpIsADeviceMismatch) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor on_cpu = from_values({1, 2}, {2});
  const Tensor on_gpu = to_device(on_cpu, Device::Cuda);
  testing_support::expect_error_kind(ErrorKind::DeviceMismatch, [&] { call_one("add", {on_cpu, on_gpu}); });
}

TEST(CudaTransfer, ALiteralMeetsACudaTensorOnTheGpu) {
  FUNCSPEC_REQUIRE_GPU();
  const Tensor on_gpu = to_device(from_values({1, 2}, {2}), Device::Cuda);
  const Tensor sum = call_one("add", {on_gpu, Tensor::wrapped_scalar(Scalar(0.5))});
  EXPECT_EQ(sum.device(), Device::Cuda);
  EXPECT_EQ(sum.to_vector<double>(), (std::vector<double>{1.5, 2.5}));
}

}  // namespace funcspec::cuda_device_test
