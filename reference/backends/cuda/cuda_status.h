#pragma once
// Turning CUDA runtime and cuBLAS statuses into funcspec errors. Plain declarations, so both the
// .cu kernels (nvcc) and the host glue (C++ compiler) can report through the error machinery.

namespace funcspec::cuda {

// Raises `cuda_not_available` naming `what` and the runtime's message unless `status` is
// cudaSuccess (0). Taken as int so this header needs no CUDA header.
void check_cuda_status(int status, const char* what);

// The same for a cuBLAS status (CUBLAS_STATUS_SUCCESS is 0).
void check_cublas_status(int status, const char* what);

}  // namespace funcspec::cuda
