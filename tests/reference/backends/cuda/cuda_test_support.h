#pragma once
// Shared by the CUDA backend's tests. Each runs an op on cpu and on cuda from the same inputs and
// compares; without a GPU (or in a build without the backend) every such test skips, naming why.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "reference/backends/cuda/cuda_device.h"
#include "reference/core/tensor.h"
#include "reference/ops/dispatch.h"

// Skips the current test, with the reason, when no GPU is usable.
#define FUNCSPEC_REQUIRE_GPU()                                              \
  do {                                                                      \
    if (::funcspec::cuda::device_count() == 0) {                            \
      GTEST_SKIP() << "no GPU: " << ::funcspec::cuda::device_description(); \
    }                                                                       \
  } while (false)

// Skips a test whose inputs are sized for a GPU (millions of elements, to take several grids or
// the multi-level reduction tree) where the backend runs on the host emulator (docs/cuda.md): there
// kernels run one thread at a time under the sanitizers, and such a test would take minutes. The
// same kernels run on the emulator through every other test, on smaller inputs.
#define FUNCSPEC_REQUIRE_GPU_SCALE()                                                                \
  do {                                                                                              \
    FUNCSPEC_REQUIRE_GPU();                                                                         \
    if (::funcspec::cuda_testing::kOnHostEmulator) {                                                \
      GTEST_SKIP() << "sized for a GPU: on the host emulator it would take minutes (docs/cuda.md)"; \
    }                                                                                               \
  } while (false)

namespace funcspec::cuda_testing {

#if defined(FUNCSPEC_CUDA_EMULATED) && FUNCSPEC_CUDA_EMULATED
inline constexpr bool kOnHostEmulator = true;
#else
inline constexpr bool kOnHostEmulator = false;
#endif

inline TensorList to_cuda(const TensorList& tensors) {
  TensorList moved;
  for (const Tensor& t : tensors) moved.push_back(t.defined() ? to_device(t, Device::Cuda) : t);
  return moved;
}

// `t` as the same geometry on cuda: the storage is copied whole, so the view keeps its strides and
// offset (transposed, broadcast or offset inputs reach the kernels as they are).
inline Tensor same_view_on_cuda(const Tensor& t) {
  const Tensor base = Tensor::view_of(t, {t.storage()->numel()}, {1}, 0);
  const Tensor moved = to_device(base, Device::Cuda);
  return Tensor::view_of(moved, t.shape(), t.strides(), t.storage_offset());
}

// Bitwise equality of two results, NaN payloads aside (NaN equals NaN; the sign of zero counts).
inline void expect_identical(const Tensor& on_cuda, const Tensor& on_cpu, const std::string& what) {
  ASSERT_EQ(on_cuda.device(), Device::Cuda) << what;
  ASSERT_EQ(on_cuda.shape(), on_cpu.shape()) << what;
  ASSERT_EQ(on_cuda.dtype(), on_cpu.dtype()) << what;
  const std::vector<double> got = on_cuda.to_vector<double>();
  const std::vector<double> want = on_cpu.to_vector<double>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << ": element " << i << " is " << got[i] << ", expected NaN";
    } else {
      EXPECT_EQ(got[i], want[i]) << what << ": element " << i;
      EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << what << ": sign of element " << i;
    }
  }
}

// Closeness within `ulps` units in the last place of the cpu result's dtype (NaN equals NaN, an
// infinity must match exactly), for math whose libraries differ between host and device.
inline void expect_close_ulps(const Tensor& on_cuda, const Tensor& on_cpu, double ulps, const std::string& what) {
  ASSERT_EQ(on_cuda.shape(), on_cpu.shape()) << what;
  ASSERT_EQ(on_cuda.dtype(), on_cpu.dtype()) << what;
  const double epsilon = on_cpu.dtype() == DType::Float32 ? 0x1p-23 : 0x1p-52;
  const std::vector<double> got = on_cuda.to_vector<double>();
  const std::vector<double> want = on_cpu.to_vector<double>();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]) || std::isinf(want[i])) {
      EXPECT_TRUE(std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i]) << what << ": element " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], ulps * epsilon * std::max(std::abs(want[i]), 1e-300)) << what << ": element " << i;
    }
  }
}

}  // namespace funcspec::cuda_testing
