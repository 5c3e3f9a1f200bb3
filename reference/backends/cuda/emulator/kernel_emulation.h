#pragma once
// How the CUDA host emulator launches a kernel (FUNCSPEC_LAUNCH in kernel_launch.h expands to this
// under FUNCSPEC_CUDA_EMULATOR). Before running anything it checks what a GPU would reject or crash
// on: the launch shape (cudaErrorInvalidConfiguration), and every pointer the kernel is given, bare
// or as the `data` of a view, which must lie in memory from cudaMalloc (a host pointer is an
// illegal address on the device). Failures are reported the CUDA way, through cudaGetLastError,
// with the kernel, the argument and the pointer named in cudaGetErrorString.
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "reference/backends/cuda/emulator/cuda_runtime.h"

namespace funcspec::cuda::emulator {

enum class Schedule {
  // Each thread runs to completion before the next starts; warp collectives are refused.
  independent_threads,
  // The 32 lanes of a warp run in lockstep between warp collectives (warp_lockstep.cpp).
  warp_lockstep,
};

// Records cudaErrorInvalidConfiguration and returns false when a GPU would refuse the shape.
bool launch_shape_valid(dim3 grid, dim3 block, const char* kernel);
// Null, or inside (or one past the end of) a live cudaMalloc allocation.
bool points_to_device_memory(const void* pointer);
// Records cudaErrorIllegalAddress naming the kernel, the argument's position and the pointer.
void record_host_pointer_argument(const char* kernel, int position, const void* pointer);

// Runs body(context) once per thread of the grid, with threadIdx, blockIdx, blockDim and gridDim
// set, in the order `schedule` says.
void run_grid(dim3 grid, dim3 block, Schedule schedule, const char* kernel, void (*body)(void*), void* context);

template <typename Arg>
const void* device_pointer_of(const Arg& arg) {
  if constexpr (std::is_pointer_v<Arg>) {
    return static_cast<const void*>(arg);
  } else if constexpr (requires { arg.data; }) {
    if constexpr (std::is_pointer_v<std::remove_cvref_t<decltype(arg.data)>>) return static_cast<const void*>(arg.data);
    return nullptr;
  } else {
    return nullptr;
  }
}

// Called with the kernel's arguments: copies them once (a launch passes arguments by value), checks
// them, then calls the kernel with the copies from every thread.
template <typename Kernel>
class Launcher {
 public:
  Launcher(dim3 grid, dim3 block, Schedule schedule, const char* kernel_name, Kernel kernel)
      : grid_(grid), block_(block), schedule_(schedule), kernel_name_(kernel_name), kernel_(kernel) {}

  template <typename... Args>
  void operator()(Args&&... args) const {
    using Copies = std::tuple<std::decay_t<Args>...>;
    Copies copies(std::forward<Args>(args)...);
    if (!launch_shape_valid(grid_, block_, kernel_name_)) return;
    const bool pointers_valid = std::apply(
        [this](const auto&... arg) {
          int position = 0;
          return (check_pointer(device_pointer_of(arg), position++) && ...);
        },
        copies);
    if (!pointers_valid) return;
    struct Context {
      const Kernel* kernel;
      Copies* copies;
    } context{&kernel_, &copies};
    run_grid(
        grid_, block_, schedule_, kernel_name_,
        [](void* erased) {
          auto* c = static_cast<Context*>(erased);
          std::apply(*c->kernel, *c->copies);
        },
        &context);
  }

 private:
  bool check_pointer(const void* pointer, int position) const {
    if (points_to_device_memory(pointer)) return true;
    record_host_pointer_argument(kernel_name_, position, pointer);
    return false;
  }

  dim3 grid_;
  dim3 block_;
  Schedule schedule_;
  const char* kernel_name_;
  Kernel kernel_;
};

}  // namespace funcspec::cuda::emulator
