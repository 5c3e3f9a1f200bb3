// The lanes of a warp as fibers: stacks of their own, switched by a few instructions (below)
// rather than swapcontext, which makes a system call per switch and, under AddressSanitizer, clears
// the shadow of the whole target stack; a warp-collective kernel switches several times per element.
// Switches are announced to AddressSanitizer, which otherwise mistakes a lane's stack for a stack
// overflow of the thread that runs it.
#include "reference/backends/cuda/emulator/warp_lockstep.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "reference/backends/cuda/emulator/cuda_runtime.h"
#include "reference/backends/cuda/emulator/emulator_state.h"

#if defined(__SANITIZE_ADDRESS__)
#define FUNCSPEC_EMULATOR_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUNCSPEC_EMULATOR_ASAN 1
#endif
#endif
#if defined(FUNCSPEC_EMULATOR_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(__x86_64__)
#error "the CUDA host emulator's fiber switch is written for x86-64 (System V ABI)"
#endif

// Saves the callee-saved registers of the System V ABI on the current stack, stores the stack
// pointer in *from, loads `to` as the stack pointer and restores the registers saved there. The
// floating-point control state is shared by all fibers and left alone.
extern "C" void funcspec_emulator_switch_stack(void** from, void* to);
asm(R"(
  .text
  .globl funcspec_emulator_switch_stack
  .type funcspec_emulator_switch_stack, @function
funcspec_emulator_switch_stack:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size funcspec_emulator_switch_stack, .-funcspec_emulator_switch_stack
  .section .note.GNU-stack,"",@progbits
  .text
)");

