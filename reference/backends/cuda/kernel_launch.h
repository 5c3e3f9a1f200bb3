#pragma once
// Launch arithmetic shared by the CUDA kernels (nvcc side). Kernels use grid-stride loops, so any
// element count runs with a bounded grid.
#include <cuda_runtime.h>

#include <cstdint>

#include "reference/backends/cuda/cuda_status.h"
#if FUNCSPEC_CUDA_EMULATED
#include "reference/backends/cuda/emulator/kernel_emulation.h"
#endif

namespace funcspec::cuda {

inline constexpr int kThreadsPerBlock = 256;
// Enough blocks to fill a large GPU several times over; the grid-stride loop covers the rest.
inline constexpr std::int64_t kMaxBlocks = 65535;

inline unsigned blocks_for(std::int64_t work_items) {
  const std::int64_t blocks = (work_items + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

// Raises `cuda_not_available`, naming `what`, when the last launch failed.
inline void check_launch(const char* what) { check_cuda_status(static_cast<int>(cudaGetLastError()), what); }

}  // namespace funcspec::cuda

// The grid-stride loop over [0, n): i is this thread's first index, then every grid's width on.
#define FUNCSPEC_GRID_STRIDE_LOOP(i, n)                                                            \
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<std::int64_t>(blockDim.x) * gridDim.x)

// A kernel launch: FUNCSPEC_LAUNCH(grid, block, kernel)(arguments...). With nvcc it is the triple
// chevron launch; under the host emulator (docs/cuda.md) it checks the launch and runs the kernel
// on the cpu. Kernels that use warp collectives (shuffles, __syncwarp) are launched with
// FUNCSPEC_LAUNCH_WARP_COLLECTIVE, which the emulator runs with each warp's lanes in lockstep.
#if FUNCSPEC_CUDA_EMULATED
#define FUNCSPEC_EMULATED_LAUNCH(schedule, grid, block, ...)                                                      \
  ::funcspec::cuda::emulator::Launcher(grid, block, ::funcspec::cuda::emulator::Schedule::schedule, #__VA_ARGS__, \
                                       [](auto&... arguments) { __VA_ARGS__(arguments...); })
#define FUNCSPEC_LAUNCH(grid, block, ...) FUNCSPEC_EMULATED_LAUNCH(independent_threads, grid, block, __VA_ARGS__)
#define FUNCSPEC_LAUNCH_WARP_COLLECTIVE(grid, block, ...) \
  FUNCSPEC_EMULATED_LAUNCH(warp_lockstep, grid, block, __VA_ARGS__)
#else
#define FUNCSPEC_LAUNCH(grid, block, ...) __VA_ARGS__<<<grid, block>>>
#define FUNCSPEC_LAUNCH_WARP_COLLECTIVE(grid, block, ...) __VA_ARGS__<<<grid, block>>>
#endif
