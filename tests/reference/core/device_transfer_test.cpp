// to_device (NOTE: [device transfer]): what holds on every machine; the GPU round trips are in
// tests/reference/backends/cuda/device_test.cpp.
#include <gtest/gtest.h>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/core/tensor.h"
#include "tests/reference/test_support.h"

namespace funcspec::device_transfer_test {

using testing_support::expect_error_kind;

TEST(DeviceTransfer, ATensorAlreadyThereIsReturnedItself) {
  const Tensor t = from_values({1, 2, 3}, {3});
  EXPECT_TRUE(to_device(t, Device::Cpu).is_same(t));
}

TEST(DeviceTransfer, ToMetaKeepsShapeDtypeAndTheWrappedNumberFlag) {
  const Tensor literal = Tensor::wrapped_scalar(Scalar(2.5));
  const Tensor on_meta = to_device(literal, Device::Meta);
  EXPECT_EQ(on_meta.device(), Device::Meta);
  EXPECT_FALSE(on_meta.has_storage());
  EXPECT_EQ(on_meta.dtype(), literal.dtype());
  EXPECT_TRUE(on_meta.is_wrapped_number());
}

TEST(DeviceTransfer, AMetaTensorHasNoValuesToMove) {
  const Tensor on_meta = Tensor::empty({2}, DType::Float32, Device::Meta);
  expect_error_kind(ErrorKind::DataDependentOnMeta, [&] { to_device(on_meta, Device::Cpu); });
}

TEST(DeviceTransfer, WithoutAGpuMovingToCudaRaisesCudaNotAvailable) {
  if (cuda::device_count() > 0) GTEST_SKIP() << "a GPU is present: " << cuda::device_description();
  expect_error_kind(ErrorKind::CudaNotAvailable, [] { to_device(from_values({1, 2}, {2}), Device::Cuda); });
}

TEST(DeviceTransfer, TheOracleDtypeStaysOnTheCpu) {
  if (cuda::device_count() == 0) GTEST_SKIP() << "no GPU: " << cuda::device_description();
  expect_error_kind(ErrorKind::DtypeNotSupported,
                    [] { to_device(from_values({1}, {1}, DType::Oracle), Device::Cuda); });
}

}  // namespace funcspec::device_transfer_test
