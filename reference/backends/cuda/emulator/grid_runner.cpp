// The CUDA host emulator's launches: the checks a GPU makes before a kernel runs, and the order in
// which the emulator runs a grid's threads.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "reference/backends/cuda/emulator/emulator_state.h"
#include "reference/backends/cuda/emulator/kernel_emulation.h"
#include "reference/backends/cuda/emulator/warp_lockstep.h"

namespace funcspec::cuda::emulator {
namespace {

constexpr unsigned kWarpSize = 32;
// Set while run_grid runs a kernel; launches take turns under this lock.
const char* running_kernel = nullptr;
std::mutex launch_lock;

std::string shape_text(dim3 d) { return fmt::format("({}, {}, {})", d.x, d.y, d.z); }

}  // namespace

bool launch_shape_valid(dim3 grid, dim3 block, const char* kernel) {
  // The limits of every GPU since compute capability 3.0, sm_90 included.
  const unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y * block.z;
  const bool valid = grid.x >= 1 && grid.y >= 1 && grid.z >= 1 && grid.x <= 0x7fffffffU && grid.y <= 65535 &&
                     grid.z <= 65535 && block.x >= 1 && block.y >= 1 && block.z >= 1 && block.x <= 1024 &&
                     block.y <= 1024 && block.z <= 64 && threads <= 1024;
  if (!valid) {
    record_error(cudaErrorInvalidConfiguration, fmt::format("kernel {} launched with grid {} and block {}", kernel,
                                                            shape_text(grid), shape_text(block)));
  }
  return valid;
}

void record_host_pointer_argument(const char* kernel, int position, const void* pointer) {
  record_error(cudaErrorIllegalAddress,
               fmt::format("kernel {} was given, as argument {} (from 0), the pointer {} which is not in device "
                           "memory: host memory, or device memory already freed",
                           kernel, position, pointer));
}

void device_fault(const std::string& message) {
  std::fprintf(stderr, "[cuda emulator] device fault in kernel %s: %s\n",
               running_kernel != nullptr ? running_kernel : "(none)", message.c_str());
  std::abort();
}

void run_grid(dim3 grid, dim3 block, Schedule schedule, const char* kernel, void (*body)(void*), void* context) {
  const std::lock_guard lock(launch_lock);
  running_kernel = kernel;
  gridDim = grid;
  blockDim = block;
  if (schedule == Schedule::warp_lockstep && (block.y != 1 || block.z != 1 || block.x % kWarpSize != 0)) {
    device_fault("warp collectives are emulated for one-dimensional blocks of whole warps only, got block " +
                 shape_text(block));
  }
  // Blocks run from the last to the first, so that a kernel whose result depends on blocks running
  // in order (which no GPU promises) fails here too.
  for (unsigned z = grid.z; z-- > 0;) {
    for (unsigned y = grid.y; y-- > 0;) {
      for (unsigned x = grid.x; x-- > 0;) {
        blockIdx = {x, y, z};
        if (schedule == Schedule::warp_lockstep) {
          for (unsigned first = 0; first < block.x; first += kWarpSize) run_warp_in_lockstep(first, body, context);
          continue;
        }
        for (unsigned tz = 0; tz < block.z; ++tz) {
          for (unsigned ty = 0; ty < block.y; ++ty) {
            for (unsigned tx = 0; tx < block.x; ++tx) {
              threadIdx = {tx, ty, tz};
              body(context);
            }
          }
        }
      }
    }
  }
  running_kernel = nullptr;
}

}  // namespace funcspec::cuda::emulator
