// Every primitive runs on the GPU (docs/cuda.md), checked on every machine: in a build with the CUDA
// backend, each op that has a cpu kernel has a CUDA kernel too (whether they agree is for the GPU
// tests and the cross-check); in a build without it, none has, and dispatch reports
// cuda_not_available.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reference/ops/registry.h"

namespace funcspec::cuda_kernel_coverage_test {

TEST(CudaKernelCoverage, EveryOpWithACpuKernelHasACudaKernelExactlyWhenTheBackendIsBuilt) {
  std::vector<std::string> mismatched;
  int with_kernels = 0;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->cpu_kernel == nullptr) continue;
    ++with_kernels;
    if ((op->cuda_kernel != nullptr) != static_cast<bool>(FUNCSPEC_HAVE_CUDA)) mismatched.push_back(op->name());
  }
  EXPECT_GT(with_kernels, 50);
  EXPECT_TRUE(mismatched.empty()) << (FUNCSPEC_HAVE_CUDA ? "without a CUDA kernel: " : "with a CUDA kernel: ")
                                  << ::testing::PrintToString(mismatched);
}

}  // namespace funcspec::cuda_kernel_coverage_test
