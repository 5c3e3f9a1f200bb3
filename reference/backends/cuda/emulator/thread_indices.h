#pragma once
// The CUDA host emulator's thread coordinates: what a kernel reads as threadIdx, blockIdx, blockDim
// and gridDim, set by the launcher (grid_runner.cpp) before each emulated thread runs. Plain
// globals, not thread_local: kernels read them constantly, and launches from different host threads
// take turns (run_grid holds a lock), as they would on one GPU's default stream.

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

inline uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;
