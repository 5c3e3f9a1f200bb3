#pragma once
// The CUDA host emulator's warps for kernels that use warp collectives (emulator files only).

namespace funcspec::cuda::emulator {

// Runs lanes threadIdx.x = first_thread .. first_thread + 31 of the current block as fibers on this
// OS thread. Each lane runs until it reaches a warp collective (a shuffle or __syncwarp); when all
// 32 have reached it, the collective completes and the round starts again. Lanes that reach
// different collectives, or a collective that some lanes have left the kernel without reaching,
// are a device fault: on a GPU that is undefined behaviour.
void run_warp_in_lockstep(unsigned first_thread, void (*body)(void*), void* context);

}  // namespace funcspec::cuda::emulator
