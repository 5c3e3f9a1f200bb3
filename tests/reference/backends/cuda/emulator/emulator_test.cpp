// The CUDA host emulator must reject what a GPU rejects and run what a GPU runs, or the CUDA tests
// that run on it in CI prove less than they claim. Built only with FUNCSPEC_CUDA_EMULATOR.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reference/backends/cuda/kernel_launch.h"

namespace funcspec::cuda_emulator_test {
namespace {

using cuda::blocks_for;
using cuda::kThreadsPerBlock;

__global__ void write_thread_ids(std::int64_t n, std::int64_t* out) {
  FUNCSPEC_GRID_STRIDE_LOOP(i, n) { out[i] = i; }
}

// Each warp sums its lanes' values with a butterfly of shuffles: right only if the lanes really
// exchange values at every step, in lockstep.
__global__ void warp_sums(const std::int64_t* in, std::int64_t* out) {
  const unsigned lane = threadIdx.x % 32;
  std::int64_t value = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int delta = 16; delta > 0; delta /= 2) value += __shfl_xor_sync(0xffffffffU, value, delta);
  if (lane == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = value;
}

// Lane 0 reaches a __syncwarp the others skip: undefined on a GPU.
__global__ void divergent_barrier(std::int64_t* out) {
  if (threadIdx.x % 32 == 0) __syncwarp();
  out[threadIdx.x] = 1;
}

struct DeviceBuffer {
  explicit DeviceBuffer(std::size_t count) { EXPECT_EQ(cudaMalloc(&data, count * sizeof(std::int64_t)), cudaSuccess); }
  ~DeviceBuffer() { cudaFree(data); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::int64_t* get() const { return static_cast<std::int64_t*>(data); }
  void* data = nullptr;
};

std::vector<std::int64_t> to_host(const DeviceBuffer& buffer, std::size_t count) {
  std::vector<std::int64_t> host(count);
  EXPECT_EQ(cudaMemcpy(host.data(), buffer.data, count * sizeof(std::int64_t), cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

TEST(CudaEmulator, AGridStrideKernelWritesEveryElementOnce) {
  for (const std::int64_t n : {1, 255, 256, 257, 5000}) {
    DeviceBuffer out(static_cast<std::size_t>(n));
    FUNCSPEC_LAUNCH(blocks_for(n), kThreadsPerBlock, write_thread_ids)(n, out.get());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<std::int64_t> host = to_host(out, static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(host[static_cast<std::size_t>(i)], i) << "n = " << n;
  }
}

TEST(CudaEmulator, AHostPointerArgumentIsAnIllegalAddressAndTheKernelDoesNotRun) {
  std::vector<std::int64_t> host(8, -1);
  FUNCSPEC_LAUNCH(1, 32, write_thread_ids)(std::int64_t{8}, host.data());
  const cudaError_t error = cudaGetLastError();
  EXPECT_EQ(error, cudaErrorIllegalAddress);
  const std::string text = cudaGetErrorString(error);
  EXPECT_NE(text.find("write_thread_ids"), std::string::npos) << text;
  EXPECT_NE(text.find("argument 1"), std::string::npos) << text;
  EXPECT_EQ(host[0], -1) << "the kernel ran on host memory";
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the error is reported once";
}

TEST(CudaEmulator, FreedDeviceMemoryIsNoLongerDeviceMemory) {
  void* freed = nullptr;
  ASSERT_EQ(cudaMalloc(&freed, 64), cudaSuccess);
  ASSERT_EQ(cudaFree(freed), cudaSuccess);
  FUNCSPEC_LAUNCH(1, 32, write_thread_ids)(std::int64_t{8}, static_cast<std::int64_t*>(freed));
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaFree(freed), cudaErrorInvalidValue) << "a double free";
  cudaGetLastError();
}

TEST(CudaEmulator, ShapesNoGpuAcceptsAreInvalidConfigurations) {
  DeviceBuffer out(1);
  FUNCSPEC_LAUNCH(1, 2048, write_thread_ids)(std::int64_t{1}, out.get());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  FUNCSPEC_LAUNCH(0, 256, write_thread_ids)(std::int64_t{1}, out.get());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  FUNCSPEC_LAUNCH(dim3(1, 65536), 32, write_thread_ids)(std::int64_t{1}, out.get());
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
}

TEST(CudaEmulator, CopiesCheckTheKindAndTheBounds) {
  DeviceBuffer device(4);
  std::vector<std::int64_t> host(4, 7);
  EXPECT_EQ(cudaMemcpy(device.data, host.data(), 4 * sizeof(std::int64_t), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(host.data(), device.data, 5 * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
            cudaErrorInvalidValue)
      << "past the end of the allocation";
  cudaGetLastError();
  EXPECT_EQ(cudaMemcpy(host.data(), device.data, 4 * sizeof(std::int64_t), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue)
      << "the kind names the host buffer as the device side";
  cudaGetLastError();
  EXPECT_EQ(cudaMemcpy(device.get() + 1, device.get(), 2 * sizeof(std::int64_t), cudaMemcpyDeviceToDevice),
            cudaSuccess);
}

TEST(CudaEmulator, WarpShufflesExchangeValuesInLockstep) {
  constexpr int kBlocks = 3;
  constexpr int kThreads = 128;
  std::vector<std::int64_t> values(kBlocks * kThreads);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int64_t>(i * i % 1000);
  DeviceBuffer in(values.size());
  DeviceBuffer out(values.size() / 32);
  ASSERT_EQ(cudaMemcpy(in.data, values.data(), values.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  FUNCSPEC_LAUNCH_WARP_COLLECTIVE(kBlocks, kThreads, warp_sums)(static_cast<const std::int64_t*>(in.get()), out.get());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const std::vector<std::int64_t> sums = to_host(out, values.size() / 32);
  for (std::size_t w = 0; w < sums.size(); ++w) {
    std::int64_t expected = 0;
    for (std::size_t l = 0; l < 32; ++l) expected += values[w * 32 + l];
    EXPECT_EQ(sums[w], expected) << "warp " << w;
  }
}

TEST(CudaEmulatorDeathTest, AWarpCollectiveInAKernelNotLaunchedForThemIsADeviceFault) {
  DeviceBuffer in(32);
  DeviceBuffer out(1);
  EXPECT_DEATH(FUNCSPEC_LAUNCH(1, 32, warp_sums)(static_cast<const std::int64_t*>(in.get()), out.get()),
               "FUNCSPEC_LAUNCH_WARP_COLLECTIVE");
}

TEST(CudaEmulatorDeathTest, LanesThatReachDifferentCollectivesAreADeviceFault) {
  DeviceBuffer out(32);
  EXPECT_DEATH(FUNCSPEC_LAUNCH_WARP_COLLECTIVE(1, 32, divergent_barrier)(out.get()), "divergent");
}

// cuBLAS's contract, column-major: C (m×n) = op(A)·op(B), element (i, j) of X at X[i + j·ld].
TEST(CudaEmulatorCublas, StridedBatchedGemmFollowsTheColumnMajorContract) {
  cublasHandle_t handle = nullptr;
  ASSERT_EQ(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  constexpr std::int64_t m = 2, n = 3, k = 4, lda = 5, ldb = 4, ldc = 3, batches = 2;
  // A is stored transposed (k×m, lda 5), B as is (k×n, ldb 4); C has a padded leading dimension.
  const std::int64_t stride_a = lda * m, stride_b = ldb * n, stride_c = ldc * n;
  std::vector<double> a(static_cast<std::size_t>(stride_a * batches)), b(static_cast<std::size_t>(stride_b * batches));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i % 7) - 3;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(i % 5) * 0.5;
  std::vector<double> c(static_cast<std::size_t>(stride_c * batches), std::numeric_limits<double>::quiet_NaN());
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(cudaMalloc(&da, a.size() * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&db, b.size() * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dc, c.size() * sizeof(double)), cudaSuccess);
  cudaMemcpy(da, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * sizeof(double), cudaMemcpyHostToDevice);
  const double one = 1.0, zero = 0.0;
  ASSERT_EQ(cublasDgemmStridedBatched_64(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, static_cast<double*>(da), lda,
                                         stride_a, static_cast<double*>(db), ldb, stride_b, &zero,
                                         static_cast<double*>(dc), ldc, stride_c, batches),
            CUBLAS_STATUS_SUCCESS);
  cudaMemcpy(c.data(), dc, c.size() * sizeof(double), cudaMemcpyDeviceToHost);
  for (std::int64_t batch = 0; batch < batches; ++batch) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        double expected = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          expected += a[static_cast<std::size_t>(batch * stride_a + p + i * lda)] *
                      b[static_cast<std::size_t>(batch * stride_b + p + j * ldb)];
        }
        EXPECT_EQ(c[static_cast<std::size_t>(batch * stride_c + i + j * ldc)], expected)
            << "batch " << batch << ", C(" << i << ", " << j << ") (beta = 0: the NaN in C is never read)";
      }
    }
  }
  // A leading dimension below the stored operand's row count is refused, as cuBLAS refuses it.
  EXPECT_EQ(cublasDgemmStridedBatched_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, static_cast<double*>(da), 1,
                                         stride_a, static_cast<double*>(db), ldb, stride_b, &zero,
                                         static_cast<double*>(dc), ldc, stride_c, batches),
            CUBLAS_STATUS_INVALID_VALUE);
  cudaGetLastError();
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cublasDestroy_v2(handle);
}

// The sums of a GPU's DGEMM, which the backend must not mistake for the cpu's: they start from the
// first product (an H100 returns -0 for the one-term product (-2)·0; the cpu's sum, started at +0,
// gives +0) and accumulate with fused multiply-adds (one rounding per term).
TEST(CudaEmulatorCublas, SumsStartFromTheFirstProductAndFuseAsAGpusDo) {
  cublasHandle_t handle = nullptr;
  ASSERT_EQ(cublasCreate_v2(&handle), CUBLAS_STATUS_SUCCESS);
  // C (1×1) = a·b over k terms, a a row (1×k, lda 1), b a column (k×1, ldb k).
  const auto dot = [&](const std::vector<double>& a, const std::vector<double>& b) {
    const auto k = static_cast<std::int64_t>(a.size());
    void *da = nullptr, *db = nullptr, *dc = nullptr;
    EXPECT_EQ(cudaMalloc(&da, a.size() * sizeof(double)), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&db, b.size() * sizeof(double)), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&dc, sizeof(double)), cudaSuccess);
    cudaMemcpy(da, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(double), cudaMemcpyHostToDevice);
    const double one = 1.0, zero = 0.0;
    EXPECT_EQ(cublasDgemmStridedBatched_64(handle, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, k, &one, static_cast<double*>(da), 1,
                                           0, static_cast<double*>(db), k, 0, &zero, static_cast<double*>(dc), 1, 0, 1),
              CUBLAS_STATUS_SUCCESS);
    double c = std::numeric_limits<double>::quiet_NaN();
    cudaMemcpy(&c, dc, sizeof(double), cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return c;
  };
  const double one_term = dot({-2.0}, {0.0});
  EXPECT_EQ(one_term, 0.0);
  EXPECT_TRUE(std::signbit(one_term)) << "(-2)·0 as a GPU stores it: -0";
  EXPECT_TRUE(std::signbit(dot({-2.0, 3.0}, {0.0, -0.0}))) << "-0 + -0";
  EXPECT_FALSE(std::signbit(dot({-2.0, 3.0}, {0.0, 0.0}))) << "-0 + +0";
  EXPECT_FALSE(std::signbit(dot({2.0, -3.0}, {1.5, 1.0}))) << "3 - 3 cancels to +0";
  // -(1 + 2^-29) + (1 + 2^-30)^2: fused, the second product's 2^-60 survives; rounded first, it is lost.
  const double x = 1.0 + 0x1p-30;
  EXPECT_EQ(dot({-1.0, x}, {1.0 + 0x1p-29, x}), 0x1p-60);
  cublasDestroy_v2(handle);
}

}  // namespace
}  // namespace funcspec::cuda_emulator_test
