#pragma once
// The process's one cuBLAS handle, for the host glue of the CUDA families that call cuBLAS.
#include <cublas_v2.h>

namespace funcspec::cuda {

// Created on first use (thread-safe), on the current device, bound to the default stream (where
// every kernel of the backend runs, so cuBLAS calls are ordered with them). Scalars such as alpha
// and beta are read from host memory (CUBLAS_POINTER_MODE_HOST). The math mode is
// CUBLAS_DEFAULT_MATH, which never uses TF32 tensor cores; the backend calls only DGEMM (float32
// contractions are widened to float64 first, as the cpu accumulates them). cuBLAS
// gives the same bits on every run on the same GPU model and toolkit, but sums in an order of its
// own choosing (NOTE: [einsum through cuBLAS]). Raises cuda_not_available when it cannot be created.
cublasHandle_t cublas_handle();

}  // namespace funcspec::cuda