namespace funcspec::cuda::emulator {
namespace {

constexpr int kLanes = 32;
constexpr unsigned kFullMask = 0xffffffffU;
// Generous: the sanitizers' redzones make a kernel's frames several times larger than on a GPU.
constexpr std::size_t kLaneStackBytes = std::size_t{128} << 10;

enum class Arrival { running, shuffle_published, shuffle_read, syncwarp, finished };

struct Warp {
  void* scheduler_sp = nullptr;
  std::array<void*, kLanes> lane_sp{};
  std::array<Arrival, kLanes> arrival{};
  std::array<std::uint64_t, kLanes> slots{};
  int current = 0;
  void (*body)(void*) = nullptr;
  void* context = nullptr;
  // AddressSanitizer's view of the stacks being switched between.
  void* scheduler_fake_stack = nullptr;
  std::array<void*, kLanes> lane_fake_stacks{};
  std::array<char*, kLanes> lane_stack_bottoms{};
  const void* scheduler_stack_bottom = nullptr;
  std::size_t scheduler_stack_size = 0;
};

// The warp run_warp_in_lockstep is running (launches take turns: grid_runner.cpp).
Warp* active_warp = nullptr;

char* lane_stack(int lane) {
  static std::array<std::unique_ptr<char[]>, kLanes> stacks;
  auto& stack = stacks[static_cast<std::size_t>(lane)];
  if (!stack) stack = std::make_unique<char[]>(kLaneStackBytes);
  return stack.get();
}

void enter_lane(Warp& w, int lane) {
#if defined(FUNCSPEC_EMULATOR_ASAN)
  __sanitizer_start_switch_fiber(&w.scheduler_fake_stack, w.lane_stack_bottoms[static_cast<std::size_t>(lane)],
                                 kLaneStackBytes);
#endif
  funcspec_emulator_switch_stack(&w.scheduler_sp, w.lane_sp[static_cast<std::size_t>(lane)]);
#if defined(FUNCSPEC_EMULATOR_ASAN)
  __sanitizer_finish_switch_fiber(w.scheduler_fake_stack, nullptr, nullptr);
#endif
}

// Back to the scheduler from the current lane; returns when the scheduler resumes the lane.
void leave_lane(Warp& w, bool finished) {
  const auto lane = static_cast<std::size_t>(w.current);
#if defined(FUNCSPEC_EMULATOR_ASAN)
  // A finished lane's fake stack is released (nullptr): it never runs again.
  __sanitizer_start_switch_fiber(finished ? nullptr : &w.lane_fake_stacks[lane], w.scheduler_stack_bottom,
                                 w.scheduler_stack_size);
#else
  static_cast<void>(finished);
#endif
  funcspec_emulator_switch_stack(&w.lane_sp[lane], w.scheduler_sp);
#if defined(FUNCSPEC_EMULATOR_ASAN)
  __sanitizer_finish_switch_fiber(w.lane_fake_stacks[lane], &w.scheduler_stack_bottom, &w.scheduler_stack_size);
#endif
}

[[noreturn]] void lane_main() {
  Warp& w = *active_warp;
#if defined(FUNCSPEC_EMULATOR_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &w.scheduler_stack_bottom, &w.scheduler_stack_size);
#endif
  try {
    w.body(w.context);
  } catch (...) {
    device_fault("device code threw a C++ exception");
  }
  w.arrival[static_cast<std::size_t>(w.current)] = Arrival::finished;
  leave_lane(w, true);
  __builtin_unreachable();  // a finished lane is never resumed
}

// A fresh lane's stack, laid out as funcspec_emulator_switch_stack leaves a suspended one: six
// zeroed registers, then lane_main as the return address, entered with the stack aligned as after a
// call (16-byte boundary minus the 8 of a return address).
void* fresh_lane_stack(int lane) {
#if defined(FUNCSPEC_EMULATOR_ASAN)
  // The previous warp's lanes left their frames' redzones poisoned: they never returned.
  __asan_unpoison_memory_region(lane_stack(lane), kLaneStackBytes);
#endif
  auto top = reinterpret_cast<std::uintptr_t>(lane_stack(lane) + kLaneStackBytes) & ~std::uintptr_t{15};
  auto* slots = reinterpret_cast<void**>(top);
  slots[-1] = nullptr;  // lane_main's own return address: it never returns
  slots[-2] = reinterpret_cast<void*>(&lane_main);
  for (int r = 3; r <= 8; ++r) slots[-r] = nullptr;
  return slots - 8;
}

Warp& warp_for_collective(unsigned mask) {
  if (active_warp == nullptr) {
    device_fault(
        "a warp collective (__shfl_sync, __shfl_xor_sync or __syncwarp) in a kernel launched with FUNCSPEC_LAUNCH; "
        "launch kernels that use warp collectives with FUNCSPEC_LAUNCH_WARP_COLLECTIVE");
  }
  if (mask != kFullMask) device_fault("a warp collective with a partial mask (the emulator runs full warps only)");
  return *active_warp;
}

void arrive(Warp& w, Arrival at) {
  w.arrival[static_cast<std::size_t>(w.current)] = at;
  leave_lane(w, false);
}

}  // namespace

void run_warp_in_lockstep(unsigned first_thread, void (*body)(void*), void* context) {
  auto warp = std::make_unique<Warp>();
  Warp& w = *warp;
  w.body = body;
  w.context = context;
  for (int lane = 0; lane < kLanes; ++lane) {
    w.lane_stack_bottoms[static_cast<std::size_t>(lane)] = lane_stack(lane);
    w.lane_sp[static_cast<std::size_t>(lane)] = fresh_lane_stack(lane);
  }
  active_warp = &w;
  for (;;) {
    for (int lane = 0; lane < kLanes; ++lane) {
      if (w.arrival[static_cast<std::size_t>(lane)] == Arrival::finished) continue;
      w.current = lane;
      threadIdx = {first_thread + static_cast<unsigned>(lane), 0, 0};
      w.arrival[static_cast<std::size_t>(lane)] = Arrival::running;
      enter_lane(w, lane);
    }
    // Every lane has now finished or stopped at a collective; they must all agree on which.
    const Arrival first = w.arrival[0];
    for (const Arrival at : w.arrival) {
      if (at != first) device_fault("the lanes of a warp reached different warp collectives (divergent collectives)");
    }
    if (first == Arrival::finished) break;
  }
  active_warp = nullptr;
}

int lane_id() { return active_warp != nullptr ? active_warp->current : static_cast<int>(threadIdx.x % kLanes); }

std::uint64_t warp_shuffle(unsigned mask, std::uint64_t bits, int source_lane) {
  Warp& w = warp_for_collective(mask);
  const int lane = w.current;
  w.slots[static_cast<std::size_t>(lane)] = bits;
  arrive(w, Arrival::shuffle_published);
  // Every lane has published its value; a source lane out of range wraps, as on the GPU.
  const std::uint64_t received = w.slots[static_cast<std::size_t>(source_lane & (kLanes - 1))];
  arrive(w, Arrival::shuffle_read);  // no lane overwrites its slot before all have read
  return received;
}

void warp_barrier(unsigned mask) { arrive(warp_for_collective(mask), Arrival::syncwarp); }

}  // namespace funcspec::cuda::emulator
