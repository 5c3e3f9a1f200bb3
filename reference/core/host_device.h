#pragma once
// Marks functions that run on both sides: scalar math, index arithmetic and the random
// distributions are written once and compiled by the C++ compiler for the cpu backend and by nvcc
// for the CUDA backend, so both backends compute with the very same code.
#if defined(__CUDACC__)
#define FUNCSPEC_HOST_DEVICE __host__ __device__
#else
#define FUNCSPEC_HOST_DEVICE
#endif
